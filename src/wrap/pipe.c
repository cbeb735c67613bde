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

/* One body for pipe and __pipe; call is the name, for the audit. */
static __attribute__((noinline)) int
pipe_slow(const char *call, int (*real)(int[2]), int fds[2], void *caller)
{
	struct fdreq rq;

	if (fdreq_start_unrefused(&rq, &spec_pipe, 0, -1, true, false, call,
				  caller) == FDREQ_NATIVE)
		return fdreq_end_pair(&rq, REAL(pipe2)(fds, fdreq_flags(&rq)),
				      fds);
	return fdreq_end_pair(&rq, real(fds), fds);
}

/* The fast path (fdreq.h) first, where pipe2 is resolved. */
#define PIPE_WITH(call, real, fds)                                           \
	do {                                                                 \
		int (*ready)(int[2], int) = REAL_READY(pipe2);               \
                                                                             \
		if (ready && fdreq_fast(&spec_pipe, 0))                      \
			return fdreq_fast_end_pair(                          \
				&spec_pipe,                                  \
				ready(fds, fdreq_fast_flags(&spec_pipe, 0)), \
				fds);                                        \
		return pipe_slow(call, real, fds,                            \
				 __builtin_return_address(0));               \
	} while (0)

CLOEXEC_EXPORT int pipe(int fds[2])
{
	PIPE_WITH(__func__, REAL(pipe), fds);
}

/* glibc's own name of pipe, which some programs bind. */
#if HAVE___PIPE
CLOEXEC_EXPORT int __pipe(int fds[2])
{
	PIPE_WITH(__func__, REAL(__pipe), fds);
}
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
