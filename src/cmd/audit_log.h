/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The log reader.  Takes the lines of the logs (any number, one after
 * the other), the baseline and the patterns of --accept-unaudited; gives
 * the records (audit_int.h): the "inherit" lines grouped, each group
 * counted as passed on purpose, harmless, accepted or leaked; the tree;
 * and the lines the programs lost.  Calls the tree, the verdict and
 * audit_line.c.
 */
#ifndef CLOEXEC_AUDIT_LOG_H
#define CLOEXEC_AUDIT_LOG_H

#include <stdio.h>

struct audit;
struct audit *audit_new(void);
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

#endif /* CLOEXEC_AUDIT_LOG_H */
