/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "testlib.h"
#include "core/layers.h"
#include "core/load.h"
#include "core/policy.h"

#define BIT(c) (1u << (c))

static struct policy parsed(const char *text, int *bad, struct diag *errs)
{
	struct policy p;

	policy_default(&p);
	*errs = (struct diag){ .len = 0 };
	*bad = policy_parse(&p, text, "TEST", errs);
	return p;
}

static int lines(const struct diag *d)
{
	size_t i;
	int n = 0;

	for (i = 0; i < d->len; i++)
		n += d->buf[i] == '\n';
	return n;
}

START_TEST(default_enforces_every_class)
{
	struct policy p;

	policy_default(&p);
	ck_assert_int_eq(p.mode, POLICY_ENFORCE);
	ck_assert_uint_eq(p.classes, FD_CLASS_ALL & ~BIT(FD_CLASS_DUP2));
}
END_TEST

START_TEST(modes_and_later_items_win)
{
	struct diag errs;
	int bad;

	ck_assert_int_eq(parsed("off", &bad, &errs).mode, POLICY_OFF);
	ck_assert_int_eq(parsed("mode=off", &bad, &errs).mode, POLICY_OFF);
	ck_assert_int_eq(parsed("off enforce", &bad, &errs).mode,
			 POLICY_ENFORCE);
	ck_assert_int_eq(parsed("  off;\t\n", &bad, &errs).mode, POLICY_OFF);
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(errs.len, 0);
}
END_TEST

START_TEST(class_lists)
{
	struct diag errs;
	int bad;

	ck_assert_uint_eq(parsed("classes=socket,pipe", &bad, &errs).classes,
			  BIT(FD_CLASS_SOCKET) | BIT(FD_CLASS_PIPE));
	ck_assert_uint_eq(parsed("classes=-dup", &bad, &errs).classes,
			  FD_CLASS_DEFAULT & ~BIT(FD_CLASS_DUP));
	ck_assert_uint_eq(parsed("classes=default,dup2", &bad, &errs).classes,
			  FD_CLASS_ALL);
	ck_assert_uint_eq(parsed("classes=dup2", &bad, &errs).classes,
			  BIT(FD_CLASS_DUP2));
	ck_assert_uint_eq(
		parsed("classes=all,-accept,-pipe", &bad, &errs).classes,
		FD_CLASS_ALL & ~BIT(FD_CLASS_ACCEPT) & ~BIT(FD_CLASS_PIPE));
	ck_assert_uint_eq(parsed("classes=none", &bad, &errs).classes, 0);
	/* Taking out a class that is not there changes nothing. */
	ck_assert_uint_eq(parsed("classes=socket,-pipe", &bad, &errs).classes,
			  BIT(FD_CLASS_SOCKET));
	ck_assert_uint_eq(parsed("classes=-dup2", &bad, &errs).classes,
			  FD_CLASS_DEFAULT);
	ck_assert_uint_eq(parsed("classes=-pipe,-pipe", &bad, &errs).classes,
			  FD_CLASS_DEFAULT & ~BIT(FD_CLASS_PIPE));
	ck_assert_uint_eq(
		parsed("classes=pipe classes=socket", &bad, &errs).classes,
		BIT(FD_CLASS_SOCKET));
	ck_assert_int_eq(bad, 0);
}
END_TEST

/*
 * Each class of libcloexec(7), named alone, is that class and no other,
 * without a word: the names are spelt out here, as a user spells them.
 */
START_TEST(each_class_alone)
{
	static const struct {
		const char *item;
		enum fd_class cls;
	} names[] = {
		{ "classes=socket", FD_CLASS_SOCKET },
		{ "classes=accept", FD_CLASS_ACCEPT },
		{ "classes=pipe", FD_CLASS_PIPE },
		{ "classes=file", FD_CLASS_FILE },
		{ "classes=stdio", FD_CLASS_STDIO },
		{ "classes=dup", FD_CLASS_DUP },
		{ "classes=dup2", FD_CLASS_DUP2 },
		{ "classes=event", FD_CLASS_EVENT },
		{ "classes=pty", FD_CLASS_PTY },
		{ "classes=message", FD_CLASS_MESSAGE },
	};
	struct diag errs;
	unsigned all = 0;
	size_t i;
	int bad;

	ck_assert_uint_eq(sizeof(names) / sizeof(names[0]), FD_CLASS_COUNT);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct policy p = parsed(names[i].item, &bad, &errs);

		ck_assert_msg(bad == 0 && errs.len == 0, "%s refused",
			      names[i].item);
		ck_assert_msg(p.classes == BIT(names[i].cls),
			      "%s gives classes %#x", names[i].item,
			      p.classes);
		all |= BIT(names[i].cls);
	}
	ck_assert_uint_eq(all, FD_CLASS_ALL);
	/* Taken out of all, each is the one missing. */
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char item[32];
		struct policy p;

		snprintf(item, sizeof(item), "classes=all,-%s",
			 names[i].item + 8);
		p = parsed(item, &bad, &errs);
		ck_assert_msg(bad == 0 && errs.len == 0, "%s refused", item);
		ck_assert_msg(p.classes == (FD_CLASS_ALL & ~BIT(names[i].cls)),
			      "%s gives classes %#x", item, p.classes);
	}
}
END_TEST

