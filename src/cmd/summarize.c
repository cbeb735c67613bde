/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary as cloexec gives it, after a run or of kept logs
 * (summarize.h).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "status.h"
#include "summarize.h"

/* -v: the summary lists every fd inherited, not only the leaks. */
bool verbose;

/* --baseline FILE and --write-baseline FILE, for every summary. */
const char *baseline, *write_baseline;
FILE *baseline_out;

/* --accept-unaudited PATTERNs, for every summary. */
const char *accept_unaudited[64];
size_t naccept;

/* A summary's audit, with the baseline to use and to write. */
struct audit *new_audit(void)
{
	struct audit *a = audit_new();
	size_t i;

	for (i = 0; i < naccept; i++)
		audit_accept_unaudited(a, accept_unaudited[i]);

	audit_resolve = true;
	if (baseline && audit_use_baseline(a, baseline))
		exit(EXIT_CANCELED);
	if (baseline_out)
		audit_write_baseline(a, baseline_out);
	return a;
}

/* The baseline written whole, or cloexec's own error. */
void close_baseline(void)
{
	if (baseline_out && fclose(baseline_out)) {
		fprintf(stderr, "cloexec: --write-baseline: '%s': %s\n",
			write_baseline, strerror(errno));
		exit(EXIT_CANCELED);
	}
	baseline_out = NULL;
}

/*
 * The summary's one line: what leaked, what else was passed on, with
 * --check the verdict, and tail (how the program ended, or how many logs
 * were read), so that the program's own status is never lost behind
 * --check's.  Returns --check's status, or 0.
 */
int say_end(FILE *out, const struct audit_counts *c, bool check,
	    int leak_status, const char *tail)
{
	char leaked[96], rest[128];

	audit_counts_text(c, verbose, leaked, sizeof(leaked), rest,
			  sizeof(rest));
	if (!check)
		fprintf(out, "cloexec: audit: %s%s%s%s\n",
			c->lost ? "INCOMPLETE, " : "", leaked, rest, tail);
	else if (c->leaks || c->unexplained)
		fprintf(out,
			"cloexec: check: FAILED, %s (exit status %d)%s%s%s\n",
			leaked, leak_status, rest,
			c->lost ? ", and the audit is incomplete" : "", tail);
	else if (c->lost)
		fprintf(out,
			"cloexec: check: FAILED, the audit is incomplete (exit "
			"status %d), %s%s%s\n",
			EXIT_INCOMPLETE, leaked, rest, tail);
	else
		fprintf(out, "cloexec: check: passed, %s%s%s\n", leaked, rest,
			tail);
	if (!check)
		return 0;
	return c->leaks || c->unexplained ? leak_status
	       : c->lost		   ? EXIT_INCOMPLETE
					   : 0;
}

/*
 * --summarize FILE...: the summary of logs kept with --log, all together
 * (the same leak in several runs is counted in each); '-' is standard
 * input.  A file that cannot be read stops it: a summary of the others
 * would pass for the whole.
 */
int summarize_logs(char **files, bool check, int leak_status)
{
	struct audit *a = new_audit();
	struct audit_counts counts;
	char tail[32];
	int n = 0;

	if (!*files)
		die("--summarize needs a FILE", NULL);
	for (; *files; files++, n++) {
		bool is_stdin = !strcmp(*files, "-");
		FILE *in = is_stdin ? stdin : fopen(*files, "re");

		if (!in) {
			fprintf(stderr, "cloexec: --summarize: '%s': %s\n",
				*files, strerror(errno));
			exit(EXIT_CANCELED);
		}
		audit_read(a, in);
		if (ferror(in)) {
			fprintf(stderr, "cloexec: --summarize: cannot read "
					"'%s'\n", *files);
			exit(EXIT_CANCELED);
		}
		if (!is_stdin)
			fclose(in);
	}
	audit_print(a, stdout, verbose, &counts);
	close_baseline();
	snprintf(tail, sizeof(tail), " in %d log%s", n, n == 1 ? "" : "s");
	return say_end(stdout, &counts, check, leak_status, tail);
}
