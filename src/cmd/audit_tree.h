/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tree of an audit: the processes, the programs they ran, the fds
 * they received and those they handed on.  Takes the lines of the log
 * (from the log reader), one at a time, in order; gives the fds that
 * no audited program explains and the programs that ran without the
 * library, printed (tree_print), with how many of each.  Stands on
 * audit_line.c alone.
 */
#ifndef CLOEXEC_AUDIT_TREE_H
#define CLOEXEC_AUDIT_TREE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * The tree, from the "start", "received", "exec" and "inherit" lines
 * (doc/audit.md), and cloexec's own "audit" line: which processes
 * reported, which programs were started and never did, and the fds a
 * process was given that no audited parent reported handing it.  Each
 * line has its log's number and its place in it: a pid of another log
 * is another process, and a parent's line comes before its child's.
 */
struct proc_line {
	long pid, ppid, fd;
	int log;
	long seq;
	bool spawn; /* an exec's: at a spawn; a received: unexplained */
	char *program, *exec, *kind, *target, *args;
};

struct lines {
	struct proc_line *v;
	size_t n;
};

struct tree {
	struct lines roots, starts, received, execs, handed, caller;
	int log;
	long seq;
	/* --accept-unaudited: programs that may run without the library */
	const char **accept;
	size_t naccept;
	int dark; /* programs started that never reported, not accepted */
};

/*
 * A line of the log, kept if it is one of the tree's ("audit", "start",
 * "received", "exec"): true if it was.
 */
bool tree_line(struct tree *t, const char *line);
/* An "inherit" line, which explains the fd its child receives. */
void tree_handed(struct tree *t, const char *line);
/* Whether target, in log, is an fd that cloexec's caller gave it. */
bool tree_from_caller(const struct tree *t, const char *target, int log);
/* --accept-unaudited's PATTERN, which must outlive t. */
void tree_accept(struct tree *t, const char *pattern);
/*
 * The fds nobody explains, the programs that never reported (counted in
 * t->dark), and, verbose, the caller's fds: printed to out.  Returns how
 * many fds were unexplained.
 */
int tree_print(struct tree *t, FILE *out, bool verbose);
/* All but t->accept, which the caller frees. */
void tree_free(struct tree *t);

#endif /* CLOEXEC_AUDIT_TREE_H */
