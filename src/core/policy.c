/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Policy grammar (libcloexec(7) has the user's version):
 *
 *	policy := item { sep item }	sep: blanks, newlines or ';'
 *					(in the file, '#' to the end of a
 *					line is a comment)
 *	item   := "enforce" | "audit" | "off"	the mode
 *		| "mode=" (enforce | audit | off)
 *		| "classes=" list	socket, accept, pipe, file, stdio, dup,
 *					dup2, event, pty, message, all,
 *					default (all but dup2), none
 *		| "keep=" fds		3,5-7: never forced, never swept
 *		| "keep-path=" list	patterns (* ? [...]) of opened paths
 *		| "exempt=" list	program names or paths (patterns):
 *					nothing forced in them
 *		| "scope=" (tree | process)
 *		| "report=" bool	audit lines at exec when enforcing too
 *		| "sweep=" bool		the exec-time sweep
 *		| "log=" path		audit lines to this file, or to
 *		| "log=" (stderr | syslog)	stderr or syslog (default:
 *					syslog, else a stderr that is
 *					not a socket; sink.h)
 *	bool   := on | off | yes | no | 1 | 0
 *
 * In a list, "-" before an item removes it.  classes= that starts with a
 * removal edits the classes so far, any other replaces them.  exempt= and
 * the keep lists only ever add to what the layers below gave (exempt=-name
 * removes, exempt=none empties, exempt=default brings the defaults back):
 * policy text comes in layers (layers.h), and a later one must not discard
 * an earlier one by naming one more program.  Later items override
 * earlier ones, so a wrapper command can append.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "export.h"
#include "str.h"
#include "policy.h"

_Atomic uint32_t policy_hot STARTUP_DATA;

/*
 * The tables below are arrays of characters, not of pointers: a pointer
 * in a library's data is a relocation the dynamic loader applies in every
 * process at start, about 13 instructions each (doc/benchmarks.md).
 */
#define WORD_MAX 16
typedef char table_word[WORD_MAX];

static const table_word class_names[FD_CLASS_COUNT] = {
	[FD_CLASS_SOCKET] = "socket", [FD_CLASS_ACCEPT] = "accept",
	[FD_CLASS_PIPE] = "pipe",     [FD_CLASS_FILE] = "file",
	[FD_CLASS_STDIO] = "stdio",   [FD_CLASS_DUP] = "dup",
	[FD_CLASS_DUP2] = "dup2",     [FD_CLASS_EVENT] = "event",
	[FD_CLASS_PTY] = "pty",	      [FD_CLASS_MESSAGE] = "message",
};

/*
 * Programs whose job is to hand fds to the programs they run, in ways a
 * creation-time flag breaks: shells (exec 3<file gets fd 3 straight from
 * openat), flock (cmd holds the lock fd), systemd-socket-activate (its
 * socket lands on fd 3, no dup2), and the socket-passing supervisors.
 * busybox is not one: its shell applets are (program_name()).
 */
static const char default_exempt[][24] = {
	"sh", "bash", "rbash", "dash", "ash", "hush", "ksh", "ksh93", "mksh",
	"zsh", "flock", "systemd-socket-activate", "s6-fdholderd",
	"s6-ipcserverd", "tcpserver", "execlineb",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *policy_default_exempt(unsigned i)
{
	return i < COUNT(default_exempt) ? default_exempt[i] : NULL;
}

const char *fd_class_name(enum fd_class c)
{
	return c < FD_CLASS_COUNT ? class_names[c] : "?";
}

void policy_default(struct policy *p)
{
	/*
	 * Not the text, 8 KiB read only up to text_len: zeroing it would
	 * touch, and so fault in, two more pages of every process's policy.
	 */
	memset(p, 0, offsetof(struct policy, text));
	p->mode = POLICY_ENFORCE;
	p->scope = SCOPE_TREE;
	p->classes = FD_CLASS_DEFAULT;
	p->log_off = -1;
}

static bool token_is(const char *tok, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(tok, word, len);
}

/* Where in p->text an item was set, for cloexec --show-policy. */
static unsigned short from(const struct policy *p, const char *tok)
{
	return (unsigned short)(tok - p->text + 1);
}

/*
 * The closest of words to tok, if it is a likely typo of it (at most two
 * edits, fewer than its length): for "did you mean".  Only on errors.
 */
static const char *closest(const char *tok, size_t len,
			   const table_word *words, size_t nwords)
{
	unsigned row[2][33], best_d = 3;
	const char *best = NULL;
	size_t w, i, j;

	if (len > 32)
		return NULL;
	for (w = 0; w < nwords; w++) {
		size_t wl = strlen(words[w]);
		unsigned *prev = row[0], *cur = row[1], *t;

		if (wl > 32)
			continue;
		for (j = 0; j <= wl; j++)
			prev[j] = (unsigned)j;
		for (i = 1; i <= len; i++) {
			cur[0] = (unsigned)i;
			for (j = 1; j <= wl; j++) {
				unsigned d = prev[j - 1] +
					     (tok[i - 1] != words[w][j - 1]);

				if (prev[j] + 1 < d)
					d = prev[j] + 1;
				if (cur[j - 1] + 1 < d)
					d = cur[j - 1] + 1;
				cur[j] = d;
			}
			t = prev;
			prev = cur;
			cur = t;
		}
		if (prev[wl] < best_d && prev[wl] < len) {
			best_d = prev[wl];
			best = words[w];
		}
	}
	return best;
}

/*
 * One line per bad token; a line that would not fit whole is left out.
 * The library runs on without the token: "(ignored)".  A strict diag is
 * for a command that stops on it, which says so itself.
 */
static int bad_token_hint(struct diag *errs, const char *source,
			  const char *what, const char *tok, size_t len,
			  const char *hint)
{
	struct diag line = { .len = 0 };

	if (len > 64)
		len = 64;
	if (!errs->strict)
		diag_puts(&line, "libcloexec: ");
	diag_puts(&line, source);
	diag_puts(&line, ": ");
	diag_puts(&line, what);
	diag_puts(&line, " '");
	diag_put(&line, tok, len);
	diag_puts(&line, "'");
	if (!errs->strict)
		diag_puts(&line,
			  hint ? " (ignored; did you mean '" : " (ignored)");
	else if (hint)
		diag_puts(&line, " (did you mean '");
	if (hint) {
		diag_puts(&line, hint);
		diag_puts(&line, "'?)");
	}
	diag_puts(&line, "\n");
	if (line.buf[line.len - 1] == '\n')
		diag_put_line(errs, line.buf, line.len);
	return 1;
}

static int bad_token(struct diag *errs, const char *source, const char *what,
		     const char *tok, size_t len)
{
	return bad_token_hint(errs, source, what, tok, len, NULL);
}

static bool parse_mode(struct policy *p, const char *tok, size_t len)
{
	if (token_is(tok, len, "enforce"))
		p->mode = POLICY_ENFORCE;
	else if (token_is(tok, len, "audit"))
		p->mode = POLICY_AUDIT;
	else if (token_is(tok, len, "off"))
		p->mode = POLICY_OFF;
	else
		return false;
	return true;
}

static bool parse_bool(const char *tok, size_t len, bool *out)
{
	if (token_is(tok, len, "on") || token_is(tok, len, "yes") ||
	    token_is(tok, len, "1"))
		*out = true;
	else if (token_is(tok, len, "off") || token_is(tok, len, "no") ||
		 token_is(tok, len, "0"))
		*out = false;
	else
		return false;
	return true;
}

/* Call fn on each comma-separated item; returns how many it refused. */
static int each_item(struct policy *p, const char *list, size_t len,
		     const char *source, struct diag *errs,
		     int (*fn)(struct policy *, const char *, size_t,
			       const char *, struct diag *))
{
	const char *end = list + len;
	int bad = 0;

	while (list < end) {
		const char *comma = memchr(list, ',', end - list);
		const char *item_end = comma ? comma : end;

		bad += fn(p, list, item_end - list, source, errs);
		list = comma ? comma + 1 : end;
	}
	return bad;
}

static const table_word class_words[] = {
	"socket", "accept", "pipe",    "file", "stdio",	  "dup",  "dup2",
	"event",  "pty",    "message", "all",  "default", "none",
};

static const table_word setting_words[] = {
	"mode",	  "classes", "keep", "keep-path", "exempt", "scope",
	"report", "sweep",   "log",  "enforce",	  "audit",  "off",
};

#define SETTING_KEYS 9 /* the first nine take "=" */
static const table_word mode_words[] = { "enforce", "audit", "off" };

static int class_item(struct policy *p, const char *item, size_t n,
		      const char *source, struct diag *errs)
{
	bool remove = n && *item == '-';
	const char *name = item + remove;
	size_t len = n - remove;
	unsigned bits = 0;
	int c;

	if (token_is(name, len, "all")) {
		bits = FD_CLASS_ALL;
	} else if (token_is(name, len, "default")) {
		bits = FD_CLASS_DEFAULT;
	} else if (!token_is(name, len, "none")) {
		for (c = 0; c < FD_CLASS_COUNT; c++)
			if (token_is(name, len, class_names[c]))
				bits = 1u << c;
		if (!bits)
			return bad_token_hint(errs, source, "unknown class",
					      item, n,
					      closest(name, len, class_words,
						      COUNT(class_words)));
	}
	p->classes = remove ? p->classes & ~bits : p->classes | bits;
	return 0;
}

static bool parse_int(const char *s, size_t len, int *out)
{
	long v = 0;
	size_t i;

	if (!len || len > 9)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = (int)v;
	return true;
}

static int keep_item(struct policy *p, const char *item, size_t n,
		     const char *source, struct diag *errs)
{
	const char *dash = memchr(item, '-', n);
	int lo, hi;

	if (dash ? !parse_int(item, dash - item, &lo) ||
			   !parse_int(dash + 1, n - (dash + 1 - item), &hi) ||
			   hi < lo
		 : !parse_int(item, n, &lo))
		return bad_token(errs, source, "bad fd number", item, n);
	if (!dash)
		hi = lo;
	if (p->nkeep == POLICY_KEEP_MAX)
		return bad_token(errs, source, "too many keep= ranges", item, n);
	p->keep[p->nkeep].lo = lo;
	p->keep[p->nkeep].hi = hi;
	p->keep[p->nkeep].off = (unsigned short)(item - p->text);
	p->nkeep++;
	return 0;
}

/* The item, as an offset into p->text (where it already lies). */
static bool list_add(struct policy *p, struct policy_list *l,
		     const char *item, size_t n)
{
	if (l->n == POLICY_LIST_MAX)
		return false;
	l->item[l->n].off = (unsigned short)(item - p->text);
	l->item[l->n].len = (unsigned short)n;
	l->n++;
	return true;
}

static int keep_path_item(struct policy *p, const char *item, size_t n,
			  const char *source, struct diag *errs)
{
	if (!n)
		return bad_token(errs, source, "empty pattern", item, n);
	if (n > POLICY_PATTERN_MAX)
		return bad_token(errs, source, "pattern too long", item, n);
	if (!list_add(p, &p->keep_path, item, n))
		return bad_token(errs, source, "too many patterns", item, n);
	return 0;
}

/* Take out the items spelt as this one: the later word on it wins. */
static void list_remove(struct policy *p, struct policy_list *l,
			const char *item, size_t n)
{
	unsigned i, kept = 0;

	for (i = 0; i < l->n; i++)
		if (l->item[i].len != n ||
		    memcmp(p->text + l->item[i].off, item, n))
			l->item[kept++] = l->item[i];
	l->n = kept;
}

/*
 * exempt=: names and paths added, "-name" recorded as a removal (it may
 * take one of the defaults out), "none" empties the list and drops the
 * defaults, "default" brings the defaults back.
 */
static int exempt_item(struct policy *p, const char *item, size_t n,
		       const char *source, struct diag *errs)
{
	bool remove = n && *item == '-';

	if (token_is(item, n, "none") || token_is(item, n, "default")) {
		p->exempt_set = *item == 'n';
		if (p->exempt_set) {
			p->exempt_list.n = 0;
			p->unexempt_list.n = 0;
		}
		p->from[POLICY_FROM_EXEMPT] = from(p, item);
		return 0;
	}
	if (n == (size_t)remove)
		return bad_token(errs, source, "empty program name", item, n);
	if (n - remove > POLICY_PATTERN_MAX)
		return bad_token(errs, source, "pattern too long", item, n);
	list_remove(p, remove ? &p->exempt_list : &p->unexempt_list,
		    item + remove, n - remove);
	if (!list_add(p, remove ? &p->unexempt_list : &p->exempt_list,
		      item + remove, n - remove))
		return bad_token(errs, source, "too many programs", item, n);
	return 0;
}

static int parse_item(struct policy *p, const char *tok, size_t len,
		      const char *source, struct diag *errs)
{
	const char *eq = memchr(tok, '=', len);
	const char *val;
	size_t klen, vlen;
	bool b, is_report;

	if (!eq) {
		if (parse_mode(p, tok, len)) {
			p->from[POLICY_FROM_MODE] = from(p, tok);
			return 0;
		}
		return bad_token_hint(
			errs, source, "unknown setting", tok, len,
			closest(tok, len, setting_words, COUNT(setting_words)));
	}
	klen = eq - tok;
	val = eq + 1;
	vlen = len - klen - 1;
	if (token_is(tok, klen, "mode")) {
		if (parse_mode(p, val, vlen)) {
			p->from[POLICY_FROM_MODE] = from(p, tok);
			return 0;
		}
		return bad_token_hint(
			errs, source, "unknown mode", tok, len,
			closest(val, vlen, mode_words, COUNT(mode_words)));
	}
	is_report = token_is(tok, klen, "report");
	if (is_report || token_is(tok, klen, "sweep")) {
		if (!parse_bool(val, vlen, &b))
			return bad_token(errs, source, "not on or off", tok, len);
		if (is_report)
			p->report = b;
		else
			p->sweep = b;
		p->from[is_report ? POLICY_FROM_REPORT : POLICY_FROM_SWEEP] =
			from(p, tok);
		return 0;
	}
	if (token_is(tok, klen, "scope")) {
		if (token_is(val, vlen, "tree"))
			p->scope = SCOPE_TREE;
		else if (token_is(val, vlen, "process"))
			p->scope = SCOPE_PROCESS;
		else
			return bad_token(errs, source, "unknown scope", tok, len);
		p->from[POLICY_FROM_SCOPE] = from(p, tok);
		return 0;
	}
	if (token_is(tok, klen, "log")) {
		if (!vlen || (*val != '/' && !token_is(val, vlen, "stderr") &&
			      !token_is(val, vlen, "syslog")))
			return bad_token(errs, source,
					 "log not an absolute path, stderr or "
					 "syslog",
					 tok, len);
		p->log_off = (int)(val - p->text);
		p->log_len = (int)vlen;
		p->from[POLICY_FROM_LOG] = from(p, tok);
		return 0;
	}
	if (!vlen)
		return bad_token(errs, source, "empty list", tok, len);
	if (token_is(tok, klen, "classes")) {
		if (*val != '-')
			p->classes = 0;
		p->from[POLICY_FROM_CLASSES] = from(p, tok);
		return each_item(p, val, vlen, source, errs, class_item);
	}
	if (token_is(tok, klen, "keep"))
		return each_item(p, val, vlen, source, errs, keep_item);
	if (token_is(tok, klen, "keep-path"))
		return each_item(p, val, vlen, source, errs, keep_path_item);
	if (token_is(tok, klen, "exempt"))
		return each_item(p, val, vlen, source, errs, exempt_item);
	return bad_token_hint(errs, source, "unknown setting", tok, len,
			      closest(tok, klen, setting_words, SETTING_KEYS));
}

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';';
}

int policy_parse(struct policy *p, const char *text, const char *source,
		 struct diag *errs)
{
	size_t len = strlen(text);
	char *copy = p->text + p->text_len;
	int bad = 0;

	/* Items point into the copy: it must hold the whole text. */
	if (p->text_len + len + 1 > sizeof(p->text))
		return bad_token(errs, source, "policy too long, from", text, 16);
	memcpy(copy, text, len + 1);
	p->text_len += len + 1;
	while (*copy) {
		const char *tok;

		while (is_sep(*copy))
			copy++;
		if (!*copy)
			break;
		tok = copy;
		while (*copy && !is_sep(*copy))
			copy++;
		bad += parse_item(p, tok, copy - tok, source, errs);
	}
	return bad;
}

/*
 * Does the pattern's one-character item at pat (a literal, '?', or a
 * '[...]' class) match c?  *len gets the item's length; an unclosed '['
 * matches nothing.
 */
static bool item_matches(const char *pat, const char *end, char c,
			 size_t *len)
{
	const char *close, *p;
	bool negate, hit = false;

	*len = 1;
	if (*pat == '?')
		return true;
	if (*pat != '[')
		return *pat == c;
	close = memchr(pat + 1, ']', end - pat - 1);
	if (!close)
		return false;
	*len = close + 1 - pat;
	negate = pat[1] == '!' || pat[1] == '^';
	for (p = pat + 1 + negate; p < close; p++) {
		if (p + 2 < close && p[1] == '-') {
			hit |= c >= p[0] && c <= p[2];
			p += 2;
		} else {
			hit |= c == *p;
		}
	}
	return hit != negate;
}

/*
 * A shell-style pattern match, written here because fnmatch() may
 * allocate in some locales, and this runs inside wrappers.
 *
 * Every item but '*' matches one character, so a failed item only ever
 * needs the last '*' to take one character more: the items before that
 * star matched as early as they could, which leaves the rest the most
 * room.  No recursion, no other backtracking: at most (pattern length)
 * steps per character of s, and both lengths are bounded (policy.h).
 */
bool policy_glob(const char *pat, size_t len, const char *s)
{
	const char *end = pat + len, *p = pat, *star = NULL;
	const char *s_start = s, *star_s = NULL;
	size_t item;

	if (len > POLICY_PATTERN_MAX)
		return false;
	while (*s) {
		if (s - s_start >= POLICY_SUBJECT_MAX)
			return false;
		if (p < end && *p == '*') {
			star = ++p;
			star_s = s;
		} else if (p < end && item_matches(p, end, *s, &item)) {
			p += item;
			s++;
		} else if (star) {
			p = star;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (p < end && *p == '*')
		p++;
	return p == end;
}

/* A name matches either name the program goes by; a path, its executable. */
static bool program_matches(const char *item, size_t len, const char *exe,
			    const char *name, const char *ran)
{
	if (memchr(item, '/', len))
		return exe && policy_glob(item, len, exe);
	return (name && policy_glob(item, len, name)) ||
	       (ran && policy_glob(item, len, ran));
}

void policy_settle(struct policy *p, const char *exe, const char *name,
		   const char *ran)
{
	bool exempt = false, unexempted = false;
	unsigned i;

	/* The defaults are plain names: no pattern, no path. */
	if (!p->exempt_set)
		for (i = 0; i < COUNT(default_exempt); i++)
			exempt |= (name && str_eq(default_exempt[i], name)) ||
				  (ran && str_eq(default_exempt[i], ran));
	for (i = 0; i < p->exempt_list.n; i++)
		exempt |= program_matches(p->text + p->exempt_list.item[i].off,
					  p->exempt_list.item[i].len, exe,
					  name, ran);
	for (i = 0; i < p->unexempt_list.n; i++)
		if (program_matches(p->text + p->unexempt_list.item[i].off,
				    p->unexempt_list.item[i].len, exe, name,
				    ran))
			unexempted = true;
	p->exempt = exempt && !unexempted;
	p->shell_rule = !p->exempt_set && !unexempted;
}

uint32_t policy_word_of(const struct policy *p)
{
	bool enforce = p->mode == POLICY_ENFORCE && !p->exempt;
	uint32_t w = POLICY_LOADED;

	if (enforce)
		w |= p->classes;
	if (p->report || p->mode == POLICY_AUDIT)
		w |= POLICY_REPORT;
	if (p->sweep && enforce)
		w |= POLICY_SWEEP;
	if (p->nkeep || p->keep_path.n)
		w |= POLICY_KEEPS;
	if (p->scope == SCOPE_PROCESS)
		w |= POLICY_SCOPE_PROCESS;
	return w;
}
