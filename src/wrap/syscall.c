/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * syscall(): the fd-creating numbers take the same path decision as the
 * libc functions (one table, below), but stay system calls made through
 * libc's syscall(), which is not a cancellation point and must not become
 * one.  Every other number passes straight through with all six
 * arguments, untouched: an unknown number is never refused.
 */
#include "config.h"

#include <sched.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/export.h"
#include "core/forklock.h"
#include "core/real.h"
#include "core/sys.h"
#include "specs.h"

/* In a READS_UNPASSED_ARGS function: the six arguments after nr, in a[]. */
#define READ_SIX_ARGS(a, nr)                                                   \
	do {                                                                   \
		va_list ap_;                                                   \
		int i_;                                                        \
		va_start(ap_, nr);                                             \
		for (i_ = 0; i_ < 6; i_++)                                     \
			(a)[i_] = va_arg(ap_, long);                           \
		va_end(ap_);                                                   \
	} while (0)

READS_UNPASSED_ARGS static long raw_syscall(long nr, ...)
{
	long a[6];

	READ_SIX_ARGS(a, nr);
	return sys_result(sys_call6(nr, a[0], a[1], a[2], a[3], a[4], a[5]));
}

REAL_SLOT(syscall, raw_syscall);

static long call(long nr, const long a[6])
{
	return REAL(syscall)(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

enum result { FD, PAIR, MSG, MMSG };

/*
 * One row per number.  Natively the call becomes native_nr with the flags
 * in args[flags_arg]; on the fallback path it is fallback_nr with the
 * caller's remaining flags there (a plain call ignores the extra argument,
 * as system calls do).  The caller's own flags, if the number has any, are
 * in args[flags_arg] too.
 */
/*
 * The rules name their fd_spec by index: a table of pointers would need a
 * relocation per row, written by the dynamic loader at every process
 * start, and would make the read-only-after-relocation data one page
 * longer than it needs to be.  This table holds each spec once.
 */
enum rule_spec {
	RULE_SPEC_ACCEPT,
	RULE_SPEC_ACCEPT4,
	RULE_SPEC_DUP2,
	RULE_SPEC_DUP3,
	RULE_SPEC_EPOLL1,
	RULE_SPEC_EVENTFD,
	RULE_SPEC_FANOTIFY,
	RULE_SPEC_FSMOUNT,
	RULE_SPEC_FSOPEN,
	RULE_SPEC_INOTIFY,
	RULE_SPEC_INOTIFY1,
	RULE_SPEC_MEMFD,
	RULE_SPEC_MSG,
	RULE_SPEC_OPEN,
	RULE_SPEC_OPEN_TREE,
	RULE_SPEC_PERF,
	RULE_SPEC_PIPE,
	RULE_SPEC_PIPE2,
	RULE_SPEC_SIGNALFD,
	RULE_SPEC_SOCKET,
	RULE_SPEC_TIMERFD,
	RULE_SPEC_USERFAULTFD,
};

static const struct fd_spec *const rule_specs[] = {
	[RULE_SPEC_ACCEPT] = &spec_accept,
	[RULE_SPEC_ACCEPT4] = &spec_accept4,
	[RULE_SPEC_DUP2] = &spec_dup2,
	[RULE_SPEC_DUP3] = &spec_dup3,
	[RULE_SPEC_EPOLL1] = &spec_epoll1,
	[RULE_SPEC_EVENTFD] = &spec_eventfd,
	[RULE_SPEC_FANOTIFY] = &spec_fanotify,
	[RULE_SPEC_FSMOUNT] = &spec_fsmount,
	[RULE_SPEC_FSOPEN] = &spec_fsopen,
	[RULE_SPEC_INOTIFY] = &spec_inotify,
	[RULE_SPEC_INOTIFY1] = &spec_inotify1,
	[RULE_SPEC_MEMFD] = &spec_memfd,
	[RULE_SPEC_MSG] = &spec_msg,
	[RULE_SPEC_OPEN] = &spec_open,
	[RULE_SPEC_OPEN_TREE] = &spec_open_tree,
	[RULE_SPEC_PERF] = &spec_perf,
	[RULE_SPEC_PIPE] = &spec_pipe,
	[RULE_SPEC_PIPE2] = &spec_pipe2,
	[RULE_SPEC_SIGNALFD] = &spec_signalfd,
	[RULE_SPEC_SOCKET] = &spec_socket,
	[RULE_SPEC_TIMERFD] = &spec_timerfd,
	[RULE_SPEC_USERFAULTFD] = &spec_userfaultfd,
};

static const struct sys_rule {
	long nr, native_nr, fallback_nr;
	signed char flags_arg;	/* where the flags go */
	bool caller_flags;	/* the caller's number has them there */
	signed char out_arg;	/* PAIR: int[2]; MSG, MMSG: the message(s) */
	signed char target_arg; /* dup2, dup3: the number asked for */
	unsigned char result;
	bool may_block;		/* waits for args[0] to be readable */
	unsigned char spec;	/* in rule_specs */
} rules[] = {
	{ SYS_socket, SYS_socket, SYS_socket, 1, true, -1, -1, FD, false,
	  RULE_SPEC_SOCKET },
	{ SYS_socketpair, SYS_socketpair, SYS_socketpair, 1, true, 3, -1, PAIR,
	  false, RULE_SPEC_SOCKET },
#ifdef SYS_accept
	{ SYS_accept, SYS_accept4, SYS_accept, 3, false, -1, -1, FD, true,
	  RULE_SPEC_ACCEPT },
	{ SYS_accept4, SYS_accept4, SYS_accept, 3, true, -1, -1, FD, true,
	  RULE_SPEC_ACCEPT4 },
#else
	{ SYS_accept4, SYS_accept4, SYS_accept4, 3, true, -1, -1, FD, true,
	  RULE_SPEC_ACCEPT4 },
#endif
#ifdef SYS_pipe
	{ SYS_pipe, SYS_pipe2, SYS_pipe, 1, false, 0, -1, PAIR, false,
	  RULE_SPEC_PIPE },
	{ SYS_pipe2, SYS_pipe2, SYS_pipe, 1, true, 0, -1, PAIR, false,
	  RULE_SPEC_PIPE2 },
#else
	{ SYS_pipe2, SYS_pipe2, SYS_pipe2, 1, true, 0, -1, PAIR, false,
	  RULE_SPEC_PIPE2 },
#endif
#ifdef SYS_open
	{ SYS_open, SYS_open, SYS_open, 1, true, -1, -1, FD, false,
	  RULE_SPEC_OPEN },
#endif
	{ SYS_openat, SYS_openat, SYS_openat, 2, true, -1, -1, FD, false,
	  RULE_SPEC_OPEN },
	{ SYS_open_by_handle_at, SYS_open_by_handle_at, SYS_open_by_handle_at,
	  2, true, -1, -1, FD, false, RULE_SPEC_OPEN },
#ifdef SYS_inotify_init
	{ SYS_inotify_init, SYS_inotify_init1, SYS_inotify_init, 0, false, -1,
	  -1, FD, false, RULE_SPEC_INOTIFY },
	{ SYS_inotify_init1, SYS_inotify_init1, SYS_inotify_init, 0, true, -1,
	  -1, FD, false, RULE_SPEC_INOTIFY1 },
#else
	{ SYS_inotify_init1, SYS_inotify_init1, SYS_inotify_init1, 0, true, -1,
	  -1, FD, false, RULE_SPEC_INOTIFY1 },
#endif
#ifdef SYS_eventfd
	{ SYS_eventfd, SYS_eventfd2, SYS_eventfd, 1, false, -1, -1, FD, false,
	  RULE_SPEC_EVENTFD },
#endif
	{ SYS_eventfd2, SYS_eventfd2, SYS_eventfd2, 1, true, -1, -1, FD, false,
	  RULE_SPEC_EVENTFD },
#ifndef SYS_epoll_create
	{ SYS_epoll_create1, SYS_epoll_create1, SYS_epoll_create1, 0, true, -1,
	  -1, FD, false, RULE_SPEC_EPOLL1 },
#endif
#ifdef SYS_signalfd
	{ SYS_signalfd, SYS_signalfd4, SYS_signalfd, 3, false, -1, -1, FD,
	  false, RULE_SPEC_SIGNALFD },
#endif
	{ SYS_signalfd4, SYS_signalfd4, SYS_signalfd4, 3, true, -1, -1, FD,
	  false, RULE_SPEC_SIGNALFD },
	{ SYS_timerfd_create, SYS_timerfd_create, SYS_timerfd_create, 1, true,
	  -1, -1, FD, false, RULE_SPEC_TIMERFD },
	{ SYS_memfd_create, SYS_memfd_create, SYS_memfd_create, 1, true, -1,
	  -1, FD, false, RULE_SPEC_MEMFD },
	{ SYS_fanotify_init, SYS_fanotify_init, SYS_fanotify_init, 0, true, -1,
	  -1, FD, false, RULE_SPEC_FANOTIFY },
	{ SYS_userfaultfd, SYS_userfaultfd, SYS_userfaultfd, 0, true, -1, -1,
	  FD, false, RULE_SPEC_USERFAULTFD },
	{ SYS_perf_event_open, SYS_perf_event_open, SYS_perf_event_open, 4,
	  true, -1, -1, FD, false, RULE_SPEC_PERF },
#ifdef SYS_open_tree
	/* The mount API (5.2), whose flags came with the calls. */
	{ SYS_open_tree, SYS_open_tree, SYS_open_tree, 2, true, -1, -1, FD,
	  false, RULE_SPEC_OPEN_TREE },
	{ SYS_fsopen, SYS_fsopen, SYS_fsopen, 1, true, -1, -1, FD, false,
	  RULE_SPEC_FSOPEN },
	{ SYS_fsmount, SYS_fsmount, SYS_fsmount, 1, true, -1, -1, FD, false,
	  RULE_SPEC_FSMOUNT },
#endif
#ifdef SYS_dup2
	{ SYS_dup2, SYS_dup3, SYS_dup2, 2, false, -1, 1, FD, false,
	  RULE_SPEC_DUP2 },
	{ SYS_dup3, SYS_dup3, SYS_dup2, 2, true, -1, 1, FD, false,
	  RULE_SPEC_DUP3 },
#else
	{ SYS_dup3, SYS_dup3, SYS_dup3, 2, true, -1, 1, FD, false,
	  RULE_SPEC_DUP3 },
#endif
	{ SYS_recvmsg, SYS_recvmsg, SYS_recvmsg, 2, true, 1, -1, MSG, true,
	  RULE_SPEC_MSG },
	{ SYS_recvmmsg, SYS_recvmmsg, SYS_recvmmsg, 3, true, 1, -1, MMSG, true,
	  RULE_SPEC_MSG },
#ifdef SYS_recvmmsg_time64
	/* 32-bit ABIs: the same call with a 64-bit timeout (Linux 5.1). */
	{ SYS_recvmmsg_time64, SYS_recvmmsg_time64, SYS_recvmmsg_time64, 3,
	  true, 1, -1, MMSG, true, RULE_SPEC_MSG },
#endif
};

#ifdef SYS_socketcall
/*
 * socketcall(call, args): the multiplexer through which 32-bit x86 libc
 * makes every socket call.  The sub-call numbers take the place of system
 * call numbers, and args[] of the arguments.
 */
static const struct sys_rule socketcall_rules[] = {
	{ SOCKETCALL_SOCKET, SOCKETCALL_SOCKET, SOCKETCALL_SOCKET, 1, true, -1,
	  -1, FD, false, RULE_SPEC_SOCKET },
	{ SOCKETCALL_SOCKETPAIR, SOCKETCALL_SOCKETPAIR, SOCKETCALL_SOCKETPAIR,
	  1, true, 3, -1, PAIR, false, RULE_SPEC_SOCKET },
	{ SOCKETCALL_ACCEPT, SOCKETCALL_ACCEPT4, SOCKETCALL_ACCEPT, 3, false,
	  -1, -1, FD, true, RULE_SPEC_ACCEPT },
	{ SOCKETCALL_ACCEPT4, SOCKETCALL_ACCEPT4, SOCKETCALL_ACCEPT, 3, true,
	  -1, -1, FD, true, RULE_SPEC_ACCEPT4 },
	{ SOCKETCALL_RECVMSG, SOCKETCALL_RECVMSG, SOCKETCALL_RECVMSG, 2, true,
	  1, -1, MSG, true, RULE_SPEC_MSG },
	{ SOCKETCALL_RECVMMSG, SOCKETCALL_RECVMMSG, SOCKETCALL_RECVMMSG, 3,
	  true, 1, -1, MMSG, true, RULE_SPEC_MSG },
};

/* How many of args[] each sub-call reads. */
static size_t socketcall_nargs(long call)
{
	switch (call) {
	case SOCKETCALL_SOCKET:
	case SOCKETCALL_ACCEPT:
	case SOCKETCALL_RECVMSG:
		return 3;
	case SOCKETCALL_SOCKETPAIR:
	case SOCKETCALL_ACCEPT4:
		return 4;
	case SOCKETCALL_RECVMMSG:
		return 5;
	}
	return 0;
}
#endif

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct sys_rule *rule_for(long nr)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].nr == nr)
			return &rules[i];
	return NULL;
}

