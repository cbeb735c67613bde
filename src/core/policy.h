/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the library forces, from the CLOEXEC_POLICY environment variable.
 *
 * The wrappers need one answer on their fast path: does the policy force
 * close-on-exec on this class of fd?  That answer lives in one atomic word,
 * filled in lazily on the first call (reading the environment at start-up
 * would cost every process, fd-creating or not) and never changed after.
 */
#ifndef CLOEXEC_POLICY_H
#define CLOEXEC_POLICY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "diag.h"

#define POLICY_ENV "CLOEXEC_POLICY"
/* Test-only: creators skip the fork lock, so the race test can fail. */
#define POLICY_TEST_NO_LOCK_ENV "LIBCLOEXEC_TEST_NO_FORK_LOCK"

enum fd_class {
	FD_CLASS_SOCKET,
	FD_CLASS_ACCEPT,
	FD_CLASS_PIPE,
	FD_CLASS_FILE,
	FD_CLASS_STDIO,
	FD_CLASS_DUP,
	FD_CLASS_DUP2,
	FD_CLASS_EVENT,
	FD_CLASS_PTY,
	FD_CLASS_MESSAGE,
	FD_CLASS_COUNT
};

#define FD_CLASS_ALL ((1u << FD_CLASS_COUNT) - 1)
/*
 * dup2/dup3 onto a number the program chose keep dup2's meaning unless
 * asked: that is how a program places an fd for a child.
 */
#define FD_CLASS_DEFAULT (FD_CLASS_ALL & ~(1u << FD_CLASS_DUP2))

enum policy_mode {
	POLICY_ENFORCE,
	POLICY_OFF,
};

struct policy {
	enum policy_mode mode;
	unsigned classes;
};

/* The hot word: class bits that are enforced, plus these. */
#define POLICY_LOADED (1u << 31)
#define POLICY_NO_LOCK (1u << 30)

extern _Atomic uint32_t policy_hot __attribute__((visibility("hidden")));

void policy_default(struct policy *p) __attribute__((visibility("hidden")));
/*
 * Apply a policy string on top of *p.  Each bad token adds one line to
 * *errs naming it and where it came from; the rest still applies.
 * Returns the number of bad tokens.
 */
int policy_parse(struct policy *p, const char *text, const char *source,
		 struct diag *errs) __attribute__((visibility("hidden")));
const char *fd_class_name(enum fd_class c)
	__attribute__((visibility("hidden")));
uint32_t policy_load(void) __attribute__((visibility("hidden")));

static inline uint32_t policy_word(void)
{
	uint32_t w = atomic_load_explicit(&policy_hot, memory_order_relaxed);

	if (__builtin_expect(!w, 0))
		w = policy_load();
	return w;
}

/* Does the policy force close-on-exec on new fds of this class? */
static inline bool fd_policy_applies(enum fd_class c)
{
	return policy_word() & (1u << c);
}

#endif /* CLOEXEC_POLICY_H */
