/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * suidfd: the setuid program of tests/cmd/inherit.test, linked with the
 * library (a setuid program ignores LD_PRELOAD from the environment).  It
 * opens a file only it may read, without O_CLOEXEC, so that the library
 * forces the flag, and then execs what its caller asks, in the same
 * process: whatever the caller tries, the file must not reach it.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3 || open(argv[1], O_RDONLY) < 0) {
		fputs("usage: suidfd FILE PROGRAM ARG...\n", stderr);
		return 2;
	}
	execv(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
