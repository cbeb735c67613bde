/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <pthread.h>
#include <time.h>

#include "export.h"
#include "pid.h"

static long own_pid STARTUP_DATA;
static long image_pid STARTUP_DATA;

static long ask(void)
{
	own_pid = pid_raw();
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
