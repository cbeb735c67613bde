/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec's own copy of the audit log, taken while the program runs.
 * Every process of the tree holds the log's fd open for appending, and
 * any of them can ftruncate() it or write over it: the copy keeps what
 * was read before, and a log that shrank or whose read part changed is
 * said to be cut.
 */
#ifndef CLOEXEC_CMD_LOGCOPY_H
#define CLOEXEC_CMD_LOGCOPY_H

#include <stdbool.h>
#include <sys/types.h>

struct log_copy {
	int log; /* cloexec's read fd of the log */
	int copy; /* a memfd (or an unlinked file) of what was read */
	int watch; /* inotify on the log, or -1: then poll every 100 ms */
	off_t copied;
	bool cut;
};

/* Start copying log (a read fd); exits with status 125 if it cannot. */
void logcopy_open(struct log_copy *c, int log);

/* The fd to poll for news of the log, or -1. */
int logcopy_fd(const struct log_copy *c);

/* Take what was appended since; note a log shorter than what was read. */
void logcopy_take(struct log_copy *c);

/*
 * The last take, and the check of the whole: the log must still hold
 * every byte read before, as it was.  Returns the copy, at its start,
 * for the summary to read; c->cut says whether the log was cut.
 */
int logcopy_finish(struct log_copy *c);

#endif
