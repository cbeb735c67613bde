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

static int next_socket(int domain, int type, int protocol)
{
	int (*next)(int, int, int) =
		(int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");

	return next(domain, type, protocol);
}

/*
 * Two versions of socket, as a library that changed a function keeps
 * the old one for programs bound to it (glibc's fopen@GLIBC_2.0 on
 * i386): the old, hidden one first in the symbol table, where a look-up
 * of the name without a version passes it by, as dlsym does, for the
 * default (nextsocket.map).
 */
int socket_old(int domain, int type, int protocol);
int socket_default(int domain, int type, int protocol);
__asm__(".symver socket_old, socket@NEXTSOCKET_1");
__asm__(".symver socket_default, socket@@NEXTSOCKET_2");

int socket_old(int domain, int type, int protocol)
{
	say("nextsocket: socket@NEXTSOCKET_1\n", 32);
	return next_socket(domain, type, protocol);
}

int socket_default(int domain, int type, int protocol)
{
	say("nextsocket: socket\n", 19);
	return next_socket(domain, type, protocol);
}

int close(int fd)
{
	int (*next)(int) = (int (*)(int))dlsym(RTLD_NEXT, "close");

	say("nextsocket: close\n", 18);
	return next(fd);
}
