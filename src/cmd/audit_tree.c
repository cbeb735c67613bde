/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tree: which processes reported, which programs never did, and
 * which fds came from where (audit_tree.h).
 */
#include "config.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit_line.h"
#include "audit_tree.h"

static void lines_add(struct lines *l, const struct proc_line *p)
{
	l->v = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	if (!l->v)
		abort();
	l->v[l->n++] = *p;
}

static char *text_field(const char *line, const char *name)
{
	char buf[1024];
	char *copy =
		strdup(line_field(line, name, buf, sizeof(buf)) ? buf : "");

	if (!copy)
		abort();
	return copy;
}

static struct proc_line proc_line(struct tree *t, const char *line)
{
	struct proc_line p = {
		.pid = line_number(line, "pid"),
		.ppid = line_number(line, "ppid"),
		.fd = line_number(line, "fd"),
		.log = t->log,
		.seq = t->seq,
		.spawn = strstr(line, "\"spawn\":true") != NULL,
		.program = text_field(line, "program"),
		.exec = text_field(line, "exec"),
		.kind = text_field(line, "kind"),
		.target = text_field(line, "target"),
	};
	char args[512];

	line_argv(line, args, sizeof(args), 72);
	p.args = strdup(args);
	if (!p.args)
		abort();
	return p;
}

static void proc_free(struct proc_line *p)
{
	free(p->program);
	free(p->exec);
	free(p->kind);
	free(p->target);
	free(p->args);
}

/* An fd the caller of cloexec had: its target is one of the root's. */
bool tree_from_caller(const struct tree *t, const char *target, int log)
{
	size_t i;

	for (i = 0; i < t->caller.n; i++)
		if (t->caller.v[i].log == log &&
		    !strcmp(t->caller.v[i].target, target))
			return true;
	return false;
}

static bool is_root(const struct tree *t, long pid, int log)
{
	size_t i;

	for (i = 0; i < t->roots.n; i++)
		if (t->roots.v[i].log == log && t->roots.v[i].pid == pid)
			return true;
	return false;
}

/*
 * A line of the tree's, kept; true if it was one.  An fd that the root
 * (cloexec) held at start is the caller's: kept once, apart.
 */
bool tree_line(struct tree *t, const char *line)
{
	struct proc_line p;
	struct lines *to;

	t->seq++;
	if (strstr(line, "\"event\":\"audit\""))
		to = &t->roots;
	else if (strstr(line, "\"event\":\"start\""))
		to = &t->starts;
	else if (strstr(line, "\"event\":\"received\""))
		to = &t->received;
	else if (strstr(line, "\"event\":\"exec\""))
		to = &t->execs;
	else
		return false;
	p = proc_line(t, line);
	if (to == &t->received && is_root(t, p.pid, t->log)) {
		if (tree_from_caller(t, p.target, t->log)) {
			proc_free(&p);
			return true;
		}
		to = &t->caller;
	}
	lines_add(to, &p);
	return true;
}

/* An "inherit" line: who handed which fd, for explaining the received. */
void tree_handed(struct tree *t, const char *line)
{
	struct proc_line p = {
		.pid = line_number(line, "pid"),
		.fd = line_number(line, "fd"),
		.log = t->log,
		.seq = t->seq,
	};

	lines_add(&t->handed, &p);
}

/*
 * Whether an audited process handed r's fd to it: the same process
 * before its exec, or its parent at a spawn or before its fork's exec,
 * reported it, earlier in the same log.
 */
static bool explained(const struct tree *t, const struct proc_line *r)
{
	size_t i;

	for (i = 0; i < t->handed.n; i++) {
		const struct proc_line *h = &t->handed.v[i];

		if (h->log == r->log && h->fd == r->fd && h->seq < r->seq &&
		    (h->pid == r->pid || h->pid == r->ppid))
			return true;
	}
	return false;
}

/* The program a pid ran, as far as the log knows, or "?". */
static const char *program_of(const struct tree *t, long pid, int log)
{
	size_t i;

	for (i = t->execs.n; i-- > 0;)
		if (t->execs.v[i].log == log && t->execs.v[i].pid == pid &&
		    !t->execs.v[i].spawn)
			return t->execs.v[i].exec;
	for (i = 0; i < t->starts.n; i++)
		if (t->starts.v[i].log == log && t->starts.v[i].pid == pid)
			return t->starts.v[i].program;
	return "?";
}

