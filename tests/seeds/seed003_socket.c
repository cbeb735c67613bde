/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Seed 003 (flag parameters: socket and socketpair), ported to the final
 * ABI: SOCK_CLOEXEC is the kernel's 02000000 from <sys/socket.h>, not the
 * 0x40000000 of the first draft.  Otherwise as Drepper wrote it.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "testlib.h"

static int seed(void)
{
	int fd, coe, fds[2], i;

	fd = socket(PF_INET, SOCK_STREAM, 0);
	if (fd == -1) {
		puts("socket(0) failed");
		return 1;
	}
	coe = fcntl(fd, F_GETFD);
	if (coe == -1) {
		puts("fcntl failed");
		return 1;
	}
	if (coe & FD_CLOEXEC) {
		puts("socket(0) set close-on-exec flag");
		return 1;
	}
	close(fd);
	fd = socket(PF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		puts("socket(SOCK_CLOEXEC) failed");
		return 1;
	}
	coe = fcntl(fd, F_GETFD);
	if (coe == -1) {
		puts("fcntl failed");
		return 1;
	}
	if ((coe & FD_CLOEXEC) == 0) {
		puts("socket(SOCK_CLOEXEC) does not set close-on-exec flag");
		return 1;
	}
	close(fd);
	if (socketpair(PF_UNIX, SOCK_STREAM, 0, fds) == -1) {
		puts("socketpair(0) failed");
		return 1;
	}
	for (i = 0; i < 2; ++i) {
		coe = fcntl(fds[i], F_GETFD);
		if (coe == -1) {
			puts("fcntl failed");
			return 1;
		}
		if (coe & FD_CLOEXEC) {
			printf("socketpair(0) set close-on-exec flag for fds[%d]\n",
			       i);
			return 1;
		}
		close(fds[i]);
	}
	if (socketpair(PF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == -1) {
		puts("socketpair(SOCK_CLOEXEC) failed");
		return 1;
	}
	for (i = 0; i < 2; ++i) {
		coe = fcntl(fds[i], F_GETFD);
		if (coe == -1) {
			puts("fcntl failed");
			return 1;
		}
		if ((coe & FD_CLOEXEC) == 0) {
			printf("socketpair(SOCK_CLOEXEC) does not set close-on-exec flag for fds[%d]\n",
			       i);
			return 1;
		}
		close(fds[i]);
	}
	puts("OK");
	return 0;
}

int main(int argc, char **argv)
{
	/* Without the library the emulated kernel refuses the flags. */
	setenv("TL_CONFIGS", "libc,preload,preload-oldkernel", 0);
	return tl_main_plain(argc, argv, seed);
}
