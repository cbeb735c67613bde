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
#include "core/peek.h"
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

/* Where an opening call's path is, for the keep-path= list. */
enum path { PATH_NONE, PATH_CWD /* args[0] */, PATH_AT /* args[0], [1] */ };

/*
 * What is done with a number: by its rule, or by a translator of its own,
 * where the flags are not simply an argument (F_DUPFD in fcntl's, inside
 * openat2's struct), the call changes (dup natively is fcntl), or it is
 * a way to make a process rather than an fd.
 */
enum how {
	BY_RULE,
	BY_DUP,
	BY_FCNTL,
	BY_CREAT,
	BY_OPENAT2,
	BY_EPOLL,
	BY_SOCKETCALL,
	BY_FORK,
	/* Memory shared with the child, or (clone3) flags in the caller's
	 * memory: the policy settled first is what can be done (policy.h). */
	BY_SHARED_CHILD,
};

/*
 * The rules name their call by index, and the calls' specs are values in
 * one array, made from entrypoints.def: a table of pointers would need a
 * relocation per row, written by the dynamic loader at every process
 * start.
 */
enum call_id {
#define CALL(name, ...) CALL_ID_##name,
#include "entrypoints.def"
#undef CALL
};

#define CALL(name, fam, class, capability, kind)                               \
	[CALL_ID_##name] = CALL_SPEC(fam, class, capability, kind),
static const struct fd_spec call_specs[] = {
#include "entrypoints.def"
};
#undef CALL

/*
 * One row per number.  Natively the call becomes native_nr with the flags
 * in args[flags_arg]; on the fallback path it is fallback_nr with the
 * caller's remaining flags there (a plain call ignores the extra argument,
 * as system calls do).  The caller's own flags, if the number has any, are
 * in args[flags_arg] too.  A field left out is 0: none of it.
 */
static const struct sys_rule {
	long nr, native_nr, fallback_nr;
	unsigned char how;
	signed char flags_arg;	/* where the flags go */
	bool caller_flags;	/* the caller's number has them there */
	unsigned char result;	/* FD, PAIR, MSG, MMSG */
	signed char out_arg;	/* PAIR: int[2]; MSG, MMSG: the message(s) */
	bool onto;		/* dup2, dup3: args[1] is the number asked for */
	unsigned char path;	/* PATH_NONE, PATH_CWD, PATH_AT */
	bool may_block;		/* waits for args[0] to be readable */
	bool changes_fd0;	/* signalfd: args[0] other than -1 is changed */
	unsigned char call;	/* in call_specs */
} rules[] = {
#define SAME_NR(n) .nr = (n), .native_nr = (n), .fallback_nr = (n)
	{ SAME_NR(SYS_socket), .flags_arg = 1, .caller_flags = true,
	  .call = CALL_ID_socket },
	{ SAME_NR(SYS_socketpair), .flags_arg = 1, .caller_flags = true,
	  .result = PAIR, .out_arg = 3, .call = CALL_ID_socket },
#ifdef SYS_accept
	{ .nr = SYS_accept, .native_nr = SYS_accept4,
	  .fallback_nr = SYS_accept, .flags_arg = 3, .may_block = true,
	  .call = CALL_ID_accept },
	{ .nr = SYS_accept4, .native_nr = SYS_accept4,
	  .fallback_nr = SYS_accept, .flags_arg = 3, .caller_flags = true,
	  .may_block = true, .call = CALL_ID_accept4 },
#else
	{ SAME_NR(SYS_accept4), .flags_arg = 3, .caller_flags = true,
	  .may_block = true, .call = CALL_ID_accept4 },
#endif
#ifdef SYS_pipe
	{ .nr = SYS_pipe, .native_nr = SYS_pipe2, .fallback_nr = SYS_pipe,
	  .flags_arg = 1, .result = PAIR, .out_arg = 0,
	  .call = CALL_ID_pipe },
	{ .nr = SYS_pipe2, .native_nr = SYS_pipe2, .fallback_nr = SYS_pipe,
	  .flags_arg = 1, .caller_flags = true, .result = PAIR, .out_arg = 0,
	  .call = CALL_ID_pipe2 },
#else
	{ SAME_NR(SYS_pipe2), .flags_arg = 1, .caller_flags = true,
	  .result = PAIR, .out_arg = 0, .call = CALL_ID_pipe2 },
#endif
#ifdef SYS_open
	{ SAME_NR(SYS_open), .flags_arg = 1, .caller_flags = true,
	  .path = PATH_CWD, .call = CALL_ID_open },
#endif
	{ SAME_NR(SYS_openat), .flags_arg = 2, .caller_flags = true,
	  .path = PATH_AT, .call = CALL_ID_open },
	{ SAME_NR(SYS_open_by_handle_at), .flags_arg = 2,
	  .caller_flags = true, .call = CALL_ID_open },
#ifdef SYS_creat
	{ SAME_NR(SYS_creat), .how = BY_CREAT, .call = CALL_ID_open },
#endif
#ifdef SYS_openat2
	{ SAME_NR(SYS_openat2), .how = BY_OPENAT2, .call = CALL_ID_open },
#endif
#ifdef SYS_inotify_init
	{ .nr = SYS_inotify_init, .native_nr = SYS_inotify_init1,
	  .fallback_nr = SYS_inotify_init, .call = CALL_ID_inotify },
	{ .nr = SYS_inotify_init1, .native_nr = SYS_inotify_init1,
	  .fallback_nr = SYS_inotify_init, .caller_flags = true,
	  .call = CALL_ID_inotify1 },
#else
	{ SAME_NR(SYS_inotify_init1), .caller_flags = true,
	  .call = CALL_ID_inotify1 },
#endif
#ifdef SYS_eventfd
	{ .nr = SYS_eventfd, .native_nr = SYS_eventfd2,
	  .fallback_nr = SYS_eventfd, .flags_arg = 1,
	  .call = CALL_ID_eventfd },
#endif
	{ SAME_NR(SYS_eventfd2), .flags_arg = 1, .caller_flags = true,
	  .call = CALL_ID_eventfd },
#ifdef SYS_epoll_create
	/* epoll_create refuses a size epoll_create1 ignores (translate_epoll) */
	{ SAME_NR(SYS_epoll_create), .how = BY_EPOLL, .call = CALL_ID_epoll },
	{ SAME_NR(SYS_epoll_create1), .how = BY_EPOLL,
	  .call = CALL_ID_epoll1 },
#else
	{ SAME_NR(SYS_epoll_create1), .caller_flags = true,
	  .call = CALL_ID_epoll1 },
#endif
#ifdef SYS_signalfd
	{ .nr = SYS_signalfd, .native_nr = SYS_signalfd4,
	  .fallback_nr = SYS_signalfd, .flags_arg = 3, .changes_fd0 = true,
	  .call = CALL_ID_signalfd },
#endif
	{ SAME_NR(SYS_signalfd4), .flags_arg = 3, .caller_flags = true,
	  .changes_fd0 = true, .call = CALL_ID_signalfd },
	{ SAME_NR(SYS_timerfd_create), .flags_arg = 1, .caller_flags = true,
	  .call = CALL_ID_timerfd },
	{ SAME_NR(SYS_memfd_create), .flags_arg = 1, .caller_flags = true,
	  .call = CALL_ID_memfd },
	{ SAME_NR(SYS_fanotify_init), .caller_flags = true,
	  .call = CALL_ID_fanotify },
	{ SAME_NR(SYS_userfaultfd), .caller_flags = true,
	  .call = CALL_ID_userfaultfd },
	{ SAME_NR(SYS_perf_event_open), .flags_arg = 4, .caller_flags = true,
	  .call = CALL_ID_perf },
#ifdef SYS_open_tree
	/* The mount API (5.2), whose flags came with the calls. */
	{ SAME_NR(SYS_open_tree), .flags_arg = 2, .caller_flags = true,
	  .path = PATH_AT, .call = CALL_ID_open_tree },
	{ SAME_NR(SYS_fsopen), .flags_arg = 1, .caller_flags = true,
	  .call = CALL_ID_fsopen },
	{ SAME_NR(SYS_fsmount), .flags_arg = 1, .caller_flags = true,
	  .call = CALL_ID_fsmount },
	{ SAME_NR(SYS_fspick), .flags_arg = 2, .caller_flags = true,
	  .call = CALL_ID_fspick },
#endif
	{ SAME_NR(SYS_dup), .how = BY_DUP, .call = CALL_ID_dup },
#ifdef SYS_dup2
	{ .nr = SYS_dup2, .native_nr = SYS_dup3, .fallback_nr = SYS_dup2,
	  .flags_arg = 2, .onto = true, .call = CALL_ID_dup2 },
	{ .nr = SYS_dup3, .native_nr = SYS_dup3, .fallback_nr = SYS_dup2,
	  .flags_arg = 2, .caller_flags = true, .onto = true,
	  .call = CALL_ID_dup3 },
#else
	{ SAME_NR(SYS_dup3), .flags_arg = 2, .caller_flags = true,
	  .onto = true, .call = CALL_ID_dup3 },
#endif
	{ SAME_NR(SYS_fcntl), .how = BY_FCNTL, .call = CALL_ID_dup },
#ifdef SYS_fcntl64
	/* 32-bit ABIs have both; libc uses fcntl64. */
	{ SAME_NR(SYS_fcntl64), .how = BY_FCNTL, .call = CALL_ID_dup },
#endif
	{ SAME_NR(SYS_recvmsg), .flags_arg = 2, .caller_flags = true,
	  .result = MSG, .out_arg = 1, .may_block = true,
	  .call = CALL_ID_msg },
	{ SAME_NR(SYS_recvmmsg), .flags_arg = 3, .caller_flags = true,
	  .result = MMSG, .out_arg = 1, .may_block = true,
	  .call = CALL_ID_msg },
#ifdef SYS_recvmmsg_time64
	/* 32-bit ABIs: the same call with a 64-bit timeout (Linux 5.1). */
	{ SAME_NR(SYS_recvmmsg_time64), .flags_arg = 3, .caller_flags = true,
	  .result = MMSG, .out_arg = 1, .may_block = true,
	  .call = CALL_ID_msg },
#endif
#ifdef SYS_socketcall
	{ SAME_NR(SYS_socketcall), .how = BY_SOCKETCALL },
#endif
	{ SAME_NR(SYS_clone), .how = BY_FORK },
#ifdef SYS_fork
	{ SAME_NR(SYS_fork), .how = BY_FORK },
#endif
#ifdef SYS_clone3
	{ SAME_NR(SYS_clone3), .how = BY_SHARED_CHILD },
#endif
#ifdef SYS_vfork
	{ SAME_NR(SYS_vfork), .how = BY_SHARED_CHILD },
#endif
};

#ifdef SYS_socketcall
/*
 * socketcall(call, args): the multiplexer through which 32-bit x86 libc
 * makes every socket call.  The sub-call numbers take the place of system
 * call numbers, and args[] of the arguments.
 */
static const struct sys_rule socketcall_rules[] = {
	{ SAME_NR(SOCKETCALL_SOCKET), .flags_arg = 1, .caller_flags = true,
	  .call = CALL_ID_socket },
	{ SAME_NR(SOCKETCALL_SOCKETPAIR), .flags_arg = 1, .caller_flags = true,
	  .result = PAIR, .out_arg = 3, .call = CALL_ID_socket },
	{ .nr = SOCKETCALL_ACCEPT, .native_nr = SOCKETCALL_ACCEPT4,
	  .fallback_nr = SOCKETCALL_ACCEPT, .flags_arg = 3, .may_block = true,
	  .call = CALL_ID_accept },
	{ .nr = SOCKETCALL_ACCEPT4, .native_nr = SOCKETCALL_ACCEPT4,
	  .fallback_nr = SOCKETCALL_ACCEPT, .flags_arg = 3,
	  .caller_flags = true, .may_block = true, .call = CALL_ID_accept4 },
	{ SAME_NR(SOCKETCALL_RECVMSG), .flags_arg = 2, .caller_flags = true,
	  .result = MSG, .out_arg = 1, .may_block = true,
	  .call = CALL_ID_msg },
	{ SAME_NR(SOCKETCALL_RECVMMSG), .flags_arg = 3, .caller_flags = true,
	  .result = MMSG, .out_arg = 1, .may_block = true,
	  .call = CALL_ID_msg },
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

/*
 * Calls that keep their plain meaning whatever the policy: dup2(fd, fd)
 * makes no fd, nor does signalfd on an fd it already made.
 */
static bool passes_through(const struct sys_rule *r, const long a[6])
{
	return (r->onto && !r->caller_flags && a[0] == a[1]) ||
	       (r->changes_fd0 && (int)a[0] != -1);
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
	const struct fd_spec *spec = &call_specs[r->call];
	enum fdreq_path path;
	struct fdreq rq;
	long ret, nr;

	if (r->may_block && !(r->result >= MSG && (flags & MSG_DONTWAIT)))
		wait = (int)a[0];
	/*
	 * The kernel reads a message header before it waits: one it cannot
	 * read is EFAULT at once, and the fallback path must not wait
	 * first (msg.c).  recvmmsg: the header of the first of a[2], and
	 * the timeout a[4].
	 */
	if (wait >= 0 && r->result >= MSG && !cap_known_native(spec->cap) &&
	    (!peek_bytes((const void *)a[r->out_arg],
			 r->result == MSG ? sizeof(struct msghdr)
			 : a[2]		  ? sizeof(struct mmsghdr)
					  : 0) ||
	     (r->result == MMSG && !a[2]) ||
	     (r->result == MMSG && a[4] &&
	      !peek_bytes((const void *)a[4], sizeof(struct timespec)))))
		wait = -1;
	if (r->onto)
		path = fdreq_try_begin_onto_for(&rq, spec, flags, (int)a[1],
						"syscall", caller);
	else if (r->path == PATH_AT)
		path = fdreq_try_begin_open_for(&rq, spec, flags, (int)a[0],
						(const char *)a[1],
						"syscall", caller);
	else if (r->path == PATH_CWD)
		path = fdreq_try_begin_open_for(&rq, spec, flags, AT_FDCWD,
						(const char *)a[0],
						"syscall", caller);
	else
		path = fdreq_try_begin_for(&rq, spec, flags, wait,
					   "syscall", caller);
	switch (path) {
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
		/* dup3's own refusal, which its fallback dup2 lacks. */
		if (r->onto && r->caller_flags && a[0] == a[1])
			return fdreq_end(&rq, fdreq_fail(EINVAL));
		a[r->flags_arg] = fdreq_flags(&rq);
		break;
	}
	ret = issue(via_socketcall, nr, a);
	if (r->result >= MSG && msg_flag_refused(ret, flags, fdreq_flags(&rq))) {
		a[r->flags_arg] = flags;
		ret = issue(via_socketcall, nr, a);
	} else if (r->result >= MSG) {
		msg_hide_flag(r->result == MSG ? (struct msghdr *)a[r->out_arg]
					       : NULL,
			      (struct mmsghdr *)a[r->out_arg],
			      r->result == MSG ? ret >= 0 : ret, flags,
			      fdreq_flags(&rq));
	}
	switch (r->result) {
	case PAIR:
		return fdreq_end_pair(&rq, (int)ret, (int *)a[r->out_arg]);
	case MSG:
		msg_mark_received(&rq, (struct msghdr *)a[r->out_arg], NULL,
				  ret >= 0);
		fdreq_done(&rq);
		return ret;
	case MMSG:
		msg_mark_received(&rq, NULL, (struct mmsghdr *)a[r->out_arg],
				  ret);
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

	if (fdreq_begin(&rq, &spec_dup, 0, -1) == FDREQ_NATIVE) {
		fdreq_copy_of(&rq, (int)a[0]);
		return fdreq_end(&rq, (int)call(SYS_FCNTL, b));
	}
	fdreq_copy_of(&rq, (int)a[0]);
	return fdreq_end(&rq, (int)call(SYS_dup, a));
}

static long translate_fcntl(long nr, long a[6])
{
	bool dupfd = a[1] == F_DUPFD;
	struct fdreq rq;

	if (!dupfd && a[1] != F_DUPFD_CLOEXEC)
		return call(nr, a);
	switch (fdreq_try_begin(&rq, dupfd ? &spec_dup : &spec_dupfd_cloexec,
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
	fdreq_copy_of(&rq, (int)a[0]);
	return fdreq_end_dupfd(&rq, (int)call(nr, a), dupfd ? a[2] : -1);
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
	switch (fdreq_try_begin(&rq, plain ? &spec_epoll : &spec_epoll1,
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
	void *caller = __builtin_return_address(0);
	const struct sys_rule *r;
	long a[6];

	READ_SIX_ARGS(a, nr);
	r = rule_for(nr);
	if (!r)
		return call(nr, a);
	switch (r->how) {
	case BY_DUP:
		return translate_dup(a);
	case BY_FCNTL:
		return translate_fcntl(nr, a);
#ifdef SYS_creat
	case BY_CREAT:
		return translate_creat(a);
#endif
#ifdef SYS_openat2
	case BY_OPENAT2:
		return translate_openat2(a);
#endif
#ifdef SYS_epoll_create
	case BY_EPOLL:
		return translate_epoll(nr, a);
#endif
#ifdef SYS_socketcall
	case BY_SOCKETCALL:
		return translate_socketcall(a, caller);
#endif
	case BY_FORK:
		return translate_fork(nr, a);
	case BY_SHARED_CHILD:
		policy_word();
		return call(nr, a);
	}
	if (passes_through(r, a))
		return call(nr, a);
	return translate(r, a, caller, false);
}
