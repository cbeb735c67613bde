/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Socket tables of /proc/PID/net/, one set per network namespace (named by
 * the /proc/PID/ns/net link), each with an open-addressing hash on the
 * inode.  Nothing is read again when the scan comes back to a namespace,
 * and no entry moves once its table is built, so the pointers that
 * socktab_find hands out stay good.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem.h"
#include "socktab.h"

struct netns_table {
	char netns[64];
	struct sock_info *v;
	size_t n, cap;
	/* index + 1 into v; 0 is an empty slot; a power of two long */
	uint32_t *slots;
	size_t nslots;
};

struct sock_tables {
	struct netns_table *t;
	size_t n, cap;
	/* the process asked about last, and the index of its namespace */
	int last_pid;
	size_t last;
};

static void format_inet(char *out, size_t size, const char *hex, bool v6)
{
	unsigned char a[16];
	unsigned port = 0;
	size_t i, len, nbytes = v6 ? 16 : 4;
	const char *colon = strchr(hex, ':');

	if (!colon || (size_t)(colon - hex) != 2 * nbytes) {
		snprintf(out, size, "?");
		return;
	}
	/* The kernel prints each 32-bit word in host byte order. */
	for (i = 0; i < nbytes; i++) {
		unsigned b;
		size_t word = i / 4, in_word = i % 4;

		sscanf(hex + 8 * word + 2 * (3 - in_word), "%2x", &b);
		a[i] = b;
	}
	sscanf(colon + 1, "%x", &port);
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

/* /proc/PID/net/NAME, past its heading line; NULL if it cannot be read. */
static FILE *open_net_table(int pid, const char *name, char *line, int size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/net/%s", pid, name);
	f = fopen(path, "re");
	if (f && !fgets(line, size, f)) {
		fclose(f);
		return NULL;
	}
	return f;
}

static struct sock_info *add(struct netns_table *t)
{
	t->v = mem_grow(t->v, &t->cap, t->n, sizeof(*t->v));
	return &t->v[t->n++];
}

/* TCP and UDP, v4 and v6: "sl local rem st ... uid timeout inode". */
static void load_inet(struct netns_table *t, int pid, const char *name,
		      const char *type, bool v6)
{
	char line[512];
	FILE *f = open_net_table(pid, name, line, sizeof(line));

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char local[64], rem[64];
		unsigned st;
		unsigned long inode;
		struct sock_info *s;

		if (sscanf(line, "%*d: %63s %63s %x %*s %*s %*s %*s %*s %lu",
			   local, rem, &st, &inode) != 4)
			continue;
		s = add(t);
		*s = (struct sock_info){ .inode = inode,
					 .type = type,
					 .family = v6 ? "inet6" : "inet" };
		format_inet(s->local, sizeof(s->local), local, v6);
		/* TCP_LISTEN is 10; TCP_ESTABLISHED, and a connected UDP, 1. */
		s->listening = !strcmp(type, "stream") && st == 10;
		s->connected = st == 1;
		if (s->connected)
			format_inet(s->peer, sizeof(s->peer), rem, v6);
	}
	fclose(f);
}

/* "Num RefCount Protocol Flags Type St Inode [Path]". */
static void load_unix(struct netns_table *t, int pid)
{
	static const char *const types[] = { "?",   "stream", "dgram",
					     "raw", "rdm",    "seqpacket" };
	char line[4096 + 128];
	FILE *f = open_net_table(pid, "unix", line, sizeof(line));

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long flags, inode;
		unsigned type, st;
		int end = 0;
		struct sock_info *s;

		if (sscanf(line, "%*s %*s %*s %lx %x %x %lu%n", &flags, &type,
			   &st, &inode, &end) != 4)
			continue;
		s = add(t);
		*s = (struct sock_info){ .inode = inode,
					 .family = "unix",
					 .type = type < 6 ? types[type] : "?" };
		line[strcspn(line, "\n")] = '\0';
		while (line[end] == ' ')
			end++;
		snprintf(s->local, sizeof(s->local), "%s", line + end);
		/* __SO_ACCEPTCON: the socket listens.  SS_CONNECTED is 3. */
		s->listening = flags & 0x10000;
		s->connected = st == 3;
	}
	fclose(f);
}

/* Fibonacci hashing: the product's top bits, which every inode bit moves. */
static size_t hash_inode(unsigned long inode, size_t nslots)
{
	uint64_t h = (uint64_t)inode * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> (64 - __builtin_ctzll(nslots)));
}

/* Index the table: at most half the slots used, so probes stay short. */
static void build_hash(struct netns_table *t)
{
	size_t i, h;

	for (t->nslots = 64; t->nslots < 2 * t->n; t->nslots *= 2)
		;
	t->slots = mem_zalloc(t->nslots, sizeof(*t->slots));
	for (i = 0; i < t->n && i < UINT32_MAX - 1; i++) {
		for (h = hash_inode(t->v[i].inode, t->nslots); t->slots[h];
		     h = (h + 1) & (t->nslots - 1))
			;
		t->slots[h] = (uint32_t)(i + 1);
	}
}

static struct netns_table *tables_of(struct sock_tables *st, int pid)
{
	char path[64], netns[64];
	struct netns_table *t;
	ssize_t n;
	size_t i;

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
	load_inet(t, pid, "tcp", "stream", false);
	load_inet(t, pid, "tcp6", "stream", true);
	load_inet(t, pid, "udp", "dgram", false);
	load_inet(t, pid, "udp6", "dgram", true);
	load_unix(t, pid);
	build_hash(t);
	return t;
}

struct sock_tables *socktab_new(void)
{
	return mem_zalloc(1, sizeof(struct sock_tables));
}

void socktab_free(struct sock_tables *st)
{
	size_t i;

	for (i = 0; i < st->n; i++) {
		free(st->t[i].v);
		free(st->t[i].slots);
	}
	free(st->t);
	free(st);
}

const struct sock_info *socktab_find(struct sock_tables *st, int pid,
				     unsigned long inode)
{
	struct netns_table *t = tables_of(st, pid);
	size_t h;

	for (h = hash_inode(inode, t->nslots); t->slots[h];
	     h = (h + 1) & (t->nslots - 1))
		if (t->v[t->slots[h] - 1].inode == inode)
			return &t->v[t->slots[h] - 1];
	return NULL;
}
