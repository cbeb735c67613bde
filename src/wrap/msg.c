/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Messages: recvmsg and recvmmsg, whose SCM_RIGHTS control messages carry
 * new fds.  Natively they get MSG_CMSG_CLOEXEC; on kernels before 2.6.23,
 * which ignored it, each received fd is marked under the fork lock, after
 * waiting for a message outside it.
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>

#include "core/export.h"
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

/* Mark the fds a received message carries, as the path requires. */
void msg_mark_received(struct fdreq *rq, struct msghdr *msg)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		const unsigned char *p = CMSG_DATA(c);
		const unsigned char *end = (const unsigned char *)c + c->cmsg_len;
		int fd;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (; p + sizeof(int) <= end; p += sizeof(int)) {
			memcpy(&fd, p, sizeof(fd));
			fdreq_mark(rq, fd);
		}
	}
}

/* A message can only block a caller that allows blocking. */
static int wait_fd(int fd, int flags)
{
	return flags & MSG_DONTWAIT ? -1 : fd;
}

CLOEXEC_EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct fdreq rq;
	ssize_t ret;

	if (fdreq_begin(&rq, &spec_msg, flags, wait_fd(fd, flags)) ==
	    FDREQ_FAILED)
		return -1;
	ret = REAL(recvmsg)(fd, msg, fdreq_flags(&rq));
	if (ret >= 0 && (rq.path == FDREQ_FALLBACK || rq.force))
		msg_mark_received(&rq, msg);
	fdreq_done(&rq);
	return ret;
}

CLOEXEC_EXPORT int recvmmsg(int fd, struct mmsghdr *vec, unsigned vlen,
			    RECVMMSG_FLAGS_TYPE flags, struct timespec *timeout)
{
	struct fdreq rq;
	int ret, i;

	if (fdreq_begin(&rq, &spec_msg, flags, wait_fd(fd, flags)) ==
	    FDREQ_FAILED)
		return -1;
	ret = REAL(recvmmsg)(fd, vec, vlen, fdreq_flags(&rq), timeout);
	if (rq.path == FDREQ_FALLBACK || rq.force)
		for (i = 0; i < ret; i++)
			msg_mark_received(&rq, &vec[i].msg_hdr);
	fdreq_done(&rq);
	return ret;
}