/* Calls that keep their plain meaning whatever the policy. */
static bool passes_through(long nr, const long a[6])
{
#ifdef SYS_dup2
	if (nr == SYS_dup2)
		return a[0] == a[1];
#endif
	return false;
}

/* A system call, or with via_socketcall a socketcall sub-call. */
static long issue(bool via_socketcall, long nr, long a[6])
{
#ifdef SYS_socketcall
	if (via_socketcall) {
		long b[6] = { nr, (long)a };

		return call(SYS_socketcall, b);
	}
#endif
	return call(nr, a);
}

static long translate(const struct sys_rule *r, long a[6], void *caller,
		      bool via_socketcall)
{
	int flags = r->caller_flags ? (int)a[r->flags_arg] : 0;
	int wait = -1;
	const struct fd_spec *spec = rule_specs[r->spec];
	struct fdreq rq;
	long ret, nr;
	int i;

	if (r->may_block && !(r->result >= MSG && (flags & MSG_DONTWAIT)))
		wait = (int)a[0];
	if (r->target_arg >= 0)
		fdreq_begin_onto(&rq, spec, flags, (int)a[r->target_arg]);
	else if (via_socketcall)
		fdreq_begin(&rq, spec, flags, wait);
	else if (r->nr == SYS_openat || r->spec == RULE_SPEC_OPEN_TREE)
		fdreq_begin_open(&rq, spec, flags, (int)a[0],
				 (const char *)a[1]);
#ifdef SYS_open
	else if (r->nr == SYS_open)
		fdreq_begin_open(&rq, spec, flags, AT_FDCWD,
				 (const char *)a[0]);
#endif
	else
		fdreq_begin(&rq, spec, flags, wait);
	rq.call = "syscall";
	rq.caller = caller;
	switch (rq.path) {
	case FDREQ_FAILED:
		return -1;
	case FDREQ_PLAIN:
		nr = r->nr;
		break;
	case FDREQ_NATIVE:
		nr = r->native_nr;
		a[r->flags_arg] = fdreq_flags(&rq);
		break;
	default:
		nr = r->fallback_nr;
#ifdef SYS_dup2
		if (!via_socketcall && r->nr == SYS_dup3 && a[0] == a[1])
			return fdreq_end(&rq, fdreq_fail(EINVAL));
#endif
		a[r->flags_arg] = fdreq_flags(&rq);
		break;
	}
	ret = issue(via_socketcall, nr, a);
	switch (r->result) {
	case PAIR:
		return fdreq_end_pair(&rq, (int)ret, (int *)a[r->out_arg]);
	case MSG:
	case MMSG:
		for (i = 0; ret >= 0 && i < (r->result == MSG ? 1 : ret); i++)
			if (rq.path == FDREQ_FALLBACK || rq.force)
				msg_mark_received(
					&rq, r->result == MSG
						     ? (struct msghdr *)a[r->out_arg]
						     : &((struct mmsghdr *)a[r->out_arg])
								[i].msg_hdr);
		fdreq_done(&rq);
		return ret;
	default:
		return fdreq_end(&rq, (int)ret);
	}
}

