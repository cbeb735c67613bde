/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec --check-config and --show-policy: the policy files read as the
 * library reads them (src/core/layers.c, the same code), reported for a
 * person.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inspect.h"

#include "core/layers.h"

#define SOURCES_MAX 512

/* Where each piece of the policy's text came from. */
struct sources {
	struct layer_trace trace;
	unsigned n;
	struct {
		size_t off;
		char name[280];
	} at[SOURCES_MAX];
};

static void note_source(struct layer_trace *t, size_t off, const char *name)
{
	struct sources *s = (struct sources *)t;

	if (s->n == SOURCES_MAX)
		return;
	s->at[s->n].off = off;
	snprintf(s->at[s->n].name, sizeof(s->at[s->n].name), "%s", name);
	s->n++;
}

static void sources_init(struct sources *s)
{
	s->trace.note = note_source;
	s->n = 0;
}

/* The source of the text at off; "default" for none. */
static const char *source_of(const struct sources *s, size_t off)
{
	const char *name = "default";
	unsigned i;

	for (i = 0; i < s->n && s->at[i].off <= off; i++)
		name = s->at[i].name;
	return name;
}

/* The files that had a line, as "a, b" (file:line sources cut at ':'). */
static void print_files(FILE *out, const struct sources *s)
{
	const char *last = NULL;
	size_t last_len = 0;
	unsigned i;

	for (i = 0; i < s->n; i++) {
		const char *name = s->at[i].name, *colon = strrchr(name, ':');
		size_t len = colon ? (size_t)(colon - name) : strlen(name);

		if (last && len == last_len && !memcmp(name, last, len))
			continue;
		fprintf(out, "%s%.*s", last ? ", " : "", (int)len, name);
		last = name;
		last_len = len;
	}
}

/*
 * A drop-in directory with no file beside it is not read (layers.c says
 * why): said here, since the library says nothing in every process.
 */
static bool dropins_unread(const char *path)
{
	char dir[PATH_MAX];
	struct stat st;

	if (lstat(path, &st) == 0 || errno != ENOENT)
		return false;
	snprintf(dir, sizeof(dir), "%s.d", path);
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	fprintf(stderr,
		"cloexec: %s is not read: there is no %s (an empty one will "
		"do)\n",
		dir, path);
	return true;
}

int check_config(const char *file)
{
	static struct sources src;
	struct diag errs = { .len = 0, .strict = true, .spill_fd = 2 };
	struct policy p;
	const char *env;
	int bad;

	sources_init(&src);
	policy_default(&p);
	if (file) {
		bad = layers_read_file(&p, file, &errs, &src.trace);
		if (bad < 0) {
			fprintf(stderr, "cloexec: cannot read %s: %s\n", file,
				strerror(-bad));
			return 1;
		}
	} else {
		bad = layers_read_files(&p, layers_file_path(), &errs,
					&src.trace);
		bad += dropins_unread(layers_file_path());
		env = layers_env_text();
		if (env) {
			note_source(&src.trace, p.text_len, POLICY_ENV);
			bad += policy_parse(&p, env, POLICY_ENV, &errs);
		}
	}
	diag_flush(&errs, 2);
	if (bad) {
		fprintf(stderr, "cloexec: %d bad item%s\n", bad,
			bad == 1 ? "" : "s");
		return 1;
	}
	if (!src.n) {
		printf("cloexec: no policy file or drop-in (%s): the defaults "
		       "apply\n",
		       file ? file : layers_file_path());
		return 0;
	}
	printf("cloexec: no errors in ");
	print_files(stdout, &src);
	printf("\n");
	return 0;
}

/* An item of the policy and where it was set: "ITEM    SOURCE". */
static void show(const char *item, const char *source)
{
	printf("%-40s %s\n", item, source);
}

static const char *from_name(const struct sources *s, const struct policy *p,
			     enum policy_from f)
{
	return p->from[f] ? source_of(s, p->from[f] - 1u) : "default";
}

