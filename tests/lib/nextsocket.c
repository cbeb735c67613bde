/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A library that wraps socket() and close() as another interposer would,
 * saying so on stderr: preloaded after libcloexec, it is what the
 * library's wrappers must call, as dlsym(RTLD_NEXT) finds it
 * (tests/cmd/next.test).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/socket.h>
#include <unistd.h>

static void say(const char *line, size_t len)
{
	(void)!write(2, line, len);
}

int socket(int domain, int type, int protocol)
{
	int (*next)(int, int, int) =
		(int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");

	say("nextsocket: socket\n", 19);
	return next(domain, type, protocol);
}

int close(int fd)
{
	int (*next)(int) = (int (*)(int))dlsym(RTLD_NEXT, "close");

	say("nextsocket: close\n", 18);
	return next(fd);
}
