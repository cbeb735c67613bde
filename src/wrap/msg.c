/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Messages: recvmsg and recvmmsg, whose SCM_RIGHTS control messages carry
 * new fds.  Natively they get MSG_CMSG_CLOEXEC; on kernels before 2.6.23,
 * which ignored it, each received fd is marked under the fork lock, and
 * the wait for a message happens outside it.
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>

#include "core/export.h"
#include "core/peek.h"
#include "core/real.h"
#include "core/sys.h"
#include "specs.h"

static ssize_t raw_recvmsg(int fd, struct msghdr *msg, int flags)
{
	return sys_result(sys_recvmsg(fd, msg, flags));
}

static int raw_recvmmsg(int fd, struct mmsghdr *vec, unsigned vlen,
			RECVMMSG_FLAGS_TYPE flags, struct timespec *timeout)
{
	return sys_result(
		sys_call(SYS_recvmmsg, fd, vec, vlen, flags, timeout));
}

REAL_SLOT(recvmsg, raw_recvmsg);
REAL_SLOT(recvmmsg, raw_recvmmsg);

#if HAVE___RECVMSG64
REAL_SLOT(__recvmsg64, raw_recvmsg);
#endif
#if HAVE___RECVMMSG64
/* The kernel's recvmmsg with a 64-bit timeout (Linux 5.1). */
static int raw_recvmmsg64(int fd, struct mmsghdr *vec, unsigned vlen,
			  int flags, struct timespec *timeout)
{
	return sys_result(
		sys_call(SYS_recvmmsg_time64, fd, vec, vlen, flags, timeout));
}

REAL_SLOT(__recvmmsg64, raw_recvmmsg64);
#endif

/*
 * Each fd msg carries, noted by rq, or without one as the fast path does.
 * The control messages as the kernel laid them out (CMSG_NXTHDR's walk):
 * one that claims more than is there ends it.
 */
static inline __attribute__((always_inline)) void
mark_message(struct fdreq *rq, const struct msghdr *msg)
{
	const unsigned char *p = msg->msg_control, *fds, *next;
	size_t left = msg->msg_control ? msg->msg_controllen : 0, len;
	const struct cmsghdr *c;
	int fd;

	for (; left >= sizeof(*c); p += len, left -= len) {
		c = (const struct cmsghdr *)p;
		if (c->cmsg_len < sizeof(*c) || c->cmsg_len > left)
			return;
		next = p + c->cmsg_len;
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			for (fds = CMSG_DATA(c); fds + sizeof(int) <= next;
			     fds += sizeof(int)) {
				memcpy(&fd, fds, sizeof(fd));
				if (rq)
					fdreq_mark_received(rq, fd);
				else if (!fdreq_fast_note(fd, FDT_FORCED_MARK))
					fdreq_fast_rest(fd, FDT_FORCED_MARK);
			}
		len = CMSG_ALIGN(c->cmsg_len);
		if (len > left)
			return;
	}
}

void msg_mark_received(struct fdreq *rq, struct msghdr *msg,
		       struct mmsghdr *vec, long n)
{
	long i;

	if (n <= 0 || !fdreq_marks_received(rq))
		return;
	if (msg)
		mark_message(rq, msg);
	else
		for (i = 0; i < n; i++)
			mark_message(rq, &vec[i].msg_hdr);
}

void msg_hide_flag(struct msghdr *msg, struct mmsghdr *vec, long n,
		   int caller_flags, int flags)
{
	long i;

	if (n <= 0 || !(flags & ~caller_flags & MSG_CMSG_CLOEXEC))
		return;
	if (msg)
		msg->msg_flags &= ~MSG_CMSG_CLOEXEC;
	else
		for (i = 0; i < n; i++)
			vec[i].msg_hdr.msg_flags &= ~MSG_CMSG_CLOEXEC;
}

/*
 * A message can only block a caller that allows blocking.  And the kernel
 * reads the caller's header (and recvmmsg's timeout) before it waits: where
 * it cannot, the answer is EFAULT at once, so the fallback path must not
 * wait first either.  Asked only where the kernel may lack the flag.
 */
