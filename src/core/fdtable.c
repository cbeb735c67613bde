/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "export.h"
#include "fdtable.h"
#include "load.h"
#include "sys.h"

/*
 * Beside the other start-up data, on pages the dynamic loader writes at
 * every start anyway (export.h): in .bss, the first fd a process makes
 * would fault in a page of its own.  In a section of its own, which the
 * linker places after theirs: its first bytes (the low fds) then share a
 * page with the variables a fork child writes (the fork lock's, its pid),
 * and the child's copy of that page costs it one fault, not two.
 */
uint8_t fdtable_chunk0[FDT_CHUNK] __attribute__((section("cloexec_table")));
/* Slot 0 unused: fdtable_chunk() gives fdtable_chunk0 for it. */
_Atomic(uint8_t *) fdtable_chunks[FDT_CHUNKS] ZERO_DATA;
atomic_uint fdtable_top STARTUP_DATA;
atomic_uint fdtable_fast_span STARTUP_DATA;
/*
 * An origin as stored, 24 bytes: the call's name is one of the library's
 * own strings, kept as its distance from a string of the library, and the
 * device number folded to 32 bits (it is a check, with the inode).
 */
struct origin_slot {
	void *caller; /* NULL: no origin noted */
	unsigned long long ino;
	int32_t call;
	uint32_t dev;
};

static _Atomic(struct origin_slot *) origin_chunks[FDT_CHUNKS] ZERO_DATA;
static const char origin_base[] = "";

static uint32_t fold_dev(unsigned long long dev)
{
	return (uint32_t)dev ^ (uint32_t)(dev >> 32);
}

