/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The race of a tree others can write to, made certain: preloaded into
 * cloexec enable/disable --root (tests/cmd/preload.test), open(),
 * open64() and openat() of a temporary name (it has ".cloexec-" in it)
 * first plant there a hard link to the file PLANTLINK_VICTIM names, as
 * another user could once the name is known, and make VICTIM.planted to
 * say so, with the mode the open asks for the new file ("mode 644").
 * Then the open goes on as the kernel makes it.
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void plant(int dirfd, const char *path, mode_t mode)
{
	const char *victim = getenv("PLANTLINK_VICTIM");
	char said[4096], text[32];
	int fd, len;

	if (!victim || !strstr(path, ".cloexec-") ||
	    linkat(AT_FDCWD, victim, dirfd, path, 0))
		return;
	/* The test's proof that the race happened: VICTIM.planted. */
	if ((size_t)snprintf(said, sizeof(said), "%s.planted", victim) >=
	    sizeof(said))
		return;
	fd = (int)syscall(SYS_openat, AT_FDCWD, said,
			  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	len = snprintf(text, sizeof(text), "mode %o\n", (unsigned)mode);
	if (write(fd, text, (size_t)len) != len)
		abort();
	close(fd);
}

static int open_planted(int dirfd, const char *path, int flags, va_list ap)
{
	mode_t mode = 0;

	if (flags & O_CREAT || (flags & O_TMPFILE) == O_TMPFILE)
		mode = va_arg(ap, mode_t);
	plant(dirfd, path, mode);
	return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	int fd;

	va_start(ap, flags);
	fd = open_planted(dirfd, path, flags, ap);
	va_end(ap);
	return fd;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int fd;

	va_start(ap, flags);
	fd = open_planted(AT_FDCWD, path, flags, ap);
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
	fd = open_planted(AT_FDCWD, path, flags, ap);
	va_end(ap);
	return fd;
}
#endif
