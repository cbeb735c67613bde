/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Seed 005 (flag parameters: signalfd), ported to the final ABI: SFD_CLOEXEC
 * from <sys/signalfd.h> (the draft's value, 1 << 0, was O_CLOEXEC by the
 * time it was merged).  Run through the libc function and through
 * syscall(SYS_signalfd4), as the original did.
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testlib.h"

static int make(int raw, const sigset_t *ss, int flags)
{
	if (raw)
		return (int)syscall(SYS_signalfd4, -1, ss, 8, flags);
	return signalfd(-1, ss, flags);
}

static int seed_via(int raw)
{
	sigset_t ss;
	int fd, coe;

	sigemptyset(&ss);
	sigaddset(&ss, SIGUSR1);
	fd = make(raw, &ss, 0);
	if (fd == -1) {
		puts("signalfd4(0) failed");
		return 1;
	}
	coe = fcntl(fd, F_GETFD);
	if (coe == -1) {
		puts("fcntl failed");
		return 1;
	}
	if (coe & FD_CLOEXEC) {
		puts("signalfd4(0) set close-on-exec flag");
		return 1;
	}
	close(fd);
	fd = make(raw, &ss, SFD_CLOEXEC);
	if (fd == -1) {
		puts("signalfd4(SFD_CLOEXEC) failed");
		return 1;
	}
	coe = fcntl(fd, F_GETFD);
	if (coe == -1) {
		puts("fcntl failed");
		return 1;
	}
	if ((coe & FD_CLOEXEC) == 0) {
		puts("signalfd4(SFD_CLOEXEC) does not set close-on-exec flag");
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
