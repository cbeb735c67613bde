/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pipes: pipe and pipe2 (O_CLOEXEC, O_NONBLOCK and O_DIRECT; seeds 008 and
 * 010).  pipe() becomes pipe2() natively; pipe2() falls back to pipe(),
 * with its flags set afterwards and bits it cannot emulate refused.
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

REAL_SLOT(pipe, raw_pipe);
REAL_SLOT(pipe2, raw_pipe2);

CLOEXEC_EXPORT int pipe(int fds[2])
{
	struct fdreq rq;

	if (fdreq_begin(&rq, &spec_pipe, 0, -1) == FDREQ_NATIVE)
		return fdreq_end_pair(&rq, REAL(pipe2)(fds, fdreq_flags(&rq)),
				      fds);
	return fdreq_end_pair(&rq, REAL(pipe)(fds), fds);
}

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
