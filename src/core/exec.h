/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What happens right before a program is started, by every wrapper that
 * starts one (the exec family, posix_spawn, system, popen), in steps a to
 * e (doc/inheritance.md numbers the rules 1 to 5 and has the why of
 * each; rule 3, the busybox applets, applies at the policy's load):
 *
 * a. the fds the new program is told about, or that hold a lock it is to
 *    hold, are chosen (handoff.c), each only if it is inheritable already
 *    or its close-on-exec flag is the library's (one the program set
 *    itself is never cleared):
 *    - LISTEN_FDS (with LISTEN_PID naming this process), make's
 *      jobserver (--jobserver-auth=R,W or --jobserver-fds=R,W in
 *      MAKEFLAGS, when they are pipes this process inherited);
 *    - numbers named in the arguments: /dev/fd/N, /proc/self/fd/N, an
 *      option whose name ends in "fd" or "fds" and its value (--status-fd
 *      16, --status-fd=16, -displayfd 3), gpg's -&N, openssl's fd:N,
 *      qemu's fd=N, and the rows of handoff.def for the new program, read
 *      as it reads its command line (dbus-daemon --print-address N, bwrap
 *      --file N DEST, ...); none in a CGI program (GATEWAY_INTERFACE),
 *      whose arguments are a stranger's query string;
 *    - the fds a shell's -c text duplicates from (>&N), and those the
 *      running program's own arguments place for its children (socat's
 *      fdout=N);
 *    - numbers named by handoff.def's variables (NGINX, HAPROXY_*, ...);
 *    - an fd whose lock goes to the new program (rule 4);
 * b. the sweep (sweep=on): every fd at 3 and above that nothing keeps is
 *    marked close-on-exec;
 * c. the chosen fds are made inheritable;
 * d. an exec in place of the process the image was started in hands on
 *    what it made and the library flagged (rule 1); a shell /etc/shells
 *    registers, everything the library flagged (rule 5);
 * e. the audit lines (report=on, mode=audit) for what it will inherit,
 *    with the reason each is passed on, when a rule knows it.
 *
 * In a secure-execution (setuid) process none of a and d applies: the
 * environment and the arguments are the caller's, and so is the choice
 * to exec.  No flag the library forced before a change of credentials
 * is cleared (creds.h).
 *
 * If the exec fails, or once a spawn has started its child, exec_undo()
 * gives back the flags that c and d cleared.
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

#include "handoff.h"

/*
 * The policy's word for an exec, loaded first, as a spawn needs it (no
 * child while a load is half done: policy.h); or 0, unloaded, where a load
 * would find the defaults alone (policy_defaults_stand), which report,
 * sweep and copy nothing: a process that has made no fd (env, nice, a
 * shell's exec) then execs without loading one.
 */
uint32_t exec_policy_word(void) __attribute__((visibility("hidden")));

/* word: exec_policy_word(), asked before the fork lock was taken. */
void exec_prepare(char *const argv[], char *const envp[], const char *path,
		  enum handoff_as as, uint32_t word, struct handoff_kept *k)
	__attribute__((visibility("hidden")));
void exec_undo(const struct handoff_kept *k)
	__attribute__((visibility("hidden")));

/*
 * The room exec_env() needs: pointers for envp's copy (entries and NULL),
 * and bytes for LD_PRELOAD's.  1 each where it makes no copy.
 */
size_t exec_env_slots(char *const envp[], uint32_t word)
	__attribute__((visibility("hidden")));
size_t exec_env_preload_room(uint32_t word)
	__attribute__((visibility("hidden")));

#define EXEC_PRELOAD_MAX 4096

/*
 * The environment to pass on: envp itself, or with scope=process a copy in
 * slots (nslots from exec_env_slots()) and preload (room bytes) without
 * the library and its variables.
 */
char *const *exec_env(char *const envp[], char **slots, size_t nslots,
		      char *preload, size_t room)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_EXEC_H */
