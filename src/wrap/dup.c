/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dup, dup2, dup3, and fcntl/fcntl64 with F_DUPFD and F_DUPFD_CLOEXEC;
 * glibc's exported __dup2 and __fcntl too.  fcntl's lock commands are
 * noted by lock.c.
 *
 * dup() and F_DUPFD become F_DUPFD_CLOEXEC natively; a copy carries its
 * source's mark (fdtable_copy_mark).  dup2/dup3 onto a number the program
 * chose keep dup2's meaning unless the policy enforces the dup2 class, and
 * onto 0, 1 or 2 are never forced (fdreq_mark); so does a fork child's
 * F_DUPFD that lands on its minimum (fdreq_end_dupfd).
 * dup2(fd, fd) is passed through, since
 * dup3(fd, fd) would be EINVAL.
 */
#include "config.h"

#include <stdarg.h>
#include <unistd.h>

#include "core/export.h"
#include "core/real.h"
#include "core/sys.h"
#include "specs.h"
#include "symvers.h"

static int raw_fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	return sys_result(sys_fcntl(fd, cmd, arg));
}

static int raw_dup(int fd)
{
	return sys_result(sys_call(SYS_dup, fd, 0, 0, 0, 0));
}

static int raw_dup3(int oldfd, int newfd, int flags)
{
	return sys_result(sys_dup3(oldfd, newfd, flags));
}

/* dup2 without a dup2 system call (aarch64): dup3, but fd onto itself. */
static int raw_dup2(int oldfd, int newfd)
{
	if (oldfd == newfd)
		return sys_result(sys_fcntl(oldfd, F_GETFD, 0)) < 0 ? -1 : newfd;
	return raw_dup3(oldfd, newfd, 0);
}

/* Exported by glibc, declared by no header. */
int __dup2(int oldfd, int newfd);
int __fcntl(int fd, int cmd, ...);

REAL_SLOT(dup, raw_dup);
REAL_SLOT_CHILD(dup2, raw_dup2);
REAL_SLOT_CHILD(dup3, raw_dup3);
REAL_SLOT_CHILD(fcntl, raw_fcntl);
#if HAVE___DUP2
REAL_SLOT(__dup2, raw_dup2);
#endif
#if HAVE___FCNTL
REAL_SLOT(__fcntl, raw_fcntl);
#endif
#if HAVE_FCNTL64
REAL_SLOT(fcntl64, raw_fcntl);
#endif
#if HAVE___FCNTL_TIME64
REAL_SLOT(__fcntl_time64, raw_fcntl);
#endif

/*
 * Natively the kernel call itself: libc's fcntl() is a variadic dispatcher
 * that costs more than the dup() it stands in for, and F_DUPFD_CLOEXEC,
 * like dup(), is no cancellation point.
 */
static __attribute__((noinline)) int dup_slow(int fd, void *caller)
{
	struct fdreq rq;

	if (fdreq_start_unrefused(&rq, &spec_dup, 0, -1, true, false, "dup",
				  caller) == FDREQ_NATIVE) {
		fdreq_copy_of(&rq, fd);
		return fdreq_end(&rq, sys_result(sys_fcntl(fd, F_DUPFD_CLOEXEC,
							   0)));
	}
	fdreq_copy_of(&rq, fd);
	return fdreq_end(&rq, REAL(dup)(fd));
}

CLOEXEC_EXPORT int dup(int fd)
{
	if (fdreq_fast(&spec_dup, 0)) {
		unsigned mark = fdreq_fast_copy_mark(fd);

		return fdreq_fast_end_copy(
			sys_result(sys_fcntl(fd, F_DUPFD_CLOEXEC, 0)), mark);
	}
	return dup_slow(fd, __builtin_return_address(0));
}

/* One body for dup2 and __dup2; call is the name, for the audit. */
WRAPPER_HELPER int dup2_with(const char *call, int (*real)(int, int),
			     int oldfd, int newfd)
{
	uint32_t word = atomic_load_explicit(&policy_hot, memory_order_acquire);
	struct fdreq rq;

	/*
	 * Onto 0, 1 or 2 nothing is forced, nor noted but for the audit: a
	 * fork child's dup2(pipe, 1) is the call itself.
	 */
	if (oldfd == newfd ||
	    ((unsigned)newfd <= 2 && word && !(word & POLICY_REPORT)))
		return real(oldfd, newfd);
	if (fdreq_start(&rq, &spec_dup2, 0, -1, fdreq_may_force_onto(newfd),
			true, call, __builtin_return_address(0)) ==
	    FDREQ_NATIVE)
		return fdreq_end(&rq,
				 REAL(dup3)(oldfd, newfd, fdreq_flags(&rq)));
	return fdreq_end(&rq, real(oldfd, newfd));
}

CLOEXEC_EXPORT CHILD_PATH int dup2(int oldfd, int newfd)
{
	return dup2_with(__func__, REAL(dup2), oldfd, newfd);
}

/* glibc's own name of dup2, which some programs bind. */
#if HAVE___DUP2
CLOEXEC_EXPORT int __dup2(int oldfd, int newfd)
{
	return dup2_with(__func__, REAL(__dup2), oldfd, newfd);
}
#endif

