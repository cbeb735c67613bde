/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A /tmp without O_TMPFILE, as on kernels before 3.11 and on file systems
 * that lack it: preloaded after the library, open(), openat() and their
 * 64 names fail with EOPNOTSUPP for O_TMPFILE, and make every other open
 * as the kernel does.  The library's tmpfile() then takes its fallback,
 * a named file unlinked at once (tests/cmd/policy.test).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_at(int dirfd, const char *path, int flags, mode_t mode)
{
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

/* The mode is there with O_CREAT or O_TMPFILE. */
#define MODE(flags, last, mode)                                                \
	do {                                                                   \
		va_list ap;                                                    \
                                                                               \
		va_start(ap, last);                                            \
		if ((flags) & O_CREAT ||                                       \
		    ((flags) & O_TMPFILE) == O_TMPFILE)                        \
			mode = va_arg(ap, mode_t);                             \
		va_end(ap);                                                    \
	} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE(flags, flags, mode);
	return open_at(AT_FDCWD, path, flags, mode);
}

/* musl's headers make the 64 names macros for the plain ones. */
#ifndef open64
int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE(flags, flags, mode);
	return open_at(AT_FDCWD, path, flags, mode);
}
#endif

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE(flags, flags, mode);
	return open_at(dirfd, path, flags, mode);
}

#ifndef openat64
int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE(flags, flags, mode);
	return open_at(dirfd, path, flags, mode);
}
#endif