START_TEST(each_bad_token_is_named_once_and_the_rest_applies)
{
	struct diag errs;
	int bad;
	struct policy p = parsed("classes=sockt,pipe bogus mode=x classes=",
				 &bad, &errs);

	ck_assert_int_eq(bad, 4);
	ck_assert_int_eq(lines(&errs), 4);
	errs.buf[errs.len] = '\0';
	ck_assert_ptr_nonnull(strstr(errs.buf, "TEST: unknown class 'sockt'"));
	ck_assert_ptr_nonnull(strstr(errs.buf, "unknown setting 'bogus'"));
	ck_assert_ptr_nonnull(strstr(errs.buf, "unknown mode 'mode=x'"));
	ck_assert_ptr_nonnull(strstr(errs.buf, "empty list 'classes='"));
	ck_assert_ptr_eq(strstr(errs.buf, "pipe"), NULL);
	ck_assert_uint_eq(p.classes, BIT(FD_CLASS_PIPE));
	ck_assert_int_eq(p.mode, POLICY_ENFORCE);
}
END_TEST

/* size - 1 bytes of bad 7-letter tokens, and the diagnostics they get */
static int parsed_bad_tokens(char *text, size_t size, struct diag *errs)
{
	int bad;

	memset(text, 'x', size - 1);
	for (size_t i = 7; i < size - 1; i += 8)
		text[i] = ' ';
	parsed(text, &bad, errs);
	ck_assert_uint_le(errs->len, sizeof(errs->buf) - 1);
	ck_assert_int_eq(errs->buf[errs->len - 1], '\n');
	return bad;
}

/* Too long to keep: one line says so, nothing overflows. */
START_TEST(huge_input_is_refused_not_overflowed)
{
	static char text[20000];
	struct diag errs;

	ck_assert_int_eq(parsed_bad_tokens(text, sizeof(text), &errs), 1);
	errs.buf[errs.len] = '\0';
	ck_assert_ptr_nonnull(strstr(errs.buf, "too long"));
}
END_TEST

/* Many bad tokens: every line whole, the buffer never overrun. */
START_TEST(many_bad_tokens_are_cut_at_a_line)
{
	static char text[3000];
	struct diag errs;

	ck_assert_int_gt(parsed_bad_tokens(text, sizeof(text), &errs), 300);
}
END_TEST

