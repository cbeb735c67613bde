/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "fdtable.h"
#include "sys.h"

_Atomic(uint8_t *) fdtable_chunks[FDT_CHUNKS];

static uint8_t *chunk_for(int fd)
{
	_Atomic(uint8_t *) *slot = &fdtable_chunks[fd >> FDT_CHUNK_SHIFT];
	uint8_t *chunk = atomic_load_explicit(slot, memory_order_acquire);
	uint8_t *expected = NULL;
	long mem;

	if (chunk)
		return chunk;
	mem = sys_call6(SYS_MMAP, 0, FDT_CHUNK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((unsigned long)mem > -4096UL)
		return NULL;
	if (atomic_compare_exchange_strong(slot, &expected, (uint8_t *)mem))
		return (uint8_t *)mem;
	/* Another thread mapped it first. */
	sys_call(SYS_munmap, mem, FDT_CHUNK, 0, 0, 0);
	return expected;
}

static void set_bits(int fd, unsigned bits)
{
	uint8_t *chunk;

	if (fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS)
		return;
	chunk = chunk_for(fd);
	if (chunk)
		chunk[fd & (FDT_CHUNK - 1)] |= bits;
}

void fdtable_set_keep(int fd)
{
	set_bits(fd, FDT_KEEP);
}

/* A linux_dirent64, as getdents64(2) returns them. */
struct dirent64 {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static int parse_fd(const char *s)
{
	int fd = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || fd > 100000000)
			return -1;
		fd = fd * 10 + (*s - '0');
	}
	return fd;
}

static bool inheritable(int fd)
{
	long flags = sys_fcntl(fd, F_GETFD, 0);

	return flags >= 0 && !(flags & FD_CLOEXEC);
}

/*
 * Call fn on every open fd at 3 and above: from /proc/self/fd, or without
 * /proc, by asking every number up to the soft limit (at most 64K).
 */
static int for_each_fd(int (*fn)(int fd))
{
	long long buf[512];
	long dir = sys_openat(AT_FDCWD, "/proc/self/fd",
			      O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	int count = 0, fd;
	long n, off;

	if (dir >= 0) {
		while ((n = sys_getdents64(dir, buf, sizeof(buf))) > 0) {
			for (off = 0; off < n;) {
				struct dirent64 *d =
					(struct dirent64 *)((char *)buf + off);

				fd = parse_fd(d->name);
				if (fd >= 3 && fd != dir)
					count += fn(fd);
				off += d->reclen;
			}
		}
		sys_close(dir);
		return count;
	}
	{
		unsigned long long rl[2] = { 1024, 1024 };
		long limit;

		sys_call(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, rl, 0);
		limit = rl[0] < 65536 ? (long)rl[0] : 65536;
		for (fd = 3; fd < limit; fd++)
			if (sys_fcntl(fd, F_GETFD, 0) >= 0)
				count += fn(fd);
	}
	return count;
}

static int note_inherited(int fd)
{
	if (inheritable(fd))
		set_bits(fd, FDT_INHERITED);
	return 0;
}

/*
 * At load time, because only then can it be known: which fds the process
 * was given.  A sweep must never take those away.
 */
__attribute__((constructor)) void fdtable_scan_inherited(void)
{
	for_each_fd(note_inherited);
}

static int sweep_one(int fd)
{
	if (!inheritable(fd) || (fdtable_get(fd) & (FDT_KEEP | FDT_INHERITED)))
		return 0;
	sys_fcntl(fd, F_SETFD, FD_CLOEXEC);
	return 1;
}

int fdtable_sweep(void)
{
	return for_each_fd(sweep_one);
}