static int wait_fd(int fd, int flags, const void *hdr, size_t size,
		   const struct timespec *timeout)
{
	if (flags & MSG_DONTWAIT)
		return -1;
	if (!cap_known_native(CAP_CMSG_CLOEXEC) &&
	    (!size || !peek_bytes(hdr, size) ||
	     (timeout && !peek_bytes(timeout, sizeof(*timeout)))))
		return -1;
	return fd;
}

/*
 * On the fallback path, the message is taken inside the lock without
 * waiting, and when there is none yet the wait happens outside: one call
 * when a message is there, and a fork never waits behind a recvmsg.
 * MSG_WAITALL may have to wait inside the call: it waits for the first
 * byte before the lock, and takes its chance with the rest.
 */
static __attribute__((noinline)) ssize_t
recvmsg_with(const char *call, struct real_slot *slot, real_fn raw, int fd,
	     struct msghdr *msg, int flags, void *caller)
{
	ssize_t (*real)(int, struct msghdr *, int) =
		(ssize_t(*)(int, struct msghdr *, int))real_get(slot, raw);
	bool retry = !(flags & (MSG_DONTWAIT | MSG_WAITALL));
	struct fdreq rq;
	ssize_t ret;

	if (fdreq_try_begin_for(&rq, &spec_msg, flags,
				retry ? -1
				      : wait_fd(fd, flags, msg, sizeof(*msg),
						NULL),
				call, caller) == FDREQ_FAILED)
		return -1;
	if (rq.path == FDREQ_FALLBACK && retry) {
		do
			ret = real(fd, msg, fdreq_flags(&rq) | MSG_DONTWAIT);
		while (ret < 0 && errno == EAGAIN &&
		       fdreq_wait_outside(&rq, fd));
	} else {
		ret = real(fd, msg, fdreq_flags(&rq));
		if (msg_flag_refused(ret, flags, fdreq_flags(&rq)))
			ret = real(fd, msg, flags);
		else
			msg_hide_flag(msg, NULL, ret >= 0, flags,
				      fdreq_flags(&rq));
	}
	msg_mark_received(&rq, msg, NULL, ret >= 0);
	fdreq_done(&rq);
	return ret;
}

/*
 * recvmmsg came in 2.6.33, after MSG_CMSG_CLOEXEC (2.6.23): its fallback
 * path runs only on the test suite's emulated kernel, and there it may
 * wait inside the lock for the messages after the first.
 */
WRAPPER_HELPER int recvmmsg_with(const char *call,
				 int (*real)(int, struct mmsghdr *, unsigned,
					     RECVMMSG_FLAGS_TYPE,
					     struct timespec *),
				 int fd, struct mmsghdr *vec, unsigned vlen,
				 RECVMMSG_FLAGS_TYPE flags,
				 struct timespec *timeout)
{
	struct fdreq rq;
	int ret;

	if (fdreq_try_begin_as(&rq, &spec_msg, flags,
			       wait_fd(fd, flags, vec, vlen ? sizeof(*vec) : 0,
				       timeout),
			       call) == FDREQ_FAILED)
		return -1;
	ret = real(fd, vec, vlen, fdreq_flags(&rq), timeout);
	if (msg_flag_refused(ret, (int)flags, fdreq_flags(&rq)))
		ret = real(fd, vec, vlen, flags, timeout);
	else
		msg_hide_flag(NULL, vec, ret, (int)flags, fdreq_flags(&rq));
	msg_mark_received(&rq, NULL, vec, ret);
	fdreq_done(&rq);
	return ret;
}

/* A control message's data is the caller's bytes, of no declared type. */
typedef int msg_int __attribute__((may_alias));

/*
 * Any message but the common one, walked as mark_message walks it; ret
 * passes through, so that the fast path keeps nothing of its own across
 * this call.
 */
static __attribute__((noinline)) ssize_t note_message(struct msghdr *msg,
						      ssize_t ret)
{
	mark_message(NULL, msg);
	return ret;
}

/*
 * The fast path's note of the fds a message carries.  Most carry none,
 * or one control message of one fd (what a server passes a connection
 * with): that is one store, and what mark_message's walk would find
 * (the one message fills the rest, less its alignment).  Any other is
 * note_message's.
 */