/* The command line of a pid's start line, or "". */
static const char *args_of(const struct tree *t, long pid, int log)
{
	size_t i;

	for (i = 0; i < t->starts.n; i++)
		if (t->starts.v[i].log == log && t->starts.v[i].pid == pid)
			return t->starts.v[i].args;
	return "";
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * Whether the program that e started reported: a start line of the same
 * pid after an exec, of a child of it after a spawn (the same program,
 * by its path or its name).  A path that is not an executable file now
 * was an exec that failed (a shell's search of PATH), not a program.
 */
static bool reported(const struct tree *t, const struct proc_line *e)
{
	char real[PATH_MAX];
	size_t i;

	if (e->exec[0] != '/' || access(e->exec, X_OK))
		return true;
	if (!realpath(e->exec, real))
		snprintf(real, sizeof(real), "%s", e->exec);
	for (i = 0; i < t->starts.n; i++) {
		const struct proc_line *s = &t->starts.v[i];

		if (s->log != e->log)
			continue;
		/* an exec without fork: the new image's start, after it */
		if (!e->spawn && s->pid == e->pid && s->seq > e->seq)
			return true;
		if (e->spawn && s->ppid == e->pid &&
		    (!strcmp(s->program, real) ||
		     !strcmp(base_name(s->program), base_name(e->exec))))
			return true;
	}
	return false;
}

/*
 * Is a program started without the library accepted by a pattern of
 * --accept-unaudited (matched against its path, and its base name)?
 */
static bool unaudited_accepted(const struct tree *t, const char *exec)
{
	size_t i;

	for (i = 0; i < t->naccept; i++)
		if (!fnmatch(t->accept[i], exec, 0) ||
		    !fnmatch(t->accept[i], base_name(exec), 0))
			return true;
	return false;
}

/* "fd 3, file /etc/hostname" and the like, for the tree's rows. */
static void print_fd(FILE *out, const struct proc_line *r)
{
	fprintf(out, "fd %ld, %s %s", r->fd, r->kind, r->target);
}

/*
 * The unexplained fds (which fail --check), the programs that never
 * reported, and, verbose, the caller's fds and how many processes were
 * audited.  Returns how many unexplained fds.
 */
int tree_print(struct tree *t, FILE *out, bool verbose)
{
	size_t i, j;
	int unexplained = 0, unaudited = 0, shown = 0;
	bool accepted;

	for (i = 0; i < t->received.n; i++) {
		struct proc_line *r = &t->received.v[i];

		r->spawn = !explained(t, r) &&
			   !tree_from_caller(t, r->target, r->log);
		unexplained += r->spawn;
	}
	/* Each fd once, with how many processes held it so. */
	for (i = 0; i < t->received.n; i++) {
		const struct proc_line *r = &t->received.v[i];
		int count = 0;

		if (!r->spawn)
			continue;
		for (j = 0; j < t->received.n; j++) {
			const struct proc_line *o = &t->received.v[j];

			if (!o->spawn || o->fd != r->fd ||
			    strcmp(o->program, r->program) ||
			    strcmp(o->target, r->target))
				continue;
			if (j < i)
				break;
			count++;
		}
		if (j < t->received.n)
			continue;
		if (!shown++)
			fprintf(out, "  unexplained: given by a program that "
				     "was not audited:\n");
		fprintf(out, "    %dx UNEXPLAINED ", count);
		print_fd(out, r);
		fprintf(out, ", held at start by %s (pid %ld: %s), from pid "
			     "%ld (%s)\n",
			r->program, r->pid, args_of(t, r->pid, r->log),
			r->ppid, program_of(t, r->ppid, r->log));
	}
	for (i = 0; i < t->execs.n; i++) {
		const struct proc_line *e = &t->execs.v[i];

		if (reported(t, e))
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(t->execs.v[j].exec, e->exec) &&
			    !reported(t, &t->execs.v[j]))
				break;
		if (j < i)
			continue;
		if (!unaudited++)
			fprintf(out, "  not audited (static, setuid, or of "
				     "another C library): what it handed on "
				     "is unexplained:\n");
		accepted = unaudited_accepted(t, e->exec);
		t->dark += !accepted;
		fprintf(out, "    %s (pid %ld: %s)%s\n", e->exec, e->pid,
			e->args, accepted ? " (accepted: --accept-unaudited)" :
					    "");
	}
	if (t->dark)
		fprintf(out,
			"  INCOMPLETE: %d program%s ran without the library: "
			"nothing %s or what %s started did was seen "
			"(--accept-unaudited=PROGRAM accepts one that starts "
			"nothing)\n",
			t->dark, t->dark == 1 ? "" : "s",
			t->dark == 1 ? "it" : "they",
			t->dark == 1 ? "it" : "they");
	if (verbose && t->caller.n) {
		fprintf(out, "  open when cloexec started (the caller's, "
			     "not checked):\n");
		for (i = 0; i < t->caller.n; i++) {
			fprintf(out, "    ");
			print_fd(out, &t->caller.v[i]);
			fputc('\n', out);
		}
	}
	if (verbose)
		fprintf(out, "  %zu process%s audited\n", t->starts.n,
			t->starts.n == 1 ? "" : "es");
	return unexplained;
}

void tree_free(struct tree *t)
{
	struct lines *all[] = { &t->roots, &t->starts, &t->received,
				&t->execs, &t->caller };
	size_t i, j;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		for (j = 0; j < all[i]->n; j++)
			proc_free(&all[i]->v[j]);
		free(all[i]->v);
	}
	free(t->handed.v);
}

void tree_accept(struct tree *t, const char *pattern)
{
	t->accept = realloc(t->accept, (t->naccept + 1) * sizeof(*t->accept));
	if (!t->accept)
		abort();
	t->accept[t->naccept++] = pattern;
}
