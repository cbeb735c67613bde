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
WRAPPER_HELPER int pipe_with(const char *call, int (*real)(int[2]),
			     int fds[2])
{
	struct fdreq rq;

	if (fdreq_begin_as(&rq, &spec_pipe, 0, -1, call) == FDREQ_NATIVE)
		return fdreq_end_pair(&rq, REAL(pipe2)(fds, fdreq_flags(&rq)),
				      fds);
	return fdreq_end_pair(&rq, real(fds), fds);
}

CLOEXEC_EXPORT int pipe(int fds[2])
{
	return pipe_with(__func__, REAL(pipe), fds);
}

/* glibc's own name of pipe, which some programs bind. */
#if HAVE___PIPE
CLOEXEC_EXPORT int __pipe(int fds[2])
{
	return pipe_with(__func__, REAL(__pipe), fds);
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
