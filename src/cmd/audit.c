/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Read the audit lines, group the same leak seen many times (a server
 * hands its listening socket to every CGI it runs), and say it once, with
 * a count: which program handed which fd, made by which call, to which.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"

/*
 * The value of "name" in one of the library's lines: they are flat
 * objects of strings, numbers, true, false and null, written by report.c.
 * A string is unescaped into buf.  False if the field is absent or null.
 */
static bool field(const char *line, const char *name, char *buf, size_t size)
{
	char key[64];
	const char *p;
	size_t n = 0;

	snprintf(key, sizeof(key), "\"%s\":", name);
	p = strstr(line, key);
	if (!p || !size)
		return false;
	p += strlen(key);
	if (!strncmp(p, "null", 4))
		return false;
	if (*p != '"') {
		while (*p && *p != ',' && *p != '}' && n + 1 < size)
			buf[n++] = *p++;
		buf[n] = '\0';
		return true;
	}
	for (p++; *p && *p != '"' && n + 1 < size; p++) {
		if (*p == '\\' && p[1] == 'u' && strlen(p) >= 6) {
			buf[n++] = (char)strtol((char[3]){ p[4], p[5], 0 },
						NULL, 16);
			p += 5;
		} else {
			if (*p == '\\' && p[1])
				p++;
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
	return true;
}

struct group {
	char *who;  /* "PROGRAM started EXEC (ARGV0)" */
	char *what; /* the fd, described */
	bool deliberate;
	bool harmless; /* /dev/null: anyone may open it, it holds nothing */
	int count;
};

static void describe(const char *line, char *what, size_t size)
{
	char fd[16] = "?", kind[32] = "", target[512] = "", call[64] = "";
	char family[16] = "", socktype[16] = "", local[160] = "";
	char peer[160] = "", symbol[256] = "", object[512] = "";
	char offset[32] = "", reason[128] = "";
	size_t n;

	field(line, "fd", fd, sizeof(fd));
	field(line, "kind", kind, sizeof(kind));
	field(line, "target", target, sizeof(target));
	n = (size_t)snprintf(what, size, "fd %s, %s %s", fd, kind, target);
	if (field(line, "family", family, sizeof(family))) {
		field(line, "socktype", socktype, sizeof(socktype));
		n += (size_t)snprintf(what + n, size > n ? size - n : 0,
				      " (%s %s", family, socktype);
		if (field(line, "local", local, sizeof(local)) && *local)
			n += (size_t)snprintf(what + n, size > n ? size - n : 0,
					      " on %s", local);
		if (field(line, "peer", peer, sizeof(peer)) && *peer)
			n += (size_t)snprintf(what + n, size > n ? size - n : 0,
					      " to %s", peer);
		n += (size_t)snprintf(what + n, size > n ? size - n : 0, ")");
	}
	if (!field(line, "created_by", call, sizeof(call)))
		snprintf(what + n, size > n ? size - n : 0,
			 ", made where the library could not see");
	else if (!strcmp(call, "inherited"))
		snprintf(what + n, size > n ? size - n : 0,
			 ", inherited at start");
	else if (field(line, "caller_symbol", symbol, sizeof(symbol)) &&
		 field(line, "caller_object", object, sizeof(object)))
		snprintf(what + n, size > n ? size - n : 0,
			 ", made by %s() in %s (%s)", call, symbol, object);
	else if (field(line, "caller_object", object, sizeof(object)) &&
		 field(line, "caller_offset", offset, sizeof(offset)))
		snprintf(what + n, size > n ? size - n : 0,
			 ", made by %s() at %s+%s", call, object, offset);
	else
		snprintf(what + n, size > n ? size - n : 0, ", made by %s()",
			 call);
	n = strlen(what);
	/* "inherited at start" says it already. */
	if (strcmp(call, "inherited") &&
	    field(line, "reason", reason, sizeof(reason)))
		snprintf(what + n, size > n ? size - n : 0, ": %s", reason);
}

/* The groups of every log read so far. */
struct audit {
	struct group *groups;
	size_t ngroups;
	int leaks, kept, harmless;
	int lost; /* lines the programs said they could not write */
	char *lost_said[3]; /* the first few of those notices, described */
};

/*
 * A line the library wrote whole: it ends with "}", then its newline
 * (none at the end of a file).  Not the start of one that a full disk
 * cut, which the library ended with a newline and sent again.
 */
static bool whole(const char *line)
{
	size_t n = strlen(line);

	if (n && line[n - 1] == '\n')
		n--;
	return n && line[n - 1] == '}';
}

/* An "event":"lost" line (report.h): count it, describe the first few. */
static void read_lost(struct audit *a, const char *line)
{
	char n[16] = "", pid[16] = "?", program[512] = "?", exec[512] = "?";
	char reason[128] = "?", said[1400];
	size_t i;
	long count;

	field(line, "lost", n, sizeof(n));
	count = strtol(n, NULL, 10);
	/* A notice that says nothing was lost still says the log failed. */
	if (count < 1 || count > 1000000)
		count = 1;
	a->lost = a->lost > INT_MAX - count ? INT_MAX : a->lost + (int)count;
	field(line, "pid", pid, sizeof(pid));
	field(line, "program", program, sizeof(program));
	field(line, "exec", exec, sizeof(exec));
	field(line, "reason", reason, sizeof(reason));
	for (i = 0; i < sizeof(a->lost_said) / sizeof(a->lost_said[0]); i++)
		if (!a->lost_said[i])
			break;
	if (i == sizeof(a->lost_said) / sizeof(a->lost_said[0]))
		return;
	snprintf(said, sizeof(said), "%ld by %s (pid %s) starting %s: %s",
		 count, program, pid, exec, reason);
	a->lost_said[i] = strdup(said);
}

struct audit *audit_new(void)
{
	struct audit *a = calloc(1, sizeof(*a));

	if (!a)
		abort();
	return a;
}

void audit_read(struct audit *a, FILE *in)
{
	/* A line is at most REPORT_LINE_MAX (4096) bytes: room to spare. */
	char line[8192], who[1536], what[1536], program[512], exec[512];
	char argv0[256], deliberate[8], target[512];
	size_t i;

	while (fgets(line, sizeof(line), in)) {
		struct group *g = NULL;

		if (!strstr(line, "\"libcloexec\":1") || !whole(line))
			continue;
		if (strstr(line, "\"event\":\"lost\"")) {
			read_lost(a, line);
			continue;
		}
		if (!field(line, "program", program, sizeof(program)))
			strcpy(program, "?");
		if (!field(line, "exec", exec, sizeof(exec)))
			strcpy(exec, "?");
		if (!field(line, "argv0", argv0, sizeof(argv0)))
			strcpy(argv0, "?");
		snprintf(who, sizeof(who), "%s started %s (%s)", program, exec,
			 argv0);
		describe(line, what, sizeof(what));
		field(line, "deliberate", deliberate, sizeof(deliberate));
		for (i = 0; i < a->ngroups && !g; i++)
			if (!strcmp(a->groups[i].who, who) &&
			    !strcmp(a->groups[i].what, what))
				g = &a->groups[i];
		if (!g) {
			a->groups = realloc(a->groups,
					    (a->ngroups + 1) * sizeof(*g));
			if (!a->groups)
				abort();
			g = &a->groups[a->ngroups++];
			g->who = strdup(who);
			g->what = strdup(what);
			if (!g->who || !g->what)
				abort();
			g->deliberate = !strcmp(deliberate, "true");
			g->harmless = !g->deliberate &&
				      field(line, "target", target,
					    sizeof(target)) &&
				      !strcmp(target, "/dev/null");
			g->count = 0;
		}
		g->count++;
		if (g->deliberate)
			a->kept++;
		else if (g->harmless)
			a->harmless++;
		else
			a->leaks++;
	}
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
 * The groups, by the program that handed them on: by default only the
 * leaks, which are what a reader has to act on; verbose, all of them.
 */
int audit_print(struct audit *a, FILE *out, bool verbose,
		struct audit_counts *c)
{
	struct group *groups = a->groups;
	size_t ngroups = a->ngroups, i, j;
	int leaks = a->leaks;

	if (c) {
		c->leaks = a->leaks;
		c->kept = a->kept;
		c->harmless = a->harmless;
		c->lost = a->lost;
	}
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
			if (verbose || (!g->deliberate && !g->harmless)) {
				if (!shown)
					fprintf(out, "  %s:\n", groups[i].who);
				shown = true;
				fprintf(out, "    %dx %s %s\n", g->count,
					g->deliberate ? "on purpose"
					: g->harmless ? "harmless  "
						      : "LEAKED    ",
					g->what);
			}
			if (j != i) {
				free(g->who);
				g->who = NULL;
			}
			free(g->what);
		}
		free(groups[i].who);
		groups[i].who = NULL;
	}
	free(groups);
	free(a);
	return leaks;
}

void audit_counts_text(const struct audit_counts *c, bool verbose,
		       char *leaked, size_t leaked_size, char *rest,
		       size_t rest_size)
{
	size_t n = 0;

	if (c->leaks)
		snprintf(leaked, leaked_size, "%d inherited fd%s leaked",
			 c->leaks, c->leaks == 1 ? "" : "s");
	else if (c->kept || c->harmless)
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
	if (!verbose && (c->kept || c->harmless) && n < rest_size)
		snprintf(rest + n, rest_size - n, " (-v lists them)");
}

int audit_summary_stream(FILE *in, FILE *out)
{
	struct audit *a = audit_new();

	struct audit_counts c;
	char leaked[64], rest[128];

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
int audit_summary_fd(int fd, FILE *out, bool verbose,
		     struct audit_counts *c)
{
	FILE *in = NULL;
	struct audit *a;

	if (lseek(fd, 0, SEEK_SET) == 0)
		in = fdopen(fd, "r");
	if (!in) {
		close(fd);
		fprintf(out, "cloexec: cannot read the audit log back\n");
		*c = (struct audit_counts){ .lost = 1 };
		return 0;
	}
	a = audit_new();
	audit_read(a, in);
	if (ferror(in))
		fprintf(out, "cloexec: cannot read all of the audit log\n");
	fclose(in);
	return audit_print(a, out, verbose, c);
}
