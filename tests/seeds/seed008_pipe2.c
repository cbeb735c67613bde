/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Seed 008 (flag parameters: pipe), as merged: pipe2(fds, O_CLOEXEC).
 * Through the libc function and syscall(SYS_pipe2), as the original did.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testlib.h"

static int make(int raw, int fd[2], int flags)
{
	if (raw)
		return (int)syscall(SYS_pipe2, fd, flags);
	return pipe2(fd, flags);
}

static int seed_via(int raw)
{
	int fd[2], i, coe;

	if (make(raw, fd, 0) != 0) {
		puts("pipe2(0) failed");
		return 1;
	}
	for (i = 0; i < 2; ++i) {
		coe = fcntl(fd[i], F_GETFD);
		if (coe == -1) {
			puts("fcntl failed");
			return 1;
		}
		if (coe & FD_CLOEXEC) {
			printf("pipe2(0) set close-on-exit for fd[%d]\n", i);
			return 1;
		}
	}
	close(fd[0]);
	close(fd[1]);
	if (make(raw, fd, O_CLOEXEC) != 0) {
		puts("pipe2(O_CLOEXEC) failed");
		return 1;
	}
	for (i = 0; i < 2; ++i) {
		coe = fcntl(fd[i], F_GETFD);
		if (coe == -1) {
			puts("fcntl failed");
			return 1;
		}
		if ((coe & FD_CLOEXEC) == 0) {
			printf("pipe2(O_CLOEXEC) does not set close-on-exit for fd[%d]\n",
			       i);
			return 1;
		}
	}
	close(fd[0]);
	close(fd[1]);
	puts(raw ? "OK (syscall)" : "OK (libc)");
	return 0;
}

static int seed(void)
{
	return seed_via(0) | seed_via(1);
}

int main(int argc, char **argv)
{
	setenv("TL_CONFIGS", "libc,preload,preload-oldkernel", 0);
	return tl_main_plain(argc, argv, seed);
}