CLOEXEC_EXPORT int dup3(int oldfd, int newfd, int flags)
{
	struct fdreq rq;

	switch (fdreq_try_begin_onto(&rq, &spec_dup3, flags, newfd)) {
	case FDREQ_FALLBACK:
		/* dup2 is atomic: no close-then-dup window for the number. */
		return fdreq_end(&rq, oldfd == newfd ? fdreq_fail(EINVAL)
						     : REAL(dup2)(oldfd, newfd));
	case FDREQ_FAILED:
		return -1;
	default:
		return fdreq_end(&rq,
				 REAL(dup3)(oldfd, newfd, fdreq_flags(&rq)));
	}
}

/*
 * fcntl's third argument is an int or a pointer, by command; like glibc,
 * take it as a pointer-sized value and pass it on as it came.
 */
WRAPPER_HELPER int fcntl_dup(const char *call, int (*real)(int, int, ...),
			     int fd, int cmd, void *arg)
{
	const struct fd_spec *spec =
		cmd == F_DUPFD ? &spec_dup : &spec_dupfd_cloexec;
	struct fdreq rq;

	switch (fdreq_try_begin_as(&rq, spec, cmd == F_DUPFD ? 0 : O_CLOEXEC,
				   -1, call)) {
	case FDREQ_NATIVE:
		fdreq_copy_of(&rq, fd);
		return fdreq_end_dupfd(&rq, real(fd, F_DUPFD_CLOEXEC, arg),
				       cmd == F_DUPFD ? (long)arg : -1);
	case FDREQ_FAILED:
		return -1;
	default:
		fdreq_copy_of(&rq, fd);
		return fdreq_end_dupfd(&rq, real(fd, F_DUPFD, arg),
				       cmd == F_DUPFD ? (long)arg : -1);
	}
}

void fdflags_note(int fd, bool cloexec) __attribute__((visibility("hidden")));

/* F_SETFD: what the program says about fd from now on (fdflags.c). */
static int fcntl_setfd(int (*real)(int, int, ...), int fd, void *arg)
{
	int ret = real(fd, F_SETFD, arg);

	if (ret == 0)
		fdflags_note(fd, (long)arg & FD_CLOEXEC);
	return ret;
}

void lock_note_fcntl(int fd, int cmd, const void *arg)
	__attribute__((visibility("hidden")));

/* One body for every name of fcntl; call is the name, for the audit. */
WRAPPER_HELPER int fcntl_with(const char *call,
			      int (*real)(int, int, ...), int fd, int cmd,
			      void *arg)
{
	int ret;

	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		return fcntl_dup(call, real, fd, cmd, arg);
	if (cmd == F_SETFD)
		return fcntl_setfd(real, fd, arg);
	ret = real(fd, cmd, arg);
	if (ret == 0)
		lock_note_fcntl(fd, cmd, arg);
	return ret;
}

CLOEXEC_EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_with(__func__, REAL(fcntl), fd, cmd, arg);
}

/*
 * glibc's own name of fcntl, which some programs bind: on 32-bit systems
 * its locks are fcntl's struct flock, not fcntl64's flock64, so it goes to
 * its own real function.
 */
#if HAVE___FCNTL
CLOEXEC_EXPORT int __fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_with(__func__, REAL(__fcntl), fd, cmd, arg);
}
#endif

/* fcntl64@GLIBC_2.28: what programs built with _FILE_OFFSET_BITS=64 call. */
#if HAVE_FCNTL64
CLOEXEC_EXPORT int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_with(__func__, REAL(fcntl64), fd, cmd, arg);
}
#endif

/*
 * fcntl@GLIBC_2.0 (i386 and other 32-bit ABIs before glibc 2.28): passes
 * F_OFD_GETLK and the like their struct flock64 as it is, where the
 * default version takes a struct flock and converts it.
 */
#define FCNTL_COMPAT(sym, tag, ver)                                            \
	REAL_SLOT_VERSION(sym, tag, ver, raw_fcntl);                           \
	COMPAT_EXPORT(sym, tag, ver) int sym##_##tag(int fd, int cmd, ...)     \
	{                                                                      \
		va_list ap;                                                    \
		void *arg;                                                     \
                                                                               \
		va_start(ap, cmd);                                             \
		arg = va_arg(ap, void *);                                      \
		va_end(ap);                                                    \
		return fcntl_with(#sym, REAL_VERSION(sym, tag), fd, cmd, arg); \
	}
#ifdef COMPAT_fcntl
COMPAT_fcntl(FCNTL_COMPAT)
#endif
#ifdef COMPAT_fcntl64
COMPAT_fcntl64(FCNTL_COMPAT)
#endif

#if HAVE___FCNTL_TIME64
/* fcntl under _TIME_BITS=64 on 32-bit glibc. */
CLOEXEC_EXPORT int __fcntl_time64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	return fcntl_with(__func__, REAL(__fcntl_time64), fd, cmd, arg);
}
#endif
