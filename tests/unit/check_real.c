/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <unistd.h>

#include "core/real.h"
#include "core/thread.h"
#include "testlib.h"

static int raw_calls;

static pid_t raw_getpid(void)
{
	raw_calls++;
	return -2;
}

int cloexec_no_such_fn(void);

static int raw_missing(void)
{
	return -3;
}

REAL_SLOT(getpid, raw_getpid);
REAL_SLOT(cloexec_no_such_fn, raw_missing);

START_TEST(resolves_to_libc)
{
	ck_assert_int_eq(REAL(getpid)(), getpid());
	ck_assert_int_eq(raw_calls, 0);
	ck_assert_ptr_nonnull(atomic_load(&real_slot_getpid.addr));
}
END_TEST

/* Re-entered from inside dlsym: the raw twin, and nothing cached. */
START_TEST(inside_dlsym_the_raw_twin_answers)
{
	thread_self()->resolving = 1;
	ck_assert_int_eq(REAL(getpid)(), -2);
	ck_assert_int_eq(raw_calls, 1);
	ck_assert_ptr_null(atomic_load(&real_slot_getpid.addr));
	thread_self()->resolving = 0;
	ck_assert_int_eq(REAL(getpid)(), getpid());
}
END_TEST

START_TEST(missing_symbol_gets_the_raw_twin_for_good)
{
	errno = 321;
	ck_assert_int_eq(REAL(cloexec_no_such_fn)(), -3);
	ck_assert_int_eq(errno, 321);
	ck_assert_ptr_eq(
		(void *)atomic_load(&real_slot_cloexec_no_such_fn
					     .addr),
		(void *)raw_missing);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("real");
	TCase *tc = tcase_create("real");

	tcase_add_test(tc, resolves_to_libc);
	tcase_add_test(tc, inside_dlsym_the_raw_twin_answers);
	tcase_add_test(tc, missing_symbol_gets_the_raw_twin_for_good);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
