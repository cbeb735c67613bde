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
};

extern __thread struct cloexec_thread cloexec_self
	__attribute__((tls_model("initial-exec"), visibility("hidden")));

#endif /* CLOEXEC_THREAD_H */