static void show_classes(unsigned classes, char *buf, size_t size)
{
	size_t len = 0;
	int c;

	buf[0] = '\0';
	if (classes == FD_CLASS_DEFAULT) {
		snprintf(buf, size, "default");
		return;
	}
	if (!classes) {
		snprintf(buf, size, "none");
		return;
	}
	for (c = 0; c < FD_CLASS_COUNT; c++)
		if (classes & (1u << c))
			len += snprintf(buf + len, size - len, "%s%s",
					len ? "," : "", fd_class_name(c));
}

static void show_items(const struct policy *p, const struct sources *s)
{
	static const char *const modes[] = { "enforce", "audit", "off" };
	char item[POLICY_TEXT_MAX + 32];
	unsigned i;

	snprintf(item, sizeof(item), "mode=%s", modes[p->mode]);
	show(item, from_name(s, p, POLICY_FROM_MODE));
	strcpy(item, "classes=");
	show_classes(p->classes, item + 8, sizeof(item) - 8);
	show(item, from_name(s, p, POLICY_FROM_CLASSES));
	show(p->scope == SCOPE_PROCESS ? "scope=process" : "scope=tree",
	     from_name(s, p, POLICY_FROM_SCOPE));
	show(p->report ? "report=on" : "report=off",
	     from_name(s, p, POLICY_FROM_REPORT));
	show(p->sweep ? "sweep=on" : "sweep=off",
	     from_name(s, p, POLICY_FROM_SWEEP));
	if (p->log_off >= 0) {
		snprintf(item, sizeof(item), "log=%.*s", p->log_len,
			 p->text + p->log_off);
		show(item, from_name(s, p, POLICY_FROM_LOG));
	}
	for (i = 0; i < p->nkeep; i++) {
		if (p->keep[i].lo == p->keep[i].hi)
			snprintf(item, sizeof(item), "keep=%d", p->keep[i].lo);
		else
			snprintf(item, sizeof(item), "keep=%d-%d",
				 p->keep[i].lo, p->keep[i].hi);
		show(item, source_of(s, p->keep[i].off));
	}
	for (i = 0; i < p->keep_path.n; i++) {
		snprintf(item, sizeof(item), "keep-path=%.*s",
			 p->keep_path.item[i].len,
			 p->text + p->keep_path.item[i].off);
		show(item, source_of(s, p->keep_path.item[i].off));
	}
	if (!p->exempt_set) {
		size_t len = snprintf(item, sizeof(item), "exempt=default (");

		for (i = 0; policy_default_exempt(i); i++)
			len += snprintf(item + len, sizeof(item) - len, "%s%s",
					i ? "," : "", policy_default_exempt(i));
		snprintf(item + len, sizeof(item) - len, ")");
	} else {
		snprintf(item, sizeof(item), "exempt=none");
	}
	show(item, from_name(s, p, POLICY_FROM_EXEMPT));
	for (i = 0; i < p->exempt_list.n; i++) {
		snprintf(item, sizeof(item), "exempt=%.*s",
			 p->exempt_list.item[i].len,
			 p->text + p->exempt_list.item[i].off);
		show(item, source_of(s, p->exempt_list.item[i].off));
	}
	for (i = 0; i < p->unexempt_list.n; i++) {
		snprintf(item, sizeof(item), "exempt=-%.*s",
			 p->unexempt_list.item[i].len,
			 p->text + p->unexempt_list.item[i].off);
		show(item, source_of(s, p->unexempt_list.item[i].off));
	}
}

/* Would exempt=NAME alone make this program exempt? */
static bool matches(const char *name, size_t len, const char *exe,
		    const char *base)
{
	char text[600];
	struct policy t;
	struct diag errs = { .len = 0 };

	snprintf(text, sizeof(text), "exempt=none,%.*s", (int)len, name);
	policy_default(&t);
	policy_parse(&t, text, "test", &errs);
	policy_settle(&t, exe, base, base);
	return t.exempt;
}

