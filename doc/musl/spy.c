/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * spy.so: a preloaded library that only says which of these names a
 * program calls through the PLT, where a preloaded wrapper sees it.  A
 * call the C library makes inside its own functions, straight to the
 * kernel, prints nothing.  For doc/musl.md:
 *
 *	musl-gcc -shared -fPIC -o spy.so doc/musl/spy.c
 *	LD_PRELOAD=$PWD/spy.so ./probe fopen 2>&1 | grep SPY
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static void say(const char *name)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "SPY %s\n", name);

	syscall(SYS_write, 2, buf, n);
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	say("open");
	return NEXT(open)(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	say("openat");
	return NEXT(openat)(dirfd, path, flags, mode);
}

int socket(int domain, int type, int protocol)
{
	say("socket");
	return NEXT(socket)(domain, type, protocol);
}

int pipe(int fds[2])
{
	say("pipe");
	return NEXT(pipe)(fds);
}

int pipe2(int fds[2], int flags)
{
	say("pipe2");
	return NEXT(pipe2)(fds, flags);
}

int dup2(int oldfd, int newfd)
{
	say("dup2");
	return NEXT(dup2)(oldfd, newfd);
}

int dup3(int oldfd, int newfd, int flags)
{
	say("dup3");
	return NEXT(dup3)(oldfd, newfd, flags);
}

pid_t fork(void)
{
	say("fork");
	return NEXT(fork)();
}

int posix_spawn(pid_t *pid, const char *path,
		const posix_spawn_file_actions_t *fa,
		const posix_spawnattr_t *attr, char *const argv[],
		char *const envp[])
{
	say("posix_spawn");
	return NEXT(posix_spawn)(pid, path, fa, attr, argv, envp);
}

FILE *fopen(const char *path, const char *mode)
{
	say("fopen");
	return NEXT(fopen)(path, mode);
}

int posix_openpt(int flags)
{
	say("posix_openpt");
	return NEXT(posix_openpt)(flags);
}
