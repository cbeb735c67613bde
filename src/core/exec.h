/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What happens right before a program is started, by every wrapper that
 * starts one (the exec family, posix_spawn, system, popen), in this order:
 *
 * 1. the sweep (sweep=on): every fd at 3 and above that nothing keeps is
 *    marked close-on-exec;
 * 2. the fds the new program is told about by a documented protocol are
 *    made inheritable, whatever was forced on them: LISTEN_FDS (with
 *    LISTEN_PID naming this process), make's jobserver (--jobserver-auth=
 *    R,W or --jobserver-fds=R,W in MAKEFLAGS, when they are pipes this
 *    process inherited), and fds named in the arguments as /dev/fd/N or
 *    /proc/self/fd/N;
 * 3. the audit lines (report=on, mode=audit) for what it will inherit.
 *
 * And with scope=process, the environment it gets has neither this library
 * in LD_PRELOAD nor the policy variables.
 *
 * In a vfork child, which shares its parent's memory, nothing is written
 * to memory: the fd table and the lock are the parent's.
 */
#ifndef CLOEXEC_EXEC_H
#define CLOEXEC_EXEC_H

#include <stdbool.h>
#include <stddef.h>

void exec_prepare(char *const argv[], char *const envp[], const char *path,
		  bool vfork_child) __attribute__((visibility("hidden")));

/* How many pointers exec_env() may need for envp: entries and NULL. */
size_t exec_env_slots(char *const envp[]) __attribute__((visibility("hidden")));

#define EXEC_PRELOAD_MAX 4096

/*
 * The environment to pass on: envp itself, or with scope=process a copy in
 * slots (exec_env_slots() long) and preload (EXEC_PRELOAD_MAX bytes)
 * without the library and its variables.
 */
char *const *exec_env(char *const envp[], char **slots, char *preload)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_EXEC_H */
