/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The line writer's clock: line_time() turns CLOCK_REALTIME into a UTC
 * date and time by hand (no gmtime, no locale), checked here at chosen
 * instants, the clock being this file's own, and syslog's time stamp
 * too.  And its strings: UTF-8 copied as it is, every other byte
 * escaped.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/line.h"
#include "testlib.h"

static long long fake_sec = -1;

/* line.c's clock_gettime: this one, where a test has set the time. */
int clock_gettime(clockid_t clock, struct timespec *ts)
{
	if (fake_sec < 0 || clock != CLOCK_REALTIME)
		return (int)syscall(SYS_clock_gettime, clock, ts);
	ts->tv_sec = (time_t)fake_sec;
	ts->tv_nsec = 123456789;
	return 0;
}

/* What stamp writes, by this file's clock set to sec. */
static void stamp_is(void (*stamp)(char *), long long sec, const char *want)
{
	char got[LINE_TIME_MAX];

	fake_sec = sec;
	stamp(got);
	fake_sec = -1;
	ck_assert_str_eq(got, want);
}

static void time_is(long long sec, const char *want)
{
	stamp_is(line_time, sec, want);
}

/* The epoch, days' first and last seconds, leap days, centuries. */
START_TEST(utc_at_chosen_instants)
{
	time_is(0, "1970-01-01T00:00:00.123456Z");
	time_is(86399, "1970-01-01T23:59:59.123456Z");
	time_is(951782400, "2000-02-29T00:00:00.123456Z");
	time_is(951868800, "2000-03-01T00:00:00.123456Z");
	time_is(1709251199, "2024-02-29T23:59:59.123456Z");
	time_is(1733360461, "2024-12-05T01:01:01.123456Z");
	time_is(1767225599, "2025-12-31T23:59:59.123456Z");
	if (sizeof(time_t) > 4) /* past 2038 */
		time_is(4102444800, "2100-01-01T00:00:00.123456Z");
}
END_TEST

/* And every hour of a year, against gmtime_r. */
START_TEST(utc_as_gmtime)
{
	char want[LINE_TIME_MAX];
	struct tm tm;
	long long sec;
	time_t t;

	for (sec = 1704067200; sec < 1704067200 + 366 * 86400; sec += 3599) {
		t = (time_t)sec;
		gmtime_r(&t, &tm);
		strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%S.123456Z", &tm);
		time_is(sec, want);
	}
}
END_TEST

static void syslog_time_is(long long sec, const char *want)
{
	stamp_is(line_syslog_time, sec, want);
}

/* RFC 3164's day of the month: a space before one digit, none before two. */
START_TEST(syslog_time_at_chosen_instants)
{
	syslog_time_is(0, "Jan  1 00:00:00");
	syslog_time_is(1709210096, "Feb 29 12:34:56");
	syslog_time_is(1733788799, "Dec  9 23:59:59");
	syslog_time_is(1733788800, "Dec 10 00:00:00");
	syslog_time_is(1767225599, "Dec 31 23:59:59");
}
END_TEST

/* str as line_put_string writes it, room for all. */
static const char *json_of(const char *str)
{
	static char buf[256];
	struct line l = { .buf = buf, .size = sizeof(buf) };

	line_put_string(&l, str, sizeof(buf) - 1);
	ck_assert(!l.cut && !l.overflow);
	buf[l.len] = '\0';
	return buf;
}

/*
 * Each sequence UTF-8 allows, at the edges of its ranges, is copied; the
 * bytes of what it does not allow (an overlong form, a surrogate, past
 * U+10FFFF, a stray or missing continuation) are escaped one by one.
 */
START_TEST(utf8_copied_the_rest_escaped)
{
	static const char *const kept[] = {
		"\xc2\x80",	    "\xdf\xbf",		"\xe0\xa0\x80",
		"\xed\x9f\xbf",	    "\xee\x80\x80",	"\xef\xbf\xbf",
		"\xf0\x90\x80\x80", "\xf0\x9f\x98\x80", "\xf3\xbf\xbf\xbf",
		"\xf4\x8f\xbf\xbf",
	};
	static const struct {
		const char *in, *out;
	} escaped[] = {
		{ "\x80", "\"\\u0080\"" },
		{ "\xc1\xbf", "\"\\u00c1\\u00bf\"" },
		{ "\xc2", "\"\\u00c2\"" },
		{ "\xc2x", "\"\\u00c2x\"" },
		{ "\xe0\x9f\xbf", "\"\\u00e0\\u009f\\u00bf\"" },
		{ "\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"" },
		{ "\xf0\x8f\xbf\xbf", "\"\\u00f0\\u008f\\u00bf\\u00bf\"" },
		{ "\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"" },
		{ "\xf5\x80\x80\x80", "\"\\u00f5\\u0080\\u0080\\u0080\"" },
		{ "\xf0\x9f\x98", "\"\\u00f0\\u009f\\u0098\"" },
		{ "\x1f\x7f", "\"\\u001f\\u007f\"" },
		{ "a\"b\\", "\"a\\\"b\\\\\"" },
	};
	char want[64];
	size_t i;

	for (i = 0; i < sizeof(kept) / sizeof(*kept); i++) {
		snprintf(want, sizeof(want), "\"%s\"", kept[i]);
		ck_assert_msg(!strcmp(json_of(kept[i]), want),
			      "sequence %zu not kept: %s", i, json_of(kept[i]));
	}
	for (i = 0; i < sizeof(escaped) / sizeof(*escaped); i++)
		ck_assert_msg(!strcmp(json_of(escaped[i].in), escaped[i].out),
			      "case %zu: %s, want %s", i,
			      json_of(escaped[i].in), escaped[i].out);
}
END_TEST

/*
 * cap bytes, quotes included: a value that fills them exactly is whole;
 * one byte more is cut before the character that would not fit, never
 * inside an escape or a UTF-8 sequence, and says so.
 */
START_TEST(a_value_cut_at_its_cap)
{
	static const struct {
		const char *in, *out;
		size_t cap;
		bool cut;
	} cases[] = {
		{ "abc", "\"abc\"", 5, false },
		{ "abcd", "\"abc\"", 5, true },
		{ "a\"", "\"a\\\"\"", 5, false },
		{ "ab\"", "\"ab\"", 5, true },
		{ "a\xc3\xa9", "\"a\xc3\xa9\"", 5, false },
		{ "ab\xc3\xa9", "\"ab\"", 5, true },
		{ "\x01", "\"\\u0001\"", 8, false },
		{ "a\x01", "\"a\"", 8, true },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct line l = { .buf = buf, .size = sizeof(buf) };

		line_put_string(&l, cases[i].in, cases[i].cap);
		buf[l.len] = '\0';
		ck_assert_msg(!strcmp(buf, cases[i].out) &&
				      l.cut == cases[i].cut,
			      "case %zu: %s (cut %d)", i, buf, l.cut);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("line");
	TCase *tc = tcase_create("line");

	tcase_add_test(tc, utc_at_chosen_instants);
	tcase_add_test(tc, utc_as_gmtime);
	tcase_add_test(tc, syslog_time_at_chosen_instants);
	tcase_add_test(tc, utf8_copied_the_rest_escaped);
	tcase_add_test(tc, a_value_cut_at_its_cap);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