START_TEST(modes_report_sweep_scope_log)
{
	struct diag errs;
	struct policy p;
	int bad;

	p = parsed("audit", &bad, &errs);
	ck_assert_int_eq(p.mode, POLICY_AUDIT);
	ck_assert_uint_eq(policy_word_of(&p) & (FD_CLASS_ALL | POLICY_REPORT),
			  POLICY_REPORT);
	p = parsed("report=on sweep=yes scope=process log=/tmp/x.log", &bad,
		   &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert(p.report && p.sweep);
	ck_assert_int_eq(p.scope, SCOPE_PROCESS);
	ck_assert_int_eq(p.log_len, 10);
	ck_assert(!memcmp(p.text + p.log_off, "/tmp/x.log", 10));
	ck_assert_uint_eq(policy_word_of(&p) & (POLICY_REPORT | POLICY_SWEEP |
						POLICY_SCOPE_PROCESS),
			  POLICY_REPORT | POLICY_SWEEP | POLICY_SCOPE_PROCESS);
	/* The sweep is enforcement: not in audit mode. */
	p = parsed("sweep=on audit", &bad, &errs);
	ck_assert(!(policy_word_of(&p) & POLICY_SWEEP));
	parsed("report=maybe scope=world log=relative", &bad, &errs);
	ck_assert_int_eq(bad, 3);
}
END_TEST

START_TEST(keep_lists)
{
	struct diag errs;
	struct policy p;
	int bad;

	p = parsed("keep=3,7-9 keep-path=/dev/tty*,/run/[ab]?.sock", &bad,
		   &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(p.nkeep, 2);
	ck_assert_int_eq(p.keep[1].lo, 7);
	ck_assert_int_eq(p.keep[1].hi, 9);
	ck_assert_uint_eq(p.keep_path.n, 2);
	ck_assert(policy_word_of(&p) & POLICY_KEEPS);
	parsed("keep=x keep=9-3 keep=-1 keep-path=,", &bad, &errs);
	ck_assert_int_eq(bad, 4);
}
END_TEST

/* Settle p for a program known by one name only: is it exempt? */
static bool exempt_as(struct policy *p, const char *name)
{
	policy_settle(p, NULL, name, NULL);
	return p->exempt;
}

/* Every spelling of on and off, for both settings, and only those. */
START_TEST(each_spelling_of_a_bool)
{
	static const char *const on[] = { "on", "yes", "1" };
	static const char *const off[] = { "off", "no", "0" };
	struct diag errs;
	struct policy p;
	char text[64];
	size_t i;
	int bad;

	for (i = 0; i < 3; i++) {
		snprintf(text, sizeof(text), "report=%s sweep=%s", on[i],
			 on[i]);
		p = parsed(text, &bad, &errs);
		ck_assert_msg(bad == 0 && p.report && p.sweep, "%s", text);
		snprintf(text, sizeof(text),
			 "report=on sweep=on report=%s sweep=%s", off[i],
			 off[i]);
		p = parsed(text, &bad, &errs);
		ck_assert_msg(bad == 0 && !p.report && !p.sweep, "%s", text);
	}
	p = parsed("report=on report=On report=2 report= report=yess", &bad,
		   &errs);
	ck_assert_int_eq(bad, 4);
	ck_assert(p.report);
	p = parsed("scope=process scope=tree", &bad, &errs);
	ck_assert_int_eq(p.scope, SCOPE_TREE);
	/* A carriage return parts items too (a file written on Windows). */
	p = parsed("off\r\nsweep=on\r", &bad, &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(p.mode, POLICY_OFF);
	ck_assert(p.sweep);
}
END_TEST

/* An fd number is digits, nine at most; a range, two, low to high. */
START_TEST(bad_fd_numbers)
{
	static const char *const bad_items[] = {
		"keep=3a", "keep=/3",	  "keep=3-x",	"keep=3-",
		"keep=-3", "keep=3-4x",	  "keep=3:4",	"keep=1234567890",
		"keep=9-3", "keep=3--4",
	};
	struct diag errs;
	struct policy p;
	size_t i;
	int bad;

	for (i = 0; i < sizeof(bad_items) / sizeof(bad_items[0]); i++) {
		p = parsed(bad_items[i], &bad, &errs);
		ck_assert_msg(bad == 1 && p.nkeep == 0, "%s taken",
			      bad_items[i]);
		ck_assert(memmem(errs.buf, errs.len, "bad fd number", 13));
	}
	p = parsed("keep=123456789,0-0,4-5", &bad, &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(p.nkeep, 3);
	ck_assert_int_eq(p.keep[0].lo, 123456789);
	ck_assert_int_eq(p.keep[0].hi, 123456789);
	ck_assert_int_eq(p.keep[1].hi, 0);
	ck_assert_int_eq(p.keep[2].lo, 4);
	ck_assert_int_eq(p.keep[2].hi, 5);
}
END_TEST

/* "NAME=ITEM,ITEM,..." with count items: "3,4,5" or "p3,p4,p5" */
static void numbered(char *text, size_t size, const char *name,
		     const char *prefix, int count)
{
	size_t len = (size_t)snprintf(text, size, "%s=", name);
	int i;

	for (i = 0; i < count; i++)
		len += (size_t)snprintf(text + len, size - len, "%s%s%d",
					i ? "," : "", prefix, i + 3);
}

/* Lists hold what their arrays hold; the item after that is refused. */
START_TEST(full_lists_refuse_one_more)
{
	char text[1024];
	struct diag errs;
	struct policy p;
	int bad;

	numbered(text, sizeof(text), "keep", "", POLICY_KEEP_MAX);
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(p.nkeep, POLICY_KEEP_MAX);
	numbered(text, sizeof(text), "keep", "", POLICY_KEEP_MAX + 1);
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 1);
	ck_assert_uint_eq(p.nkeep, POLICY_KEEP_MAX);
	ck_assert(memmem(errs.buf, errs.len, "too many keep= ranges", 21));

	numbered(text, sizeof(text), "keep-path", "/p", POLICY_LIST_MAX);
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(p.keep_path.n, POLICY_LIST_MAX);
	numbered(text, sizeof(text), "keep-path", "/p", POLICY_LIST_MAX + 1);
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 1);
	ck_assert_uint_eq(p.keep_path.n, POLICY_LIST_MAX);
	ck_assert(memmem(errs.buf, errs.len, "too many patterns", 17));

	numbered(text, sizeof(text), "exempt", "p", POLICY_LIST_MAX);
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(p.exempt_list.n, POLICY_LIST_MAX);
	numbered(text, sizeof(text), "exempt", "p", POLICY_LIST_MAX + 1);
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 1);
	ck_assert(memmem(errs.buf, errs.len, "too many programs", 17));
	/* The last one named is the one left out. */
	ck_assert_uint_eq(p.exempt_list.n, POLICY_LIST_MAX);
	ck_assert(exempt_as(&p, "p3"));
	ck_assert(exempt_as(&p, "p34"));
	ck_assert(!exempt_as(&p, "p35"));
}
END_TEST

/* Empty and long program names are refused; the rest of the list holds. */
START_TEST(bad_program_names)
{
	char text[POLICY_PATTERN_MAX + 32];
	struct diag errs;
	struct policy p;
	int bad;

	p = parsed("exempt=a,,b exempt=- exempt=c,-", &bad, &errs);
	ck_assert_int_eq(bad, 3);
	ck_assert_int_eq(lines(&errs), 3);
	ck_assert(memmem(errs.buf, errs.len, "empty program name", 18));
	ck_assert_uint_eq(p.exempt_list.n, 3);
	ck_assert(exempt_as(&p, "a") && exempt_as(&p, "b"));

	/* A name as long as a pattern may be, less its '-': taken. */
	memcpy(text, "exempt=-", 8);
	memset(text + 8, 'x', POLICY_PATTERN_MAX + 1);
	text[8 + POLICY_PATTERN_MAX + 1] = '\0';
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 1);
	ck_assert(memmem(errs.buf, errs.len, "pattern too long", 16));
	ck_assert_uint_eq(p.unexempt_list.n, 0);
	text[8 + POLICY_PATTERN_MAX] = '\0';
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(p.unexempt_list.n, 1);
	text[7] = 'x';
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 1);
	ck_assert_uint_eq(p.exempt_list.n, 0);
}
END_TEST

