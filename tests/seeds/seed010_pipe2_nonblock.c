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

#include "seedcheck.h"
#include "testlib.h"

static int raw;

static int make(int flags, int fds[2])
{
	if ((raw ? syscall(SYS_pipe2, fds, flags) : pipe2(fds, flags)) == -1)
		return -1;
	return 2;
}

static int seed(void)
{
	return seed_check_both(&raw, &seed_nonblock, "pipe2", "O_NONBLOCK", O_NONBLOCK, make);
}

int main(int argc, char **argv)
{
	setenv("TL_CONFIGS", "libc,preload,preload-oldkernel", 0);
	return tl_main_plain(argc, argv, seed);
}