/* dup(fd): natively fcntl(fd, F_DUPFD_CLOEXEC, 0), as the libc wrapper. */
static long translate_dup(long a[6])
{
	long b[6] = { a[0], F_DUPFD_CLOEXEC, 0, 0, 0, 0 };
	struct fdreq rq;

	if (fdreq_begin(&rq, &spec_dup, 0, -1) == FDREQ_NATIVE)
		return fdreq_end(&rq, (int)call(SYS_FCNTL, b));
	return fdreq_end(&rq, (int)call(SYS_dup, a));
}

static long translate_fcntl(long nr, long a[6])
{
	bool dupfd = a[1] == F_DUPFD;
	struct fdreq rq;

	if (!dupfd && a[1] != F_DUPFD_CLOEXEC)
		return call(nr, a);
	switch (fdreq_begin(&rq, dupfd ? &spec_dup : &spec_dupfd_cloexec,
			    dupfd ? 0 : O_CLOEXEC, -1)) {
	case FDREQ_NATIVE:
		a[1] = F_DUPFD_CLOEXEC;
		break;
	case FDREQ_FAILED:
		return -1;
	default:
		a[1] = F_DUPFD;
		break;
	}
	return fdreq_end(&rq, (int)call(nr, a));
}

#ifdef SYS_epoll_create
/*
 * epoll_create(size) refuses a size epoll_create1() ignores, and its
 * fallback needs a size where epoll_create1() has its flags.
 */