/* A later word takes out the same name only, not one of its length. */
START_TEST(a_removal_takes_out_its_name_only)
{
	struct diag errs;
	struct policy p;
	int bad;

	p = parsed("exempt=ab,cd,abc exempt=-cd", &bad, &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(p.exempt_list.n, 2);
	ck_assert(exempt_as(&p, "ab"));
	ck_assert(exempt_as(&p, "abc"));
	ck_assert(!exempt_as(&p, "cd"));
	p = parsed("exempt=-ab,-cd exempt=cd", &bad, &errs);
	ck_assert_uint_eq(p.unexempt_list.n, 1);
	ck_assert(exempt_as(&p, "cd"));
}
END_TEST

/* "did you mean" only for a token closer to the word than its length. */
START_TEST(hints_only_for_near_words)
{
	struct diag errs;
	int bad;

	parsed("classes=dupp", &bad, &errs);
	ck_assert(memmem(errs.buf, errs.len, "did you mean 'dup'?", 19));
	parsed("classes=ab", &bad, &errs);
	ck_assert_int_eq(bad, 1);
	ck_assert(memmem(errs.buf, errs.len, "unknown class 'ab'", 18));
	ck_assert_ptr_null(memmem(errs.buf, errs.len, "did you mean", 12));
	parsed("classes=pyt", &bad, &errs);
	ck_assert(memmem(errs.buf, errs.len, "did you mean 'pty'?", 19));
}
END_TEST

/* A line that would not fit the diagnostics whole is left out, not cut. */
START_TEST(a_line_too_long_is_left_out)
{
	char source[600];
	struct diag errs = { .len = 0 };
	struct policy p;

	memset(source, 's', sizeof(source) - 1);
	source[sizeof(source) - 1] = '\0';
	policy_default(&p);
	ck_assert_int_eq(policy_parse(&p, "bogus off", source, &errs), 1);
	ck_assert_uint_eq(errs.len, 0);
	ck_assert_int_eq(p.mode, POLICY_OFF);
	source[400] = '\0';
	ck_assert_int_eq(policy_parse(&p, "bogus", source, &errs), 1);
	ck_assert_int_gt(errs.len, 400);
	ck_assert_int_eq(errs.buf[errs.len - 1], '\n');
}
END_TEST

START_TEST(glob)
{
	ck_assert(policy_glob("/dev/tty*", 9, "/dev/tty1"));
	ck_assert(policy_glob("/dev/tty*", 9, "/dev/tty"));
	ck_assert(!policy_glob("/dev/tty*", 9, "/dev/pts/1"));
	ck_assert(policy_glob("a?c", 3, "abc"));
	ck_assert(!policy_glob("a?c", 3, "ac"));
	ck_assert(policy_glob("[ab]x", 5, "bx"));
	ck_assert(!policy_glob("[!ab]x", 6, "bx"));
	ck_assert(policy_glob("[a-c]*", 6, "cat"));
	/* Three characters in brackets are a set, not a range, without '-'. */
	ck_assert(policy_glob("[abd]", 5, "d"));
	ck_assert(!policy_glob("[abd]", 5, "c"));
	ck_assert(policy_glob("[a-]", 4, "-"));
	/* After a range, the set goes on with the next character. */
	ck_assert(policy_glob("[a-cx]", 6, "x"));
	ck_assert(policy_glob("[0-35-7]", 8, "6"));
	ck_assert(policy_glob("*.sock", 6, "/run/x.sock"));
	ck_assert(!policy_glob("*.sock", 6, "/run/x.socket"));
	ck_assert(policy_glob("*a*b", 4, "xaxxbab"));
	ck_assert(!policy_glob("*a*b", 4, "xaxxbaba"));
	ck_assert(policy_glob("**", 2, ""));
	ck_assert(!policy_glob("?", 1, ""));
	ck_assert(!policy_glob("[ab", 3, "a"));
	ck_assert(!policy_glob("*[ab", 4, "xa"));
	ck_assert(policy_glob("[!]x", 4, "yx"));
	ck_assert(!policy_glob("[^ab]x", 6, "bx"));
	ck_assert(policy_glob("[^ab]x", 6, "cx"));
	ck_assert(policy_glob("[abc]", 5, "c"));
	ck_assert(!policy_glob("[abc]", 5, "d"));
	ck_assert(policy_glob("[b-d]", 5, "b"));
	ck_assert(policy_glob("[b-d]", 5, "d"));
	ck_assert(!policy_glob("[b-d]", 5, "a"));
	ck_assert(!policy_glob("[b-d]", 5, "e"));
	ck_assert(!policy_glob("[b-d]", 5, "-"));
	ck_assert(policy_glob("[a-]", 4, "-"));
	/* The closing bracket ends the class; it is no member of it. */
	ck_assert(!policy_glob("[ab]", 4, "]"));
	ck_assert(policy_glob("[!ab]", 5, "]"));
}
END_TEST

/*
 * A bound on CPU time, not alarm(): Check's SIGALRM handler, without
 * CK_FORK, kills the whole process group, the harness with it.  SIGPROF
 * kills this process alone, which fails the test.
 */
static void cpu_bound(int seconds)
{
	struct itimerval t = { .it_value = { .tv_sec = seconds } };

	setitimer(ITIMER_PROF, &t, NULL);
}

/* "/a/a/.../a/y": n bytes, every other one a '/', no x at the end. */
static char *slashes(size_t n, char last)
{
	char *s = malloc(n + 1);
	size_t i;

	for (i = 0; i < n; i++)
		s[i] = i % 2 ? 'a' : '/';
	s[n - 1] = last;
	s[n] = '\0';
	return s;
}

/*
 * A backtracking matcher takes seconds to minutes over this; the bound is
 * the CPU timer, far above the 50 ms it must take, so that a slow machine or
 * valgrind does not fail it and an exponential matcher does.
 */
START_TEST(glob_is_not_exponential)
{
	static const char pat[] = "*/*/*/*/*/x";
	char *s = slashes(1024, 'y');

	cpu_bound(2);
	ck_assert(!policy_glob(pat, strlen(pat), s));
	s[1023] = 'x';
	s[1022] = '/';
	ck_assert(policy_glob(pat, strlen(pat), s));
	cpu_bound(0);
	free(s);
}
END_TEST

/* The bounds libcloexec(7) states: 256 bytes of pattern, 4096 of path. */
START_TEST(glob_bounds)
{
	char pat[256 + 2], *s;

	memset(pat, '*', sizeof(pat));
	ck_assert(policy_glob(pat, 256, "abc"));
	ck_assert(!policy_glob(pat, 256 + 1, "abc"));
	s = slashes(4096, 'x');
	ck_assert(policy_glob("*x", 2, s));
	free(s);
	s = slashes(4096 + 1, 'x');
	ck_assert(!policy_glob("*x", 2, s));
	ck_assert(!policy_glob("*", 1, s));
	free(s);
}
END_TEST

START_TEST(long_patterns_are_refused)
{
	char text[POLICY_PATTERN_MAX + 32];
	struct diag errs = { .len = 0 };
	struct policy p;
	int bad;

	memcpy(text, "keep-path=", 10);
	memset(text + 10, '*', POLICY_PATTERN_MAX + 1);
	text[10 + POLICY_PATTERN_MAX + 1] = '\0';
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 1);
	ck_assert_uint_eq(p.keep_path.n, 0);
	ck_assert(memmem(errs.buf, errs.len, "pattern too long", 16));
	text[10 + POLICY_PATTERN_MAX] = '\0';
	errs.len = 0;
	p = parsed(text, &bad, &errs);
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(p.keep_path.n, 1);
}
END_TEST

