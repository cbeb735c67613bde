/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Seed 007 (flag parameters: epoll_create), ported to the final ABI: the
 * draft's epoll_create2(size, flags) was merged as epoll_create1(flags),
 * with EPOLL_CLOEXEC from <sys/epoll.h>.  Through the libc function and
 * syscall(SYS_epoll_create1).  (The original's last message said "set"
 * where it meant "does not set"; that is fixed.)
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seedcheck.h"
#include "testlib.h"

static int raw;

static int make(int flags, int fds[2])
{
	fds[0] = raw ? (int)syscall(SYS_epoll_create1, flags)
		     : epoll_create1(flags);
	return fds[0] == -1 ? -1 : 1;
}

static int seed(void)
{
	return seed_check_both(&raw, &seed_cloexec, "epoll_create1",
			       "EPOLL_CLOEXEC", EPOLL_CLOEXEC, make);
}

int main(int argc, char **argv)
{
	setenv("TL_CONFIGS", "libc,preload,preload-oldkernel", 0);
	return tl_main_plain(argc, argv, seed);
}