/* The chunk for fd in a table, mapped (zeroed) on first use. */
static void *chunk_in(_Atomic(void *) *slots, int fd, size_t size)
{
	_Atomic(void *) *slot = &slots[fd >> FDT_CHUNK_SHIFT];
	void *chunk = atomic_load_explicit(slot, memory_order_acquire);
	void *expected = NULL;
	long mem;

	if (chunk)
		return chunk;
	mem = sys_call6(SYS_MMAP, 0, size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((unsigned long)mem > -4096UL)
		return NULL;
	if (atomic_compare_exchange_strong(slot, &expected, (void *)mem))
		return (void *)mem;
	/* Another thread mapped it first. */
	sys_call(SYS_munmap, mem, size, 0, 0, 0);
	return expected;
}

/* The top is raised first: no walk of a fork child's copy stops short. */
static uint8_t *chunk_for(int fd)
{
	if ((unsigned)fd < FDT_CHUNK)
		return fdtable_chunk0;
	return chunk_in((_Atomic(void *) *)fdtable_chunks, fd, FDT_CHUNK);
}

void fdtable_note_origin(int fd, const char *call, void *caller)
{
	struct origin_slot *chunk;
	struct stat st;

	if (fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS ||
	    fstat(fd, &st))
		return;
	chunk = chunk_in((_Atomic(void *) *)origin_chunks, fd,
			 FDT_CHUNK * sizeof(struct origin_slot));
	if (chunk)
		chunk[fd & (FDT_CHUNK - 1)] = (struct origin_slot){
			.caller = caller,
			.ino = st.st_ino,
			.call = (int32_t)((uintptr_t)call -
					  (uintptr_t)origin_base),
			.dev = fold_dev(st.st_dev),
		};
}

bool fdtable_origin(int fd, struct fd_origin *out)
{
	struct origin_slot *chunk, slot;
	struct stat st;

	if (fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS)
		return false;
	chunk = atomic_load_explicit(&origin_chunks[fd >> FDT_CHUNK_SHIFT],
				     memory_order_acquire);
	if (!chunk)
		return false;
	slot = chunk[fd & (FDT_CHUNK - 1)];
	if (!slot.caller || fstat(fd, &st) || slot.ino != st.st_ino ||
	    slot.dev != fold_dev(st.st_dev))
		return false;
	out->call = (const char *)((uintptr_t)origin_base + slot.call);
	out->caller = slot.caller;
	out->dev = st.st_dev;
	out->ino = st.st_ino;
	return true;
}

void fdtable_raise_top(int fd)
{
	unsigned top = atomic_load_explicit(&fdtable_top, memory_order_relaxed);
	unsigned end = (unsigned)fd < FDT_CHUNK ? (unsigned)fd + 1 : FDT_CHUNK;
	unsigned span;

	while (top <= (unsigned)fd &&
	       !atomic_compare_exchange_weak_explicit(
		       &fdtable_top, &top, (unsigned)fd + 1,
		       memory_order_relaxed, memory_order_relaxed))
		;
	/* The top is past fd now: the span may reach it, never beyond. */
	span = atomic_load_explicit(&fdtable_fast_span, memory_order_relaxed);
	while (end > 3 && span < end - 3 &&
	       !atomic_compare_exchange_weak_explicit(
		       &fdtable_fast_span, &span, end - 3,
		       memory_order_relaxed, memory_order_relaxed))
		;
}

static void set_bits(int fd, unsigned bits)
{
	uint8_t *chunk;

	if (fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS)
		return;
	fdtable_raise_top(fd);
	chunk = chunk_for(fd);
	if (chunk)
		chunk[fd & (FDT_CHUNK - 1)] |= bits;
}

static uint8_t *chunk_if_mapped(int fd)
{
	if (fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS)
		return NULL;
	return fdtable_chunk((unsigned)fd >> FDT_CHUNK_SHIFT,
			     memory_order_relaxed);
}

void fdtable_note_far(int fd, unsigned bits)
{
	uint8_t *chunk;

	if (fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS)
		return;
	/* Nothing to forget in a chunk never mapped, nothing to note. */
	if (!bits && !chunk_if_mapped(fd))
		return;
	fdtable_raise_top(fd);
	chunk = chunk_for(fd);
	if (chunk)
		chunk[fd & (FDT_CHUNK - 1)] = (uint8_t)bits;
}

/*
 * Clear mask in the entries of fds first to last that have any of it,
 * below the top.  An entry without the bits is not written, so the pages
 * of a fork child's copy stay shared with the parent where nothing
 * changes.
 */
CHILD_PATH static void clear_bits(unsigned first, unsigned last, uint8_t mask)
{
	unsigned top = atomic_load_explicit(&fdtable_top, memory_order_acquire);
	unsigned fd, end;
	uint8_t *chunk;

	if (last >= top)
		last = top - 1;
	for (fd = first; top && fd <= last; fd = end + 1) {
		end = fd | (FDT_CHUNK - 1);
		if (end > last)
			end = last;
		chunk = fdtable_chunk(fd >> FDT_CHUNK_SHIFT,
				      memory_order_acquire);
		for (; chunk && fd <= end; fd++)
			if (chunk[fd & (FDT_CHUNK - 1)] & mask)
				chunk[fd & (FDT_CHUNK - 1)] &= (uint8_t)~mask;
	}
}

CHILD_PATH void fdtable_forget_here(void)
{
	clear_bits(0, ~0u, FDT_HERE | FDT_LOCK_OWN);
}

/* What a change of credentials leaves of an fd's bits. */
static uint8_t after_creds_change(uint8_t bits)
{
	if (bits & (FDT_LOCK_FILE | FDT_LOCK_OWN))
		return bits;
	if (bits & FDT_FORCED)
		bits = (uint8_t)((bits & ~(FDT_FORCED | FDT_HERE)) | FDT_STALE);
	return bits & (uint8_t)~FDT_HERE;
}

void fdtable_forget_forced(void)
{
	unsigned top = atomic_load_explicit(&fdtable_top, memory_order_acquire);
	unsigned fd;
	uint8_t *chunk = NULL;

	for (fd = 0; fd < top; fd++) {
		if (!(fd & (FDT_CHUNK - 1)))
			chunk = fdtable_chunk(fd >> FDT_CHUNK_SHIFT,
					      memory_order_acquire);
		if (!chunk) {
			fd |= FDT_CHUNK - 1;
			continue;
		}
		chunk[fd & (FDT_CHUNK - 1)] =
			after_creds_change(chunk[fd & (FDT_CHUNK - 1)]);
	}
}

void fdtable_forget_range(unsigned first, unsigned last)
{
	clear_bits(first, last, 0xff);
}

void fdtable_own_flag_range(unsigned first, unsigned last)
{
	clear_bits(first, last,
		   FDT_KEEP | FDT_DELIBERATE | FDT_FORCED | FDT_STALE);
}

void fdtable_note_lock(int fd, unsigned bits)
{
	if (bits)
		set_bits(fd, bits);
	else if (fd >= 0)
		clear_bits((unsigned)fd, (unsigned)fd,
			   FDT_LOCK_FILE | FDT_LOCK_OWN);
}

/*
 * The first fd from first on with all of bits (all), or any of them; -1
 * for none below the top.
 */
CHILD_PATH static int next_marked(unsigned first, unsigned bits, bool all)
{
	unsigned top = atomic_load_explicit(&fdtable_top, memory_order_acquire);
	unsigned fd, got;
	uint8_t *chunk = NULL;

	for (fd = first; fd < top; fd++) {
		if (!chunk || !(fd & (FDT_CHUNK - 1)))
			chunk = fdtable_chunk(fd >> FDT_CHUNK_SHIFT,
					      memory_order_acquire);
		if (!chunk) {
			fd |= FDT_CHUNK - 1;
			continue;
		}
		got = chunk[fd & (FDT_CHUNK - 1)] & bits;
		if (all ? got == bits : got != 0)
			return (int)fd;
	}
	return -1;
}

CHILD_PATH bool fdtable_any_marked(unsigned bits)
{
	return next_marked(0, bits, true) >= 0;
}

CHILD_PATH static void for_each(unsigned bits, bool all,
				void (*fn)(int fd, void *ctx), void *ctx)
{
	int fd;

	for (fd = next_marked(0, bits, all); fd >= 0;
	     fd = next_marked((unsigned)fd + 1, bits, all))
		fn(fd, ctx);
}

CHILD_PATH void
fdtable_for_each_marked(unsigned bits, void (*fn)(int fd, void *ctx), void *ctx)
{
	for_each(bits, true, fn, ctx);
}

CHILD_PATH void fdtable_for_each_with_any(unsigned bits,
					  void (*fn)(int fd, void *ctx),
					  void *ctx)
{
	for_each(bits, false, fn, ctx);
}

void fdtable_set_keep(int fd)
{
	set_bits(fd, FDT_KEEP);
}

/* The program's own choice: whatever flag the library forced is gone. */
void fdtable_set_deliberate(int fd)
{
	uint8_t *chunk;

	set_bits(fd, FDT_KEEP | FDT_DELIBERATE);
	chunk = chunk_if_mapped(fd);
	if (chunk)
		chunk[fd & (FDT_CHUNK - 1)] &= (uint8_t)~FDT_FORCED;
}

/* A linux_dirent64, as getdents64(2) returns them. */
struct dirent64 {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* An entry of /proc/self/fd: its whole name is the number, or -1. */
static int parse_fd_name(const char *s)
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

int fdtable_for_each(int (*fn)(int fd, void *ctx), void *ctx)
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

				fd = parse_fd_name(d->name);
				if (fd >= 3 && fd != dir)
					count += fn(fd, ctx);
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
				count += fn(fd, ctx);
	}
	return count;
}