/* Settle p for the program at path, run by it as name: is it exempt? */
static bool exempt(struct policy *p, const char *path, const char *name)
{
	const char *ran = strrchr(path, '/');

	policy_settle(p, path, name, ran ? ran + 1 : path);
	return p->exempt;
}

/* Names match either name the program is run by; paths, the path. */
START_TEST(exempt_programs)
{
	struct diag errs;
	struct policy p;
	int bad;

	p = parsed("", &bad, &errs);
	ck_assert(exempt(&p, "/usr/bin/bash", "bash"));
	ck_assert_uint_eq(policy_word_of(&p) & FD_CLASS_ALL, 0);
	ck_assert(exempt(&p, "/usr/bin/dash", "sh"));
	ck_assert(exempt(&p, "/usr/bin/flock", "flock"));
	ck_assert(!exempt(&p, "/usr/bin/lua5.4", "lua5.4"));
	ck_assert_uint_eq(policy_word_of(&p) & FD_CLASS_ALL, FD_CLASS_DEFAULT);

	p = parsed("exempt=-bash", &bad, &errs);
	ck_assert(!exempt(&p, "/usr/bin/bash", "bash"));
	ck_assert(exempt(&p, "/usr/bin/dash", "dash"));

	/* Names add to the defaults: a layer names one more, drops none. */
	p = parsed("exempt=lua*,/opt/legacy/*", &bad, &errs);
	ck_assert(exempt(&p, "/usr/bin/lua5.4", "lua5.4"));
	ck_assert(exempt(&p, "/opt/legacy/srv", "srv"));
	ck_assert(exempt(&p, "/usr/bin/bash", "bash"));
	p = parsed("exempt=none,lua*", &bad, &errs);
	ck_assert(exempt(&p, "/usr/bin/lua5.4", "lua5.4"));
	ck_assert(!exempt(&p, "/usr/bin/bash", "bash"));

	/* The later word on a program wins, in either direction. */
	p = parsed("exempt=lua* exempt=-lua* exempt=x", &bad, &errs);
	ck_assert(!exempt(&p, "/usr/bin/lua5.4", "lua5.4"));
	p = parsed("exempt=-bash exempt=bash", &bad, &errs);
	ck_assert(exempt(&p, "/usr/bin/bash", "bash"));

	p = parsed("exempt=default,myserver", &bad, &errs);
	ck_assert(exempt(&p, "/usr/bin/bash", "bash"));
	ck_assert(exempt(&p, "/x/myserver", "myserver"));
	p = parsed("exempt=none", &bad, &errs);
	ck_assert(!exempt(&p, "/usr/bin/bash", "bash"));
	ck_assert_int_eq(bad, 0);

	/* A login shell: argv[0] is "-bash", the path it ran is bash. */
	p = parsed("", &bad, &errs);
	ck_assert(exempt(&p, "/usr/bin/bash", "-bash"));
	/* The executable's own name is not one it was run by. */
	policy_settle(&p, "/usr/bin/bash", "mysh", "mysh");
	ck_assert(!p.exempt);
	/* Without the executable's path, a path item matches nothing. */
	p = parsed("exempt=/opt/legacy/*", &bad, &errs);
	policy_settle(&p, NULL, "srv", "srv");
	ck_assert(!p.exempt);
	policy_settle(&p, "/opt/legacy/srv", "srv", "srv");
	ck_assert(p.exempt);

	/* Either name may be unknown: the other is matched alone. */
	p = parsed("exempt=lua*", &bad, &errs);
	policy_settle(&p, "/usr/bin/bash", NULL, "bash");
	ck_assert(p.exempt);
	policy_settle(&p, "/usr/bin/x", "bash", NULL);
	ck_assert(p.exempt);
	policy_settle(&p, "/usr/bin/x", NULL, "lua5.4");
	ck_assert(p.exempt);
	policy_settle(&p, "/usr/bin/x", "lua5.4", NULL);
	ck_assert(p.exempt);
	policy_settle(&p, "/usr/bin/bash", NULL, NULL);
	ck_assert(!p.exempt);
	policy_settle(&p, "/usr/bin/x", "x", "y");
	ck_assert(!p.exempt);
}
END_TEST

