/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The log reader: the lines of one log or more, into the groups, the
 * tree and the lines lost (audit_log.h).
 */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_int.h"
#include "audit_log.h"
#include "audit_line.h"
#include "audit_tree.h"
#include "audit_verdict.h"

void audit_accept_unaudited(struct audit *a, const char *pattern)
{
	tree_accept(&a->tree, pattern);
}

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

	line_field(line, "lost", n, sizeof(n));
	count = strtol(n, NULL, 10);
	/* A notice that says nothing was lost still says the log failed. */
	if (count < 1 || count > 1000000)
		count = 1;
	a->lost = a->lost > INT_MAX - count ? INT_MAX : a->lost + (int)count;
	line_field(line, "pid", pid, sizeof(pid));
	line_field(line, "program", program, sizeof(program));
	line_field(line, "exec", exec, sizeof(exec));
	line_field(line, "reason", reason, sizeof(reason));
	for (i = 0; i < sizeof(a->lost_said) / sizeof(a->lost_said[0]); i++)
		if (!a->lost_said[i])
			break;
	if (i == sizeof(a->lost_said) / sizeof(a->lost_said[0]))
		return;
	snprintf(said, sizeof(said), "%ld by %s (pid %s) starting %s: %s",
		 count, program, pid, exec, reason);
	a->lost_said[i] = strdup(said);
}

/* One more inode of a group's target, if it is a new one. */
static void add_inode(struct group *g, const char *inode)
{
	size_t i;

	if (!inode[0])
		return;
	for (i = 0; i < g->ninodes; i++)
		if (!strcmp(g->inodes[i], inode))
			return;
	g->inodes = realloc(g->inodes, (g->ninodes + 1) * sizeof(char *));
	if (!g->inodes || !(g->inodes[g->ninodes] = strdup(inode)))
		abort();
	g->ninodes++;
}

/* A leak: whether the baseline accepts it, and the line that would. */
static void leak_group(struct audit *a, struct group *g, const char *line)
{
	g->accepted = baseline_accepts(&a->baseline, line);
	if (a->write_baseline)
		g->rule = baseline_rule_for(line);
}

int audit_use_baseline(struct audit *a, const char *path)
{
	return baseline_read(&a->baseline, path);
}

void audit_write_baseline(struct audit *a, FILE *out)
{
	a->write_baseline = out;
}

struct audit *audit_new(void)
{
	struct audit *a = calloc(1, sizeof(*a));

	if (!a)
		abort();
	return a;
}

/* An "inherit" line: into its group, counted. */
static void read_inherit(struct audit *a, const char *line)
{
	char who[1536], what[1536], program[512], exec[512];
	char argv0[256], deliberate[8], target[512], args[512], inode[32];
	struct group *g = NULL;
	size_t i, inode_at;

	tree_handed(&a->tree, line);
	/* The caller's fds, handed down: said once, apart. */
	if (line_field(line, "created_by", target, sizeof(target)) &&
	    !strcmp(target, "inherited") &&
	    line_field(line, "target", target, sizeof(target)) &&
	    tree_from_caller(&a->tree, target, a->tree.log))
		return;
	if (!line_field(line, "program", program, sizeof(program)))
		strcpy(program, "?");
	if (!line_field(line, "exec", exec, sizeof(exec)))
		strcpy(exec, "?");
	if (!line_field(line, "argv0", argv0, sizeof(argv0)))
		strcpy(argv0, "?");
	/* The command line is shown, but is no part of the key. */
	line_argv(line, args, sizeof(args), 72);
	if (args[0])
		snprintf(who, sizeof(who), "%s started %s", program, exec);
	else
		snprintf(who, sizeof(who), "%s started %s (%s)", program, exec,
			 argv0);
	line_describe(line, what, sizeof(what), inode, &inode_at);
	line_field(line, "deliberate", deliberate, sizeof(deliberate));
	for (i = 0; i < a->ngroups && !g; i++)
		if (!strcmp(a->groups[i].who, who) &&
		    !strcmp(a->groups[i].what, what) &&
		    a->groups[i].inode_at == inode_at)
			g = &a->groups[i];
	if (!g) {
		a->groups = realloc(a->groups, (a->ngroups + 1) * sizeof(*g));
		if (!a->groups)
			abort();
		g = &a->groups[a->ngroups++];
		g->who = strdup(who);
		g->what = strdup(what);
		if (!g->who || !g->what)
			abort();
		g->deliberate = !strcmp(deliberate, "true");
		g->harmless =
			!g->deliberate &&
			line_field(line, "target", target, sizeof(target)) &&
			!strcmp(target, "/dev/null");
		g->count = 0;
		g->rule = NULL;
		g->accepted = false;
		g->argv = strdup(args);
		g->other_argv = false;
		g->inodes = NULL;
		g->ninodes = 0;
		g->inode_at = inode_at;
		if (!g->argv)
			abort();
		if (!g->deliberate && !g->harmless)
			leak_group(a, g, line);
	}
	g->count++;
	g->other_argv |= strcmp(g->argv, args) != 0;
	add_inode(g, inode);
	if (g->deliberate)
		a->kept++;
	else if (g->harmless)
		a->harmless++;
	else if (g->accepted)
		a->accepted++;
	else
		a->leaks++;
}

