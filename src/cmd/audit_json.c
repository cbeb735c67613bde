/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec's own lines in the audit log, made by the library's own writer
 * (core/line.h), so that there is one form of a line and one schema.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit_json.h"
#include "core/line.h"

/* A line in one write(2), as the library's: whole among the tree's. */
static void write_line(int fd, const char *text, size_t len)
{
	ssize_t n;

	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
}

/* The head of a line about cloexec itself (pid, ppid: whose it is). */
static void head(struct line *l, char *buf, const char *event, long pid,
		 long ppid)
{
	char self[PATH_MAX], now[LINE_TIME_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[n > 0 ? n : 0] = '\0';
	line_time(now);
	*l = (struct line){ .buf = buf, .size = REPORT_LINE_MAX };
	line_put_head_fields(l, event, now, pid, ppid, (long long)getuid(),
			     self);
}

void audit_write_root(int fd, char *const argv[], int except)
{
	char buf[REPORT_LINE_MAX];
	struct line l;
	struct dirent *d;
	DIR *dir;
	int n;

	head(&l, buf, "audit", (long)getpid(), (long)getppid());
	line_put_key(&l, "argv");
	line_put_argv(&l, argv, CAP_ARGV);
	write_line(fd, buf, line_end(&l));
	/* What cloexec was given, less the log: the caller's fds. */
	dir = opendir("/proc/self/fd");
	while (dir && (d = readdir(dir))) {
		char link[64], target[PATH_MAX];
		int flags;
		ssize_t got;

		n = atoi(d->d_name);
		if (n < 3 || n == except || n == dirfd(dir))
			continue;
		flags = fcntl(n, F_GETFD);
		if (flags < 0 || (flags & FD_CLOEXEC))
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", n);
		got = readlink(link, target, sizeof(target) - 1);
		target[got > 0 ? got : 0] = '\0';
		head(&l, buf, "received", (long)getpid(), (long)getppid());
		line_put_key(&l, "fd");
		line_put_decimal(&l, n);
		line_put_field(&l, "kind", line_kind_of(target), CAP_WORD);
		line_put_field(&l, "target", target, CAP_PATH);
		write_line(fd, buf, line_end(&l));
	}
	if (dir)
		closedir(dir);
}

char *audit_exec_line(long pid, long ppid, const char *path,
		      char *const argv[], size_t *len)
{
	char buf[REPORT_LINE_MAX];
	struct line l;
	char *text;

	head(&l, buf, "exec", pid, ppid);
	line_put_field(&l, "exec", path, CAP_PATH);
	line_put_key(&l, "argv");
	line_put_argv(&l, argv, CAP_ARGV);
	line_put_raw(&l, ",\"spawn\":false");
	*len = line_end(&l);
	text = malloc(*len + 1);
	if (!text)
		abort();
	memcpy(text, buf, *len);
	text[*len] = '\0';
	return text;
}

void audit_write_exec(int fd, const char *path, char *const argv[])
{
	size_t size;
	char *text = audit_exec_line((long)getpid(), (long)getppid(), path,
				     argv, &size);

	write_line(fd, text, size);
	free(text);
}