/*
 * The policy word read from a file of LEN bytes of CONF, with no variable
 * set; its path in PATH (a mkstemp template).  Nothing on stderr, a pipe
 * (file errors go to the system log, and to a terminal); what the file's
 * reader says in OUT.
 */
static uint32_t word_from_file(const char *conf, size_t len, char *path,
			       char *out, size_t size)
{
	int fd = mkstemp(path), p[2];
	struct diag errs = { .len = 0 };
	struct policy q;
	ssize_t n;
	uint32_t w;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, conf, len), len);
	close(fd);
	unsetenv(POLICY_ENV);
	setenv(POLICY_FILE_ENV, path, 1);
	ck_assert_int_eq(pipe(p), 0);
	dup2(p[1], 2);
	w = policy_word();
	close(p[1]);
	close(2);
	n = read(p[0], out, size - 1);
	close(p[0]);
	ck_assert_int_eq(n, 0);
	policy_default(&q);
	ck_assert_int_gt(layers_read_file(&q, path, &errs, NULL), 0);
	unlink(path);
	ck_assert_uint_lt(errs.len, size);
	memcpy(out, errs.buf, errs.len);
	out[errs.len] = '\0';
	return w;
}

/* Without the variable: the file, line by line, comments skipped. */
START_TEST(load_from_file)
{
	char path[] = "/tmp/cloexec-policy.XXXXXX", out[512];
	const char conf[] = "# a comment\nclasses=socket  # trailing\n"
			    "\nbogus\nreport=on\n";
	uint32_t w = word_from_file(conf, sizeof(conf) - 1, path, out,
				    sizeof(out));

	ck_assert_uint_eq(w & (FD_CLASS_ALL | POLICY_REPORT),
			  BIT(FD_CLASS_SOCKET) | POLICY_REPORT);
	ck_assert_ptr_nonnull(strstr(out, ":4: unknown setting 'bogus'"));
}
END_TEST

