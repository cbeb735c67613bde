/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sockets as the kernel describes them to sock_diag (NETLINK_SOCK_DIAG),
 * in binary: a socket's inode, its cookie (a number the kernel gives each
 * socket and never gives again), its name.  Not the text of /proc/net/unix,
 * where an abstract name is printed as it was bound, newlines and all: a
 * socket of anyone's, bound to "x\n<a whole row>", adds a row of its own
 * choosing, with another socket's inode in it.
 *
 * The kernel's ABI (<linux/netlink.h>, <linux/sock_diag.h>,
 * <linux/unix_diag.h>, <linux/inet_diag.h>), spelled here: another C
 * library's compiler (musl-gcc) may not see the kernel's headers.
 */
#ifndef CLOEXEC_SOCKDIAG_H
#define CLOEXEC_SOCKDIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SOCKDIAG_NETLINK 4 /* NETLINK_SOCK_DIAG */
#define SOCKDIAG_BY_FAMILY 20 /* SOCK_DIAG_BY_FAMILY */
#define SOCKDIAG_NOCOOKIE (~0U) /* INET_DIAG_NOCOOKIE */
#define SOCKDIAG_UNIX_SHOW_NAME 1 /* UDIAG_SHOW_NAME */
#define SOCKDIAG_UNIX_ATTR_NAME 0 /* UNIX_DIAG_NAME */
#define SOCKDIAG_NLMSG_ERROR 2 /* NLMSG_ERROR */
#define SOCKDIAG_NLMSG_DONE 3 /* NLMSG_DONE */
#define SOCKDIAG_F_REQUEST 0x1 /* NLM_F_REQUEST */
#define SOCKDIAG_F_DUMP 0x300 /* NLM_F_ROOT | NLM_F_MATCH */

struct sockdiag_nlmsghdr {
	uint32_t len;
	uint16_t type, flags;
	uint32_t seq, pid;
};

struct sockdiag_unix_req {
	uint8_t family, protocol;
	uint16_t pad;
	uint32_t states, ino, show, cookie[2];
};

struct sockdiag_unix_msg {
	uint8_t family, type, state, pad;
	uint32_t ino, cookie[2];
};

struct sockdiag_inet_id {
	uint16_t sport, dport; /* network order */
	uint32_t src[4], dst[4];
	uint32_t ifindex, cookie[2];
};

struct sockdiag_inet_req {
	uint8_t family, protocol, ext, pad;
	uint32_t states;
	struct sockdiag_inet_id id;
};

struct sockdiag_inet_msg {
	uint8_t family, state, timer, retrans;
	struct sockdiag_inet_id id;
	uint32_t expires, rqueue, wqueue, uid, inode;
};

/* An attribute after a message (struct rtattr). */
struct sockdiag_attr {
	uint16_t len, type;
};

#define SOCKDIAG_ALIGN(n) (((n) + 3u) & ~3u)

/*
 * Is the unix socket of this inode, and of this cookie (cookie NULL: any),
 * alive in this process's network namespace and bound to the abstract
 * name (len bytes, without its leading NUL)?  Raw system calls, a buffer
 * on the stack: async-signal-safe, and errno is kept.  False when the
 * kernel cannot say (no sock_diag, a seccomp filter, no netlink).
 */
bool sockdiag_unix_bound(uint32_t ino, const uint32_t *cookie, const char *name,
			 size_t len) __attribute__((visibility("hidden")));

/* The cookie of the unix socket of this inode; false if none is known. */
bool sockdiag_unix_cookie(uint32_t ino, uint32_t cookie[2])
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_SOCKDIAG_H */
