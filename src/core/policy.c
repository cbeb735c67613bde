/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policy grammar (libcloexec(7) has the user's version):
 *
 *	policy  := item { sep item }		sep: blanks, newlines or ';'
 *	item    := mode | "mode=" mode | "classes=" classes
 *	mode    := "enforce" | "off"
 *	classes := class { "," class }		class: a name, "all", "none"
 *						or "default"; "-" before one
 *						removes it
 *
 * A classes list that starts with a removal starts from the default
 * classes (all but dup2), otherwise from none.  Later items override earlier ones, so a wrapper
 * command can append to what the user already set.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "policy.h"

_Atomic uint32_t policy_hot;

static const char *const class_names[FD_CLASS_COUNT] = {
	[FD_CLASS_SOCKET] = "socket", [FD_CLASS_ACCEPT] = "accept",
	[FD_CLASS_PIPE] = "pipe",     [FD_CLASS_FILE] = "file",
	[FD_CLASS_STDIO] = "stdio",   [FD_CLASS_DUP] = "dup",
	[FD_CLASS_DUP2] = "dup2",     [FD_CLASS_EVENT] = "event",
	[FD_CLASS_PTY] = "pty",
	[FD_CLASS_MESSAGE] = "message",
};

const char *fd_class_name(enum fd_class c)
{
	return c < FD_CLASS_COUNT ? class_names[c] : "?";
}

void policy_default(struct policy *p)
{
	p->mode = POLICY_ENFORCE;
	p->classes = FD_CLASS_DEFAULT;
}

static bool token_is(const char *tok, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(tok, word, len);
}

/* One line per bad token; a line that would not fit whole is left out. */
static int report(struct diag *errs, const char *source, const char *what,
		  const char *tok, size_t len)
{
	size_t start = errs->len;

	if (len > 64)
		len = 64;
	diag_puts(errs, "libcloexec: ");
	diag_puts(errs, source);
	diag_puts(errs, ": ");
	diag_puts(errs, what);
	diag_puts(errs, " '");
	diag_put(errs, tok, len);
	diag_puts(errs, "' (ignored)\n");
	if (errs->buf[errs->len - 1] != '\n')
		errs->len = start;
	return 1;
}

static bool parse_mode(struct policy *p, const char *tok, size_t len)
{
	if (token_is(tok, len, "enforce"))
		p->mode = POLICY_ENFORCE;
	else if (token_is(tok, len, "off"))
		p->mode = POLICY_OFF;
	else
		return false;
	return true;
}

static int parse_classes(struct policy *p, const char *list, size_t len,
			 const char *source, struct diag *errs)
{
	unsigned set = (len && list[0] == '-') ? FD_CLASS_DEFAULT : 0;
	const char *end = list + len;
	int bad = 0;

	while (list < end) {
		const char *comma = memchr(list, ',', end - list);
		const char *item_end = comma ? comma : end;
		bool remove = *list == '-';
		const char *name = list + remove;
		size_t n = item_end - name;
		unsigned bits = 0;
		int c;

		if (token_is(name, n, "all")) {
			bits = FD_CLASS_ALL;
		} else if (token_is(name, n, "default")) {
			bits = FD_CLASS_DEFAULT;
		} else if (token_is(name, n, "none")) {
			bits = 0;
		} else {
			for (c = 0; c < FD_CLASS_COUNT; c++)
				if (token_is(name, n, class_names[c]))
					bits = 1u << c;
			if (!bits)
				bad += report(errs, source, "unknown class",
					      list, item_end - list);
		}
		set = remove ? set & ~bits : set | bits;
		list = comma ? comma + 1 : end;
	}
	p->classes = set;
	return bad;
}

static int parse_item(struct policy *p, const char *tok, size_t len,
		      const char *source, struct diag *errs)
{
	const char *eq = memchr(tok, '=', len);
	const char *val;
	size_t klen, vlen;

	if (!eq) {
		if (parse_mode(p, tok, len))
			return 0;
		return report(errs, source, "unknown setting", tok, len);
	}
	klen = eq - tok;
	val = eq + 1;
	vlen = len - klen - 1;
	if (token_is(tok, klen, "mode")) {
		if (parse_mode(p, val, vlen))
			return 0;
		return report(errs, source, "unknown mode", tok, len);
	}
	if (token_is(tok, klen, "classes")) {
		if (!vlen)
			return report(errs, source, "empty list", tok, len);
		return parse_classes(p, val, vlen, source, errs);
	}
	return report(errs, source, "unknown setting", tok, len);
}

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';';
}

int policy_parse(struct policy *p, const char *text, const char *source,
		 struct diag *errs)
{
	int bad = 0;

	while (*text) {
		const char *tok;

		while (is_sep(*text))
			text++;
		if (!*text)
			break;
		tok = text;
		while (*text && !is_sep(*text))
			text++;
		bad += parse_item(p, tok, text - tok, source, errs);
	}
	return bad;
}

/* The environment is the user's only in a process that is not setuid. */
static const char *policy_getenv(const char *name)
{
#if HAVE_SECURE_GETENV
	return secure_getenv(name);
#else
	return getauxval(AT_SECURE) ? NULL : getenv(name);
#endif
}

uint32_t policy_load(void)
{
	struct policy p;
	struct diag errs = { .len = 0 };
	const char *text;
	uint32_t word = POLICY_LOADED, seen = 0;

	policy_default(&p);
	text = policy_getenv(POLICY_ENV);
	if (text)
		policy_parse(&p, text, POLICY_ENV, &errs);
	if (p.mode == POLICY_ENFORCE)
		word |= p.classes;
	text = policy_getenv(POLICY_TEST_NO_LOCK_ENV);
	if (text && !strcmp(text, "1"))
		word |= POLICY_NO_LOCK;

	/*
	 * Several threads may get here at once; parsing is pure, so each
	 * computes the same word, and only the one that publishes it speaks.
	 */
	if (atomic_compare_exchange_strong(&policy_hot, &seen, word))
		diag_flush(&errs, 2);
	else
		word = seen;
	return word;
}
