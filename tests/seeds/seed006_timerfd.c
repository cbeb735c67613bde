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

#include "seedcheck.h"
#include "testlib.h"

static int raw;

static int make(int flags, int fds[2])
{
	fds[0] = raw ? (int)syscall(SYS_timerfd_create, CLOCK_REALTIME, flags)
		     : timerfd_create(CLOCK_REALTIME, flags);
	return fds[0] == -1 ? -1 : 1;
}

static int seed(void)
{
	return seed_check_both(&raw, &seed_cloexec, "timerfd_create",
			       "TFD_CLOEXEC", TFD_CLOEXEC, make);
}

int main(int argc, char **argv)
{
	setenv("TL_CONFIGS", "libc,preload,preload-oldkernel", 0);
	return tl_main_plain(argc, argv, seed);
}
