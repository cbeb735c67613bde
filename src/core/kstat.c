/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stat(), fstat() and fstatat() for the library's own calls, as the
 * kernel's calls.  glibc 2.33 gave these names a version of their own,
 * GLIBC_2.33, and the library calls no other name of it: the dynamic
 * loader checks every version a library needs at each process start,
 * some 700 instructions for this one (src/symvers.sh, bind).  The
 * definitions are hidden: the library's objects are bound to them when
 * they are linked, and every other object reaches libc's as before.
 *
 * Only where the kernel's struct stat is the C library's (64-bit x86 and
 * Arm); elsewhere, and with a glibc older than 2.33 (whose stat is
 * __xstat@GLIBC_2.2.5, no version of its own), libc's calls stay.  None
 * is a cancellation point: the system call is all they do.
 */
#include "config.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "export.h"
#include "sys.h"

#if defined(__GLIBC__) && defined(SYS_newfstatat) && defined(SYS_fstat) &&   \
	((defined(__x86_64__) && defined(__LP64__)) || defined(__aarch64__))
#if __GLIBC_PREREQ(2, 33)
/* fstat runs in a fork child, between its fork and its exec (handoff.c). */
__attribute__((visibility("hidden"))) CHILD_PATH int fstat(int fd,
							  struct stat *st)
{
	return (int)sys_result(sys_call(SYS_fstat, fd, st, 0, 0, 0));
}

__attribute__((visibility("hidden"))) int
fstatat(int dirfd, const char *restrict path, struct stat *restrict st,
	int flags)
{
	return (int)sys_result(
		sys_call(SYS_newfstatat, dirfd, path, st, flags, 0));
}

__attribute__((visibility("hidden"))) int stat(const char *restrict path,
					       struct stat *restrict st)
{
	return fstatat(AT_FDCWD, path, st, 0);
}
#endif
#endif
