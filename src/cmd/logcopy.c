/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The log is only appended to by honest writers (O_APPEND, a line a
 * write), so it only grows.  inotify on /proc/self/fd/N (the log is
 * unlinked; the magic link still names its inode) wakes cloexec at each
 * write, and each wake copies what is new: a line is in the copy once it
 * was in the log long enough for cloexec to run, and a later truncation
 * cannot take it back.  What a truncation and a rewrite between two
 * wakes could hide shows at the end, where the log is compared with the
 * copy byte for byte.  The first take is of cloexec's own lines, before
 * the program may run: a log cut below them is always seen.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "logcopy.h"

static void die(const char *what)
{
	fprintf(stderr, "cloexec: %s: %s\n", what, strerror(errno));
	exit(125);
}

void logcopy_open(struct log_copy *c, int log)
{
	char path[64];

	*c = (struct log_copy){ .log = log, .watch = -1 };
	c->copy = memfd_create("cloexec-audit-copy", MFD_CLOEXEC);
	if (c->copy < 0) {
		FILE *f = tmpfile();

		c->copy = f ? fcntl(fileno(f), F_DUPFD_CLOEXEC, 3) : -1;
		if (f)
			fclose(f);
	}
	if (c->copy < 0)
		die("cannot make a copy of the audit log");
	c->watch = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", log);
	if (c->watch >= 0 && inotify_add_watch(c->watch, path, IN_MODIFY) < 0) {
		close(c->watch);
		c->watch = -1;
	}
}

int logcopy_fd(const struct log_copy *c)
{
	return c->watch;
}

void logcopy_take(struct log_copy *c)
{
	char buf[65536];
	struct stat st;
	ssize_t n;

	while (c->watch >= 0 && read(c->watch, buf, sizeof(buf)) > 0)
		;
	if (fstat(c->log, &st))
		die("cannot stat the audit log");
	if (st.st_size < c->copied) {
		c->cut = true;
		return;
	}
	while (c->copied < st.st_size) {
		size_t want = (size_t)(st.st_size - c->copied);

		n = pread(c->log, buf, want < sizeof(buf) ? want : sizeof(buf),
			  c->copied);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (pwrite(c->copy, buf, (size_t)n, c->copied) != n)
			die("cannot copy the audit log");
		c->copied += n;
	}
}

/* Do the log's first len bytes equal the copy's? */
static bool same_prefix(const struct log_copy *c, off_t len)
{
	char a[16384], b[sizeof(a)];
	off_t at = 0;

	while (at < len) {
		size_t want = (size_t)(len - at) < sizeof(a) ? (size_t)(len - at) :
							       sizeof(a);

		if (pread(c->log, a, want, at) != (ssize_t)want ||
		    pread(c->copy, b, want, at) != (ssize_t)want ||
		    memcmp(a, b, want))
			return false;
		at += (off_t)want;
	}
	return true;
}

int logcopy_finish(struct log_copy *c)
{
	logcopy_take(c);
	if (!c->cut && !same_prefix(c, c->copied))
		c->cut = true;
	if (c->watch >= 0)
		close(c->watch);
	c->watch = -1;
	if (lseek(c->copy, 0, SEEK_SET))
		die("cannot read the copy of the audit log");
	return c->copy;
}
