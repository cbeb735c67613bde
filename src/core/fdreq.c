/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "export.h"
#include "fdprop.h"
#include "fdreq.h"
#include "forklock.h"
#include "peek.h"
#include "pid.h"
#include "sys.h"
#include "thread.h"

/*
 * Wait until fd is readable, without holding anything: the call made
 * afterwards under the lock then finds its connection or message waiting.
 * poll() is a cancellation point, as the call it stands in front of is.
 * A signal handler that interrupts it makes the call fail with EINTR even
 * under SA_RESTART; that is the price of never blocking fork (see the
 * design note in doc/internals.md).
 *
 * 0: readable (or bad: the call will say so); 1: the fd does not block,
 * the call may find nothing; -1: the wait failed, errno says why.
 */
static int wait_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long fl;

	/* Mostly something is waiting already: one poll that does not wait. */
	if (poll(&p, 1, 0) != 0)
		return 0;
	fl = sys_fcntl(fd, F_GETFL, 0);
	if (fl < 0 || (fl & O_NONBLOCK))
		return 1;
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

static void fdreq_unlock(struct fdreq *rq)
{
	int ignored;

	forklock_exit();
	pthread_setcancelstate(rq->cancel_state, &ignored);
}

bool fdreq_wait_outside(struct fdreq *rq, int fd)
{
	int saved_errno = errno, waited;

	fdreq_unlock(rq);
	waited = wait_readable(fd);
	fdreq_lock(rq);
	if (waited > 0)
		errno = saved_errno;
	return waited == 0;
}

/* wait_fd for fdreq_fallback(): the caller enters the lock itself. */
#define FDREQ_WAIT_LATER (-2)

static enum fdreq_path fdreq_fallback(struct fdreq *rq,
				      const struct fd_spec *spec, int wait_fd);
static void fdreq_fallback_open(struct fdreq *rq, int dirfd, const char *path,
				int flags);

/* Beside the policy's word, on a page every start writes (export.h). */
_Atomic uint32_t fdreq_fast_classes[CAP_COUNT] STARTUP_DATA;

/*
 * The fast path holds for the class of spec from now on: the policy this
 * process published (not the default word a signal handler or a copy of a
 * loading process gets, policy_load) forces it and wants nothing more,
 * and the kernel takes the flag.
 */
static void note_fast(const struct fd_spec *spec)
{
	uint32_t word = atomic_load_explicit(&policy_hot, memory_order_acquire);
	uint32_t cls = 1u << spec->cls;

	if ((word & (cls | POLICY_KEEPS | POLICY_REPORT)) == cls &&
	    cap_known_native(spec->cap))
		atomic_fetch_or_explicit(&fdreq_fast_classes[spec->cap], cls,
					 memory_order_relaxed);
}

enum fdreq_path fdreq_start_slow(struct fdreq *rq, const struct fd_spec *spec,
				 int flags, int wait_fd, bool may_force,
				 bool onto, const char *call, void *caller)
{
	uint32_t word = policy_word();
	unsigned props;

	rq->in_flight = false;
	rq->onto = onto;
	rq->unforce = false;
	rq->rest = flags_remap(&spec->family, flags, &rq->want);
	rq->force = may_force && (word & (1u << spec->cls)) ? FDP_CLOEXEC : 0;
	rq->extra = word & (POLICY_KEEPS | POLICY_REPORT);
	rq->call = call;
	rq->caller = caller;
	rq->flags = rq->rest;
	rq->fast = false;
	props = rq->want | rq->force;
	rq->mark = rq->force & ~rq->want & FDP_CLOEXEC ? FDT_FORCED_MARK : 0;
	if (!props && !spec->flagged_call)
		return rq->path = FDREQ_PLAIN;
	if (cap_native(spec->cap)) {
		rq->flags |= flags_unmap(&spec->family, props);
		rq->fast = !rq->extra && (props & FDP_CLOEXEC);
		if (rq->fast)
			note_fast(spec);
		return rq->path = FDREQ_NATIVE;
	}
	return rq->path = fdreq_fallback(rq, spec, wait_fd);
}

enum fdreq_path fdreq_start_open_slow(struct fdreq *rq,
				      const struct fd_spec *spec, int flags,
				      int dirfd, const char *path,
				      const char *call, void *caller)
{
	/*
	 * A path the policy keeps is not forced, not even for an instant.
	 * One the kernel cannot read is its EFAULT, not a crash here.
	 */
	bool may_force = !(policy_word() & POLICY_KEEPS) || !path ||
			 !peek_string(path) || !load_keeps_path(path);

	if (fdreq_start_slow(rq, spec, flags, FDREQ_WAIT_LATER, may_force,
			     false, call, caller) == FDREQ_FALLBACK)
		fdreq_fallback_open(rq, dirfd, path, flags);
	return rq->path;
}

enum fdreq_path fdreq_fall_back_open(struct fdreq *rq,
				     const struct fd_spec *spec,
				     const char *path)
{
	if ((rq->path = fdreq_fallback(rq, spec, FDREQ_WAIT_LATER)) ==
	    FDREQ_FALLBACK)
		fdreq_fallback_open(rq, AT_FDCWD, path, 0);
	return rq->path;
}

