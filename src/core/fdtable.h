/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the library knows about fd numbers: which are inheritable on
 * purpose (left so by the policy, on 0-2, dup2 targets, cleared by the
 * program with F_SETFD or FIONCLEX) and which the process inherited at
 * start.  A sweep (exec time, or a fork child while a fallback creator was
 * blocked) marks close-on-exec every fd at 3 and above that is neither.
 *
 * One byte per fd: the first 4096 static, the rest in chunks of 4096
 * mapped on first use; no malloc, nothing held, safe in signal handlers.
 * A process that never has an fd above 4095 maps nothing.
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
	/*
	 * The close-on-exec flag is the library's, not the program's: only
	 * such a flag may be cleared by an inheritance rule (exec.c).
	 */
	FDT_FORCED = 1 << 3,
	/*
	 * Made through a wrapper by the process that owns this copy of the
	 * table.  A fork child forgets it (fdtable_forget_here) for every
	 * fd it was given; a vfork or clone child, which runs no atfork
	 * handler, is told apart at exec by its pid instead (handoff.c).
	 */
	FDT_HERE = 1 << 4,
	/*
	 * Locks held through this fd.  FDT_LOCK_FILE: a lock of the open
	 * file (flock, an OFD lock), which a fork child shares and which
	 * lasts while any copy of the fd is open.  FDT_LOCK_OWN: this very
	 * process took a lock through it: a POSIX record lock (fcntl
	 * F_SETLK, lockf; FDT_LOCK_OWN alone), which is the process's and
	 * which a fork child does not have, or a lock of the open file
	 * (with FDT_LOCK_FILE).  A fork child forgets FDT_LOCK_OWN with
	 * FDT_HERE: what it keeps of its parent's locks is FDT_LOCK_FILE
	 * alone, a lock its parent holds (handoff.c, the lock rule).
	 */
	FDT_LOCK_FILE = 1 << 5,
	FDT_LOCK_OWN = 1 << 6,
	/*
	 * The flag was the library's, forced before the process changed its
	 * credentials: it is the program's now, no rule clears it, and a
	 * copy (dup, F_DUPFD) of the fd is made stale too, so that nothing
	 * opened under the old credentials crosses the change through a
	 * copy (creds.h).
	 */
	FDT_STALE = 1 << 7,
};

/* The bits of an fd whose flag the library forced. */
#define FDT_FORCED_MARK (FDT_FORCED | FDT_HERE)

/*
 * The bits of a forced copy of src (dup, F_DUPFD): a copy carries its
 * source's mark, and of a stale fd is stale.
 */
static inline unsigned fdtable_copy_mark(unsigned src_bits)
{
	return src_bits & FDT_STALE ? FDT_STALE : FDT_FORCED_MARK;
}

#define FDT_CHUNK_SHIFT 12
#define FDT_CHUNK (1u << FDT_CHUNK_SHIFT)
#define FDT_CHUNKS 1024 /* 4M fds */

extern _Atomic(uint8_t *) fdtable_chunks[FDT_CHUNKS]
	__attribute__((visibility("hidden")));
/*
 * The first chunk, fds 0-4095, is static (zero pages, nothing to map):
 * the fast path notes every new fd there with one store.
 */
extern uint8_t fdtable_chunk0[FDT_CHUNK] __attribute__((visibility("hidden")));
/*
 * One past the highest fd ever noted: the walks of the table stop there,
 * so they cost the fds a process has had, not the table's capacity.
 */
extern atomic_uint fdtable_top __attribute__((visibility("hidden")));
/*
 * How many fds from 3 up lie below both the top and the first chunk's
 * end: those that a new fd's note takes one store for, and no more
 * (fdreq.h's fast path).  It follows the top, and never goes back.
 */
extern atomic_uint fdtable_fast_span __attribute__((visibility("hidden")));
void fdtable_raise_top(int fd) __attribute__((visibility("hidden")));

void fdtable_set_keep(int fd) __attribute__((visibility("hidden")));
/* A new fd at fd: what was known of the number before is forgotten. */
void fdtable_note_far(int fd, unsigned bits)
	__attribute__((visibility("hidden")));
/*
 * In a fork child: no fd here was made by this process yet, and no POSIX
 * lock is held by it.
 */
