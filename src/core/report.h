/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The audit's records (line.h has their format, sink.h where they go):
 * at an exec or a spawn, one line for each fd at 3 and above that the new
 * program would inherit, and why (handoff.h, the fd table, the policy);
 * at start, under cloexec --audit, what the process was given.
 */
#ifndef CLOEXEC_REPORT_H
#define CLOEXEC_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "line.h"
#include "sink.h"

struct handoff_kept;

/*
 * At an exec (spawn false) or a spawn: the lines for what the new program
 * will inherit, after an "exec" line under cloexec --audit.
 */
void report_inherited(const char *path, char *const argv[],
		      const struct handoff_kept *kept, bool spawn)
	__attribute__((visibility("hidden")));

/*
 * At start, under cloexec --audit (CLOEXEC_AUDIT_FD): a "start" line
 * (pid, ppid, exe, argv) and a "received" line for each inheritable fd
 * at 3 and above, so that the summary knows which processes were
 * audited, and what each was given by a parent that was not.
 */
void report_started(void) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_REPORT_H */
