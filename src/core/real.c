/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "export.h"
#include "next.h"
#include "real.h"
#include "thread.h"

__thread struct cloexec_thread cloexec_self
	__attribute__((tls_model("initial-exec")));

/* The next definition of the slot's name, or NULL; errno unchanged. */
static void *real_lookup(struct real_slot *slot)
{
	struct cloexec_thread *self = thread_self();
	int saved_errno;
	bool sure;
	void *addr;

	self->resolving = 1;
	/*
	 * Where the objects' own tables say, without dlsym's cost, nor a
	 * call into libc (next.c): errno is not touched there.
	 */
	addr = real_next(slot->name, slot->version, &sure);
	if (!sure) {
		saved_errno = errno;
#if HAVE_DLVSYM
		if (slot->version[0])
			addr = dlvsym(RTLD_NEXT, slot->name, slot->version);
		else
#endif
			/* Without dlvsym (musl) there are no versions either. */
			addr = dlsym(RTLD_NEXT, slot->name);
		errno = saved_errno;
	}
	self->resolving = 0;
	return addr;
}

real_fn real_resolve(struct real_slot *slot, real_fn raw)
{
	void *addr = NULL;
	real_fn fn;

	/* Re-entered from inside our own dlsym: answer with the raw twin. */
	if (thread_self()->resolving)
		return raw;
	if (!slot->absent)
		addr = real_lookup(slot);

	/*
	 * A libc without the symbol (accept4 before glibc 2.10, __open_2 on
	 * musl) gets the raw twin for good.  Two threads may race to store
	 * the same value; that is harmless.
	 */
	fn = addr ? (real_fn)addr : raw;
	atomic_store_explicit(&slot->addr, fn, memory_order_release);
	return fn;
}

/* The section's bounds, from the linker; weak for a link with no slot. */
extern struct real_slot __start_cloexec_real[]
	__attribute__((weak, visibility("hidden")));
extern struct real_slot __stop_cloexec_real[]
	__attribute__((weak, visibility("hidden")));

/*
 * Every slot of the pass was resolved once (or found absent), and none is
 * ever unresolved again: later passes have nothing to do.  A fork's
 * prepare handler asks at every fork, some 1,100 instructions a pass.
 */
static _Atomic bool children_done STARTUP_DATA, all_done STARTUP_DATA;

static void resolve_each(bool children_only)
{
	_Atomic bool *done = children_only ? &children_done : &all_done;
	struct real_slot *slot;
	void *addr;

	if (atomic_load_explicit(done, memory_order_acquire) ||
	    thread_self()->resolving)
		return;
	for (slot = __start_cloexec_real; slot < __stop_cloexec_real; slot++) {
		if (slot->absent || (children_only && !slot->for_children) ||
		    atomic_load_explicit(&slot->addr, memory_order_acquire))
			continue;
		/* Absent: the raw twin, which only the slot's user knows. */
		addr = real_lookup(slot);
		if (addr)
			atomic_store_explicit(&slot->addr, (real_fn)addr,
					      memory_order_release);
		else
			slot->absent = 1;
	}
	atomic_store_explicit(done, true, memory_order_release);
	if (!children_only)
		atomic_store_explicit(&children_done, true,
				      memory_order_release);
}

void real_resolve_all(void)
{
	resolve_each(false);
}

void real_resolve_for_children(void)
{
	resolve_each(true);
}