static long translate_epoll(long nr, long a[6])
{
	bool plain = nr == SYS_epoll_create;
	long b[6] = { 1 };
	struct fdreq rq;

	if (plain && (int)a[0] <= 0)
		return call(nr, a);
	switch (fdreq_begin(&rq, plain ? &spec_epoll : &spec_epoll1,
			    plain ? 0 : (int)a[0], -1)) {
	case FDREQ_PLAIN:
		return fdreq_end(&rq, (int)call(nr, a));
	case FDREQ_NATIVE:
		b[0] = fdreq_flags(&rq);
		return fdreq_end(&rq, (int)call(SYS_epoll_create1, b));
	case FDREQ_FAILED:
		return -1;
	default:
		return fdreq_end(&rq, (int)call(SYS_epoll_create, plain ? a : b));
	}
}
#endif

#ifdef SYS_creat
static long translate_creat(long a[6])
{
	long b[6] = { AT_FDCWD, a[0], O_CREAT | O_WRONLY | O_TRUNC, a[1] };
	struct fdreq rq;

	if (fdreq_begin(&rq, &spec_open, 0, -1) != FDREQ_NATIVE)
		return fdreq_end(&rq, (int)call(SYS_creat, a));
	b[2] |= fdreq_flags(&rq);
	return fdreq_end(&rq, (int)call(SYS_openat, b));
}
#endif

