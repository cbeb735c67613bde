/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>

#include "fdprop.h"
#include "fdreq.h"
#include "forklock.h"
#include "sys.h"

/*
 * Wait until fd is readable, without holding anything: the call made
 * afterwards under the lock then finds its connection or message waiting.
 * poll() is a cancellation point, as the call it stands in front of is.
 * A signal handler that interrupts it makes the call fail with EINTR even
 * under SA_RESTART; that is the price of never blocking fork (see the
 * design note in README).
 */
static int wait_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long fl = sys_fcntl(fd, F_GETFL, 0);

	/* A bad fd or a non-blocking one: the call itself will not block. */
	if (fl < 0 || (fl & O_NONBLOCK))
		return 0;
	return poll(&p, 1, -1) < 0 ? -1 : 0;
}

enum fdreq_path fdreq_fallback(struct fdreq *rq, const struct fd_spec *spec,
			       int wait_fd)
{
	if (spec->plain_takes_no_flags && rq->rest) {
		errno = EINVAL;
		return FDREQ_FAILED;
	}
	if (wait_fd >= 0 && wait_readable(wait_fd) < 0)
		return FDREQ_FAILED;
	rq->in_flight = spec->blocks_unpolled;
	if (rq->in_flight) {
		/* The call stays a cancellation point: nothing is held. */
		forklock_in_flight(1);
		return FDREQ_FALLBACK;
	}
	/*
	 * No cancellation while the lock is held: a thread cancelled inside
	 * the window would leave it held, and every later fork would hang.
	 */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &rq->cancel_state);
	forklock_enter(FORKLOCK_CREATE);
	return FDREQ_FALLBACK;
}

/*
 * An in-flight creator marks inside the lock, so that a fork that may
 * have copied its fd unmarked, and sees it still in flight, sweeps.
 */
static void in_flight_enter(struct fdreq *rq)
{
	if (!rq->in_flight)
		return;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &rq->cancel_state);
	forklock_enter(FORKLOCK_CREATE);
	forklock_in_flight(-1);
	rq->in_flight = false;
}

void fdreq_cancelled(struct fdreq *rq)
{
	if (rq->in_flight) {
		forklock_in_flight(-1);
		rq->in_flight = false;
	}
}

void fdreq_done(struct fdreq *rq)
{
	int ignored;

	if (rq->path != FDREQ_FALLBACK)
		return;
	in_flight_enter(rq);
	forklock_exit();
	pthread_setcancelstate(rq->cancel_state, &ignored);
}

void fdreq_mark(struct fdreq *rq, int fd)
{
	if (rq->path == FDREQ_PLAIN)
		return;
	unsigned forced_only = rq->force & ~rq->want;
	unsigned props = rq->want | rq->force;

	if (fd < 3)
		props &= ~forced_only;
	if (rq->path == FDREQ_FALLBACK)
		fd_set_props(fd, props);
	else if (fd < 3 && (forced_only & FDP_CLOEXEC))
		fd_clear_cloexec(fd);
}

int fdreq_finish(struct fdreq *rq, int fd)
{
	if (fd >= 0)
		fdreq_mark(rq, fd);
	fdreq_done(rq);
	return fd;
}

int fdreq_finish_pair(struct fdreq *rq, int ret, int fds[2])
{
	if (ret >= 0) {
		fdreq_mark(rq, fds[0]);
		fdreq_mark(rq, fds[1]);
	}
	fdreq_done(rq);
	return ret;
}
