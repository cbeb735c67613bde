/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "sockdiag.h"
#include "sys.h"

/* One socket's answer: its message, its name (108 bytes at most). */
#define ANSWER_MAX 512

/*
 * The unix socket of inode ino (and cookie), described with its name:
 * the answer's length in buf, or -1 (none, or the kernel cannot say).
 */
static long ask_unix_diag(uint32_t ino, const uint32_t *cookie, char *buf,
			  size_t size)
{
	struct {
		struct sockdiag_nlmsghdr h;
		struct sockdiag_unix_req r;
	} q = {
		.h = { .len = sizeof(q),
		       .type = SOCKDIAG_BY_FAMILY,
		       .flags = SOCKDIAG_F_REQUEST,
		       .seq = 1 },
		.r = { .family = AF_UNIX,
		       .states = ~0u,
		       .ino = ino,
		       .show = SOCKDIAG_UNIX_SHOW_NAME,
		       .cookie = { cookie ? cookie[0] : SOCKDIAG_NOCOOKIE,
				   cookie ? cookie[1] : SOCKDIAG_NOCOOKIE } },
	};
	struct iovec qv = { &q, sizeof(q) }, av = { buf, size };
	struct msghdr qm = { .msg_iov = &qv, .msg_iovlen = 1 };
	struct msghdr am = { .msg_iov = &av, .msg_iovlen = 1 };
	long fd, n;

	fd = sys_socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			SOCKDIAG_NETLINK);
	if (fd < 0)
		return -1;
	n = sys_sendmsg((int)fd, &qm, 0);
	if (n == (long)sizeof(q))
		do
			n = sys_recvmsg((int)fd, &am, 0);
		while (n == -EINTR);
	else
		n = -1;
	sys_close((int)fd);
	return n;
}

/* The answer's message for ino, or NULL (an error, another socket). */
static const struct sockdiag_unix_msg *answer_for(const char *buf, long n,
						  uint32_t ino)
{
	const struct sockdiag_nlmsghdr *h = (const void *)buf;
	const struct sockdiag_unix_msg *m;

	if (n < (long)(sizeof(*h) + sizeof(*m)) || h->len > (uint32_t)n ||
	    h->len < sizeof(*h) + sizeof(*m) || h->type != SOCKDIAG_BY_FAMILY)
		return NULL;
	m = (const void *)(h + 1);
	return m->family == AF_UNIX && m->ino == ino ? m : NULL;
}

bool sockdiag_unix_bound(uint32_t ino, const uint32_t *cookie, const char *name,
			 size_t len)
{
	char buf[ANSWER_MAX] __attribute__((aligned(8)));
	const struct sockdiag_nlmsghdr *h = (const void *)buf;
	const struct sockdiag_unix_msg *m;
	const struct sockdiag_attr *a;
	size_t at, end;
	long n = ask_unix_diag(ino, cookie, buf, sizeof(buf));

	m = answer_for(buf, n, ino);
	if (!m || (cookie &&
		   (m->cookie[0] != cookie[0] || m->cookie[1] != cookie[1])))
		return false;
	end = h->len;
	for (at = sizeof(*h) + sizeof(*m); at + sizeof(*a) <= end;
	     at += SOCKDIAG_ALIGN(a->len)) {
		a = (const void *)(buf + at);
		if (a->len < sizeof(*a) || at + a->len > end)
			return false;
		/* An abstract name: its leading NUL, then its bytes. */
		if (a->type == SOCKDIAG_UNIX_ATTR_NAME)
			return a->len == sizeof(*a) + 1 + len &&
			       buf[at + sizeof(*a)] == '\0' &&
			       !memcmp(buf + at + sizeof(*a) + 1, name, len);
	}
	return false;
}

bool sockdiag_unix_cookie(uint32_t ino, uint32_t cookie[2])
{
	char buf[ANSWER_MAX] __attribute__((aligned(8)));
	const struct sockdiag_unix_msg *m = answer_for(
		buf, ask_unix_diag(ino, NULL, buf, sizeof(buf)), ino);

	if (!m)
		return false;
	cookie[0] = m->cookie[0];
	cookie[1] = m->cookie[1];
	return true;
}
