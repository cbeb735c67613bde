/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-thread state.
 *
 * Initial-exec TLS: a preloaded library gets static TLS, and the access is
 * a single %fs-relative load with no call into the dynamic loader, which
 * matters because the loader may itself be what re-enters a wrapper.
 */
#ifndef CLOEXEC_THREAD_H
#define CLOEXEC_THREAD_H

struct cloexec_thread {
	/* Inside dlsym() for a real symbol: wrappers must go raw. */
	unsigned char resolving;
	/* Nesting depth inside the fork lock (either side). */
	unsigned char lock_depth;
	/* Which side the outermost entry took (enum forklock_side). */
	unsigned char lock_side;
	/* Loading the policy: a signal handler must not wait for it. */
	unsigned char loading_policy;
	/* Opens in flight (fdreq.c), left by the thread's exit if cancelled. */
	unsigned char in_flight;
};

extern __thread struct cloexec_thread cloexec_self
	__attribute__((tls_model("initial-exec"), visibility("hidden")));

/*
 * This thread's state.  The empty asm makes the address opaque, at no
 * cost: UBSan then checks it with a real test.  Otherwise GCC checks the
 * flags of the add that computes it, which the linker may turn into a
 * lea (initial-exec relaxed to local-exec in an executable), and UBSan
 * reports a null pointer that is not there.
 */
static inline struct cloexec_thread *thread_self(void)
{
	struct cloexec_thread *self = &cloexec_self;

	__asm__("" : "+r"(self));
	return self;
}

#endif /* CLOEXEC_THREAD_H */
