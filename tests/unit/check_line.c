/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The line writer's clock: line_time() turns CLOCK_REALTIME into a UTC
 * date and time by hand (no gmtime, no locale), checked here at chosen
 * instants, the clock being this file's own.
 */
#include "config.h"

#include <check.h>
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

static void time_is(long long sec, const char *want)
{
	char got[LINE_TIME_MAX];

	fake_sec = sec;
	line_time(got);
	fake_sec = -1;
	ck_assert_str_eq(got, want);
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

int main(void)
{
	Suite *s = suite_create("line");
	TCase *tc = tcase_create("line");

	tcase_add_test(tc, utc_at_chosen_instants);
	tcase_add_test(tc, utc_as_gmtime);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
