/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <limits.h>
#include <pthread.h>

#include "compat.h"
#include "export.h"
#include "fdtable.h"
#include "forklock.h"
#include "load.h"
#include "pid.h"
#include "real.h"
#include "sys.h"
#include "thread.h"

_Atomic uint32_t forklock_room STARTUP_DATA;
static atomic_int in_flight STARTUP_DATA;
CHILD_PATH bool forklock_in_vfork_child(void)
{
	return pid_raw() != pid_own();
}

void forklock_in_flight(int delta)
{
	atomic_fetch_add_explicit(&in_flight, delta, memory_order_seq_cst);
}

/* Sleep until the word changes from what made us wait. */
static void room_sleep(uint32_t seen)
{
	if (!(seen & ROOM_SLEEPERS)) {
		if (!atomic_compare_exchange_strong_explicit(
			    &forklock_room, &seen, seen | ROOM_SLEEPERS,
			    memory_order_relaxed, memory_order_relaxed))
			return;
		seen |= ROOM_SLEEPERS;
	}
	sys_futex(&forklock_room, FUTEX_WAIT_PRIVATE, seen);
}

/* A side just emptied: let every sleeper look again. */
static void room_wake(uint32_t now)
{
	if (now & ROOM_SLEEPERS) {
		atomic_fetch_and_explicit(&forklock_room, ~ROOM_SLEEPERS,
					  memory_order_relaxed);
		sys_futex(&forklock_room, FUTEX_WAKE_PRIVATE, INT_MAX);
	}
}

/*
 * A process that no fork child handler saw (a clone the library does not
 * see, or a vfork child) has a room that is a copy, counting threads that
 * are not here, or its parent's.  It waits for no one: a copy starts
 * with its one thread, and a vfork child's fds are in a table that only
 * it can copy.  Asked only before sleeping, so the lock costs no system
 * call when it does not wait.
 */
static bool foreign_process(void)
{
	return forklock_in_vfork_child();
}

static bool creator_enter(void)
{
	uint32_t v = atomic_load_explicit(&forklock_room, memory_order_relaxed);

	for (;;) {
		if (!(v & (ROOM_SPAWNERS | ROOM_SPAWN_WANTED))) {
			if (atomic_compare_exchange_weak_explicit(
				    &forklock_room, &v, v + ROOM_CREATOR,
				    memory_order_acquire, memory_order_relaxed))
				return true;
			continue;
		}
		if (foreign_process())
			return false;
		room_sleep(v);
		v = atomic_load_explicit(&forklock_room, memory_order_relaxed);
	}
}

static void creator_exit(void)
{
	uint32_t v = atomic_fetch_sub_explicit(&forklock_room, ROOM_CREATOR,
					       memory_order_release) -
		     ROOM_CREATOR;

	if (!(v & ROOM_CREATORS))
		room_wake(v);
}

static bool spawner_enter(void)
{
	uint32_t v = atomic_load_explicit(&forklock_room, memory_order_relaxed);

	for (;;) {
		if (!(v & ROOM_CREATORS)) {
			uint32_t in = (v + ROOM_SPAWNER) & ~ROOM_SPAWN_WANTED;

			if (atomic_compare_exchange_weak_explicit(
				    &forklock_room, &v, in,
				    memory_order_acquire, memory_order_relaxed))
				return true;
			continue;
		}
		if (foreign_process())
			return false;
		/* Hold new creators off, or a steady stream starves us. */
		if (!(v & ROOM_SPAWN_WANTED)) {
			if (!atomic_compare_exchange_weak_explicit(
				    &forklock_room, &v, v | ROOM_SPAWN_WANTED,
				    memory_order_relaxed, memory_order_relaxed))
				continue;
			v |= ROOM_SPAWN_WANTED;
		}
		room_sleep(v);
		v = atomic_load_explicit(&forklock_room, memory_order_relaxed);
	}
}

static void spawner_exit(void)
{
	uint32_t v = atomic_fetch_sub_explicit(&forklock_room, ROOM_SPAWNER,
					       memory_order_release) -
		     ROOM_SPAWNER;

	if (!(v & ROOM_SPAWNERS))
		room_wake(v);
}

/*
 * The depth counts before the room does, and after it: at every instant
 * the room counts this thread, the depth says so too, so a signal handler
 * that comes in then passes through instead of waiting on the room for
 * its own thread.
 */
CHILD_PATH void forklock_enter(enum forklock_side side)
{
	/* No child of this process while it loads the policy: policy.h. */
	if (side == FORKLOCK_SPAWN)
		policy_word();
	forklock_enter_loaded(side);
}

CHILD_PATH void forklock_enter_loaded(enum forklock_side side)
{
	struct cloexec_thread *self = thread_self();

	if (self->lock_depth++)
		return;
	if (side == FORKLOCK_CREATE && (policy_word() & POLICY_NO_LOCK)) {
		self->lock_side = 0;
		return;
	}
	self->lock_side = side;
	if (!(side == FORKLOCK_CREATE ? creator_enter() : spawner_enter()))
		self->lock_side = 0;
}

CHILD_PATH void forklock_exit(void)
{
	struct cloexec_thread *self = thread_self();

	if (self->lock_depth > 1) {
		self->lock_depth--;
		return;
	}
	if (self->lock_side == FORKLOCK_CREATE)
		creator_exit();
	else if (self->lock_side == FORKLOCK_SPAWN)
		spawner_exit();
	self->lock_depth = 0;
}

void forklock_prepare(void)
{
	/* What the child calls before its exec, looked up once here: real.h. */
	real_resolve_for_children();
	forklock_enter(FORKLOCK_SPAWN);
}

void forklock_parent(void)
{
	forklock_exit();
}

/*
 * The child has one thread, this one, and a copy of a word that counts
 * the parent's other threads.  Rebuild it from what this thread holds:
 * nothing, unless the fork came from a signal handler that interrupted
 * this thread inside the lock, which it will leave later as usual.
 *
 * A creator that was in flight (outside the lock, in a call that blocks)
 * when the parent was copied may have left its fd here unmarked: it
 * cannot have marked it and left the count, since that needs the creator
 * side, which this fork held throughout.  So the child marks every fd
 * that is neither kept on purpose nor inherited.
 */
CHILD_PATH void forklock_child(void)
{
	struct cloexec_thread *self = thread_self();
	uint32_t word = 0;
	int others_in_flight;

	if (--self->lock_depth) {
		if (self->lock_side == FORKLOCK_CREATE)
			word = ROOM_CREATOR;
		else if (self->lock_side == FORKLOCK_SPAWN)
			word = ROOM_SPAWNER;
	}
	atomic_store_explicit(&forklock_room, word, memory_order_relaxed);
	pid_child();
	/* What the parent made, this process was given (exec.c, rule 1). */
	fdtable_forget_here();
	others_in_flight = atomic_load_explicit(&in_flight,
						memory_order_relaxed);
	atomic_store_explicit(&in_flight, 0, memory_order_relaxed);
	if (others_in_flight > 0)
		fdtable_sweep(false);
}

/*
 * At load time: a fork that happened before the handlers were registered
 * would not take the lock, and the first fallback creator could be inside.
 */
__attribute__((constructor)) static void forklock_register(void)
{
	pid_at_load();
	pthread_atfork(forklock_prepare, forklock_parent, forklock_child);
}
