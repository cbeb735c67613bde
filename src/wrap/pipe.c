/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pipes: pipe and pipe2 (O_CLOEXEC, O_NONBLOCK and O_DIRECT; seeds 008 and
 * 010), and glibc's exported __pipe.  pipe() becomes pipe2() natively;
 * pipe2() falls back to pipe(), with its flags set afterwards and bits it
 * cannot emulate refused.
 */
#include "config.h"

#include <unistd.h>

#include "core/export.h"
#include "core/real.h"
#include "core/sys.h"
#include "specs.h"

static int raw_pipe2(int fds[2], int flags)
{
	return sys_result(sys_pipe2(fds, flags));
}

static int raw_pipe(int fds[2])
{
	return raw_pipe2(fds, 0);
}

/* Exported by glibc, declared by no header. */
int __pipe(int fds[2]);

REAL_SLOT(pipe, raw_pipe);
REAL_SLOT(pipe2, raw_pipe2);
#if HAVE___PIPE
REAL_SLOT(__pipe, raw_pipe);
#endif

/*
 * Natively, pipe() is the kernel's pipe2 itself, as dup() is fcntl's
 * F_DUPFD_CLOEXEC (dup.c): libc's pipe2 is nothing but the system call,
 * and neither is a cancellation point.  The first call then looks up no
 * real function either.
 */
static int native_pipe(int fds[2], int flags)
{
	return (int)sys_result(sys_pipe2(fds, flags));
}

/* errno, out of line: the fast path then keeps nothing across a call. */
static __attribute__((noinline, cold)) int pipe_failed(long err)
{
	return (int)sys_result(err);
}

/* One body for pipe and __pipe; call is the name, for the audit. */
static int pipe_slow(const char *call, int (*real)(int[2]), int fds[2],
		     void *caller)
{
	struct fdreq rq;

	if (fdreq_start_unrefused(&rq, &spec_pipe, 0, -1, true, false, call,
				  caller) == FDREQ_NATIVE)
		return fdreq_end_pair(&rq, native_pipe(fds, fdreq_flags(&rq)),
				      fds);
	return fdreq_end_pair(&rq, real(fds), fds);
}

/*
 * The fast path (fdreq.h) first; the rest apart, with its look-up of the
 * real function, so that the fast path keeps nothing across a call.
 */
#define PIPE_EXPORT(sym)                                                     \
	static __attribute__((noinline)) int sym##_general(int fds[2],       \
							    void *caller)    \
	{                                                                    \
		return pipe_slow(#sym, REAL(sym), fds, caller);              \
	}                                                                    \
	CLOEXEC_EXPORT int sym(int fds[2])                                   \
	{                                                                    \
		if (fdreq_fast(&spec_pipe, 0)) {                             \
			long err = sys_pipe2(                                \
				fds, fdreq_fast_flags(&spec_pipe, 0));       \
                                                                             \
			if (__builtin_expect(err != 0, 0))                   \
				return pipe_failed(err);                     \
			return fdreq_fast_end_pair(&spec_pipe, 0, fds);      \
		}                                                            \
		return sym##_general(fds, __builtin_return_address(0));      \
	}
PIPE_EXPORT(pipe)
/* glibc's own name of pipe, which some programs bind. */
#if HAVE___PIPE
PIPE_EXPORT(__pipe)
#endif

CLOEXEC_EXPORT int pipe2(int fds[2], int flags)
{
	struct fdreq rq;

	switch (fdreq_try_begin(&rq, &spec_pipe2, flags, -1)) {
	case FDREQ_FALLBACK:
		return fdreq_end_pair(&rq, REAL(pipe)(fds), fds);
	case FDREQ_FAILED:
		return -1;
	default:
		return fdreq_end_pair(&rq, REAL(pipe2)(fds, fdreq_flags(&rq)),
				      fds);
	}
}