static inline __attribute__((always_inline)) ssize_t
note_received(struct msghdr *msg, ssize_t ret)
{
	const struct cmsghdr *c = msg->msg_control;
	size_t left = msg->msg_controllen;

	if (left - CMSG_LEN(sizeof(int)) >
	    CMSG_SPACE(sizeof(int)) - CMSG_LEN(sizeof(int))) {
		if (!c || left < sizeof(*c))
			return ret;
		return note_message(msg, ret);
	}
	if (!c || c->cmsg_len != CMSG_LEN(sizeof(int)) ||
	    c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    __builtin_expect(!fdreq_fast_note(*(const msg_int *)CMSG_DATA(c),
					      FDT_FORCED_MARK),
			     0))
		return note_message(msg, ret);
	return ret;
}

/*
 * A socket that refuses the flag (AF_PACKET's EINVAL) is asked again as
 * the caller asked.  The real function is found again in its slot: the
 * fast path keeps no register for it across its call.
 */
static __attribute__((noinline, cold)) ssize_t
recvmsg_refused(struct real_slot *slot, int fd, struct msghdr *msg, int flags,
		ssize_t ret)
{
	ssize_t (*real)(int, struct msghdr *, int) =
		(ssize_t(*)(int, struct msghdr *, int))real_ready(slot);

	if (msg_flag_refused(ret, flags, fdreq_fast_flags(&spec_msg, flags)))
		return real(fd, msg, flags);
	return ret;
}

/*
 * The fast path (fdreq.h): the flagged call; then, as recvmsg_with does
 * natively, the flag the caller did not pass hidden again, and each fd
 * received noted.  The general body is apart: it needs a frame.
 */
static inline __attribute__((always_inline)) ssize_t
recvmsg_fast(struct real_slot *slot,
	     ssize_t (*ready)(int, struct msghdr *, int), int fd,
	     struct msghdr *msg, int flags)
{
	ssize_t ret = ready(fd, msg, fdreq_fast_flags(&spec_msg, flags));

	if (__builtin_expect(ret < 0, 0))
		return recvmsg_refused(slot, fd, msg, flags, ret);
	msg->msg_flags &= ~MSG_CMSG_CLOEXEC;
	return note_received(msg, ret);
}

CLOEXEC_EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t (*ready)(int, struct msghdr *, int) = REAL_READY(recvmsg);

	if (ready && fdreq_fast(&spec_msg, flags))
		return recvmsg_fast(&real_slot_recvmsg, ready, fd, msg, flags);
	return recvmsg_with(__func__, &real_slot_recvmsg,
			    (real_fn)real_raw_recvmsg, fd, msg, flags,
			    __builtin_return_address(0));
}

CLOEXEC_EXPORT int recvmmsg(int fd, struct mmsghdr *vec, unsigned vlen,
			    RECVMMSG_FLAGS_TYPE flags, struct timespec *timeout)
{
	return recvmmsg_with(__func__, REAL(recvmmsg), fd, vec, vlen, flags,
			     timeout);
}

#if HAVE___RECVMSG64
/* recvmsg under _TIME_BITS=64 on 32-bit glibc. */
CLOEXEC_EXPORT ssize_t __recvmsg64(int fd, struct msghdr *msg, int flags)
{
	ssize_t (*ready)(int, struct msghdr *, int) = REAL_READY(__recvmsg64);

	if (ready && fdreq_fast(&spec_msg, flags))
		return recvmsg_fast(&real_slot___recvmsg64, ready, fd, msg,
				    flags);
	return recvmsg_with(__func__, &real_slot___recvmsg64,
			    (real_fn)real_raw___recvmsg64, fd, msg, flags,
			    __builtin_return_address(0));
}
#endif

#if HAVE___RECVMMSG64
/* recvmmsg under _TIME_BITS=64 on 32-bit glibc. */
CLOEXEC_EXPORT int __recvmmsg64(int fd, struct mmsghdr *vec, unsigned vlen,
				int flags, struct timespec *timeout)
{
	return recvmmsg_with(__func__, REAL(__recvmmsg64), fd, vec, vlen, flags,
			     timeout);
}
#endif