/*
 * PROGRAM as execvp would find it, its links resolved as /proc/self/exe,
 * for exempt= paths; names are matched against the name it is run by.
 */
static char *resolve(const char *program)
{
	const char *path = getenv("PATH"), *end;
	char try[PATH_MAX];

	if (strchr(program, '/'))
		return realpath(program, NULL);
	if (!path)
		path = "/usr/local/bin:/bin:/usr/bin";
	for (; *path; path = *end ? end + 1 : end) {
		end = strchrnul(path, ':');
		snprintf(try, sizeof(try), "%.*s/%s", (int)(end - path),
			 *path && path != end ? path : ".", program);
		if (access(try, X_OK) == 0)
			return realpath(try, NULL);
	}
	return NULL;
}

static void show_program(struct policy *p, const struct sources *s,
			 const char *program)
{
	char *exe = resolve(program), classes[128];
	const char *base = strrchr(program, '/');
	unsigned i;
	uint32_t word;

	base = base ? base + 1 : program;
	policy_settle(p, exe, base, base);
	word = policy_word_of(p);
	printf("\n%s: %s, named %s\n", program,
	       exe ? exe : "not found (judged by its name only)", base);
	if (p->exempt) {
		bool found = false;
		const char *d;

		for (i = p->exempt_list.n; !found && i-- > 0;) {
			const char *item = p->text + p->exempt_list.item[i].off;
			unsigned len = p->exempt_list.item[i].len;

			if ((found = matches(item, len, exe, base)))
				printf("exempt, by exempt=%.*s (%s)\n",
				       (int)len, item,
				       source_of(s,
						 p->exempt_list.item[i].off));
		}
		for (i = 0;
		     !found && !p->exempt_set && (d = policy_default_exempt(i));
		     i++)
			if ((found = matches(d, strlen(d), exe, base)))
				printf("exempt, by exempt=default (built in: "
				       "%s)\n",
				       d);
		if (!found)
			printf("exempt\n");
		printf("nothing forced in it\n");
		free(exe);
		return;
	}
	for (i = p->unexempt_list.n; i-- > 0;)
		if (matches(p->text + p->unexempt_list.item[i].off,
			    p->unexempt_list.item[i].len, exe, base)) {
			printf("not exempt: exempt=-%.*s (%s) takes it out\n",
			       p->unexempt_list.item[i].len,
			       p->text + p->unexempt_list.item[i].off,
			       source_of(s, p->unexempt_list.item[i].off));
			break;
		}
	if (i == (unsigned)-1)
		printf("not exempt: no exempt= item matches it\n");
	show_classes(word & FD_CLASS_ALL, classes, sizeof(classes));
	if (p->mode != POLICY_ENFORCE)
		printf("nothing forced (mode=%s)\n",
		       p->mode == POLICY_AUDIT ? "audit" : "off");
	else
		printf("forced: classes=%s\n", classes);
	free(exe);
}

int show_policy(const char *options, const char *program)
{
	static struct sources src;
	static struct policy p;
	struct diag errs = { .len = 0, .spill_fd = 2 };
	const char *env = layers_env_text();

	sources_init(&src);
	policy_default(&p);
	layers_read_files(&p, layers_file_path(), &errs, &src.trace);
	dropins_unread(layers_file_path());
	if (env) {
		note_source(&src.trace, p.text_len, POLICY_ENV);
		policy_parse(&p, env, POLICY_ENV, &errs);
	}
	if (options) {
		note_source(&src.trace, p.text_len, "option");
		policy_parse(&p, options, "option", &errs);
	}
	diag_flush(&errs, 2);
	printf("# the policy: built in, %s, %s.d/*.conf, " POLICY_ENV
	       ", options\n",
	       layers_file_path(), layers_file_path());
	show_items(&p, &src);
	if (program)
		show_program(&p, &src, program);
	return 0;
}