#ifdef SYS_openat2
/*
 * openat2(dirfd, path, how, size): the flags are inside *how.  A copy with
 * O_CLOEXEC goes to the kernel; it is read with process_vm_readv so that a
 * bad pointer is the kernel's EFAULT, not a crash here.
 */
static long translate_openat2(long a[6])
{
	unsigned long long how[32];
	struct iovec local = { how, (size_t)a[3] };
	struct iovec remote = { (void *)a[2], (size_t)a[3] };
	struct fdreq rq;

	if ((size_t)a[3] < sizeof(how[0]) || (size_t)a[3] > sizeof(how) ||
	    sys_call6(SYS_process_vm_readv, sys_call(SYS_getpid, 0, 0, 0, 0, 0),
		      (long)&local, 1, (long)&remote, 1, 0) != a[3])
		return call(SYS_openat2, a);
	fdreq_begin(&rq, &spec_open, (int)how[0], -1);
	if (rq.path != FDREQ_PLAIN) {
		how[0] = (how[0] & ~0xffffffffull) |
			 (unsigned)fdreq_flags(&rq);
		a[2] = (long)how;
	}
	return fdreq_end(&rq, (int)call(SYS_openat2, a));
}
#endif

#ifdef SYS_socketcall
/*
 * The arguments are in the caller's memory: a copy with the flags changed
 * goes to the kernel.  It is read with process_vm_readv, so that a bad
 * pointer stays the kernel's EFAULT; then the call passes unchanged.
 */
