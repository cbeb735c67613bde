/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The calls that free fd numbers: close, close_range, closefrom, and
 * fclose, pclose and closedir, whose close is libc's own and reaches no
 * wrapper.  What the fd table knew of a number goes with its fd, so that
 * a mark can never be taken for one of the next fd there, which a libc
 * open no wrapper sees may make (glibc's setspent(), an NSS lookup).
 *
 * The number is forgotten before the call: until it returns, no other
 * thread can be given it.  close() on Linux frees the number whatever it
 * returns, and so do fclose, pclose and closedir.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "core/export.h"
#include "core/fdtable.h"
#include "core/real.h"
#include "core/sys.h"
#include "stream.h"
#include "symvers.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1u << 2)
#endif

static int raw_close(int fd)
{
	return (int)sys_result(sys_close(fd));
}

REAL_SLOT_CHILD(close, raw_close);

static __attribute__((noinline)) int close_slow(int fd)
{
	fdtable_forget(fd);
	return REAL(close)(fd);
}

/*
 * The fast path first: a resolved function and an fd of the first chunk,
 * one store and a jump, nothing live across the call.
 */
CLOEXEC_EXPORT CHILD_PATH int close(int fd)
{
	int (*ready)(int) = REAL_READY(close);

	if (__builtin_expect(ready && (unsigned)fd < FDT_CHUNK, 1)) {
		fdtable_chunk0[fd] = 0;
		return ready(fd);
	}
	return close_slow(fd);
}

#if HAVE___CLOSE
/* Exported by glibc, declared by no header. */
int __close(int fd);

REAL_SLOT(__close, raw_close);

CLOEXEC_EXPORT int __close(int fd)
{
	fdtable_forget(fd);
	return REAL(__close)(fd);
}
#endif

#if HAVE_CLOSE_RANGE
static int raw_close_range(unsigned first, unsigned last, int flags)
{
	return (int)sys_result(
		sys_call(SYS_close_range, first, last, flags, 0, 0));
}

REAL_SLOT(close_range, raw_close_range);

/*
 * With CLOSE_RANGE_CLOEXEC the program sets the flag itself: it is the
 * program's now, which no rule clears.
 */
CLOEXEC_EXPORT int close_range(unsigned first, unsigned last, int flags)
{
	int ret = REAL(close_range)(first, last, flags);

	if (ret == 0 && first <= last) {
		if ((unsigned)flags & CLOSE_RANGE_CLOEXEC)
			fdtable_own_flag_range(first, last);
		else
			fdtable_forget_range(first, last);
	}
	return ret;
}
#endif

#if HAVE_CLOSEFROM
static void raw_closefrom(int first)
{
	sys_call(SYS_close_range, first, ~0u, 0, 0, 0);
}

REAL_SLOT(closefrom, raw_closefrom);

CLOEXEC_EXPORT void closefrom(int first)
{
	REAL(closefrom)(first);
	if (first >= 0)
		fdtable_forget_range((unsigned)first, ~0u);
}
#endif

static int raw_fclose(FILE *f)
{
	(void)f;
	errno = ENOSYS;
	return EOF;
}

REAL_SLOT(fclose, raw_fclose);
REAL_SLOT(pclose, raw_fclose);

static __attribute__((noinline)) int fclose_slow(FILE *f)
{
	int fd = stream_fd(f);

	if (fd >= 0)
		fdtable_forget(fd);
	return REAL(fclose)(f);
}

/* As close's: one store and a jump, where the function is resolved. */
CLOEXEC_EXPORT int fclose(FILE *f)
{
	int (*ready)(FILE *) = REAL_READY(fclose);
	unsigned fd = (unsigned)stream_fd(f);

	if (__builtin_expect(ready && fd < FDT_CHUNK, 1)) {
		fdtable_chunk0[fd] = 0;
		return ready(f);
	}
	return fclose_slow(f);
}

CLOEXEC_EXPORT int pclose(FILE *f)
{
	int fd = stream_fd(f);

	if (fd >= 0)
		fdtable_forget(fd);
	return REAL(pclose)(f);
}

/*
 * fclose@GLIBC_2.0 (i386): a FILE of glibc 2.0's libio, whose layout the
 * default fileno does not read.  Passed through; its number keeps its
 * mark, as every close did before.
 */
#define FCLOSE_COMPAT(sym, tag, ver)                          \
	REAL_SLOT_VERSION(sym, tag, ver, raw_fclose);         \
	COMPAT_EXPORT(sym, tag, ver) int sym##_##tag(FILE *f) \
	{                                                     \
		return REAL_VERSION(sym, tag)(f);             \
	}
#ifdef COMPAT_fclose
COMPAT_fclose(FCLOSE_COMPAT)
#endif

	static int raw_closedir(DIR *d)
{
	(void)d;
	errno = ENOSYS;
	return -1;
}

REAL_SLOT(closedir, raw_closedir);

/*
 * glibc's closedir(NULL) is EINVAL; dirfd(NULL) would not return.
 * <dirent.h> declares both arguments nonnull (export.h).
 */
static int dir_fd(DIR *d)
{
	int saved = errno, fd;

	MAY_BE_NULL(d);
	fd = d ? dirfd(d) : -1;
	errno = saved;
	return fd;
}

CLOEXEC_EXPORT int closedir(DIR *d)
{
	int fd;

	MAY_BE_NULL(d);
	fd = dir_fd(d);

	if (fd >= 0)
		fdtable_forget(fd);
	return REAL(closedir)(d);
}
