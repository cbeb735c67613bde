/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The verdict on a leak: whether the baseline accepts it (audit_verdict.h).
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_line.h"
#include "audit_verdict.h"

/*
 * The baseline (doc/audit.md): leaks a team has accepted, one a line,
 *
 *	leak program=/usr/bin/mawk call=open caller=/usr/bin/mawk+0x1b234
 *	leak program=/usr/sbin/nginx kind=socket target=socket:\[*\]
 *
 * each KEY=PATTERN an fnmatch(3) pattern that the record's value must
 * match, all of them; a blank, a tab or a backslash in a pattern is
 * written with a backslash, as fnmatch reads it.
 */
enum rule_key {
	KEY_PROGRAM,
	KEY_EXEC,
	KEY_CALL,
	KEY_CALLER,
	KEY_KIND,
	KEY_TARGET,
	KEY_FD,
	NKEYS
};

static const char *const key_names[NKEYS] = {
	"program", "exec", "call", "caller", "kind", "target", "fd",
};

struct rule {
	char *pattern[NKEYS]; /* NULL: any value */
};

/*
 * A record's value for each key.  The caller is the symbol where there is
 * one (main+0x42), else the object and the offset (/usr/bin/mawk+0x1b234),
 * which stay the same from run to run, unlike the address.
 */
static void rule_values(const char *line, char values[NKEYS][768])
{
	static const struct {
		int key;
		const char *name;
	} plain_fields[] = {
		{ KEY_PROGRAM, "program" }, { KEY_EXEC, "exec" },
		{ KEY_CALL, "created_by" }, { KEY_KIND, "kind" },
		{ KEY_TARGET, "target" },   { KEY_FD, "fd" },
	};
	char symbol[256], object[512], offset[32];
	size_t i;

	for (i = 0; i < sizeof(plain_fields) / sizeof(plain_fields[0]); i++)
		if (!line_field(line, plain_fields[i].name,
				values[plain_fields[i].key], 768))
			values[plain_fields[i].key][0] = '\0';
	values[KEY_CALLER][0] = '\0';
	if (line_field(line, "caller_symbol", symbol, sizeof(symbol)))
		snprintf(values[KEY_CALLER], 768, "%s", symbol);
	else if (line_field(line, "caller_object", object, sizeof(object)) &&
		 line_field(line, "caller_offset", offset, sizeof(offset)))
		snprintf(values[KEY_CALLER], 768, "%s+%s", object, offset);
}

static bool rule_matches(const struct rule *r, char values[NKEYS][768])
{
	int k;

	for (k = 0; k < NKEYS; k++)
		if (r->pattern[k] && fnmatch(r->pattern[k], values[k], 0))
			return false;
	return true;
}

/* s with the characters fnmatch and the baseline's syntax read escaped. */
static void put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("*?[]\\ \t", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* ", socket:[12345]" -> "socket:\[*\]": the inode differs every run. */
static void put_target(FILE *out, const char *target)
{
	const char *open = strchr(target, '[');
	size_t n = open ? strspn(open + 1, "0123456789") : 0;

	if (target[0] == '/' || !open || !n || strcmp(open + 1 + n, "]")) {
		put_escaped(out, target);
		return;
	}
	for (; target < open; target++)
		put_escaped(out, (char[2]){ *target, 0 });
	fputs("\\[*\\]", out);
}

/*
 * The baseline line that accepts this leak: by the call and its caller
 * where the library saw the fd made, else by the kind and the target.
 */
char *baseline_rule_for(const char *line)
{
	char values[NKEYS][768], symbol[256];
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	char *plus;

	if (!out)
		abort();
	rule_values(line, values);
	fputs("leak program=", out);
	put_escaped(out, values[KEY_PROGRAM]);
	if (values[KEY_CALL][0] && values[KEY_CALLER][0] &&
	    strcmp(values[KEY_CALL], "inherited")) {
		fputs(" call=", out);
		put_escaped(out, values[KEY_CALL]);
		fputs(" caller=", out);
		/* main+0x42: the function, at any offset (another build). */
		if (line_field(line, "caller_symbol", symbol, sizeof(symbol)) &&
		    (plus = strrchr(symbol, '+'))) {
			*plus = '\0';
			put_escaped(out, symbol);
			fputs("+*", out);
		} else {
			put_escaped(out, values[KEY_CALLER]);
		}
	} else {
		fputs(" kind=", out);
		put_escaped(out, values[KEY_KIND]);
		fputs(" target=", out);
		put_target(out, values[KEY_TARGET]);
	}
	if (fclose(out))
		abort();
	return text;
}

/* One baseline line into r; false, with *why, if it is not one. */
static bool parse_rule(char *text, struct rule *r, const char **why)
{
	char *p = text, *word, *eq;
	int k;

	memset(r, 0, sizeof(*r));
	p += strspn(p, " \t");
	if (strncmp(p, "leak", 4) || (p[4] != ' ' && p[4] != '\t')) {
		*why = "a line starts with \"leak\"";
		return false;
	}
	p += 4;
	for (;;) {
		p += strspn(p, " \t");
		if (!*p)
			break;
		/* A word ends at a blank that no backslash escapes. */
		word = p;
		while (*p && *p != ' ' && *p != '\t')
			p += *p == '\\' && p[1] ? 2 : 1;
		if (*p)
			*p++ = '\0';
		eq = strchr(word, '=');
		if (!eq || eq == word || !eq[1]) {
			*why = "KEY=PATTERN expected";
			return false;
		}
		*eq = '\0';
		for (k = 0; k < NKEYS && strcmp(word, key_names[k]); k++)
			;
		if (k == NKEYS) {
			*why = "unknown key (program, exec, call, caller, "
			       "kind, target, fd)";
			return false;
		}
		r->pattern[k] = strdup(eq + 1);
		if (!r->pattern[k])
			abort();
	}
	for (k = 0; k < NKEYS && !r->pattern[k]; k++)
		;
	if (k == NKEYS) {
		*why = "a rule names at least one KEY=PATTERN";
		return false;
	}
	return true;
}

int baseline_read(struct baseline *b, const char *path)
{
	FILE *in = fopen(path, "re");
	char line[4096];
	const char *why;
	int n = 0;

	if (!in) {
		fprintf(stderr, "cloexec: --baseline: '%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		size_t len = strlen(line);
		char *p = line + strspn(line, " \t");

		n++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!*p || *p == '#')
			continue;
		b->rules = realloc(b->rules,
				   (b->nrules + 1) * sizeof(*b->rules));
		if (!b->rules)
			abort();
		if (!parse_rule(p, &b->rules[b->nrules], &why)) {
			fprintf(stderr, "cloexec: --baseline: %s:%d: %s\n",
				path, n, why);
			fclose(in);
			return -1;
		}
		b->nrules++;
	}
	if (ferror(in)) {
		fprintf(stderr, "cloexec: --baseline: cannot read '%s'\n",
			path);
		fclose(in);
		return -1;
	}
	fclose(in);
	return 0;
}

bool baseline_accepts(const struct baseline *b, const char *line)
{
	char values[NKEYS][768];
	bool accepted = false;
	size_t i;

	rule_values(line, values);
	for (i = 0; i < b->nrules && !accepted; i++)
		accepted = rule_matches(&b->rules[i], values);
	return accepted;
}

void baseline_free(struct baseline *b)
{
	size_t i;
	int k;

	for (i = 0; i < b->nrules; i++)
		for (k = 0; k < NKEYS; k++)
			free(b->rules[i].pattern[k]);
	free(b->rules);
}
