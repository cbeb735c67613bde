/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * oldflags: the flagged calls, for a look at what the C library does
 * when the kernel refuses the flag.  For doc/musl.md, on the emulated
 * 2008 kernel of the tests (tests/lib/oldkernel-preload.c):
 *
 *	musl-gcc -o oldflags doc/musl/oldflags.c
 *	strace -f -E TL_OLDKERNEL=1 -E LD_PRELOAD=$PWD/tests/lib/.libs/liboldkernel.so \
 *	    -e trace=socket,pipe,pipe2,dup2,dup3,fcntl,open,epoll_create1 ./oldflags
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	int p[2];

	fprintf(stderr, "socket %d\n",
		socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
	fprintf(stderr, "pipe2 %d\n", pipe2(p, O_CLOEXEC | O_NONBLOCK));
	fprintf(stderr, "dup3 %d\n", dup3(2, 20, O_CLOEXEC));
	fprintf(stderr, "open %d\n", open("/dev/null", O_RDONLY | O_CLOEXEC));
	fprintf(stderr, "epoll_create1 %d\n", epoll_create1(EPOLL_CLOEXEC));
	fprintf(stderr, "F_DUPFD_CLOEXEC %d\n", fcntl(2, F_DUPFD_CLOEXEC, 30));
	return 0;
}
