/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit_line.h"
#include "mem.h"
#include "pending.h"

bool pending_adopt(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
}

static bool has(const struct pids *s, long pid)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->pid[i] == pid)
			return true;
	return false;
}

static void add(struct pids *s, long pid)
{
	if (has(s, pid))
		return;
	s->pid = mem_grow(s->pid, &s->cap, s->n, sizeof(*s->pid));
	s->pid[s->n++] = pid;
}

static void drop(struct pids *s, long pid)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->pid[i] == pid)
			s->pid[i] = s->pid[--s->n];
}

/* One line: an exec in place is pending until its process starts. */
static void note(struct pending *p, const char *line)
{
	char event[16], spawn[8];
	long pid = line_number(line, "pid");

	if (pid <= 0 || !line_field(line, "event", event, sizeof(event)))
		return;
	if (!strcmp(event, "exec") &&
	    !(line_field(line, "spawn", spawn, sizeof(spawn)) &&
	      !strcmp(spawn, "true"))) {
		add(&p->unstarted, pid);
		add(&p->exec_seen, pid);
	} else if (!strcmp(event, "start")) {
		drop(&p->unstarted, pid);
	}
}

enum library_in {
	LIBRARY_GONE, /* gone, a zombie (no memory), or not ours to read */
	/*
	 * Alive without the library: its dynamic loader may still be at
	 * work (the exec line comes before the exec), or it runs a program
	 * the library is not in.
	 */
	LIBRARY_ABSENT,
	LIBRARY_MAPPED, /* its start line comes right after */
	/*
	 * maps read nothing: a zombie's reads so, and so does one opened
	 * before an exec and read after it (the fd holds the image that
	 * the exec left).
	 */
	LIBRARY_UNREAD,
};

static enum library_in maps_show(long pid)
{
	static const char name[] = "/libcloexec.so";
	char path[64], buf[65536];
	size_t keep = 0, total = 0;
	bool found = false;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return LIBRARY_GONE;
	/* A name may straddle two reads: the last bytes of one go first. */
	while (!found &&
	       (n = read(fd, buf + keep, sizeof(buf) - 1 - keep)) > 0) {
		total += (size_t)n;
		keep += (size_t)n;
		buf[keep] = '\0';
		found = strstr(buf, name) != NULL;
		if (keep > sizeof(name)) {
			memmove(buf, buf + keep - sizeof(name), sizeof(name));
			keep = sizeof(name);
		}
	}
	close(fd);
	return found ? LIBRARY_MAPPED : total ? LIBRARY_ABSENT : LIBRARY_UNREAD;
}

/*
 * True if pid is a zombie or gone.  Its stat's state follows the last
 * ')': the comm before it is the process's to choose, ')' included.
 */
static bool ended(long pid)
{
	char path[64], buf[512], *state;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	state = strrchr(buf, ')');
	return !state || state[1] != ' ' || state[2] == 'Z' || state[2] == 'X';
}

/*
 * What pid's maps say.  A process of the tree that exec'd between their
 * open and their read is read again (three times at most: an exec each
 * time is a process that keeps exec'ing, and not started anyway).
 */
static enum library_in library_in(long pid)
{
	enum library_in in = maps_show(pid);
	int again;

	for (again = 0; in == LIBRARY_UNREAD && again < 3; again++)
		in = ended(pid) ? LIBRARY_GONE : maps_show(pid);
	return in;
}

/*
 * Any child of cloexec's, other than program, that wrote no exec line?
 * From /proc/self/task/TID/children (cloexec has one thread); where the
 * kernel does not give it, none is known.
 */
static bool orphan_unexeced(const struct pending *p, long program)
{
	char path[64], buf[4096], *q, *end;
	bool found = false;
	ssize_t n;
	long pid;
	int fd;

	for (;;) {
		pid = waitpid(-1, NULL, WNOHANG);
		if (pid <= 0 && !(pid < 0 && errno == EINTR))
			break;
	}
	snprintf(path, sizeof(path), "/proc/self/task/%ld/children",
		 (long)getpid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	for (q = buf; !found && (pid = strtol(q, &end, 10)) > 0; q = end)
		found = pid != program && !has(&p->exec_seen, pid);
	return found;
}

enum pending_what pending_starts(struct pending *p, int copy, off_t size,
				 long program)
{
	char *text, *line, *end;
	bool maybe = false;
	size_t len, i;
	ssize_t n;

	if (size > p->scanned) {
		len = (size_t)(size - p->scanned);
		text = mem_zalloc(len + 1, 1);
		n = pread(copy, text, len, p->scanned);
		len = n > 0 ? (size_t)n : 0;
		text[len] = '\0';
		for (line = text;
		     (end = memchr(line, '\n', len - (size_t)(line - text)));
		     line = end + 1) {
			*end = '\0';
			note(p, line);
		}
		p->scanned += line - text;
		free(text);
	}
	for (i = 0; i < p->unstarted.n; i++)
		switch (library_in(p->unstarted.pid[i])) {
		case LIBRARY_MAPPED:
			return PENDING_START;
		case LIBRARY_ABSENT:
		case LIBRARY_UNREAD: /* alive, and read nothing again */
			maybe = true;
			break;
		case LIBRARY_GONE:
			break;
		}
	return maybe || orphan_unexeced(p, program) ? PENDING_MAYBE :
						      PENDING_NONE;
}

void pending_free(struct pending *p)
{
	free(p->unstarted.pid);
	free(p->exec_seen.pid);
	*p = (struct pending){ 0 };
}
