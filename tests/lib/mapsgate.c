/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An exec between the open of a process's /proc/PID/maps and its first
 * read, made certain: preloaded into cloexec, read() holds that first
 * read until the process runs MAPSGATE_EXE (a file name, no directory),
 * or is gone, 5 s at most.  The fd, opened on the image the exec left,
 * then reads nothing (tree.test).  Without MAPSGATE_EXE, or for any other
 * fd, read() is the kernel's.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* 1 if /proc/PID/exe names a file called exe, 0 if another, -1: gone. */
static int runs(long pid, const char *exe)
{
	char link[64], target[4096];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%ld/exe", pid);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -1;
	target[n] = '\0';
	base = strrchr(target, '/');
	return !strcmp(base ? base + 1 : target, exe);
}

static void gate(int fd)
{
	const char *exe = getenv("MAPSGATE_EXE");
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	char link[64], target[64], *end;
	long pid;
	ssize_t n;
	int i;

	if (!exe)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	if (strncmp(target, "/proc/", 6))
		return;
	pid = strtol(target + 6, &end, 10);
	if (end == target + 6 || strcmp(end, "/maps") || pid == getpid() ||
	    lseek(fd, 0, SEEK_CUR) != 0)
		return;
	for (i = 0; i < 500 && runs(pid, exe) == 0; i++)
		nanosleep(&tick, NULL);
}

ssize_t read(int fd, void *buf, size_t size)
{
	gate(fd);
	return syscall(SYS_read, fd, buf, size);
}

/* What a read of a known buffer becomes under _FORTIFY_SOURCE. */
ssize_t __read_chk(int fd, void *buf, size_t size, size_t buf_size);
ssize_t __read_chk(int fd, void *buf, size_t size, size_t buf_size)
{
	if (size > buf_size)
		abort();
	return read(fd, buf, size);
}