/*
 * A file longer than the library reads: the whole lines that fit apply, the
 * line cut in two does not, and one line says so.
 */
START_TEST(long_file_is_read_to_its_last_whole_line)
{
	char path[] = "/tmp/cloexec-policy.XXXXXX", out[512], want[512];
	char conf[POLICY_FILE_MAX + 64];
	size_t len;
	uint32_t w;

	/* a setting, comments, and a setting across the end of what is read */
	len = sprintf(conf, "report=on\n");
	memset(conf + len, '#', POLICY_FILE_MAX - 10 - len);
	len = POLICY_FILE_MAX - 10;
	conf[len - 1] = '\n';
	len += sprintf(conf + len, "classes=socket\n");
	w = word_from_file(conf, len, path, out, sizeof(out));
	ck_assert(w & POLICY_REPORT);
	ck_assert_uint_eq(w & FD_CLASS_ALL, FD_CLASS_ALL & ~BIT(FD_CLASS_DUP2));
	snprintf(want, sizeof(want),
		 "libcloexec: %s: only its first %d bytes are read\n", path,
		 POLICY_FILE_MAX);
	ck_assert_str_eq(out, want);
}
END_TEST

/* The environment, read once, with one line on stderr per bad token. */
START_TEST(load_from_environment)
{
	char out[256] = "";
	int p[2];
	ssize_t n;
	uint32_t w;

	setenv(POLICY_ENV, "classes=socket bogus", 1);
	ck_assert_int_eq(pipe(p), 0);
	dup2(p[1], 2);
	w = policy_word();
	ck_assert_uint_eq(policy_word(), w);
	close(p[1]);
	close(2);
	n = read(p[0], out, sizeof(out) - 1);
	ck_assert_int_gt(n, 0);
	out[n] = '\0';
	ck_assert_str_eq(out, "libcloexec: " POLICY_ENV
			      ": unknown setting 'bogus' (ignored)\n");
	ck_assert_uint_eq(w, POLICY_LOADED | BIT(FD_CLASS_SOCKET));
	ck_assert(policy_word() & BIT(FD_CLASS_SOCKET));
	ck_assert(!(policy_word() & BIT(FD_CLASS_ACCEPT)));
}
END_TEST

/*
 * The system's policy file, in this test's own mount namespace: SYSCONFDIR
 * on a fresh tmpfs, holding the file with text (none if NULL).  Root only:
 * false elsewhere, said on stdout (the test then checks nothing more).
 */
static bool private_sysconfdir(const char *text)
{
	int fd;

	if (unshare(CLONE_NEWNS) ||
	    /* Names, not NULL, for valgrind (which takes NULL for a fault). */
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("none", SYSCONFDIR, "tmpfs", 0, "mode=755")) {
		printf("skipped: a private %s needs root and mount namespaces "
		       "(%s)\n",
		       SYSCONFDIR, strerror(errno));
		return false;
	}
	if (text) {
		fd = open(POLICY_FILE_DEFAULT, O_WRONLY | O_CREAT | O_CLOEXEC,
			  0644);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, text, strlen(text)), strlen(text));
		close(fd);
	}
	unsetenv(POLICY_ENV);
	unsetenv(POLICY_FILE_ENV);
	return true;
}

/* The lowest fd number free now. */
static int lowest_free(void)
{
	int fd = dup(0);

	close(fd);
	return fd;
}

/* The fds open from base up (tl_open_fds). */
static int open_from(int base)
{
	return tl_open_fds(base, base + 64);
}

/* The classes a fresh load of every layer gives, errors to errs. */
static unsigned loaded_classes(void)
{
	struct diag errs = { .len = 0 };
	struct policy p;

	policy_default(&p);
	layers_load(&p, &errs);
	return p.classes;
}

/*
 * The probe at start opens the file and its directory; the load takes
 * those fds (the default path) or closes them (another path, or a load
 * that came first), and no fd of either is left open.
 */
START_TEST(the_start_probe_hands_its_fds_to_the_load)
{
	int free_fd, held;

	if (!private_sysconfdir("classes=socket\n"))
		return;
	ck_assert_int_eq(mkdir(POLICY_DIR_DEFAULT, 0755), 0);
	free_fd = lowest_free();
	held = open_from(free_fd);
	ck_assert(policy_configured());
	ck_assert(!policy_defaults_stand());
	/* Two fds wait for the load, the file's and the directory's. */
	ck_assert_int_eq(open_from(free_fd), held + 2);
	ck_assert_uint_eq(loaded_classes(), BIT(FD_CLASS_SOCKET));
	ck_assert_int_eq(open_from(free_fd), held);
	/* A second load opens the file again. */
	ck_assert_uint_eq(loaded_classes(), BIT(FD_CLASS_SOCKET));
	ck_assert_int_eq(open_from(free_fd), held);
}
END_TEST

