/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary for people.  Takes the records of the logs read (struct
 * audit, from the log reader); gives what was lost, the groups by the
 * program that handed them on, the tree's unexplained fds and unaudited
 * programs, and the counts, with their one line in words.  Calls the log
 * reader (audit_read, for a log given whole), the tree and the verdict.
 */
#ifndef CLOEXEC_AUDIT_OUT_H
#define CLOEXEC_AUDIT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct audit;

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
 * Print what was lost and the groups (the leaks; every group if verbose),
 * free a, fill *c unless NULL, and return how many fds leaked.
 */
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

#endif /* CLOEXEC_AUDIT_OUT_H */
