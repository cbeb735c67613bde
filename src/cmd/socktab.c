/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Socket tables, one per network namespace (named by the /proc/PID/ns/net
 * link), each from one sock_diag dump per family and protocol, sorted
 * by inode.  Binary, from the kernel: not
 * /proc/PID/net/unix, where a socket bound to an abstract name with a
 * newline in it prints a row of its owner's choosing (core/sockdiag.h).
 * Nothing is read again when the scan comes back to a namespace, and no
 * entry moves once its table is built, so the pointers that socktab_find
 * hands out stay good.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/sockdiag.h"
#include "mem.h"
#include "socktab.h"

struct netns_table {
	char netns[64];
	/* sorted by inode once dumped */
	struct sock_info *v;
	size_t n, cap;
	/* where the last lookup ended: a process's fds mostly come in the
	 * order their sockets were made, which is their inodes' */
	size_t at;
};

struct sock_tables {
	struct netns_table *t;
	size_t n, cap;
	/* this process's network namespace: its name, and an fd to return */
	char self_netns[64];
	int self_ns;
	/* the process asked about last, and the index of its namespace */
	int last_pid;
	size_t last;
};

static struct sock_info *add(struct netns_table *t)
{
	t->v = mem_grow(t->v, &t->cap, t->n, sizeof(*t->v));
	return &t->v[t->n++];
}

/*
 * One dump (sock_diag) of the namespace's sockets that req asks for: each
 * socket's message to one().  Netlink answers a dump in parts, each a run
 * of messages, until NLMSG_DONE.  False if the kernel refused it (a
 * family without its diag module, say).
 */
static bool
dump(int nl, void *req, size_t len, struct netns_table *t, const char *type,
     void (*one)(struct netns_table *, const char *, const void *, size_t))
{
	static char buf[1 << 16] __attribute__((aligned(8)));
	const struct sockdiag_nlmsghdr *h;
	ssize_t n;
	size_t at;

	if (send(nl, req, len, 0) != (ssize_t)len)
		return false;
	for (;;) {
		do
			n = recv(nl, buf, sizeof(buf), 0);
		while (n < 0 && errno == EINTR);
		if (n <= 0)
			return false;
		for (at = 0; at + sizeof(*h) <= (size_t)n;
		     at += SOCKDIAG_ALIGN(h->len)) {
			h = (const void *)(buf + at);
			if (h->len < sizeof(*h) || at + h->len > (size_t)n)
				return false;
			if (h->type == SOCKDIAG_NLMSG_DONE)
				return true;
			if (h->type == SOCKDIAG_NLMSG_ERROR)
				return false;
			if (h->type == SOCKDIAG_BY_FAMILY)
				one(t, type, h + 1, h->len - sizeof(*h));
		}
	}
}

static void format_inet(char *out, size_t size, const uint32_t addr[4],
			uint16_t port, bool v6)
{
	const unsigned char *a = (const void *)addr;
	size_t i, len;

	port = ntohs(port);
	if (!v6) {
		snprintf(out, size, "%u.%u.%u.%u:%u", a[0], a[1], a[2], a[3],
			 port);
		return;
	}
	len = 0;
	out[len++] = '[';
	for (i = 0; i < 16 && len + 6 < size; i += 2)
		len += snprintf(out + len, size - len, "%s%x", i ? ":" : "",
				a[i] << 8 | a[i + 1]);
	snprintf(out + len, size - len, "]:%u", port);
}

/* TCP_LISTEN and TCP_ESTABLISHED: the states the scan tells. */
#define STATE_LISTEN 10
#define STATE_ESTABLISHED 1

