/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec's own lines in the audit log, written as the library writes
 * its own (audit_json.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit_json.h"

/* A JSON string, as report.c writes them: \u00XX for control bytes. */
static void put_json(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* A line in one write(2), as the library's: whole among the tree's. */
static void write_line(int fd, char *text, size_t len)
{
	ssize_t n;

	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
	free(text);
}

static FILE *line_head(char **text, size_t *size, const char *event,
		       long pid, long ppid)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct timespec ts;
	struct tm tm;
	FILE *out = open_memstream(text, size);

	if (!out)
		abort();
	self[n > 0 ? n : 0] = '\0';
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	fprintf(out,
		"{\"libcloexec\":1,\"schema\":2,\"event\":\"%s\","
		"\"time\":\"%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ\","
		"\"pid\":%ld,\"ppid\":%ld,\"uid\":%ld,\"program\":",
		event, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000, pid, ppid,
		(long)getuid());
	put_json(out, self);
	return out;
}

static void put_argv_json(FILE *out, char *const argv[])
{
	size_t i, len = 0;

	fputs(",\"argv\":[", out);
	/* The library's share of a line for argv; the rest is left out. */
	for (i = 0; argv[i] && len < 300; i++) {
		if (i)
			fputc(',', out);
		put_json(out, argv[i]);
		len += strlen(argv[i]) + 3;
	}
	fputc(']', out);
}

void audit_write_root(int fd, char *const argv[], int except)
{
	char *text;
	size_t size;
	FILE *out = line_head(&text, &size, "audit", (long)getpid(),
			      (long)getppid());
	struct dirent *d;
	DIR *dir;
	int n;

	put_argv_json(out, argv);
	fputs("}\n", out);
	if (fclose(out))
		abort();
	write_line(fd, text, size);
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
		out = line_head(&text, &size, "received", (long)getpid(),
				(long)getppid());
		fprintf(out, ",\"fd\":%d,\"kind\":\"%s\",\"target\":", n,
			!strncmp(target, "socket:", 7)	    ? "socket"
			: !strncmp(target, "pipe:", 5)	    ? "pipe"
			: !strncmp(target, "anon_inode:", 11) ? "anon"
			: target[0] == '/'		    ? "file"
							    : "other");
		put_json(out, target);
		fputs("}\n", out);
		if (fclose(out))
			abort();
		write_line(fd, text, size);
	}
	if (dir)
		closedir(dir);
}

char *audit_exec_line(long pid, long ppid, const char *path,
		      char *const argv[], size_t *len)
{
	char *text;
	FILE *out = line_head(&text, len, "exec", pid, ppid);

	fputs(",\"exec\":", out);
	put_json(out, path);
	put_argv_json(out, argv);
	fputs(",\"spawn\":false}\n", out);
	if (fclose(out))
		abort();
	return text;
}

void audit_write_exec(int fd, const char *path, char *const argv[])
{
	size_t size;
	char *text = audit_exec_line((long)getpid(), (long)getppid(), path,
				     argv, &size);

	write_line(fd, text, size);
}
