/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which process is this?  The library keeps two pids: its own process's
 * (set at load and in each fork child the library sees) and that of the
 * process the image was loaded into (set at load only).  Apart from the
 * fork lock, so that the policy's unit test can link it without the lock's
 * constructor.
 */
#ifndef CLOEXEC_PID_H
#define CLOEXEC_PID_H

#include "sys.h"

static inline long pid_raw(void)
{
	return sys_call(SYS_getpid, 0, 0, 0, 0, 0);
}

/*
 * This process's pid as last asked: a system call only the first time,
 * when a policy load comes before the constructor.  A child that the
 * library did not see has its parent's.
 */
long pid_own(void) __attribute__((visibility("hidden")));
/* 0 until load. */
long pid_image(void) __attribute__((visibility("hidden")));
/*
 * The process this one is a fork child of, as the library saw it made
 * (its pid_own then); 0 in the process the image was loaded into.
 */
long pid_parent(void) __attribute__((visibility("hidden")));
/* In a child the library saw made: ask again, and remember the parent. */
void pid_child(void) __attribute__((visibility("hidden")));
/* From the constructor: ask, unless a load before it already did. */
void pid_at_load(void) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_PID_H */
