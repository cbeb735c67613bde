/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the audit line writer (line_format_record).  The input
 * is one flag byte, then the string fields separated by NUL bytes, in
 * the order of names[] (a field past the last is NULL), then up to
 * NARGS arguments for "argv" (flag 16).  Each line must be one line, at most
 * REPORT_LINE_MAX bytes, strict JSON (checked here by a parser of its
 * own, UTF-8 included), and give back every value: whole, or, where the
 * line says "truncated":true, a prefix cut at a character.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { NFIELDS = 17 };
static const char *const names[NFIELDS] = {
	"program",  "exec",	     "argv0",	      "kind",
	"target",   "family",	     "socktype",      "local",
	"peer",	    "created_by",    "caller",	      "caller_symbol",
	"caller_object", "caller_offset", "time", "why", "reason",
};

struct parser {
	const unsigned char *p, *end;
};

static void fail(void)
{
	abort();
}

/* A strict UTF-8 sequence at p: its length, or 0. */
static size_t utf8_ok(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0], need, cp, i;

	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0)
		need = 1, cp = c & 0x1f;
	else if ((c & 0xf0) == 0xe0)
		need = 2, cp = c & 0x0f;
	else if ((c & 0xf8) == 0xf0)
		need = 3, cp = c & 0x07;
	else
		return 0;
	if ((size_t)(end - p) <= need)
		return 0;
	for (i = 1; i <= need; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
	    (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need + 1;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	fail();
	return 0;
}

/* A JSON string into out (bytes: \u00XX is one byte); its length. */
static size_t parse_string(struct parser *ps, unsigned char *out, size_t cap)
{
	size_t n = 0, len;
	unsigned v;

	if (ps->p >= ps->end || *ps->p++ != '"')
		fail();
	for (;;) {
		if (ps->p >= ps->end)
			fail();
		if (*ps->p == '"') {
			ps->p++;
			return n;
		}
		if (n + 4 > cap)
			fail();
		if (*ps->p < 0x20)
			fail();
		if (*ps->p == '\\') {
			if (ps->end - ps->p < 2)
				fail();
			ps->p++;
			switch (*ps->p) {
			case '"':
			case '\\':
			case '/':
				out[n++] = *ps->p++;
				continue;
			case 'u':
				if (ps->end - ps->p < 5)
					fail();
				v = (unsigned)(hexval(ps->p[1]) << 12 |
					       hexval(ps->p[2]) << 8 |
					       hexval(ps->p[3]) << 4 |
					       hexval(ps->p[4]));
				/* The writer uses \u only for single bytes. */
				if (v > 0xff)
					fail();
				out[n++] = (unsigned char)v;
				ps->p += 5;
				continue;
			default:
				fail();
			}
		}
		len = utf8_ok(ps->p, ps->end);
		if (!len)
			fail();
		memcpy(out + n, ps->p, len);
		n += len;
		ps->p += len;
	}
}

static bool take(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

enum { NARGS = 8 };

/*
 * "argv": an array of strings, each the argument given or, where the
 * line was cut, a prefix of it; fewer than given only when cut.
 */
static void parse_argv(struct parser *ps, char *const *argv, bool *cut)
{
	static unsigned char value[REPORT_LINE_MAX];
	size_t i = 0, vlen;

	if (!take(ps, "["))
		fail();
	if (!take(ps, "]")) {
		do {
			vlen = parse_string(ps, value, sizeof(value));
			if (!argv || !argv[i] || vlen > strlen(argv[i]) ||
			    memcmp(value, argv[i], vlen))
				fail();
			if (vlen < strlen(argv[i]))
				*cut = true;
			i++;
		} while (take(ps, ","));
		if (!take(ps, "]"))
			fail();
	}
	if (!argv)
		fail();
	if (argv[i])
		*cut = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char line[REPORT_LINE_MAX];
	static unsigned char key[64], value[REPORT_LINE_MAX];
	const char *field[NFIELDS] = { NULL };
	char *args[NARGS + 1] = { NULL };
	size_t nargs = 0;
	struct line_record r = { 0 };
	struct parser ps;
	bool cut = false, said = false, seen[NFIELDS] = { false };
	char *copy;
	size_t len, i, at, klen, vlen;
	unsigned flags;

	if (size < 1)
		return 0;
	flags = data[0];
	copy = malloc(size);
	memcpy(copy, data + 1, size - 1);
	copy[size - 1] = '\0';
	for (i = 0, at = 0; i < NFIELDS && at < size; i++) {
		field[i] = copy + at;
		at += strlen(copy + at) + 1;
	}
	/* The fields after the named ones are argv's, with flag 16. */
	for (; nargs < NARGS && at < size; nargs++) {
		args[nargs] = copy + at;
		at += strlen(copy + at) + 1;
	}
	r.pid = (long long)size * 977;
	r.ppid = -(long long)size;
	r.uid = (long long)flags << 24;
	r.fd = -(long long)flags;
	r.time = field[14];
	r.why = field[15];
	r.reason = field[16];
	r.program = field[0];
	r.exec = field[1];
	r.argv0 = field[2];
	r.kind = field[3];
	r.target = field[4];
	if (flags & 1) {
		r.family = field[5];
		r.socktype = field[6];
		r.local = field[7];
		r.peer = field[8];
	}
	r.created_by = field[9];
	if (flags & 2) {
		r.caller = field[10];
		if (flags & 4) {
			r.caller_symbol = field[11];
			r.caller_object = field[12];
			r.caller_offset = field[13];
		}
	}
	r.deliberate = flags & 8;
	if (flags & 16)
		r.argv = args;
	if (!(flags & 1))
		field[5] = field[6] = field[7] = field[8] = NULL;
	if (!(flags & 2))
		field[10] = NULL;
	if (!(flags & 2) || !(flags & 4))
		field[11] = field[12] = field[13] = NULL;

	len = line_format_record(&r, line, sizeof(line));
	if (!len || len > REPORT_LINE_MAX || line[len - 1] != '\n' ||
	    memchr(line, '\n', len - 1))
		fail();

	ps.p = (const unsigned char *)line;
	ps.end = ps.p + len - 1;
	if (!take(&ps, "{"))
		fail();
	do {
		klen = parse_string(&ps, key, sizeof(key) - 1);
		key[klen] = '\0';
		if (!take(&ps, ":"))
			fail();
		if (!strcmp((char *)key, "argv")) {
			parse_argv(&ps, r.argv, &cut);
		} else if (ps.p < ps.end && *ps.p == '"') {
			vlen = parse_string(&ps, value, sizeof(value));
			for (i = 0; i < NFIELDS; i++) {
				if (strcmp((char *)key, names[i]))
					continue;
				/* Written as a string: so it was given. */
				if (seen[i] || !field[i] ||
				    vlen > strlen(field[i]) ||
				    memcmp(value, field[i], vlen))
					fail();
				seen[i] = true;
				if (vlen < strlen(field[i]))
					cut = true;
			}
		} else if (take(&ps, "null")) {
			for (i = 0; i < NFIELDS; i++)
				if (!strcmp((char *)key, names[i]) &&
				    field[i])
					fail();
		} else if (take(&ps, "true")) {
			if (!strcmp((char *)key, "truncated"))
				said = true;
		} else if (!take(&ps, "false")) {
			if (ps.p < ps.end && *ps.p == '-')
				ps.p++;
			if (ps.p >= ps.end || *ps.p < '0' || *ps.p > '9')
				fail();
			while (ps.p < ps.end && *ps.p >= '0' && *ps.p <= '9')
				ps.p++;
		}
	} while (take(&ps, ","));
	if (!take(&ps, "}") || ps.p != ps.end)
		fail();
	/* A line says "truncated" exactly when a value came back cut. */
	if (cut != said)
		fail();
	free(copy);
	return 0;
}
