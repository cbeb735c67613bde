/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sockets of a network namespace as sock_diag describes them (unix,
 * and TCP and UDP over IPv4 and IPv6), found by inode (cloexec --scan).
 * Each namespace is dumped once and sorted: a host with 100,000 sockets is
 * one dump of each kind and one lookup per fd, not a pass over a table
 * per fd.  Another namespace is dumped from inside it (setns, root only);
 * where that cannot be done, its sockets are not found.
 */
#ifndef CLOEXEC_CMD_SOCKTAB_H
#define CLOEXEC_CMD_SOCKTAB_H

#include <stdbool.h>

/*
 * A socket as sock_diag describes it, in /proc/PID/net/'s words.  local
 * and peer are "" where it has none (most unix sockets: a host with
 * 100,000 of them holds no copy of an empty name per socket).
 */
struct sock_info {
	unsigned long inode;
	const char *family, *type;
	const char *local, *peer;
	bool listening, connected;
};

struct sock_tables;

struct sock_tables *socktab_new(void);
void socktab_free(struct sock_tables *st);

/*
 * The socket of this inode in pid's network namespace, or NULL.  Stays
 * valid until socktab_free.
 */
const struct sock_info *socktab_find(struct sock_tables *st, int pid,
				     unsigned long inode);

#endif
