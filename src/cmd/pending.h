/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Programs that a process of the tree was starting in place when the
 * audited program ended: a daemon's, whose launcher exits first
 * (daemonize, a double fork, a privilege drop on the way).  Their lines
 * come after the end; the summary waits for them.  cloexec is the
 * tree's subreaper, so that a process whose parent ended is its child:
 * one that has not exec'd yet may be on its way to.  Takes the copy of
 * the log (logcopy.h) as it grows; gives what is still to come.
 */
#ifndef CLOEXEC_CMD_PENDING_H
#define CLOEXEC_CMD_PENDING_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Make cloexec the subreaper of the tree it starts: false if it cannot. */
bool pending_adopt(void);

struct pids {
	long *pid;
	size_t n, cap;
};

struct pending {
	off_t scanned; /* the copy's bytes read so far, up to a whole line */
	struct pids unstarted; /* exec'd in place, no start line yet */
	struct pids exec_seen; /* wrote an exec line */
};

enum pending_what {
	PENDING_NONE,
	/*
	 * A process exec'd in place and has not reported its start, and it
	 * is alive with the library mapped: its start is on the way.  (One
	 * gone is not waited for: the summary lists it.)
	 */
	PENDING_START,
	/*
	 * A start that may still come: a process exec'd in place that is
	 * alive without the library mapped (its dynamic loader may not have
	 * got to it yet, the exec line being written before the exec; or it
	 * runs a program the library is not in, static, setuid or of
	 * another C library), or a child of cloexec's that is not the
	 * program, whose parent ended, and that has not exec'd: it may be
	 * about to, or be a daemon that never will.
	 */
	PENDING_MAYBE,
};

/*
 * The lines of copy (an fd, size bytes) not read yet, then what is still
 * to come.  Reaps cloexec's children that ended, but program.
 */
enum pending_what pending_starts(struct pending *p, int copy, off_t size,
				 long program);

void pending_free(struct pending *p);

#endif /* CLOEXEC_CMD_PENDING_H */