void fdtable_forget_here(void) __attribute__((visibility("hidden")));
/*
 * The process's credentials changed: no flag forced so far is the
 * library's any more (no rule may clear it: FDT_STALE), nor was any fd
 * made under the credentials it has now.  An fd that holds a lock keeps
 * its marks: the lock rule hands it to the lock's next holder.
 */
void fdtable_forget_forced(void) __attribute__((visibility("hidden")));
/* fds first to last are closed: nothing is known of their numbers. */
void fdtable_forget_range(unsigned first, unsigned last)
	__attribute__((visibility("hidden")));
/* The program set close-on-exec on first to last itself (close_range). */
void fdtable_own_flag_range(unsigned first, unsigned last)
	__attribute__((visibility("hidden")));
/*
 * The program took (bits: FDT_LOCK_OWN, with FDT_LOCK_FILE for a lock of
 * the open file) or dropped (0) a lock through fd.
 */
void fdtable_note_lock(int fd, unsigned bits)
	__attribute__((visibility("hidden")));
/*
 * Call fn on each fd whose bits have all of these set (from the table,
 * not from the kernel: the fd may be closed by now).  Raw calls only.
 */
void fdtable_for_each_marked(unsigned bits, void (*fn)(int fd, void *ctx),
			     void *ctx) __attribute__((visibility("hidden")));
/* The same for each fd that has any of bits. */
void fdtable_for_each_with_any(unsigned bits, void (*fn)(int fd, void *ctx),
			       void *ctx) __attribute__((visibility("hidden")));
/* Has any fd all of bits?  Reads up to the first that has. */
bool fdtable_any_marked(unsigned bits) __attribute__((visibility("hidden")));
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

/*
 * Chunk i of the table: the first is static, the others mapped on first
 * use.  The first is not in the array, so that the array needs no
 * initialiser: an initialised 8 KiB array would sit in .data, written
 * by a relocation at every start, and push the data that start-up
 * writes onto more pages.
 */
static inline uint8_t *fdtable_chunk(unsigned i, memory_order order)
{
	return i ? atomic_load_explicit(&fdtable_chunks[i], order)
		 : fdtable_chunk0;
}

static inline unsigned fdtable_get(int fd)
{
	uint8_t *chunk;

	/* Nearly every fd is in the first chunk, which is always there. */
	if (__builtin_expect((unsigned)fd < FDT_CHUNK, 1))
		return fdtable_chunk0[fd];
	if (fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS)
		return 0;
	chunk = fdtable_chunk((unsigned)fd >> FDT_CHUNK_SHIFT,
			      memory_order_acquire);
	return chunk ? chunk[fd & (FDT_CHUNK - 1)] : 0;
}

/*
 * A new fd, made by a wrapper, with the close-on-exec flag that bits say
 * whose it is (FDT_FORCED | FDT_HERE: the library's; 0: the program's).
 * The fast path's only work: one store for fds below 4096.
 */
static inline void fdtable_note_new(int fd, unsigned bits)
{
	if (__builtin_expect((unsigned)fd < FDT_CHUNK, 1)) {
		fdtable_chunk0[fd] = (uint8_t)bits;
		if ((unsigned)fd >= atomic_load_explicit(&fdtable_top,
							 memory_order_relaxed))
			fdtable_raise_top(fd);
	} else {
		fdtable_note_far(fd, bits);
	}
}

/* fd is closed (close, fclose, closedir): its number means nothing now. */
static inline void fdtable_forget(int fd)
{
	if (__builtin_expect((unsigned)fd < FDT_CHUNK, 1))
		fdtable_chunk0[fd] = 0;
	else if (fd >= 0)
		fdtable_forget_range((unsigned)fd, (unsigned)fd);
}

/*
 * The program set the flag itself (F_SETFD, FIOCLEX): forget an old
 * "keep" for the number, and that the flag was the library's, now or
 * under its old credentials.
 */
static inline void fdtable_note_own_flag(int fd)
{
	uint8_t *chunk;

	if (fd < 0 || (unsigned)fd >= FDT_CHUNK * FDT_CHUNKS)
		return;
	chunk = fdtable_chunk((unsigned)fd >> FDT_CHUNK_SHIFT,
			      memory_order_relaxed);
	if (chunk)
		chunk[fd & (FDT_CHUNK - 1)] &=
			~(FDT_KEEP | FDT_DELIBERATE | FDT_FORCED | FDT_STALE);
}

#endif /* CLOEXEC_FDTABLE_H */