static long translate_socketcall(long a[6], void *caller)
{
	long args[6] = { 0 };
	size_t n = socketcall_nargs(a[0]), i;
	struct iovec local = { args, n * sizeof(long) };
	struct iovec remote = { (void *)a[1], n * sizeof(long) };

	for (i = 0; n && i < COUNT(socketcall_rules); i++) {
		if (socketcall_rules[i].nr != a[0])
			continue;
		if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) !=
		    (ssize_t)local.iov_len)
			break;
		return translate(&socketcall_rules[i], args, caller, true);
	}
	return call(SYS_socketcall, a);
}
#endif

/*
 * A child that is a copy of this process (no CLONE_VM) is a fork: the
 * lock's work of the atfork handlers, done around it as for _Fork.  But
 * libc does none of its own (real.h): the child must find every real
 * function resolved.
 */
static long translate_fork(long nr, long a[6])
{
	long ret;

	if (nr == SYS_clone && (a[0] & CLONE_VM)) {
		policy_word();
		return call(nr, a);
	}
	real_resolve_all();
	forklock_prepare();
	ret = call(nr, a);
	if (ret == 0)
		forklock_child();
	else
		forklock_parent();
	return ret;
}

CLOEXEC_EXPORT READS_UNPASSED_ARGS long syscall(long nr, ...)
{
	const struct sys_rule *r;
	long a[6];

	READ_SIX_ARGS(a, nr);

	switch (nr) {
	case SYS_dup:
		return translate_dup(a);
#if defined(SYS_fcntl64)
	/* 32-bit ABIs have both; libc uses fcntl64. */
	case SYS_fcntl:
#endif
	case SYS_FCNTL:
		return translate_fcntl(nr, a);
#ifdef SYS_socketcall
	case SYS_socketcall:
		return translate_socketcall(a, __builtin_return_address(0));
#endif
#ifdef SYS_creat
	case SYS_creat:
		return translate_creat(a);
#endif
#ifdef SYS_openat2
	case SYS_openat2:
		return translate_openat2(a);
#endif
#ifdef SYS_epoll_create
	case SYS_epoll_create:
	case SYS_epoll_create1:
		return translate_epoll(nr, a);
#else
	case SYS_epoll_create1:
		break;
#endif
#ifdef SYS_signalfd
	case SYS_signalfd:
#endif
	case SYS_signalfd4:
		if ((int)a[0] != -1)
			return call(nr, a);
		break;
	case SYS_clone:
#ifdef SYS_fork
	case SYS_fork:
#endif
		return translate_fork(nr, a);
	/*
	 * Memory shared with the child, or (clone3) flags in the caller's
	 * memory: the policy settled first is what can be done (policy.h).
	 */
#ifdef SYS_clone3
	case SYS_clone3:
#endif
#ifdef SYS_vfork
	case SYS_vfork:
#endif
		policy_word();
		return call(nr, a);
	}
	r = rule_for(nr);
	if (!r || passes_through(nr, a))
		return call(nr, a);
	return translate(r, a, __builtin_return_address(0), false);
}
