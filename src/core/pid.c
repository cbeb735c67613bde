/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "export.h"
#include "pid.h"

static long own_pid STARTUP_DATA;
static long image_pid STARTUP_DATA;

static long cached_tid(void);
static bool on_initial_stack(void);

/*
 * At load, on the process's first thread, that thread's id is the pid,
 * and libc has it already (cached_tid): no system call.  Elsewhere (the
 * library loaded from another thread), or when libc's cache cannot be
 * read, ask the kernel.
 */
static long ask(void)
{
	long tid = cached_tid();

	own_pid = tid > 0 && on_initial_stack() ? tid : pid_raw();
	image_pid = own_pid;
	return own_pid;
}

/*
 * Asked once at load, by whichever needs it first: the constructor, or a
 * policy load that another object's constructor set off before it.  Both
 * run before this image can have made a child.
 */
long pid_own(void)
{
	return own_pid ? own_pid : ask();
}

long pid_image(void)
{
	return image_pid;
}

void pid_child(void)
{
	own_pid = pid_raw();
}

/*
 * The calling thread's id as libc caches it, read without a system call
 * through the thread's CPU-time clock, which Linux numbers from the id:
 * ~tid << 3 | CPUCLOCK_PERTHREAD_MASK | CPUCLOCK_SCHED.  glibc and musl
 * compute it from their cache.  0 if the clock does not look like that.
 */
static long cached_tid(void)
{
	clockid_t clock;

	if (pthread_getcpuclockid(pthread_self(), &clock) || (clock & 7) != 6)
		return 0;
	return ~(long)(clock >> 3);
}

/*
 * Is this thread running on the stack the kernel made at exec, that is,
 * is it the process's first thread?  That stack holds argv[0]'s text at
 * its top, and a thread that libc made runs on a stack that the kernel
 * maps at least 128 MiB below it (the gap it keeps for the first stack's
 * growth, mm/util.c mmap_base).  Asked only at load, when the first
 * thread is a few kilobytes deep: a thread on a stack the program placed
 * within 32 MiB of argv[0] by hand, at load time, is not guarded against.
 * A false "no" (an environment of more than 32 MiB) costs a system call.
 */
static bool on_initial_stack(void)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	uintptr_t top = (uintptr_t)program_invocation_name;

	return top > here && top - here < ((uintptr_t)32 << 20);
}

/*
 * When a policy load came first, it asked already.  If this thread's
 * cached id is that pid, this is still that process, and its first thread
 * (a fork child's thread has a new id, made while the parent was alive),
 * and the answer stands.  Any other answer (a dependency forked in its
 * constructor, the library loaded from another thread, a libc with no
 * cache) costs the system call, as it always did.
 */
void pid_at_load(void)
{
	if (!image_pid || cached_tid() != image_pid)
		ask();
}
