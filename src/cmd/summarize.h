/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary as cloexec gives it.  Takes the options that every summary
 * shares, as main sets them, and the counts of an audit; gives each
 * summary's audit (new_audit), --summarize's summary of kept logs, and
 * the summary's last line with --check's verdict (say_end).  Calls the
 * audit (audit.h) and status.h.
 */
#ifndef CLOEXEC_CMD_SUMMARIZE_H
#define CLOEXEC_CMD_SUMMARIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct audit_counts;

/*
 * The options of every summary: -v, --baseline, --write-baseline (and
 * the file it writes, open), --accept-unaudited.
 */
extern bool verbose;
extern const char *baseline, *write_baseline;
extern FILE *baseline_out;
extern const char *accept_unaudited[64];
extern size_t naccept;

/* A summary's audit, with the baseline to use and to write. */
struct audit *new_audit(void);
/* The baseline written whole, or cloexec's own error. */
void close_baseline(void);
/*
 * The summary's one line, with tail (how the program ended, or how many
 * logs were read); returns --check's status, or 0.
 */
int say_end(FILE *out, const struct audit_counts *c, bool check,
	    int leak_status, const char *tail);
/* --summarize FILE...: returns as say_end. */
int summarize_logs(char **files, bool check, int leak_status);

#endif /* CLOEXEC_CMD_SUMMARIZE_H */
