/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the running kernel can do, learned once per capability on first use
 * and cached in an atomic byte.  Each probe asks the kernel a question that
 * has a harmless answer (an fd of -1, a scratch socket closed at once) under
 * the fork lock, so nothing it opens outlives it or leaks into a child, and
 * it uses raw system calls, so errno is left alone.
 *
 * The wrappers then never have to guess from a caller's failure whether the
 * kernel lacks a flag: a real EINVAL or EBADF is returned as it is.
 */
#ifndef CLOEXEC_PROBE_H
#define CLOEXEC_PROBE_H

#include <stdatomic.h>
#include <stdbool.h>

enum cap {
	CAP_BUILTIN,	   /* the flag came with the call: nothing to probe */
	CAP_NEVER,	   /* no flag reaches the fd: always mark afterwards */
	CAP_SOCK_FLAGS,	   /* SOCK_CLOEXEC | SOCK_NONBLOCK in socket types */
	CAP_ACCEPT4,	   /* accept4() */
	CAP_O_CLOEXEC,	   /* O_CLOEXEC honoured by open() (2.6.23) */
	CAP_F_DUPFD_CLOEXEC, /* fcntl(F_DUPFD_CLOEXEC) (2.6.24) */
	CAP_PIPE2,	   /* pipe2() */
	CAP_DUP3,	   /* dup3() */
	CAP_EPOLL_CREATE1, /* epoll_create1() */
	CAP_INOTIFY_INIT1, /* inotify_init1() */
	CAP_EVENTFD_FLAGS, /* eventfd2() with EFD_CLOEXEC | EFD_NONBLOCK */
	CAP_SIGNALFD_FLAGS, /* signalfd4() with SFD_CLOEXEC | SFD_NONBLOCK */
	CAP_TIMERFD_FLAGS, /* timerfd_create() with TFD_* flags */
	CAP_CMSG_CLOEXEC,  /* MSG_CMSG_CLOEXEC honoured by recvmsg (2.6.23) */
	CAP_COUNT
};

enum cap_state {
	CAP_UNKNOWN, /* not asked yet, or the answer was inconclusive */
	CAP_NATIVE,  /* the flagged call works */
	CAP_ABSENT,  /* no such call (ENOSYS) */
	CAP_REJECTS, /* the call exists but refuses the bits (EINVAL) */
	CAP_IGNORES, /* the call accepts the bits and does nothing */
};

extern _Atomic unsigned char cap_cache[CAP_COUNT]
	__attribute__((visibility("hidden")));

enum cap_state cap_probe(enum cap c)
	__attribute__((visibility("hidden"), cold));
/*
 * The running kernel's version as the "Linux" note of its vDSO states it
 * (LINUX_VERSION_CODE), read from memory; 0 without a vDSO or the note.
 */
#define CAP_KERNEL_VERSION(a, b, c) (((a) << 16) | ((b) << 8) | (c))
unsigned cap_kernel_version(void) __attribute__((visibility("hidden")));
/* Has any capability turned out missing (the fallback path is in use)? */
bool cap_fallback_seen(void) __attribute__((visibility("hidden")));

/* Known to be there, without probing. */
static inline bool cap_known_native(enum cap c)
{
	return atomic_load_explicit(&cap_cache[c], memory_order_relaxed) ==
	       CAP_NATIVE;
}

static inline bool cap_native(enum cap c)
{
	unsigned char s = atomic_load_explicit(&cap_cache[c],
					       memory_order_relaxed);

	if (__builtin_expect(s == CAP_NATIVE, 1))
		return true;
	if (s != CAP_UNKNOWN)
		return false;
	return cap_probe(c) == CAP_NATIVE;
}

#endif /* CLOEXEC_PROBE_H */
