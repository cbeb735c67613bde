/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testlib.h"
#include "core/policy.h"

#define BIT(c) (1u << (c))

static struct policy parsed(const char *text, int *bad, struct diag *errs)
{
	struct policy p;

	policy_default(&p);
	errs->len = 0;
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
	ck_assert_uint_eq(
		parsed("classes=pipe classes=socket", &bad, &errs).classes,
		BIT(FD_CLASS_SOCKET));
	ck_assert_int_eq(bad, 0);
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

START_TEST(huge_input_is_cut_not_overflowed)
{
	static char text[20000];
	struct diag errs;
	int bad;

	memset(text, 'x', sizeof(text) - 1);
	for (size_t i = 7; i < sizeof(text) - 1; i += 8)
		text[i] = ' ';
	parsed(text, &bad, &errs);
	ck_assert_int_gt(bad, 1000);
	ck_assert_uint_le(errs.len, sizeof(errs.buf) - 1);
	ck_assert_int_eq(errs.buf[errs.len - 1], '\n');
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
	ck_assert(fd_policy_applies(FD_CLASS_SOCKET));
	ck_assert(!fd_policy_applies(FD_CLASS_ACCEPT));
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
	tcase_add_test(tc, each_bad_token_is_named_once_and_the_rest_applies);
	tcase_add_test(tc, huge_input_is_cut_not_overflowed);
	tcase_add_test(tc, load_from_environment);
	tcase_add_test(tc, off_forces_nothing);
	tcase_add_test(tc, test_switch_for_the_lock);
	tcase_add_test(tc, class_names);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
