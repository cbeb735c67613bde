/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec's exit statuses.  Takes what failed; gives the status, or
 * exits with it.  Calls nothing of cloexec's: every other file of the
 * command may stand on it.
 */
#ifndef CLOEXEC_CMD_STATUS_H
#define CLOEXEC_CMD_STATUS_H

/*
 * Exit codes, as env(1) has them; and --check's own, out of the way of
 * the ones programs use most (0, 1, 2, sysexits' 64-78), of timeout(1)'s
 * 124 and env(1)'s 125-127, and of a shell's 128+N for a signal, so that
 * a CI log tells a leak from the program's own failure.
 */
enum {
	EXIT_LEAKED = 120,
	EXIT_INCOMPLETE = 121, /* audit lines were lost */
	EXIT_CANCELED = 125,
	EXIT_CANNOT_INVOKE = 126,
	EXIT_ENOENT = 127,
};

/* "cloexec: what 'arg'" on stderr, and exit EXIT_CANCELED. */
_Noreturn void die(const char *what, const char *arg);
/* After execvp failed: said on stderr; EXIT_ENOENT or EXIT_CANNOT_INVOKE. */
int exec_failed(const char *program);

#endif /* CLOEXEC_CMD_STATUS_H */
