/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy of this process: its layers (layers.h) loaded once, on the
 * first call that asks, settled for this program (policy_settle) and
 * published as the hot word (policy.h).  Takes the layers and the
 * program's names; gives the word, and the whole policy once the word
 * says it is loaded.
 *
 * Loading and starting programs: every child works, whenever it was made.
 * A waiter for the load waits only for a loader of its own process, which
 * runs on and finishes.  So every way of starting a program that the
 * library sees (fork's prepare handler, _Fork, vfork, posix_spawn,
 * system, popen, exec, clone(), syscall() of a clone) settles the policy
 * first: no child of this process is copied, nor shares its memory, while
 * another of its threads is loading.  Two ways are left:
 *
 * - the loading thread itself forks, from a signal handler: the child is
 *   a copy of that thread, which finishes the load there too;
 * - a clone the library does not see (the clone system call in assembly)
 *   copies a process while it loads: in the child the word stays unset,
 *   and each call gets the default policy's word without waiting
 *   (policy_load).  Such a copy also keeps its parent's pid as the one
 *   the library last asked for (pid.h), so while one of its
 *   threads loads, its other threads get the default word too.
 *
 * The copies made without libc's fork (_Fork, clone(), the clone system
 * call) need one thing more, which real.h describes: every real function
 * looked up before the copy is made.
 */
#ifndef CLOEXEC_LOAD_H
#define CLOEXEC_LOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "policy.h"

uint32_t policy_load(void) __attribute__((visibility("hidden"), cold));

/*
 * The pause of POLICY_TEST_WINDOW_ENV; does nothing in the library that is
 * installed, which never sets the bit that leads here.
 */
void load_test_window(void) __attribute__((visibility("hidden"), cold));

/* The whole policy, once the hot word says it is loaded. */
const struct policy *load_policy_get(void)
	__attribute__((visibility("hidden")));
bool load_keeps_fd(int fd) __attribute__((visibility("hidden")));
bool load_keeps_path(const char *path) __attribute__((visibility("hidden")));

static inline uint32_t policy_word(void)
{
	uint32_t w = atomic_load_explicit(&policy_hot, memory_order_acquire);

	if (__builtin_expect(!w, 0))
		w = policy_load();
	return w;
}

#endif /* CLOEXEC_LOAD_H */
