/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Seed 010 (flag parameters: NONBLOCK in pipe), as merged: pipe2(fds,
 * O_NONBLOCK).  Through the libc function and syscall(SYS_pipe2).
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testlib.h"

static int make(int raw, int fds[2], int flags)
{
	if (raw)
		return (int)syscall(SYS_pipe2, fds, flags);
	return pipe2(fds, flags);
}

static int seed_via(int raw)
{
	int fds[2], i, fl;

	if (make(raw, fds, 0) == -1) {
		puts("pipe2(0) failed");
		return 1;
	}
	for (i = 0; i < 2; ++i) {
		fl = fcntl(fds[i], F_GETFL);
		if (fl == -1) {
			puts("fcntl failed");
			return 1;
		}
		if (fl & O_NONBLOCK) {
			printf("pipe2(0) set non-blocking mode for fds[%d]\n",
			       i);
			return 1;
		}
		close(fds[i]);
	}
	if (make(raw, fds, O_NONBLOCK) == -1) {
		puts("pipe2(O_NONBLOCK) failed");
		return 1;
	}
	for (i = 0; i < 2; ++i) {
		fl = fcntl(fds[i], F_GETFL);
		if (fl == -1) {
			puts("fcntl failed");
			return 1;
		}
		if ((fl & O_NONBLOCK) == 0) {
			printf("pipe2(O_NONBLOCK) does not set non-blocking mode for fds[%d]\n",
			       i);
			return 1;
		}
		close(fds[i]);
	}
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
