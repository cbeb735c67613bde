/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary of an audit log (the library's JSON lines, src/core/report.h)
 * that `cloexec --audit` and `--check` print.
 */
#ifndef CLOEXEC_AUDIT_H
#define CLOEXEC_AUDIT_H

#include <stdio.h>

/*
 * The summary of several logs (cloexec --summarize): audit_read each,
 * then audit_print, which frees it and returns how many fds leaked.
 */
struct audit;
struct audit *audit_new(void);
void audit_read(struct audit *a, FILE *in);
int audit_print(struct audit *a, FILE *out);

/* Print the summary of log to out; returns how many fds leaked. */
int audit_summary(const char *log, FILE *out);
/* The same, of lines read from in (the fuzz target's entry). */
int audit_summary_stream(FILE *in, FILE *out);

#endif /* CLOEXEC_AUDIT_H */
