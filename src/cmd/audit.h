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
 * then audit_print, which frees it and returns how many fds leaked (and
 * in *lost, unless NULL, how many lines were lost).
 */
struct audit;
struct audit *audit_new(void);
void audit_read(struct audit *a, FILE *in);
int audit_print(struct audit *a, FILE *out, int *lost);

/*
 * Print the summary of the log open for reading at fd, from its start,
 * to out; returns how many fds leaked, and in *lost how many lines the
 * programs could not write (then the audit is incomplete).
 */
int audit_summary_fd(int fd, FILE *out, int *lost);
/* The same, of lines read from in (the fuzz target's entry). */
int audit_summary_stream(FILE *in, FILE *out);

#endif /* CLOEXEC_AUDIT_H */
