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

/* What a summary found. */
struct audit_counts {
	int leaks; /* fds inherited that nothing explains */
	int kept; /* passed on purpose */
	int harmless; /* /dev/null */
	int accepted; /* leaks the baseline accepts: not in leaks */
	/* fds given by a program that was not audited: fail --check too */
	int unexplained;
	int caller; /* fds open when cloexec started: listed apart */
	int lost; /* audit lines the programs could not write */
	/* programs that ran without the library, not accepted: in lost too */
	int dark;
};

/*
 * The summary of several logs (cloexec --summarize): audit_read each,
 * then audit_print, which prints what was lost and the groups (the
 * leaks; every group if verbose), frees it, fills *c unless NULL, and
 * returns how many fds leaked.
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
int audit_print(struct audit *a, FILE *out, bool verbose,
		struct audit_counts *c);

/*
 * The counts for the summary's one line: "2 inherited fds leaked" (or
 * none) in leaked; ", 2 passed on purpose (-v lists them)" in rest.
 */
void audit_counts_text(const struct audit_counts *c, bool verbose,
		       char *leaked, size_t leaked_size, char *rest,
		       size_t rest_size);

/*
 * audit_read of the log open for reading at fd, from its start (fd is
 * closed), into a, then audit_print.
 */
int audit_summary_fd(struct audit *a, int fd, FILE *out, bool verbose,
		     struct audit_counts *c);
/* Everything, verbose, and the counts: the fuzz target's entry. */
int audit_summary_stream(FILE *in, FILE *out);

#endif /* CLOEXEC_AUDIT_H */