/*
 * A library's constructor may run before the library's own and make fds
 * through the wrappers (FDT_HERE): those were made here, not given.
 */
static int note_inherited(int fd, void *ctx)
{
	(void)ctx;
	if (inheritable(fd) && !(fdtable_get(fd) & FDT_HERE))
		set_bits(fd, FDT_INHERITED);
	return 0;
}

void fdtable_scan_inherited(void)
{
	static atomic_bool scanned ZERO_DATA;

	if (!atomic_exchange(&scanned, true))
		fdtable_for_each(note_inherited, NULL);
}

static bool kept(int fd, bool policy_keeps)
{
	return (fdtable_get(fd) & (FDT_KEEP | FDT_INHERITED)) ||
	       (policy_keeps && load_keeps_fd(fd));
}

static int sweep_one(int fd, void *policy_keeps)
{
	if (!inheritable(fd) || kept(fd, policy_keeps != NULL))
		return 0;
	sys_fcntl(fd, F_SETFD, FD_CLOEXEC);
	return 1;
}

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1u << 2)
#endif

/* The first fd from fd up, below limit, that the table keeps; or limit. */
static unsigned next_table_kept(unsigned fd, unsigned limit)
{
	uint8_t *chunk;

	while (fd < limit) {
		chunk = fdtable_chunk(fd >> FDT_CHUNK_SHIFT,
				      memory_order_acquire);
		if (!chunk) {
			fd = ((fd >> FDT_CHUNK_SHIFT) + 1) << FDT_CHUNK_SHIFT;
			continue;
		}
		if (chunk[fd & (FDT_CHUNK - 1)] & (FDT_KEEP | FDT_INHERITED))
			return fd;
		fd++;
	}
	return limit;
}

/*
 * The kept fds split the numbers from 3 up into gaps, each marked with
 * one close_range(); the kept ones are those in the mapped chunks and the
 * policy's keep= ranges.  The walk goes from one kept fd or range to the
 * next, so it costs the table's mapped bytes and the ranges, never the
 * numbers a range spans (keep=100-999999999 is one step).  False if the
 * kernel has no CLOSE_RANGE_CLOEXEC.
 */
static bool sweep_ranges(bool policy_keeps)
{
	const struct policy *p = policy_keeps ? load_policy_get() : NULL;
	unsigned first = 3, limit = 0, fd, next, end, lo, i;
	bool found;

	for (i = 0; i < FDT_CHUNKS; i++)
		if (fdtable_chunk(i, memory_order_acquire))
			limit = (i + 1) * FDT_CHUNK;
	for (fd = 3;; fd = first = end) {
		next = next_table_kept(fd, limit);
		found = next < limit;
		end = next + 1;
		/* A range that starts first, or longer at the same fd. */
		for (i = 0; p && i < p->nkeep; i++) {
			if ((unsigned)p->keep[i].hi < fd)
				continue;
			lo = (unsigned)p->keep[i].lo < fd ?
				     fd :
				     (unsigned)p->keep[i].lo;
			if (!found || lo < next ||
			    (lo == next && (unsigned)p->keep[i].hi + 1 > end)) {
				next = lo;
				end = (unsigned)p->keep[i].hi + 1;
				found = true;
			}
		}
		if (!found)
			break;
		if (next > first && sys_call(SYS_close_range, first, next - 1,
					     CLOSE_RANGE_CLOEXEC, 0, 0) < 0)
			return false;
	}
	return sys_call(SYS_close_range, first, ~0u, CLOSE_RANGE_CLOEXEC, 0,
			0) == 0;
}

void fdtable_sweep(bool policy_keeps)
{
	if (!sweep_ranges(policy_keeps))
		fdtable_for_each(sweep_one, policy_keeps ? (void *)1 : NULL);
}
