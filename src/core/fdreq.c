/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

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

/*
 * No cancellation while the lock is held: a thread cancelled inside the
 * window would leave it held, and every later fork would hang.
 */
static void fdreq_lock(struct fdreq *rq)
{
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &rq->cancel_state);
	forklock_enter(FORKLOCK_CREATE);
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
	if (wait_fd != FDREQ_WAIT_LATER)
		fdreq_lock(rq);
	return FDREQ_FALLBACK;
}

/*
 * Could this open block?  A FIFO waits for its other end, a terminal may
 * wait for carrier; memory devices (major 1: /dev/null, /dev/zero ...)
 * and everything else return at once, or, on a hung mount, block on stat
 * here too, before anything is held.
 */
static bool open_may_block(int dirfd, const char *path, int flags)
{
	int saved_errno = errno, failed;
	struct stat st;

	if (flags & (O_NONBLOCK | O_PATH))
		return false;
	failed = fstatat(dirfd, path, &st,
			 flags & O_NOFOLLOW ? AT_SYMLINK_NOFOLLOW : 0);
	errno = saved_errno;
	return !failed && (S_ISFIFO(st.st_mode) ||
			   (S_ISCHR(st.st_mode) && major(st.st_rdev) != 1));
}

void fdreq_fallback_open(struct fdreq *rq, int dirfd, const char *path,
			 int flags)
{
	if (path && open_may_block(dirfd, path, flags)) {
		/* The call stays a cancellation point: nothing is held. */
		rq->in_flight = true;
		forklock_in_flight(1);
	} else {
		fdreq_lock(rq);
	}
}

/*
 * An in-flight creator marks inside the lock, so that a fork that may
 * have copied its fd unmarked, and sees it still in flight, sweeps.
 */
static void in_flight_enter(struct fdreq *rq)
{
	if (!rq->in_flight)
		return;
	fdreq_lock(rq);
	forklock_in_flight(-1);
	rq->in_flight = false;
}

void fdreq_cancelled(void *arg)
{
	struct fdreq *rq = arg;

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

/*
 * After the call, for each new fd: what the path still owes it (the flags
 * on the fallback path), nothing forced onto 0-2 or a kept number, and the
 * fd table's note of it.
 */
void fdreq_mark(struct fdreq *rq, int fd)
{
	unsigned forced_only = rq->force & ~rq->want;
	unsigned props = rq->want | rq->force;
	bool unforce = fd < 3 || ((rq->extra & POLICY_KEEPS) &&
				  policy_keeps_fd(fd));

	if (unforce)
		props &= ~forced_only;
	if (fd > 2) {
		if (props & FDP_CLOEXEC)
			fdtable_clear_keep(fd);
		else if (rq->onto)
			fdtable_set_deliberate(fd);
		else
			fdtable_set_keep(fd);
	}
	if (rq->extra & POLICY_REPORT)
		fdtable_note_origin(fd, rq->call, rq->caller);
	if (rq->path == FDREQ_FALLBACK) {
		in_flight_enter(rq);
		fd_set_props(fd, props);
	} else if (unforce && (forced_only & FDP_CLOEXEC)) {
		fd_clear_cloexec(fd);
	}
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
