/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The real functions behind the wrapped names.
 *
 * Each wrapped symbol has one slot: its name, an optional symbol version,
 * a raw twin that reaches the kernel without libc, and the resolved address
 * (an atomic pointer, so the fast path is one load and no lock).  Slots are
 * resolved lazily, as dlsym(RTLD_NEXT) would: resolving everything at
 * start-up would cost every process, and most use a handful of these
 * calls.  The look-up reads the objects' own tables where it can (next.c,
 * a tenth of dlsym's cost), and asks dlsym where it cannot tell.
 *
 * When resolution is impossible (this thread is already inside dlsym, which
 * may allocate, and the allocator may open a file; or libc does not have the
 * symbol at all) REAL() yields the raw twin instead: never recursion, never
 * a NULL call.
 */
#ifndef CLOEXEC_REAL_H
#define CLOEXEC_REAL_H

#include <stdatomic.h>

typedef void (*real_fn)(void);

/*
 * Names are arrays, not pointers, and the raw twin is passed by the caller:
 * a slot holds no address for the dynamic loader to relocate at start-up.
 */
struct real_slot {
	_Atomic(real_fn) addr;
	char name[24];
	char version[12];
	/* dlsym found nothing (real_resolve_all): the raw twin, for good. */
	_Bool absent;
	/* Looked up before a fork (real_resolve_for_children). */
	_Bool for_children;
};

real_fn real_resolve(struct real_slot *slot, real_fn raw)
	__attribute__((visibility("hidden"), cold));

/*
 * Resolve every slot now.  A copy of this process made by a raw clone
 * (no CLONE_VM) gets no help from libc: the loader's lock is copied as it
 * was, held perhaps by a thread that is not in the copy, and the child's
 * first dlsym would wait for it for ever.  So before such a clone, the
 * parent resolves everything, and the child never calls dlsym for a slot.
 * The first call costs a dlsym per slot; later ones, a load per slot.
 */
void real_resolve_all(void) __attribute__((visibility("hidden"), cold));

/*
 * Resolve now the slots of the calls a fork child makes between its fork
 * and its exec (close, dup2, open, the exec family: REAL_SLOT_CHILD), as
 * the parent's atfork handler.  A child's dlsym costs it some 3,000
 * instructions and ten page faults, every child again; the parent pays
 * each lookup once.
 */
void real_resolve_for_children(void)
	__attribute__((visibility("hidden"), cold));

static inline real_fn real_get(struct real_slot *slot, real_fn raw)
{
	real_fn fn = atomic_load_explicit(&slot->addr, memory_order_acquire);

	if (__builtin_expect(fn != 0, 1))
		return fn;
	return real_resolve(slot, raw);
}

/*
 * The real function if its slot is resolved, else NULL: for a fast path
 * that leaves the first call, which resolves it, to the general one.
 */
static inline real_fn real_ready(struct real_slot *slot)
{
	return atomic_load_explicit(&slot->addr, memory_order_acquire);
}

/*
 * Every slot sits in one section, an array that real_resolve_all walks.
 * The explicit alignment is the type's own: without it, GCC may align a
 * static aggregate of 32 bytes or more to 32, which would leave gaps.
 * (Sanitizers leave variables in a section named like an identifier
 * unpadded, for the same reason.)
 */
#define REAL_SLOT_PLACE                                                        \
	__attribute__((section("cloexec_real"),                                \
		       aligned(_Alignof(struct real_slot))))

/*
 * REAL_SLOT(open, raw_open) declares the slot for open(); REAL(open) is then
 * a pointer typed exactly like open.  REAL_SLOT_VERSION(fopen, GLIBC_2_0,
 * "GLIBC_2.0", raw) pins a symbol version, for the wrapper of a program
 * bound to an older version than the default (symvers.h): REAL_VERSION(fopen,
 * GLIBC_2_0) is then that version of the real fopen.
 */
#define REAL_SLOT_AS(id, sym, ver, rawfn)                                      \
	REAL_SLOT_FULL(id, sym, ver, rawfn, 0)
#define REAL_SLOT_FULL(id, sym, ver, rawfn, children)                          \
	_Static_assert(sizeof(#sym) <= sizeof(((struct real_slot *)0)->name),  \
		       "REAL_SLOT: name too long");                            \
	_Static_assert(sizeof(ver) <=                                          \
			       sizeof(((struct real_slot *)0)->version),       \
		       "REAL_SLOT: version too long");                         \
	static __typeof__(&sym) const real_raw_##id                            \
		__attribute__((unused)) = (rawfn);                             \
	static struct real_slot real_slot_##id REAL_SLOT_PLACE = {             \
		.name = #sym,                                                  \
		.version = ver,                                                \
		.for_children = children,                                      \
	}
#define REAL_SLOT(sym, rawfn) REAL_SLOT_AS(sym, sym, "", rawfn)
#define REAL_SLOT_CHILD(sym, rawfn) REAL_SLOT_FULL(sym, sym, "", rawfn, 1)
#define REAL_SLOT_VERSION(sym, tag, ver, rawfn)                                \
	REAL_SLOT_AS(sym##_##tag, sym, ver, rawfn)
#define REAL_AS(id, sym)                                                       \
	((__typeof__(&sym))real_get(&real_slot_##id, (real_fn)real_raw_##id))
#define REAL(sym) REAL_AS(sym, sym)
#define REAL_READY(sym) ((__typeof__(&sym))real_ready(&real_slot_##sym))
#define REAL_VERSION(sym, tag) REAL_AS(sym##_##tag, sym)

#endif /* CLOEXEC_REAL_H */
