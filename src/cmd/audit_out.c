/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary for people: the groups, by the program that handed them
 * on, and the counts in a line (audit_out.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit_int.h"
#include "audit_log.h"
#include "audit_out.h"
#include "audit_tree.h"
#include "audit_verdict.h"

/*
 * A group's description with its inode back in place: the one, or "*"
 * and how many where rows that differ only by it were merged.
 */
static void print_what(FILE *out, const struct group *g)
{
	size_t i;

	if (!g->ninodes) {
		fprintf(out, "%s\n", g->what);
		return;
	}
	fprintf(out, "%.*s%s]", (int)g->inode_at, g->what,
		g->ninodes == 1 ? g->inodes[0] : "*");
	if (g->ninodes > 1)
		fprintf(out, " (%zu of them)", g->ninodes);
	fprintf(out, "%s\n", g->what + g->inode_at + 1);
	for (i = 0; i < g->ninodes; i++)
		free(g->inodes[i]);
	free(g->inodes);
}

/*
 * Lines lost say that the summary is not the whole: before it, so that
 * "no fd was inherited" is never read alone.
 */
static void print_lost(struct audit *a, FILE *out)
{
	size_t i;

	fprintf(out, "cloexec: audit: INCOMPLETE, at least %d audit line%s "
		     "could not be written:\n",
		a->lost, a->lost == 1 ? "" : "s");
	for (i = 0; i < sizeof(a->lost_said) / sizeof(a->lost_said[0]); i++) {
		if (!a->lost_said[i])
			break;
		fprintf(out, "    %s\n", a->lost_said[i]);
		free(a->lost_said[i]);
	}
}

/*
 * --write-baseline: a line for each leak, accepted or not (so that a
 * baseline written again keeps what it had), each once.
 */
static void write_rules(struct audit *a)
{
	FILE *out = a->write_baseline;
	size_t i, j;

	fputs("# cloexec baseline: accepted leaks, one a line "
	      "(doc/audit.md).\n"
	      "# leak KEY=PATTERN...: program, exec, call, caller, kind, "
	      "target, fd;\n"
	      "# each an fnmatch(3) pattern, all to match.\n",
	      out);
	for (i = 0; i < a->ngroups; i++) {
		const char *rule = a->groups[i].rule;

		if (!rule)
			continue;
		for (j = 0; j < i; j++)
			if (a->groups[j].rule &&
			    !strcmp(a->groups[j].rule, rule))
				break;
		if (j == i)
			fprintf(out, "%s\n", rule);
	}
}

/*
 * The head of a program's groups: who started what, with the command
 * line of its first group, and whether there were others.
 */
static void print_who(FILE *out, const struct group *groups, size_t ngroups,
		      size_t first)
{
	const struct group *g = &groups[first];
	bool others = false;
	size_t j;

	for (j = first; j < ngroups; j++)
		if (groups[j].who && !strcmp(groups[j].who, g->who))
			others |= groups[j].other_argv ||
				  strcmp(groups[j].argv, g->argv);
	if (!g->argv[0])
		fprintf(out, "  %s:\n", g->who);
	else
		fprintf(out, "  %s: %s%s\n", g->who, g->argv,
			others ? " (and other command lines)" : "");
}

/*
 * The groups, by the program that handed them on: by default only the
 * leaks, which are what a reader has to act on; verbose, all of them.
 */
int audit_print(struct audit *a, FILE *out, bool verbose,
		struct audit_counts *c)
{
	struct group *groups = a->groups;
	size_t ngroups = a->ngroups, i, j, k;
	int leaks = a->leaks, unexplained;

	if (c) {
		c->leaks = a->leaks;
		c->kept = a->kept;
		c->harmless = a->harmless;
		c->accepted = a->accepted;
		c->lost = a->lost;
	}
	if (a->write_baseline)
		write_rules(a);
	if (a->lost)
		print_lost(a, out);

	for (i = 0; i < ngroups; i++) {
		bool shown = false;

		if (!groups[i].who)
			continue;
		for (j = i; j < ngroups; j++) {
			struct group *g = &groups[j];

			if (!g->who || strcmp(g->who, groups[i].who))
				continue;
			if (verbose ||
			    (!g->deliberate && !g->harmless && !g->accepted)) {
				if (!shown)
					print_who(out, groups, ngroups, i);
				shown = true;
				fprintf(out, "    %dx %s ", g->count,
					g->deliberate ? "on purpose"
					: g->harmless ? "harmless  "
					: g->accepted ? "accepted  "
						      : "LEAKED    ");
				print_what(out, g);
			} else {
				for (k = 0; k < g->ninodes; k++)
					free(g->inodes[k]);
				free(g->inodes);
			}
			free(g->rule);
			if (j != i) {
				free(g->who);
				g->who = NULL;
			}
			free(g->what);
		}
		free(groups[i].who);
		groups[i].who = NULL;
	}
	for (i = 0; i < ngroups; i++)
		free(groups[i].argv);
	free(groups);
	/* After the leaks: what no audited program explains. */
	unexplained = tree_print(&a->tree, out, verbose);
	if (c) {
		c->unexplained = unexplained;
		c->caller = (int)a->tree.caller.n;
		/* nothing seen there is no pass: incomplete, as a lost line */
		c->dark = a->tree.dark;
		c->lost += a->tree.dark;
	}
	free(a->tree.accept);
	tree_free(&a->tree);
	baseline_free(&a->baseline);
	free(a);
	return leaks + unexplained;
}

void audit_counts_text(const struct audit_counts *c, bool verbose,
		       char *leaked, size_t leaked_size, char *rest,
		       size_t rest_size)
{
	size_t n = 0;

	if (c->leaks && c->unexplained)
		snprintf(leaked, leaked_size,
			 "%d inherited fd%s leaked, %d unexplained", c->leaks,
			 c->leaks == 1 ? "" : "s", c->unexplained);
	else if (c->leaks)
		snprintf(leaked, leaked_size, "%d inherited fd%s leaked",
			 c->leaks, c->leaks == 1 ? "" : "s");
	else if (c->unexplained)
		snprintf(leaked, leaked_size,
			 "%d inherited fd%s unexplained (from a program not "
			 "audited)",
			 c->unexplained, c->unexplained == 1 ? "" : "s");
	else if (c->kept || c->harmless || c->accepted)
		snprintf(leaked, leaked_size, "no fd leaked");
	else
		snprintf(leaked, leaked_size,
			 "no fd was inherited by any program started");
	/* rest_size is 128 or more: room for these, whatever the counts. */
	rest[0] = '\0';
	if (c->kept)
		n += (size_t)snprintf(rest + n, rest_size - n,
				      ", %d passed on purpose", c->kept);
	if (c->harmless && n < rest_size)
		n += (size_t)snprintf(rest + n, rest_size - n,
				      ", %d harmless (/dev/null)", c->harmless);
	if (c->accepted && n < rest_size)
		n += (size_t)snprintf(rest + n, rest_size - n,
				      ", %d accepted by the baseline",
				      c->accepted);
	if (!verbose && (c->kept || c->harmless || c->accepted) &&
	    n < rest_size)
		snprintf(rest + n, rest_size - n, " (-v lists them)");
}

int audit_summary_stream(FILE *in, FILE *out)
{
	struct audit *a = audit_new();

	struct audit_counts c;
	char leaked[96], rest[128];

	audit_read(a, in);
	audit_print(a, out, true, &c);
	audit_counts_text(&c, true, leaked, sizeof(leaked), rest,
			  sizeof(rest));
	fprintf(out, "cloexec: audit: %s%s\n", leaked, rest);
	return c.leaks;
}

/*
 * The log that cloexec opened, from its start (fd, for reading, is
 * closed); the lines lost in *lost.
 */
int audit_summary_fd(struct audit *a, int fd, FILE *out, bool verbose,
		     struct audit_counts *c)
{
	FILE *in = NULL;

	if (lseek(fd, 0, SEEK_SET) == 0)
		in = fdopen(fd, "r");
	if (!in) {
		close(fd);
		fprintf(out, "cloexec: cannot read the audit log back\n");
		audit_print(a, out, verbose, c);
		c->lost++;
		return 0;
	}
	audit_read(a, in);
	if (ferror(in))
		fprintf(out, "cloexec: cannot read all of the audit log\n");
	fclose(in);
	return audit_print(a, out, verbose, c);
}
