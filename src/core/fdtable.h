/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the library knows about fd numbers: which are inheritable on
 * purpose (left so by the policy, on 0-2, dup2 targets, cleared by the
 * program with F_SETFD or FIONCLEX) and which the process inherited at
 * start.  A sweep (exec time, or a fork child while a fallback creator was
 * blocked) marks close-on-exec every fd at 3 and above that is neither.
 *
 * One byte per fd, in chunks mapped on first use: no malloc, nothing held,
 * safe in signal handlers.  A process that never keeps an fd maps nothing.
 */
#ifndef CLOEXEC_FDTABLE_H
#define CLOEXEC_FDTABLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum {
	FDT_KEEP = 1 << 0,	/* to stay inheritable: never swept */
	FDT_INHERITED = 1 << 1, /* open, and inheritable, at start */
	/*
	 * The program made it inheritable itself (F_SETFD, FIONCLEX, dup2
	 * onto a number it chose) or announced it to a child (LISTEN_FDS):
	 * the audit reports it as passed on purpose, not as a leak.
	 */
	FDT_DELIBERATE = 1 << 2,
};

#define FDT_CHUNK_SHIFT 12
#define FDT_CHUNK (1u << FDT_CHUNK_SHIFT)
#define FDT_CHUNKS 1024 /* 4M fds */

extern _Atomic(uint8_t *) fdtable_chunks[FDT_CHUNKS]
	__attribute__((visibility("hidden")));
/*
 * Set for good by the first keep.  Until then a new fd has no old keep
 * to forget.  Relaxed is enough: the keep was set before the fd it was
 * for was closed, and the kernel's fd table orders that close before the
 * call that returns the same number again.
 */
extern atomic_bool fdtable_kept_any __attribute__((visibility("hidden")));

void fdtable_set_keep(int fd) __attribute__((visibility("hidden")));
void fdtable_set_deliberate(int fd) __attribute__((visibility("hidden")));
/* Note the fds open and inheritable now as inherited; once only. */
void fdtable_scan_inherited(void) __attribute__((visibility("hidden")));
/*
 * Call fn on every open fd at 3 and above (from /proc/self/fd, or without
 * /proc, every number up to the soft limit); returns the sum of what fn
 * returned.  Raw system calls only.
 */
int fdtable_for_each(int (*fn)(int fd, void *ctx), void *ctx)
	__attribute__((visibility("hidden")));
/*
 * Mark close-on-exec every fd at 3 and above that is inheritable and not
 * known as kept or inherited, nor kept by the policy when policy_keeps is
 * set.  With close_range(CLOSE_RANGE_CLOEXEC) (Linux 5.11) it takes one
 * call per kept fd; else one fcntl per open fd.  Raw system calls only:
 * callable in a fork child and in a signal handler.
 */
void fdtable_sweep(bool policy_keeps) __attribute__((visibility("hidden")));

/*
 * Where each fd came from, for the audit: the call that made it and the
 * address it was called from.  Kept only when reports are on (24 bytes
 * per fd, in chunks mapped on first use), with the file's identity, so
 * that an entry the library did not see closed is not taken for the
 * origin of whatever reused the number.
 */
struct fd_origin {
	const char *call;
	void *caller;
	unsigned long long dev, ino;
};

void fdtable_note_origin(int fd, const char *call, void *caller)
	__attribute__((visibility("hidden")));
bool fdtable_origin(int fd, struct fd_origin *out)
	__attribute__((visibility("hidden")));

static inline unsigned fdtable_get(int fd)
{
	uint8_t *chunk;

	if (fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS)
		return 0;
	chunk = atomic_load_explicit(&fdtable_chunks[fd >> FDT_CHUNK_SHIFT],
				     memory_order_acquire);
	return chunk ? chunk[fd & (FDT_CHUNK - 1)] : 0;
}

/*
 * The library made this fd close-on-exec: forget an old "keep" for the
 * number.  Only a load when nothing was ever kept in its range.
 */
static inline void fdtable_clear_keep(int fd)
{
	uint8_t *chunk;

	if (!atomic_load_explicit(&fdtable_kept_any, memory_order_relaxed) ||
	    fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS)
		return;
	chunk = atomic_load_explicit(&fdtable_chunks[fd >> FDT_CHUNK_SHIFT],
				     memory_order_relaxed);
	if (chunk)
		chunk[fd & (FDT_CHUNK - 1)] &= ~(FDT_KEEP | FDT_DELIBERATE);
}

#endif /* CLOEXEC_FDTABLE_H */
