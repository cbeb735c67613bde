/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * suidexec: the setuid-root program of tests/cmd/auditlog.test, which
 * installs a copy of it setuid root and runs it as another user.
 *
 *	suidexec PROGRAM ARGV0 [ARG]...
 *
 * Opens its own executable with a plain open (an fd the next program
 * inherits where the policy does not force close-on-exec, and that
 * names this program), then runs PROGRAM with the argv[0] and arguments
 * its caller chose: what a less privileged caller controls.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: suidexec PROGRAM ARGV0 [ARG]...\n", stderr);
		return 2;
	}
	if (open("/proc/self/exe", O_RDONLY) < 0) {
		perror("suidexec: /proc/self/exe");
		return 1;
	}
	execv(argv[1], argv + 2);
	perror("suidexec: exec");
	return 127;
}