/*
 * The "inherit" lines of an exec, kept until it is known to have
 * happened.  A shell that searches PATH (dash, bash) calls execve for
 * each directory until one works, and each call reports the same fds: an
 * exec line of the same pid, program and command line, with no start
 * line between, says that the one before failed, and its lines are
 * dropped.  The others are counted at the next start line of the pid, at
 * another exec of its, or at the end of the log.
 */
struct pending {
	long pid;
	char *key; /* the program and the command line */
	char **lines;
	size_t n;
};

static struct pending *pending_of(struct audit *a, long pid)
{
	size_t i;

	for (i = 0; i < a->npending; i++)
		if (a->pending[i].pid == pid)
			return &a->pending[i];
	return NULL;
}

/* Count p's lines (drop them, if not count), and forget p. */
static void pending_end(struct audit *a, struct pending *p, bool count)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (count)
			read_inherit(a, p->lines[i]);
		free(p->lines[i]);
	}
	free(p->lines);
	free(p->key);
	*p = a->pending[--a->npending];
}

static void pending_exec(struct audit *a, long pid, const char *line)
{
	struct pending *p = pending_of(a, pid);
	char program[512], args[512], key[1100];

	if (!line_field(line, "program", program, sizeof(program)))
		program[0] = '\0';
	line_argv(line, args, sizeof(args), sizeof(args) - 1);
	snprintf(key, sizeof(key), "%s\n%s", program, args);
	if (p)
		pending_end(a, p, strcmp(p->key, key) != 0);
	a->pending = realloc(a->pending,
			     (a->npending + 1) * sizeof(*a->pending));
	if (!a->pending)
		abort();
	p = &a->pending[a->npending++];
	*p = (struct pending){ .pid = pid, .key = strdup(key) };
	if (!p->key)
		abort();
}

void audit_read(struct audit *a, FILE *in)
{
	/* A line is at most REPORT_LINE_MAX (4096) bytes: room to spare. */
	char line[8192];
	struct pending *p;
	long pid;

	a->tree.log++;
	while (fgets(line, sizeof(line), in)) {
		if (!strstr(line, "\"libcloexec\":1") || !whole(line))
			continue;
		if (strstr(line, "\"event\":\"lost\"")) {
			read_lost(a, line);
			continue;
		}
		pid = line_number(line, "pid");
		if (strstr(line, "\"event\":\"exec\"") &&
		    !strstr(line, "\"spawn\":true"))
			pending_exec(a, pid, line);
		else if (strstr(line, "\"event\":\"start\"") &&
			 (p = pending_of(a, pid)))
			pending_end(a, p, true);
		if (tree_line(&a->tree, line))
			continue;
		p = pending_of(a, pid);
		if (!p) {
			read_inherit(a, line);
			continue;
		}
		p->lines = realloc(p->lines, (p->n + 1) * sizeof(char *));
		if (!p->lines || !(p->lines[p->n] = strdup(line)))
			abort();
		p->n++;
	}
	while (a->npending)
		pending_end(a, &a->pending[0], true);
	free(a->pending);
	a->pending = NULL;
}
