/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The race of a tree others can write to, made certain: preloaded into
 * cloexec enable/disable --root (tests/cmd/preload.test), open() and
 * open64() of a name ending in ".cloexec-new" first plant there a hard
 * link to the file PLANTLINK_VICTIM names, as another user could between
 * the command's unlink of its temporary name and its open, and make
 * VICTIM.planted to say so.  Then the open goes on as the kernel makes it.
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void plant(const char *path)
{
	static const char suffix[] = ".cloexec-new";
	const char *victim = getenv("PLANTLINK_VICTIM");
	size_t len = strlen(path);

	char said[4096];

	if (!victim || len < sizeof(suffix) - 1 ||
	    strcmp(path + len - (sizeof(suffix) - 1), suffix) ||
	    link(victim, path))
		return;
	/* The test's proof that the race happened: VICTIM.planted. */
	if ((size_t)snprintf(said, sizeof(said), "%s.planted", victim) <
	    sizeof(said))
		close((int)syscall(SYS_openat, AT_FDCWD, said,
				   O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
}

static int open_planted(const char *path, int flags, va_list ap)
{
	mode_t mode = 0;

	if (flags & O_CREAT || (flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
	plant(path);
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int fd;

	va_start(ap, flags);
	fd = open_planted(path, flags, ap);
	va_end(ap);
	return fd;
}

/* musl's headers make the 64 names macros for the plain ones. */
#ifndef open64
int open64(const char *path, int flags, ...)
{
	va_list ap;
	int fd;

	va_start(ap, flags);
	fd = open_planted(path, flags, ap);
	va_end(ap);
	return fd;
}
#endif
