/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary of an audit log (the library's JSON lines, src/core/report.h)
 * that `cloexec --audit` and `--check` print.
 */
#ifndef CLOEXEC_AUDIT_H
#define CLOEXEC_AUDIT_H

#include <stdbool.h>
#include <stdio.h>

#include "audit_json.h"
#include "audit_out.h"

/*
 * The summary of several logs (cloexec --summarize): audit_read each,
 * then audit_print (audit_out.h).
 */
struct audit;
struct audit *audit_new(void);
/* Offsets to FILE:LINE by running addr2line (not in the fuzz target). */
extern bool audit_resolve;
/*
 * Before reading: the baseline at path (doc/audit.md), whose leaks count
 * as accepted, not leaked (-1, said on stderr, if it cannot be read or
 * has a bad line); and where audit_print writes a baseline of the leaks.
 */
int audit_use_baseline(struct audit *a, const char *path);
/*
 * --accept-unaudited=PATTERN: a program started without the library (a
 * static helper that starts nothing) whose path or base name matches
 * the fnmatch(3) PATTERN does not make the audit incomplete.  PATTERN
 * must outlive a.
 */
void audit_accept_unaudited(struct audit *a, const char *pattern);
void audit_write_baseline(struct audit *a, FILE *out);
void audit_read(struct audit *a, FILE *in);

#endif /* CLOEXEC_AUDIT_H */
