/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flipname A B: what a writer of a tree can do to whoever works in it as
 * root: exchange the names A and B atomically (renameat2 RENAME_EXCHANGE),
 * again and again, until killed.  With A a directory and B a symbolic
 * link out of the tree, A is now the one and now the other, between any
 * check of A and its use.  It writes "flipping" to stdout once started.
 *
 * flipname -1 A B: exchange them once.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int main(int argc, char **argv)
{
	unsigned long n;
	int once = argc == 4 && argv[1][0] == '-' && argv[1][1] == '1';

	if (argc != 3 && !once) {
		fprintf(stderr, "usage: flipname [-1] A B\n");
		return 2;
	}
	argv += once;
	if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2],
		    RENAME_EXCHANGE)) {
		perror("flipname: renameat2");
		return 1;
	}
	if (once)
		return 0;
	puts("flipping");
	fflush(stdout);
	/* A pause now and then, so that each name stays a while as it is. */
	for (n = 0;; n++) {
		syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2],
			RENAME_EXCHANGE);
		if (n % 8 == 0)
			sched_yield();
	}
}
