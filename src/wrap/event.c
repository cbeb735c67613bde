/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Event-style fds: epoll_create/epoll_create1 (seed 007), inotify_init/
 * inotify_init1, eventfd (seed 005's eventfd2 sibling), signalfd (seed
 * 005), timerfd_create (seed 006), and memfd_create and fanotify_init,
 * whose flags came with them (MFD_CLOEXEC and FAN_CLOEXEC are 1, not
 * O_CLOEXEC).
 */
#include "config.h"

#include <signal.h>

#include "core/export.h"
#include "core/real.h"
#include "core/sys.h"
#include "specs.h"

static int raw_epoll_create(int size)
{
	return size <= 0 ? fdreq_fail(EINVAL)
			 : sys_result(sys_epoll_create1(0));
}

static int raw_epoll_create1(int flags)
{
	return sys_result(sys_epoll_create1(flags));
}

static int raw_inotify_init1(int flags)
{
	return sys_result(sys_inotify_init1(flags));
}

static int raw_inotify_init(void)
{
	return raw_inotify_init1(0);
}

static int raw_eventfd(unsigned count, int flags)
{
	return sys_result(sys_eventfd2(count, flags));
}

static int raw_signalfd(int fd, const sigset_t *mask, int flags)
{
	return sys_result(sys_signalfd4(fd, mask, flags));
}

static int raw_timerfd_create(int clockid, int flags)
{
	return sys_result(sys_timerfd_create(clockid, flags));
}

static int raw_memfd_create(const char *name, unsigned flags)
{
	return sys_result(sys_call(SYS_memfd_create, name, flags, 0, 0, 0));
}

static int raw_fanotify_init(unsigned flags, unsigned event_f_flags)
{
	return sys_result(
		sys_call(SYS_fanotify_init, flags, event_f_flags, 0, 0, 0));
}

REAL_SLOT(epoll_create, raw_epoll_create);
REAL_SLOT(epoll_create1, raw_epoll_create1);
REAL_SLOT(inotify_init, raw_inotify_init);
REAL_SLOT(inotify_init1, raw_inotify_init1);
REAL_SLOT(eventfd, raw_eventfd);
REAL_SLOT(signalfd, raw_signalfd);
REAL_SLOT(timerfd_create, raw_timerfd_create);
REAL_SLOT(memfd_create, raw_memfd_create);
REAL_SLOT(fanotify_init, raw_fanotify_init);

CLOEXEC_EXPORT int epoll_create(int size)
{
	struct fdreq rq;

	/* epoll_create1() ignores the size epoll_create() must refuse. */
	if (size <= 0)
		return REAL(epoll_create)(size);
	if (fdreq_begin(&rq, &spec_epoll, 0, -1) == FDREQ_NATIVE)
		return fdreq_end(&rq, REAL(epoll_create1)(fdreq_flags(&rq)));
	return fdreq_end(&rq, REAL(epoll_create)(size));
}

static __attribute__((noinline)) int epoll_create1_slow(int flags,
							void *caller)
{
	struct fdreq rq;

	switch (fdreq_try_begin_for(&rq, &spec_epoll1, flags, -1,
				    "epoll_create1", caller)) {
	case FDREQ_FALLBACK:
		return fdreq_end(&rq, REAL(epoll_create)(1));
	case FDREQ_FAILED:
		return -1;
	default:
		return fdreq_end(&rq, REAL(epoll_create1)(fdreq_flags(&rq)));
	}
}

static __attribute__((noinline, cold)) int epoll_create1_failed(long err)
{
	return (int)sys_result(err);
}

/*
 * Natively the kernel's epoll_create1 itself, as dup is F_DUPFD_CLOEXEC
 * (dup.c): libc's is the system call and nothing else, and no
 * cancellation point.
 */
CLOEXEC_EXPORT int epoll_create1(int flags)
{
	if (fdreq_fast(&spec_epoll1, flags)) {
		long fd = sys_epoll_create1(fdreq_fast_flags(&spec_epoll1,
							     flags));

		if (__builtin_expect((unsigned long)fd > -4096UL, 0))
			return epoll_create1_failed(fd);
		return fdreq_fast_end(&spec_epoll1, (int)fd);
	}
	return epoll_create1_slow(flags, __builtin_return_address(0));
}

CLOEXEC_EXPORT int inotify_init(void)
{
	struct fdreq rq;

	if (fdreq_begin(&rq, &spec_inotify, 0, -1) == FDREQ_NATIVE)
		return fdreq_end(&rq, REAL(inotify_init1)(fdreq_flags(&rq)));
	return fdreq_end(&rq, REAL(inotify_init)());
}

CLOEXEC_EXPORT int inotify_init1(int flags)
{
	struct fdreq rq;

	switch (fdreq_try_begin(&rq, &spec_inotify1, flags, -1)) {
	case FDREQ_FALLBACK:
		return fdreq_end(&rq, REAL(inotify_init)());
	case FDREQ_FAILED:
		return -1;
	default:
		return fdreq_end(&rq, REAL(inotify_init1)(fdreq_flags(&rq)));
	}
}

/* The fallback passes what is left: EFD_SEMAPHORE, say. */
CLOEXEC_EXPORT int eventfd(unsigned count, int flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_eventfd, flags, -1);
	return fdreq_end(&rq, REAL(eventfd)(count, fdreq_flags(&rq)));
}

/* An existing signalfd (fd != -1) is only given a new mask: no new fd. */
CLOEXEC_EXPORT int signalfd(int fd, const sigset_t *mask, int flags)
{
	struct fdreq rq;

	if (fd != -1)
		return REAL(signalfd)(fd, mask, flags);
	fdreq_begin(&rq, &spec_signalfd, flags, -1);
	return fdreq_end(&rq, REAL(signalfd)(fd, mask, fdreq_flags(&rq)));
}

CLOEXEC_EXPORT int timerfd_create(int clockid, int flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_timerfd, flags, -1);
	return fdreq_end(&rq, REAL(timerfd_create)(clockid, fdreq_flags(&rq)));
}

CLOEXEC_EXPORT int memfd_create(const char *name, unsigned flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_memfd, (int)flags, -1);
	return fdreq_end(&rq, REAL(memfd_create)(name, fdreq_flags(&rq)));
}

CLOEXEC_EXPORT int fanotify_init(unsigned flags, unsigned event_f_flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_fanotify, (int)flags, -1);
	return fdreq_end(&rq, REAL(fanotify_init)(fdreq_flags(&rq),
						  event_f_flags));
}
