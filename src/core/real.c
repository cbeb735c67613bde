/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>

#include "real.h"
#include "thread.h"

__thread struct cloexec_thread cloexec_self
	__attribute__((tls_model("initial-exec")));

real_fn real_resolve(struct real_slot *slot, real_fn raw)
{
	struct cloexec_thread *self = thread_self();
	int saved_errno;
	void *addr;
	real_fn fn;

	/* Re-entered from inside our own dlsym: answer with the raw twin. */
	if (self->resolving)
		return raw;

	saved_errno = errno;
	self->resolving = 1;
#if HAVE_DLVSYM
	if (slot->version[0])
		addr = dlvsym(RTLD_NEXT, slot->name, slot->version);
	else
#endif
		/* Without dlvsym (musl) there are no symbol versions either. */
		addr = dlsym(RTLD_NEXT, slot->name);
	self->resolving = 0;
	errno = saved_errno;

	/*
	 * A libc without the symbol (accept4 before glibc 2.10, __open_2 on
	 * musl) gets the raw twin for good.  Two threads may race to store
	 * the same value; that is harmless.
	 */
	fn = addr ? (real_fn)addr : raw;
	atomic_store_explicit(&slot->addr, fn, memory_order_release);
	return fn;
}
