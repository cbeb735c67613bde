/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "probe.h"
#include "shell.h"
#include "sys.h"

/*
 * 0: not asked yet in this image; 1: a shell; -1: not one.  Beside what a
 * fork child writes anyway (export.h).  Threads that fork at once may
 * each ask, and write the same answer.
 */
static _Atomic signed char known STARTUP_DATA;
/* A pty master was made here, or in the process this is a fork of. */
static bool terminal STARTUP_DATA;

void shell_note_terminal(void)
{
	terminal = true;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* An absolute entry of /etc/shells that is exe's file. */
static bool names_exe(char *entry, unsigned long len, const struct stat *exe)
{
	struct stat st;

	if (entry[0] != '/')
		return false;
	entry[len] = '\0';
	return stat(entry, &st) == 0 && same_file(&st, exe);
}

bool shell_listed(char *list, const struct stat *exe)
{
	char *p, *line, *end;

	for (line = list; *line; line = end) {
		for (end = line; *end && *end != '\n'; end++)
			;
		p = end;
		while (p > line &&
		       (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\r'))
			p--;
		if (*end)
			end++;
		if (names_exe(line, (unsigned long)(p - line), exe))
			return true;
	}
	return false;
}

/*
 * Where the kernel cannot open a file close-on-exec in one call, the
 * file is not read: another thread's child could be given it.
 */
static bool listed(const struct stat *exe)
{
	char buf[4096];
	long fd, n;

	if (!cap_native(CAP_O_CLOEXEC))
		return false;
	fd = sys_openat(AT_FDCWD, "/etc/shells", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	n = sys_call(SYS_read, fd, buf, sizeof(buf) - 1, 0, 0);
	sys_close((int)fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return shell_listed(buf, exe);
}

/* The executable of this image; without /proc, the path it was run by. */
static bool image_is_listed(void)
{
	struct stat exe;
	const char *execfn;

	if (terminal)
		return false;
	if (stat("/proc/self/exe", &exe)) {
		execfn = (const char *)getauxval(AT_EXECFN);
		if (!execfn || stat(execfn, &exe))
			return false;
	}
	return listed(&exe);
}

CHILD_PATH bool shell_image(bool may_remember)
{
	signed char was = atomic_load_explicit(&known, memory_order_relaxed);
	bool yes;

	if (was)
		return was > 0 && !terminal;
	yes = image_is_listed();
	if (may_remember)
		atomic_store_explicit(&known, yes ? 1 : -1,
				      memory_order_relaxed);
	return yes;
}

bool shell_path(const char *path)
{
	struct stat exe;

	return path && stat(path, &exe) == 0 && listed(&exe);
}
