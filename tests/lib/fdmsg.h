/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One byte with room for one fd (SCM_RIGHTS): the message the tests and
 * the benchmark pass fds in.  Header only, for the benchmark does not
 * link the Check-based test library.
 */
#ifndef TESTS_FDMSG_H
#define TESTS_FDMSG_H

#include <string.h>
#include <sys/socket.h>

/* msg is ready for recvmsg() (or to be copied into an mmsghdr). */
struct tl_fd_msg {
	char byte;
	struct iovec iov;
	struct msghdr msg;
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} c; /* last: clang calls CMSG_SPACE() of a constant a variable size */
};

static inline void tl_fd_msg_init(struct tl_fd_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->iov.iov_base = &m->byte;
	m->iov.iov_len = 1;
	m->msg.msg_iov = &m->iov;
	m->msg.msg_iovlen = 1;
	m->msg.msg_control = m->c.buf;
	m->msg.msg_controllen = sizeof(m->c.buf);
}

/* ... and, with fd in it, for sendmsg(). */
static inline void tl_fd_msg_put(struct tl_fd_msg *m, int fd)
{
	m->c.hdr.cmsg_level = SOL_SOCKET;
	m->c.hdr.cmsg_type = SCM_RIGHTS;
	m->c.hdr.cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(&m->c.hdr), &fd, sizeof(int));
}

#endif /* TESTS_FDMSG_H */
