/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Files: open, openat, creat and their 64-bit and _FORTIFY_SOURCE names,
 * glibc's exported __open and __open64, and open_by_handle_at.
 *
 * glibc reaches the same kernel call under several names depending on the
 * build flags of the program, and its own functions call internal aliases,
 * so each name is wrapped itself; the _FORTIFY_SOURCE names only where
 * configure finds them (glibc).  The mode argument is read whenever the
 * flags say it is there: O_CREAT, or O_TMPFILE.
 */
#include "config.h"

#include <stdarg.h>
#include <sys/stat.h>

#include "core/export.h"
#include "core/real.h"
#include "core/sys.h"
#include "specs.h"
#include "symvers.h"

static bool open_has_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

#define OPEN_MODE(flags, mode)                                                 \
	do {                                                                   \
		va_list ap;                                                    \
		if (open_has_mode(flags)) {                                    \
			va_start(ap, flags);                                   \
			(mode) = va_arg(ap, mode_t);                           \
			va_end(ap);                                            \
		}                                                              \
	} while (0)

static int raw_open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	return sys_result(sys_openat(AT_FDCWD, path, flags, mode));
}

static int raw_openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	return sys_result(sys_openat(dirfd, path, flags, mode));
}

static __attribute__((unused)) int raw_open_2(const char *path, int flags)
{
	return sys_result(sys_openat(AT_FDCWD, path, flags, 0));
}

static __attribute__((unused)) int raw_openat_2(int dirfd, const char *path,
						int flags)
{
	return sys_result(sys_openat(dirfd, path, flags, 0));
}

static int raw_creat(const char *path, mode_t mode)
{
	return sys_result(sys_openat(AT_FDCWD, path,
				     O_CREAT | O_WRONLY | O_TRUNC, mode));
}

static int raw_open_by_handle_at(int mount_fd, struct file_handle *handle,
				 int flags)
{
	return sys_result(sys_call(SYS_open_by_handle_at, mount_fd, handle,
				   flags, 0, 0));
}

/* Exported by glibc, declared by no header. */
int __open(const char *path, int flags, ...);
int __open64(const char *path, int flags, ...);

REAL_SLOT_CHILD(open, raw_open);
REAL_SLOT_CHILD(open64, raw_open);
#if HAVE___OPEN
REAL_SLOT(__open, raw_open);
#endif
#if HAVE___OPEN64
REAL_SLOT(__open64, raw_open);
#endif
REAL_SLOT(openat, raw_openat);
REAL_SLOT(openat64, raw_openat);
#if HAVE___OPEN_2
REAL_SLOT(__open_2, raw_open_2);
#endif
#if HAVE___OPEN64_2
REAL_SLOT(__open64_2, raw_open_2);
#endif
#if HAVE___OPENAT_2
REAL_SLOT(__openat_2, raw_openat_2);
#endif
#if HAVE___OPENAT64_2
REAL_SLOT(__openat64_2, raw_openat_2);
#endif
REAL_SLOT(creat, raw_creat);
REAL_SLOT(creat64, raw_creat);
REAL_SLOT(open_by_handle_at, raw_open_by_handle_at);

/*
 * One body for every name of open; call is the name, for the audit, and
 * real the same name's function, whose own meaning (open64's
 * O_LARGEFILE on 32-bit systems) the flags pass through.
 */
static __attribute__((noinline)) int
open_slow(const char *call, int (*real)(const char *, int, ...),
	  const char *path, int flags, mode_t mode, void *caller)
{
	struct fdreq rq;

	fdreq_start_open(&rq, &spec_open, flags, AT_FDCWD, path, call, caller);
	return fdreq_end(&rq, real(path, fdreq_flags(&rq), mode));
}

/*
 * A name of open that libc exports: its own real function, one body.
 * The fast path (fdreq.h) first, where the function is resolved.
 *
 * Defined with the mode as a third argument, not as `...' (under another
 * C name, the symbol's own given by asm): on every ABI this library is
 * built for, an int of a variadic call travels where a named one would,
 * so the mode, if the caller passed one, is where the real open reads it
 * when the flags say there is one (O_CREAT, O_TMPFILE), and passed on
 * untouched without a va_list, or any test of the flags.  Without one the
 * argument is whatever the caller left in that register or stack slot
 * (syscall() reads its six arguments the same way: export.h), which the
 * real open does not read and the slow path does not use.
 */
typedef int open_regs_fn(const char *, int, mode_t);

#define OPEN_EXPORT(sym)                                                     \
	static __attribute__((noinline)) int sym##_general(                     \
		const char *path, int flags, mode_t mode, void *caller)      \
	{                                                                    \
		return open_slow(#sym, REAL(sym), path, flags,               \
				 open_has_mode(flags) ? mode : 0, caller);   \
	}                                                                    \
	CLOEXEC_EXPORT READS_UNPASSED_ARGS int sym##_regs(                   \
		const char *path, int flags, mode_t mode) __asm__(#sym);     \
	int sym##_regs(const char *path, int flags, mode_t mode)             \
	{                                                                    \
		open_regs_fn *ready = (open_regs_fn *)REAL_READY(sym);       \
                                                                             \
		if (ready && fdreq_fast(&spec_open, flags))                  \
			return fdreq_fast_end(                               \
				&spec_open,                                  \
				ready(path,                                  \
				      fdreq_fast_flags(&spec_open, flags),   \
				      mode));                                \
		return sym##_general(path, flags, mode,                         \
				  __builtin_return_address(0));              \
	}