/* type: "stream" (TCP) or "dgram" (UDP) */
static void one_inet(struct netns_table *t, const char *type, const void *p,
		     size_t len)
{
	const struct sockdiag_inet_msg *m = p;
	struct sock_info *s;
	char addr[64];
	bool v6;

	if (len < sizeof(*m) || !m->inode)
		return;
	v6 = m->family == AF_INET6;
	s = add(t);
	*s = (struct sock_info){ .inode = m->inode,
				 .type = type,
				 .family = v6 ? "inet6" : "inet",
				 .local = "",
				 .peer = "" };
	format_inet(addr, sizeof(addr), m->id.src, m->id.sport, v6);
	s->local = mem_strdup(addr);
	s->listening = !strcmp(type, "stream") && m->state == STATE_LISTEN;
	s->connected = m->state == STATE_ESTABLISHED;
	if (s->connected) {
		format_inet(addr, sizeof(addr), m->id.dst, m->id.dport, v6);
		s->peer = mem_strdup(addr);
	}
}

static void load_inet(struct netns_table *t, int nl, int family, int protocol,
		      const char *type)
{
	struct {
		struct sockdiag_nlmsghdr h;
		struct sockdiag_inet_req r;
	} q = {
		.h = { .len = sizeof(q),
		       .type = SOCKDIAG_BY_FAMILY,
		       .flags = SOCKDIAG_F_REQUEST | SOCKDIAG_F_DUMP,
		       .seq = 1 },
		.r = { .family = (uint8_t)family,
		       .protocol = (uint8_t)protocol,
		       .states = ~0u },
	};

	dump(nl, &q, sizeof(q), t, type, one_inet);
}

/*
 * A unix socket's name as /proc/net/unix shows it: a path, or an abstract
 * name with "@" for its NULs (the first one included).
 */
static void one_unix(struct netns_table *t, const char *type_unused,
		     const void *p, size_t len)
{
	static const char *const types[] = { "?",   "stream", "dgram",
					     "raw", "rdm",    "seqpacket" };
	const struct sockdiag_unix_msg *m = p;
	const struct sockdiag_attr *a;
	const char *name;
	struct sock_info *s;
	char *local;
	size_t at, i, n;

	if (len < sizeof(*m))
		return;
	s = add(t);
	*s = (struct sock_info){ .inode = m->ino,
				 .family = "unix",
				 .type = m->type < 6 ? types[m->type] : "?",
				 .local = "",
				 .peer = "" };
	s->listening = m->state == STATE_LISTEN;
	s->connected = m->state == STATE_ESTABLISHED;
	for (at = sizeof(*m); at + sizeof(*a) <= len;
	     at += SOCKDIAG_ALIGN(a->len)) {
		a = (const void *)((const char *)p + at);
		if (a->len < sizeof(*a) || at + a->len > len)
			return;
		if (a->type != SOCKDIAG_UNIX_ATTR_NAME)
			continue;
		name = (const char *)(a + 1);
		n = a->len - sizeof(*a);
		/* a path ends at its NUL; an abstract name is all its bytes */
		if (n && name[0])
			n = strnlen(name, n);
		if (!n)
			continue;
		local = mem_zalloc(n + 1, 1);
		for (i = 0; i < n; i++)
			local[i] = name[i] ? name[i] : '@';
		s->local = local;
	}
}

static void load_unix(struct netns_table *t, int nl)
{
	struct {
		struct sockdiag_nlmsghdr h;
		struct sockdiag_unix_req r;
	} q = {
		.h = { .len = sizeof(q),
		       .type = SOCKDIAG_BY_FAMILY,
		       .flags = SOCKDIAG_F_REQUEST | SOCKDIAG_F_DUMP,
		       .seq = 1 },
		.r = { .family = AF_UNIX,
		       .states = ~0u,
		       .show = SOCKDIAG_UNIX_SHOW_NAME },
	};

	dump(nl, &q, sizeof(q), t, NULL, one_unix);
}

/*
 * A sock_diag socket in pid's network namespace: in this process's own,
 * or made in the other one (setns, which needs CAP_SYS_ADMIN there) and
 * this process back in its own.  -1 where it cannot be had: its sockets
 * are then not described.
 */
