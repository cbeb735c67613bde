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
 * flip:A:B (one number that holds now the file A, now the file B, dup2()ed
 * onto it again and again; A has 4096 OFD locks: tests/cmd/scan.test),
 * connected (a unix socketpair), write:PATH (PATH opened
 * for writing), read:PATH, pipe, or pairs:N (N unix socketpairs: 2N
 * sockets, for bench/scan.sh).  For tests/cmd/scanfs.test: tcppair (a
 * TCP connection on 127.0.0.1, both its ends), udp (a UDP socket bound
 * on 127.0.0.1), abstract:NAME (a unix stream socket bound to the
 * abstract name "\0NAME", listening), tcp (a TCP socket never bound: in
 * no table sock_diag dumps), timewait (no fd: a TCP connection on
 * 127.0.0.1 closed by its connecting end first, which leaves a socket in
 * TIME_WAIT, of no inode, for a minute), or netns (no fd: the process
 * moves to a new network namespace, unshare(CLONE_NEWNET); the sockets
 * made before are in the one it left, those made after in the new one;
 * root only).  With -e every fd is made close-on-exec, as the program
 * itself asks: SOCK_CLOEXEC, O_CLOEXEC, pipe2(O_CLOEXEC).  It first
 * closes whatever it inherited above 2, so what a scan finds is its own.
 */
#include "config.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* flip:A:B: the number that holds now A's file, now B's; and the two. */
static int flip_fd = -1, flip_a, flip_b;

/*
 * A's file (read-only) with 4096 OFD locks on it, which make each read of
 * the number's fdinfo long (tens of milliseconds); B's; and a number that holds A's: three fds,
 * the first two close-on-exec, so that a scan looks at the number alone.
 */
static int make_flip(const char *what)
{
	char a[4096], *b;
	int i;

	snprintf(a, sizeof(a), "%s", what);
	b = strchr(a, ':');
	if (!b)
		return 1;
	*b++ = '\0';
	flip_a = open(a, O_RDONLY | O_CLOEXEC);
	flip_b = open(b, O_RDONLY | O_CLOEXEC);
	if (flip_a < 0 || flip_b < 0)
		return 1;
	for (i = 0; i < 4096; i++) {
		struct flock l = { .l_type = F_RDLCK,
				   .l_whence = SEEK_SET,
				   .l_start = 2 * i,
				   .l_len = 1 };

		if (fcntl(flip_a, F_OFD_SETLK, &l))
			return 1;
	}
	flip_fd = dup(flip_a);
	return flip_fd < 0;
}

/*
 * A TCP connection on 127.0.0.1: its connecting end in fds[0], the
 * accepted one in fds[1]; its listener closed.
 */
static int tcp_pair(int sock_flag, int fds[2])
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	fds[0] = socket(AF_INET, SOCK_STREAM | sock_flag, 0);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || fds[0] < 0 || bind(l, (void *)&sin, sizeof(sin)) ||
	    listen(l, 1) || getsockname(l, (void *)&sin, &len) ||
	    connect(fds[0], (void *)&sin, sizeof(sin)))
		return 1;
	fds[1] = accept4(l, NULL, NULL, sock_flag);
	close(l);
	return fds[1] < 0;
}

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
	if (!strcmp(what, "tcppair"))
		return tcp_pair(sock_flag, fds);
	if (!strcmp(what, "udp")) {
		struct sockaddr_in sin = { .sin_family = AF_INET };
		int fd = socket(AF_INET, SOCK_DGRAM | sock_flag, 0);

		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return fd < 0 || bind(fd, (void *)&sin, sizeof(sin));
	}
	if (!strncmp(what, "abstract:", 9)) {
		struct sockaddr_un sun = { .sun_family = AF_UNIX };
		size_t n = strnlen(what + 9, sizeof(sun.sun_path) - 1);
		int fd = socket(AF_UNIX, SOCK_STREAM | sock_flag, 0);

		memcpy(sun.sun_path + 1, what + 9, n);
		return fd < 0 ||
		       bind(fd, (void *)&sun,
			    offsetof(struct sockaddr_un, sun_path) + 1 + n) ||
		       listen(fd, 1);
	}
	if (!strcmp(what, "timewait")) {
		if (tcp_pair(SOCK_CLOEXEC, fds))
			return 1;
		/* the connecting end first: its side waits */
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	if (!strcmp(what, "tcp"))
		return socket(AF_INET, SOCK_STREAM | sock_flag, 0) < 0;
	if (!strcmp(what, "netns"))
		return unshare(CLONE_NEWNET) != 0;
	if (!strncmp(what, "flip:", 5))
		return make_flip(what + 5);
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
	/*
	 * Now one file, now the other, each for a few milliseconds.  The
	 * switch to B waits while A's locks are printed into an fdinfo,
	 * which takes long: a reader of the number's fdinfo that saw A
	 * finds B there when it is done, for milliseconds.
	 */
	while (flip_fd >= 0) {
		dup2(flip_b, flip_fd);
		usleep(2000 + (unsigned)rand() % 4000);
		dup2(flip_a, flip_fd);
		usleep(2000 + (unsigned)rand() % 4000);
	}
	for (;;)
		pause();
}
