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

#include "seedcheck.h"
#include "testlib.h"

static int seed(void)
{
	if (seed_check(&seed_cloexec, "socket", "SOCK_CLOEXEC", SOCK_CLOEXEC,
		       seed_make_socket) ||
	    seed_check(&seed_cloexec, "socketpair", "SOCK_CLOEXEC",
		       SOCK_CLOEXEC, seed_make_socketpair))
		return 1;
	puts("OK");
	return 0;
}

int main(int argc, char **argv)
{
	/* Without the library the emulated kernel refuses the flags. */
	setenv("TL_CONFIGS", "libc,preload,preload-oldkernel", 0);
	return tl_main_plain(argc, argv, seed);
}