static int netlink_in(struct sock_tables *st, int pid, const char *netns)
{
	char path[64];
	int ns, nl;

	if (!st->self_netns[0] || !strcmp(netns, st->self_netns))
		return socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			      SOCKDIAG_NETLINK);
	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	if (st->self_ns < 0 || (ns = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (setns(ns, CLONE_NEWNET)) {
		close(ns);
		return -1;
	}
	close(ns);
	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, SOCKDIAG_NETLINK);
	if (setns(st->self_ns, CLONE_NEWNET)) {
		fputs("cloexec: cannot return to its own network namespace\n",
		      stderr);
		exit(125);
	}
	return nl;
}

static int by_inode(const void *a, const void *b)
{
	const struct sock_info *x = a, *y = b;

	return (x->inode > y->inode) - (x->inode < y->inode);
}

static struct netns_table *tables_of(struct sock_tables *st, int pid)
{
	char path[64], netns[64];
	struct netns_table *t;
	ssize_t n;
	size_t i;
	int nl;

	/* a process's fds come one after another: its namespace once */
	if (st->n && pid == st->last_pid)
		return &st->t[st->last];
	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	n = readlink(path, netns, sizeof(netns) - 1);
	netns[n > 0 ? n : 0] = '\0';
	/* a namespace that cannot be named is read each time, as its own */
	st->last_pid = pid;
	for (i = 0; n > 0 && i < st->n; i++)
		if (!strcmp(st->t[i].netns, netns)) {
			st->last = i;
			return &st->t[i];
		}
	st->t = mem_grow(st->t, &st->cap, st->n, sizeof(*st->t));
	st->last = st->n;
	t = &st->t[st->n++];
	*t = (struct netns_table){ 0 };
	snprintf(t->netns, sizeof(t->netns), "%s", netns);
	nl = netlink_in(st, pid, netns);
	if (nl >= 0) {
		load_inet(t, nl, AF_INET, IPPROTO_TCP, "stream");
		load_inet(t, nl, AF_INET6, IPPROTO_TCP, "stream");
		load_inet(t, nl, AF_INET, IPPROTO_UDP, "dgram");
		load_inet(t, nl, AF_INET6, IPPROTO_UDP, "dgram");
		load_unix(t, nl);
		close(nl);
	}
	/* a sorted array, searched from where the last search ended */
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), by_inode);
	return t;
}

struct sock_tables *socktab_new(void)
{
	struct sock_tables *st = mem_zalloc(1, sizeof(struct sock_tables));
	ssize_t n;

	n = readlink("/proc/self/ns/net", st->self_netns,
		     sizeof(st->self_netns) - 1);
	st->self_netns[n > 0 ? n : 0] = '\0';
	st->self_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	return st;
}

void socktab_free(struct sock_tables *st)
{
	size_t i, j;

	for (i = 0; i < st->n; i++) {
		for (j = 0; j < st->t[i].n; j++) {
			if (st->t[i].v[j].local[0])
				free((char *)st->t[i].v[j].local);
			if (st->t[i].v[j].peer[0])
				free((char *)st->t[i].v[j].peer);
		}
		free(st->t[i].v);
	}
	free(st->t);
	if (st->self_ns >= 0)
		close(st->self_ns);
	free(st);
}

const struct sock_info *socktab_find(struct sock_tables *st, int pid,
				     unsigned long inode)
{
	struct netns_table *t = tables_of(st, pid);
	size_t lo = 0, hi = t->n, step;

	if (!t->n)
		return NULL;
	/* from the last answer: one step forward, then doubling steps */
	if (t->at < t->n && t->v[t->at].inode <= inode) {
		lo = t->at;
		for (step = 1;
		     lo + step < t->n && t->v[lo + step].inode <= inode;
		     step *= 2)
			lo += step;
		hi = lo + step < t->n ? lo + step : t->n;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].inode <= inode)
			lo = mid;
		else
			hi = mid;
	}
	t->at = lo;
	return t->v[lo].inode == inode ? &t->v[lo] : NULL;
}
