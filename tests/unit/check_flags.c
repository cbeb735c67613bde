/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <check.h>

#include "testlib.h"
#include "core/flags.h"

static const struct flag_family sock = FLAGS_SOCK();
/* A family in the style of memfd_create: close-on-exec is bit 0. */
static const struct flag_family flags_low = FLAG_FAMILY({ 1, FDP_CLOEXEC });

START_TEST(sock_bits_split_from_type)
{
	unsigned props;
	int rest = flags_remap(&sock,
			       SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			       &props);

	ck_assert_int_eq(rest, SOCK_STREAM);
	ck_assert_uint_eq(props, FDP_CLOEXEC | FDP_NONBLOCK);
}
END_TEST

START_TEST(unknown_bits_are_left_for_the_kernel)
{
	unsigned props;

	ck_assert_int_eq(flags_remap(&sock, 0x100 | SOCK_CLOEXEC, &props),
			 0x100);
	ck_assert_uint_eq(props, FDP_CLOEXEC);
	ck_assert_int_eq(flags_remap(&sock, -1, &props),
			 ~(SOCK_CLOEXEC | SOCK_NONBLOCK));
	ck_assert_uint_eq(props, FDP_CLOEXEC | FDP_NONBLOCK);
	ck_assert_int_eq(flags_remap(&sock, 0, &props), 0);
	ck_assert_uint_eq(props, 0);
}
END_TEST

START_TEST(unmap_is_the_inverse)
{
	unsigned props, p;

	for (p = 0; p <= (FDP_CLOEXEC | FDP_NONBLOCK); p++) {
		int bits = flags_unmap(&sock, p);

		ck_assert_int_eq(flags_remap(&sock, bits, &props), 0);
		ck_assert_uint_eq(props, p);
	}
}
END_TEST

START_TEST(families_spell_the_same_property_differently)
{
	unsigned props;

	ck_assert_int_eq(flags_unmap(&flags_low, FDP_CLOEXEC), 1);
	/* A property the family cannot express is dropped, not invented. */
	ck_assert_int_eq(flags_unmap(&flags_low, FDP_NONBLOCK), 0);
	ck_assert_int_eq(flags_remap(&flags_low, 3, &props), 2);
	ck_assert_uint_eq(props, FDP_CLOEXEC);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("flags");
	TCase *tc = tcase_create("remap");
	tcase_add_test(tc, sock_bits_split_from_type);
	tcase_add_test(tc, unknown_bits_are_left_for_the_kernel);
	tcase_add_test(tc, unmap_is_the_inverse);
	tcase_add_test(tc, families_spell_the_same_property_differently);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
