/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sockets of a network namespace as /proc/PID/net/ lists them, found
 * by inode (cloexec --scan).  Each namespace's tables are read once and
 * hashed: a host with 100,000 sockets is one read of its tables and one
 * lookup per fd, not a pass over the tables per fd.
 */
#ifndef CLOEXEC_CMD_SOCKTAB_H
#define CLOEXEC_CMD_SOCKTAB_H

#include <stdbool.h>

/* A socket as the tables in /proc/PID/net/ describe it. */
struct sock_info {
	unsigned long inode;
	const char *family, *type;
	char local[64], peer[64];
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