static enum fdreq_path fdreq_fallback(struct fdreq *rq,
				      const struct fd_spec *spec, int wait_fd)
{
	/* Also from a path first decided native (stdio.c): no longer fast. */
	rq->fast = false;
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

	/* With these flags no FIFO or device is opened, or none waits. */
	if (flags & (O_NONBLOCK | O_PATH | O_DIRECTORY) ||
	    (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return false;
	failed = fstatat(dirfd, path, &st,
			 flags & O_NOFOLLOW ? AT_SYMLINK_NOFOLLOW : 0);
	errno = saved_errno;
	return !failed && (S_ISFIFO(st.st_mode) ||
			   (S_ISCHR(st.st_mode) && major(st.st_rdev) != 1));
}

/*
 * The call stays a cancellation point while in flight: nothing is held.
 * A thread cancelled there never comes back to leave the in-flight count,
 * so its thread-specific data does it, at the thread's exit, where every
 * cancellation ends.  (No unwinding through the wrapper: the library would
 * need -fexceptions, and with it libgcc_s loaded into every process.)
 */
static pthread_key_t flight_key ZERO_DATA;
static pthread_once_t flight_key_once ZERO_DATA = PTHREAD_ONCE_INIT;

static void flight_abandoned(void *unused)
{
	struct cloexec_thread *self = thread_self();

	(void)unused;
	for (; self->in_flight; self->in_flight--)
		forklock_in_flight(-1);
}

static void flight_key_create(void)
{
	pthread_key_create(&flight_key, flight_abandoned);
}

static void fdreq_fallback_open(struct fdreq *rq, int dirfd, const char *path,
				int flags)
{
	if (path && open_may_block(dirfd, path, flags)) {
		/* Before the first flight: its child sweeps spare these. */
		fdtable_scan_inherited();
		pthread_once(&flight_key_once, flight_key_create);
		pthread_setspecific(flight_key, &flight_key);
		thread_self()->in_flight++;
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
	thread_self()->in_flight--;
	rq->in_flight = false;
}

void fdreq_done(struct fdreq *rq)
{
	if (rq->path != FDREQ_FALLBACK)
		return;
	in_flight_enter(rq);
	fdreq_unlock(rq);
}

/*
 * After the call, for each new fd: what the path still owes it (the flags
 * on the fallback path), and the fd table's note of it.  Whatever the
 * path, an fd that lands on 0, 1 or 2, or on a number the policy keeps,
 * does not keep a close-on-exec flag that only the policy asked for: a
 * program that puts an fd there (close(1); dup(fd), or inetd's close(0);
 * socket()) is handing it to its children.  Every path that skips this
 * (fdreq_done_natively) does so only above 2.
 */
void fdreq_mark(struct fdreq *rq, int fd)
{
	unsigned forced_only = rq->force & ~rq->want;
	unsigned props = rq->want | rq->force;
	bool unforce = fd < 3 || rq->unforce ||
		       ((rq->extra & POLICY_KEEPS) && load_keeps_fd(fd));

	if (unforce)
		props &= ~forced_only;
	/*
	 * Whatever was known of the number is forgotten: it is a new fd.
	 * One left inheritable is noted as made here too, for the audit of
	 * a process that hands it to its own next image (exec.c).
	 */
	if (fd > 2) {
		if (props & FDP_CLOEXEC)
			fdtable_note_new(fd, forced_only & FDP_CLOEXEC
						     ? rq->mark
						     : 0);
		else if (rq->onto)
			fdtable_note_new(fd, FDT_KEEP | FDT_DELIBERATE);
		else
			fdtable_note_new(fd, FDT_KEEP | FDT_HERE);
	}
	if (rq->extra & POLICY_REPORT)
		fdtable_note_origin(fd, rq->call, rq->caller);
	if (rq->path == FDREQ_FALLBACK) {
		/* The test build's pause in the window (policy.h). */
		if (policy_word() & POLICY_TEST_WINDOW)
			load_test_window();
		in_flight_enter(rq);
		fd_set_props(fd, props);
	} else if (unforce && (forced_only & FDP_CLOEXEC)) {
		fd_clear_cloexec(fd);
	}
}

/*
 * The 0-2 rule on the fast path (fdreq_mark's, for a request that was
 * native, forced and nothing else): a forced flag on 0, 1 or 2 comes off.
 * A failure is returned as it is, errno intact.
 */
int fdreq_fast_rest(int fd, unsigned mark)
{
	if (fd > 2)
		fdtable_note_new(fd, mark);
	else if (fd >= 0)
		fd_clear_cloexec(fd);
	return fd;
}

int fdreq_fast_low_pair(unsigned mark, int ret, int fds[2])
{
	int i;

	if (ret != 0)
		return ret;
	for (i = 0; i < 2; i++) {
		if (fds[i] > 2)
			fdtable_note_new(fds[i], mark);
		else
			fd_clear_cloexec(fds[i]);
	}
	return ret;
}

int fdreq_end_dupfd(struct fdreq *rq, int fd, long min)
{
	if (fd >= 3 && fd == min && pid_own() != pid_image()) {
		rq->onto = true;
		rq->unforce = !(policy_word() & (1u << FD_CLASS_DUP2));
		rq->fast = false;
	}
	return fdreq_end(rq, fd);
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
