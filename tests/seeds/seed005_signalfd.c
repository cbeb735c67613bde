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

#include "seedcheck.h"
#include "testlib.h"

static int raw;

static int make(int flags, int fds[2])
{
	sigset_t ss;

	sigemptyset(&ss);
	sigaddset(&ss, SIGUSR1);
	fds[0] = raw ? (int)syscall(SYS_signalfd4, -1, &ss, 8, flags)
		     : signalfd(-1, &ss, flags);
	return fds[0] == -1 ? -1 : 1;
}

static int seed(void)
{
	return seed_check_both(&raw, &seed_cloexec, "signalfd4",
			       "SFD_CLOEXEC", SFD_CLOEXEC, make);
}

int main(int argc, char **argv)
{
	setenv("TL_CONFIGS", "libc,preload,preload-oldkernel", 0);
	return tl_main_plain(argc, argv, seed);
}
