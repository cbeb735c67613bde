/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The inheritance rules (exec.h lists them, doc/inheritance.md says why)
 * and the record of what they keep and why.  Takes the new program's
 * argv, environment and path, and what the fd table and the policy say;
 * gives the fds to pass on, each with its reason, and the bits of the fds
 * rule 1 and the shell rule hand on.  It changes no flag: exec.c applies
 * the record (clears flags, hands on, sweeps, undoes) and report.c
 * describes it.
 */
#ifndef CLOEXEC_HANDOFF_H
#define CLOEXEC_HANDOFF_H

#include <stdbool.h>
#include <stdint.h>

#include "why.h"

enum handoff_as {
	HANDOFF_AS_SELF, /* this process becomes the new program */
	HANDOFF_AS_VFORK_CHILD, /* a child that shares this memory execs */
	HANDOFF_AS_SPAWNER, /* a child of this process will (posix_spawn) */
};

#define HANDOFF_KEPT_MAX 48
#define HANDOFF_WHY_MAX 48

/* What the rules keep, on the stack of the wrapper: no memory written. */
struct handoff_kept {
	unsigned n;
	/*
	 * Rule 1: the fd table bits of the fds this process made and hands
	 * to its own next image (own_marks in handoff.c), or 0.
	 */
	uint8_t own;
	bool shell; /* the shell rule applies */
	/*
	 * The fd table bits of the fds whose flag exec.h's step d cleared (own, or
	 * FDT_FORCED for a shell), or 0 for none.
	 */
	uint8_t handed_on;
	signed char creds; /* 0: not asked yet; 1: unchanged; -1: changed */
	bool secure;
	struct {
		int fd;
		bool cleared; /* its flag was the library's, and is off now */
		uint8_t why; /* enum why: the rule's row */
		char reason
			[HANDOFF_WHY_MAX]; /* its text, and what named the fd */
	} fd[HANDOFF_KEPT_MAX];
};

/*
 * Rules 1, 2, 4 and 5 for the new program, into *k (its n, own and
 * shell; secure and creds as exec_prepare set them): the fds chosen are
 * still to be made inheritable.  reporting: the audit will describe
 * them; forced: some flag the library forced is there to clear.
 */
void handoff_choose(char *const argv[], char *const envp[], const char *path,
		    enum handoff_as as, bool reporting, bool forced,
		    struct handoff_kept *k)
	__attribute__((visibility("hidden")));

/*
 * In a parent about to fork, where the policy has the shell rule: ask
 * now whether this image is a shell (shell.h), which every child's exec
 * would otherwise ask again.
 */
void handoff_before_fork(void) __attribute__((visibility("hidden")));

/*
 * A flag the library forced may be cleared only under the credentials
 * the fd was made with: false once they changed (asked once per exec).
 */
bool handoff_may_clear_forced(struct handoff_kept *k)
	__attribute__((visibility("hidden")));

/*
 * Why a rule passes fd on (for the audit lines): its row, and in
 * *reason its text with what named the fd; WHY_NONE if no rule does.
 */
enum why handoff_kept_why(const struct handoff_kept *k, int fd,
			  const char **reason)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_HANDOFF_H */
