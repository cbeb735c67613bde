/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * holdfds: a stand-in daemon for the tests of cloexec --scan.  It makes
 * the fds its arguments name, says "ready" on stdout, and waits to be
 * killed:
 *
 *	holdfds [-e] WHAT...
 *
 * WHAT is listen (a TCP socket on 127.0.0.1, listening), listen6 (the
 * same on ::1), unixlisten:PATH (a unix socket bound to PATH, listening),
 * connected (a unix socketpair), write:PATH (PATH opened
 * for writing), read:PATH, pipe, or pairs:N (N unix socketpairs: 2N
 * sockets, for bench/scan.sh).  With -e every fd is made close-on-exec, as the program itself
 * asks: SOCK_CLOEXEC, O_CLOEXEC, pipe2(O_CLOEXEC).  It first closes
 * whatever it inherited above 2, so what a scan finds is its own.
 */
#include "config.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int make(const char *what, int cloexec)
{
	int sock_flag = cloexec ? SOCK_CLOEXEC : 0;
	int open_flag = cloexec ? O_CLOEXEC : 0;
	int fds[2];

	if (!strcmp(what, "listen")) {
		struct sockaddr_in sin = { .sin_family = AF_INET };
		int fd = socket(AF_INET, SOCK_STREAM | sock_flag, 0);

		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return fd < 0 || bind(fd, (void *)&sin, sizeof(sin)) ||
		       listen(fd, 1);
	}
	if (!strcmp(what, "listen6")) {
		struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
		int fd = socket(AF_INET6, SOCK_STREAM | sock_flag, 0);

		sin6.sin6_addr = in6addr_loopback;
		return fd < 0 || bind(fd, (void *)&sin6, sizeof(sin6)) ||
		       listen(fd, 1);
	}
	if (!strncmp(what, "unixlisten:", 11)) {
		struct sockaddr_un sun = { .sun_family = AF_UNIX };
		int fd = socket(AF_UNIX, SOCK_STREAM | sock_flag, 0);

		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", what + 11);
		return fd < 0 || bind(fd, (void *)&sun, sizeof(sun)) ||
		       listen(fd, 1);
	}
	if (!strcmp(what, "connected"))
		return socketpair(AF_UNIX, SOCK_STREAM | sock_flag, 0, fds);
	if (!strncmp(what, "write:", 6))
		return open(what + 6, O_WRONLY | O_CREAT | open_flag, 0600) < 0;
	if (!strncmp(what, "read:", 5))
		return open(what + 5, O_RDONLY | open_flag) < 0;
	if (!strcmp(what, "pipe"))
		return pipe2(fds, open_flag);
	if (!strncmp(what, "pairs:", 6)) {
		long n = atol(what + 6);

		while (n-- > 0)
			if (socketpair(AF_UNIX, SOCK_STREAM | sock_flag, 0,
				       fds))
				return 1;
		return 0;
	}
	fprintf(stderr, "holdfds: unknown '%s'\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	int i = 1, cloexec = argc > 1 && !strcmp(argv[1], "-e");
	long fd, max = sysconf(_SC_OPEN_MAX);

	for (fd = 3; fd < max && fd < 65536; fd++)
		close(fd);
	for (i += cloexec; i < argc; i++)
		if (make(argv[i], cloexec)) {
			perror(argv[i]);
			return 1;
		}
	puts("ready");
	fflush(stdout);
	for (;;)
		pause();
}