OPEN_EXPORT(open)
OPEN_EXPORT(open64)

/* open64@GLIBC_2.2 (i386): the same function as the default, today. */
#define OPEN_COMPAT(sym, tag, ver)                                             \
	REAL_SLOT_VERSION(sym, tag, ver, raw_open);                            \
	COMPAT_EXPORT(sym, tag, ver) int sym##_##tag(const char *path,         \
						     int flags, ...)           \
	{                                                                      \
		mode_t mode = 0;                                               \
                                                                               \
		OPEN_MODE(flags, mode);                                        \
		return open_slow(#sym, REAL_VERSION(sym, tag), path, flags,    \
				 mode, __builtin_return_address(0));           \
	}
#ifdef COMPAT_open
COMPAT_open(OPEN_COMPAT)
#endif
#ifdef COMPAT_open64
COMPAT_open64(OPEN_COMPAT)
#endif

/* glibc's own names of open and open64, which some programs bind. */
#if HAVE___OPEN
OPEN_EXPORT(__open)
#endif
#if HAVE___OPEN64
OPEN_EXPORT(__open64)
#endif

CLOEXEC_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	struct fdreq rq;
	int fd;
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	fdreq_begin_open(&rq, &spec_open, flags, dirfd, path);
	fd = REAL(openat)(dirfd, path, fdreq_flags(&rq), mode);
	return fdreq_end(&rq, fd);
}

CLOEXEC_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
	struct fdreq rq;
	int fd;
	mode_t mode = 0;

	OPEN_MODE(flags, mode);
	fdreq_begin_open(&rq, &spec_open, flags, dirfd, path);
	fd = REAL(openat64)(dirfd, path, fdreq_flags(&rq), mode);
	return fdreq_end(&rq, fd);
}

/* The _FORTIFY_SOURCE names take no mode; glibc checks that none is due. */
#if HAVE___OPEN_2
CLOEXEC_EXPORT int __open_2(const char *path, int flags)
{
	struct fdreq rq;
	int fd;

	fdreq_begin_open(&rq, &spec_open, flags, AT_FDCWD, path);
	fd = REAL(__open_2)(path, fdreq_flags(&rq));
	return fdreq_end(&rq, fd);
}
#endif

#if HAVE___OPEN64_2
CLOEXEC_EXPORT int __open64_2(const char *path, int flags)
{
	struct fdreq rq;
	int fd;

	fdreq_begin_open(&rq, &spec_open, flags, AT_FDCWD, path);
	fd = REAL(__open64_2)(path, fdreq_flags(&rq));
	return fdreq_end(&rq, fd);
}
#endif

#if HAVE___OPENAT_2
CLOEXEC_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	struct fdreq rq;
	int fd;

	fdreq_begin_open(&rq, &spec_open, flags, dirfd, path);
	fd = REAL(__openat_2)(dirfd, path, fdreq_flags(&rq));
	return fdreq_end(&rq, fd);
}
#endif

#if HAVE___OPENAT64_2
CLOEXEC_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	struct fdreq rq;
	int fd;

	fdreq_begin_open(&rq, &spec_open, flags, dirfd, path);
	fd = REAL(__openat64_2)(dirfd, path, fdreq_flags(&rq));
	return fdreq_end(&rq, fd);
}
#endif

/* creat() has no flags: natively it is the open() it stands for. */
CLOEXEC_EXPORT int creat(const char *path, mode_t mode)
{
	struct fdreq rq;
	int fd;

	if (fdreq_begin_open(&rq, &spec_open, 0, AT_FDCWD, path) ==
	    FDREQ_NATIVE)
		return fdreq_end(&rq, REAL(open)(path,
						 O_CREAT | O_WRONLY | O_TRUNC |
							 fdreq_flags(&rq),
						 mode));
	fd = REAL(creat)(path, mode);
	return fdreq_end(&rq, fd);
}

CLOEXEC_EXPORT int creat64(const char *path, mode_t mode)
{
	struct fdreq rq;
	int fd;

	if (fdreq_begin_open(&rq, &spec_open, 0, AT_FDCWD, path) ==
	    FDREQ_NATIVE)
		return fdreq_end(&rq,
				 REAL(open64)(path,
					      O_CREAT | O_WRONLY | O_TRUNC |
						      fdreq_flags(&rq),
					      mode));
	fd = REAL(creat64)(path, mode);
	return fdreq_end(&rq, fd);
}

CLOEXEC_EXPORT int open_by_handle_at(int mount_fd, struct file_handle *handle,
				     int flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_open, flags, -1);
	return fdreq_end(&rq, REAL(open_by_handle_at)(mount_fd, handle,
						      fdreq_flags(&rq)));
}
