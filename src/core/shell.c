/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "probe.h"
#include "shell.h"
#include "sys.h"

/*
 * 0: not asked yet in this image; 1: a shell; -1: not one.  Beside what a
 * fork child writes anyway (export.h).
 */
static signed char known STARTUP_DATA;

CHILD_PATH bool shell_name(const char *name, unsigned long len)
{
	static const char suffix[] = "-static";
	const char *base = name + len;

	while (base > name && base[-1] != '/')
		base--;
	if (len >= sizeof(suffix) - 1 &&
	    !memcmp(name + len - (sizeof(suffix) - 1), suffix,
		    sizeof(suffix) - 1))
		len -= sizeof(suffix) - 1;
	while (name + len > base && name[len - 1] >= '0' &&
	       name[len - 1] <= '9')
		len--;
	return name + len - base >= 2 && name[len - 2] == 's' &&
	       name[len - 1] == 'h';
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* An absolute entry of /etc/shells, a shell's name, that is exe. */
static bool names_exe(char *entry, unsigned long len, const struct stat *exe)
{
	struct stat st;

	if (entry[0] != '/' || !shell_name(entry, len))
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
 * Can the executable be a shell at all: is its own file named like one?
 * A readlink, where the list would cost an open, a read and a stat for
 * each entry, in each fork child that execs.  (An entry that links to a
 * file named otherwise, busybox as /bin/sh, is left to the names of the
 * exempt list.)  Without /proc, the name the process was run by.
 */
CHILD_PATH static bool named_like_one(void)
{
	char path[256];
	const char *execfn;
	long n;

	n = sys_call(SYS_readlinkat, AT_FDCWD, (long)"/proc/self/exe",
		     (long)path, sizeof(path), 0);
	if (n > 0 && (size_t)n < sizeof(path))
		return shell_name(path, (unsigned long)n);
	if (n > 0)
		return true;
	execfn = (const char *)getauxval(AT_EXECFN);
	return !execfn || shell_name(execfn, strlen(execfn));
}

/*
 * Where the kernel cannot open a file close-on-exec in one call, the
 * file is not read: another thread's child could be given it.
 */
static bool ask(void)
{
	char buf[4096];
	struct stat exe;
	const char *execfn;
	long fd, n;

	if (!cap_native(CAP_O_CLOEXEC) || !named_like_one())
		return false;
	if (stat("/proc/self/exe", &exe)) {
		execfn = (const char *)getauxval(AT_EXECFN);
		if (!execfn || stat(execfn, &exe))
			return false;
	}
	fd = sys_openat(AT_FDCWD, "/etc/shells", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	n = sys_call(SYS_read, fd, buf, sizeof(buf) - 1, 0, 0);
	sys_close((int)fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return shell_listed(buf, &exe);
}

CHILD_PATH bool shell_image(bool may_remember)
{
	bool yes;

	if (known)
		return known > 0;
	yes = ask();
	if (may_remember)
		known = yes ? 1 : -1;
	return yes;
}
