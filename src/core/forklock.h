/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fork lock: closes the window between creating an fd without the
 * flag and setting FD_CLOEXEC on it, on kernels that cannot do both in one
 * call.
 *
 * It has two sides.  Creators in such a window share one side; programs
 * being started (fork through pthread_atfork, and the other spawners) share
 * the other.  The sides exclude each other, but neither excludes itself:
 * creators run in parallel, and so do forks.  A spawner that finds
 * creators inside waits for them and holds new ones off, so a stream of fd
 * creation cannot starve fork.
 *
 * Waiting uses a futex on the state word, not a pthread lock: the state
 * must be reset in the child after fork, and a glibc rwlock remembers its
 * writer's TID, which the child does not have.
 *
 * A thread that re-enters the lock from a signal handler (either side,
 * while it already holds either) passes through without waiting, so a
 * handler that creates fds or forks never deadlocks on its own thread.
 */
#ifndef CLOEXEC_FORKLOCK_H
#define CLOEXEC_FORKLOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum forklock_side {
	FORKLOCK_CREATE = 1,
	FORKLOCK_SPAWN = 2,
};

/* Layout of the state word. */
#define ROOM_CREATOR 0x00000001u
#define ROOM_CREATORS 0x0000ffffu
#define ROOM_SPAWNER 0x00010000u
#define ROOM_SPAWNERS 0x0fff0000u
#define ROOM_SPAWN_WANTED 0x10000000u
#define ROOM_SLEEPERS 0x80000000u

extern _Atomic uint32_t forklock_room __attribute__((visibility("hidden")));

void forklock_enter(enum forklock_side side)
	__attribute__((visibility("hidden")));
/*
 * The same, where the caller has loaded the policy already, or needs none
 * and makes no child (an exec in place, exec_policy_word in exec.h).
 */
void forklock_enter_loaded(enum forklock_side side)
	__attribute__((visibility("hidden")));
void forklock_exit(void) __attribute__((visibility("hidden")));

/*
 * Count a creator that runs its blocking call outside the lock (+1 before,
 * -1 once it holds the creator side again to mark the fd).  A fork child
 * that was copied while one was in flight sweeps (fdtable_sweep).
 */
void forklock_in_flight(int delta) __attribute__((visibility("hidden")));

/*
 * In a vfork child (or another child that shares this memory): its writes
 * land in the parent's lock and tables, so it must make none.
 */
bool forklock_in_vfork_child(void) __attribute__((visibility("hidden")));

/*
 * The pthread_atfork handlers, called by hand too where a copy of the
 * process is made without libc's fork(), which alone runs them: _Fork,
 * clone() without CLONE_VM, and the same through syscall() (spawn.c,
 * syscall.c).
 */
void forklock_prepare(void) __attribute__((visibility("hidden")));
void forklock_parent(void) __attribute__((visibility("hidden")));
void forklock_child(void) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_FORKLOCK_H */