/* A load that comes before the probe: the probe closes what it opened. */
START_TEST(a_probe_after_the_load_closes_its_fds)
{
	int free_fd, held;

	if (!private_sysconfdir("classes=pipe\n"))
		return;
	ck_assert_int_eq(mkdir(POLICY_DIR_DEFAULT, 0755), 0);
	free_fd = lowest_free();
	held = open_from(free_fd);
	ck_assert_uint_eq(loaded_classes(), BIT(FD_CLASS_PIPE));
	ck_assert(policy_configured());
	ck_assert_int_eq(open_from(free_fd), held);
}
END_TEST

/* CLOEXEC_CONFIG set after the probe: the probe's fds are closed. */
START_TEST(a_path_named_after_the_probe_is_opened_fresh)
{
	char path[] = "/tmp/cloexec-policy.XXXXXX";
	int free_fd, held, fd;

	if (!private_sysconfdir("classes=socket\n"))
		return;
	ck_assert_int_eq(mkdir(POLICY_DIR_DEFAULT, 0755), 0);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "classes=pipe\n", 13), 13);
	close(fd);
	free_fd = lowest_free();
	held = open_from(free_fd);
	ck_assert(policy_configured());
	setenv(POLICY_FILE_ENV, path, 1);
	ck_assert_uint_eq(loaded_classes(), BIT(FD_CLASS_PIPE));
	unlink(path);
	ck_assert_int_eq(open_from(free_fd), held);
}
END_TEST

/*
 * No file at start: the defaults stand until the environment names a
 * policy, even one set later, and with no environment at all.
 */
START_TEST(the_defaults_stand_without_a_file_or_a_variable)
{
	if (!private_sysconfdir(NULL))
		return;
	ck_assert(!policy_configured());
	ck_assert(policy_defaults_stand());
	setenv(POLICY_FILE_ENV, "/nonexistent", 1);
	ck_assert(!policy_defaults_stand());
	unsetenv(POLICY_FILE_ENV);
	setenv(POLICY_ENV, "off", 1);
	ck_assert(!policy_defaults_stand());
	ck_assert(policy_configured());
	ck_assert_int_eq(clearenv(), 0);
	ck_assert(policy_defaults_stand());
	ck_assert(!policy_configured());
	ck_assert_uint_eq(loaded_classes(), FD_CLASS_DEFAULT);
}
END_TEST

START_TEST(off_forces_nothing)
{
	setenv(POLICY_ENV, "off", 1);
	ck_assert_uint_eq(policy_word(), POLICY_LOADED);
}
END_TEST

START_TEST(test_switch_for_the_lock)
{
	unsetenv(POLICY_ENV);
	setenv(POLICY_TEST_NO_LOCK_ENV, "1", 1);
	ck_assert_uint_eq(policy_word(),
			  POLICY_LOADED | POLICY_NO_LOCK | FD_CLASS_DEFAULT);
}
END_TEST

START_TEST(class_names)
{
	ck_assert_str_eq(fd_class_name(FD_CLASS_SOCKET), "socket");
	ck_assert_str_eq(fd_class_name(FD_CLASS_MESSAGE), "message");
	ck_assert_str_eq(fd_class_name(FD_CLASS_COUNT), "?");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("policy");
	tcase_add_test(tc, default_enforces_every_class);
	tcase_add_test(tc, modes_and_later_items_win);
	tcase_add_test(tc, class_lists);
	tcase_add_test(tc, each_class_alone);
	tcase_add_test(tc, each_bad_token_is_named_once_and_the_rest_applies);
	tcase_add_test(tc, huge_input_is_refused_not_overflowed);
	tcase_add_test(tc, many_bad_tokens_are_cut_at_a_line);
	tcase_add_test(tc, modes_report_sweep_scope_log);
	tcase_add_test(tc, keep_lists);
	tcase_add_test(tc, each_spelling_of_a_bool);
	tcase_add_test(tc, bad_fd_numbers);
	tcase_add_test(tc, full_lists_refuse_one_more);
	tcase_add_test(tc, bad_program_names);
	tcase_add_test(tc, a_removal_takes_out_its_name_only);
	tcase_add_test(tc, hints_only_for_near_words);
	tcase_add_test(tc, a_line_too_long_is_left_out);
	tcase_add_test(tc, glob);
	tcase_add_test(tc, glob_is_not_exponential);
	tcase_add_test(tc, glob_bounds);
	tcase_add_test(tc, long_patterns_are_refused);
	tcase_add_test(tc, exempt_programs);
	tcase_add_test(tc, load_from_file);
	tcase_add_test(tc, long_file_is_read_to_its_last_whole_line);
	tcase_add_test(tc, load_from_environment);
	tcase_add_test(tc, the_start_probe_hands_its_fds_to_the_load);
	tcase_add_test(tc, a_probe_after_the_load_closes_its_fds);
	tcase_add_test(tc, a_path_named_after_the_probe_is_opened_fresh);
	tcase_add_test(tc, the_defaults_stand_without_a_file_or_a_variable);
	tcase_add_test(tc, off_forces_nothing);
	tcase_add_test(tc, test_switch_for_the_lock);
	tcase_add_test(tc, class_names);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
