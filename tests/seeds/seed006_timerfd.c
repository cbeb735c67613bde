/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Seed 006 (flag parameters: timerfd_create), ported to the final ABI:
 * TFD_CLOEXEC from <sys/timerfd.h>.  Through the libc function and
 * syscall(SYS_timerfd_create).  (The original's last message said "set"
 * where it meant "does not set"; that is fixed.)
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

static int make(int raw, int flags)
{
	if (raw)
		return (int)syscall(SYS_timerfd_create, CLOCK_REALTIME, flags);
	return timerfd_create(CLOCK_REALTIME, flags);
}

static int seed_via(int raw)
{
	int fd = make(raw, 0), coe;

	if (fd == -1) {
		puts("timerfd_create(0) failed");
		return 1;
	}
	coe = fcntl(fd, F_GETFD);
	if (coe == -1) {
		puts("fcntl failed");
		return 1;
	}
	if (coe & FD_CLOEXEC) {
		puts("timerfd_create(0) set close-on-exec flag");
		return 1;
	}
	close(fd);
	fd = make(raw, TFD_CLOEXEC);
	if (fd == -1) {
		puts("timerfd_create(TFD_CLOEXEC) failed");
		return 1;
	}
	coe = fcntl(fd, F_GETFD);
	if (coe == -1) {
		puts("fcntl failed");
		return 1;
	}
	if ((coe & FD_CLOEXEC) == 0) {
		puts("timerfd_create(TFD_CLOEXEC) does not set close-on-exec flag");
		return 1;
	}
	close(fd);
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
