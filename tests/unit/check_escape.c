/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The escapes of names from other processes (src/cmd/escape.c): what a
 * terminal would obey goes out as \xHH, valid UTF-8 text as it is, and no
 * escape is ever cut in two.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"
#include "cmd/escape.h"

/* s through escape_into, into a buffer of size bytes. */
static const char *into(const char *s, size_t size)
{
	static char buf[256];

	ck_assert_uint_le(size, sizeof(buf));
	memset(buf, 'Z', sizeof(buf));
	escape_into(buf, size, s);
	return buf;
}

/* s through fputs_escaped. */
static const char *put(const char *s)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs_escaped(s, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static void same(const char *s, const char *want)
{
	ck_assert_str_eq(into(s, 256), want);
	ck_assert_str_eq(put(s), want);
}

START_TEST(printable_ascii_as_it_is)
{
	same("", "");
	same("/usr/bin/x y ~", "/usr/bin/x y ~");
	same(" !~", " !~");
}
END_TEST

START_TEST(controls_escaped)
{
	same("a\033[2Jb", "a\\x1b[2Jb");
	same("\r\n\t", "\\x0d\\x0a\\x09");
	same("\x1f\x7f", "\\x1f\\x7f");
	same("back\\slash", "back\\\\slash");
}
END_TEST

/* Valid UTF-8 of every length, at the edges of each. */
START_TEST(utf8_as_it_is)
{
	same("\xc2\xa0", "\xc2\xa0");			/* U+00A0, first safe 2 */
	same("\xdf\xbf", "\xdf\xbf");			/* U+07FF */
	same("\xe0\xa0\x80", "\xe0\xa0\x80");		/* U+0800 */
	same("caf\xc3\xa9", "caf\xc3\xa9");
	same("\xe2\x82\xac", "\xe2\x82\xac");		/* U+20AC */
	same("\xed\x9f\xbf", "\xed\x9f\xbf");		/* U+D7FF */
	same("\xee\x80\x80", "\xee\x80\x80");		/* U+E000 */
	same("\xef\xbf\xbd", "\xef\xbf\xbd");		/* U+FFFD */
	same("\xf0\x90\x80\x80", "\xf0\x90\x80\x80");	/* U+10000 */
	same("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");	/* U+10FFFF */
}
END_TEST

/* Bytes that are no character: each byte escaped on its own. */
START_TEST(invalid_utf8_escaped)
{
	same("\xc0\xaf", "\\xc0\\xaf");			/* overlong, 2 */
	same("\xc1\xbf", "\\xc1\\xbf");
	same("\xe0\x80\xaf", "\\xe0\\x80\\xaf");	/* overlong, 3 */
	same("\xe0\x9f\xbf", "\\xe0\\x9f\\xbf");
	same("\xf0\x80\x80\xaf", "\\xf0\\x80\\x80\\xaf"); /* overlong, 4 */
	same("\xf0\x8f\xbf\xbf", "\\xf0\\x8f\\xbf\\xbf");
	same("\xed\xa0\x80", "\\xed\\xa0\\x80");	/* surrogates */
	same("\xed\xbf\xbf", "\\xed\\xbf\\xbf");
	same("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
	same("\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80");
	same("\xff", "\\xff");
	same("\x80", "\\x80");				/* a lone continuation */
	same("\xc3(", "\\xc3(");			/* cut short */
	same("\xe2\x82", "\\xe2\\x82");
	same("\xf0\x90\x80", "\\xf0\\x90\\x80");
}
END_TEST

/* Characters that are controls, reorder, or hide text. */
START_TEST(unsafe_characters_escaped)
{
	same("\xc2\x80", "\\xc2\\x80");			/* C1: U+0080 */
	same("\xc2\x9f", "\\xc2\\x9f");			/* U+009F */
	same("\xd8\x9c", "\\xd8\\x9c");			/* U+061C */
	same("\xe2\x80\x8e", "\\xe2\\x80\\x8e");	/* U+200E */
	same("\xe2\x80\x8f", "\\xe2\\x80\\x8f");	/* U+200F */
	same("\xe2\x80\xaa", "\\xe2\\x80\\xaa");	/* U+202A */
	same("\xe2\x80\xae", "\\xe2\\x80\\xae");	/* U+202E */
	same("\xe2\x81\xa6", "\\xe2\\x81\\xa6");	/* U+2066 */
	same("\xe2\x81\xa9", "\\xe2\\x81\\xa9");	/* U+2069 */
	same("\xef\xbb\xbf", "\\xef\\xbb\\xbf");	/* U+FEFF */
	/* their neighbours are text */
	same("\xd8\x9b", "\xd8\x9b");			/* U+061B */
	same("\xe2\x80\x8d", "\xe2\x80\x8d");		/* U+200D */
	same("\xe2\x80\x90", "\xe2\x80\x90");		/* U+2010 */
	same("\xe2\x80\xa9", "\xe2\x80\xa9");		/* U+2029 */
	same("\xe2\x80\xaf", "\xe2\x80\xaf");		/* U+202F */
	same("\xe2\x81\xa5", "\xe2\x81\xa5");		/* U+2065 */
	same("\xe2\x81\xaa", "\xe2\x81\xaa");		/* U+206A */
	same("\xef\xbb\xbe", "\xef\xbb\xbe");		/* U+FEFE */
}
END_TEST

/* A buffer too small: whole pieces only, and always a terminated string. */
START_TEST(a_short_buffer_cuts_between_pieces)
{
	ck_assert_str_eq(into("abc", 1), "");
	ck_assert_str_eq(into("abc", 3), "ab");
	ck_assert_str_eq(into("abc", 4), "abc");
	ck_assert_str_eq(into("a\033b", 4), "a");
	ck_assert_str_eq(into("a\033b", 5), "a");
	ck_assert_str_eq(into("a\033b", 6), "a\\x1b");
	ck_assert_str_eq(into("a\\", 3), "a");
	ck_assert_str_eq(into("a\\", 4), "a\\\\");
	ck_assert_str_eq(into("a\xe2\x82\xac", 4), "a");
	ck_assert_str_eq(into("a\xe2\x82\xac", 5), "a\xe2\x82\xac");
}
END_TEST

/* A stream that fails: EOF, as fputs says. */
START_TEST(a_failed_write_is_eof)
{
	char buf[4];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	ck_assert_ptr_nonnull(f);
	setvbuf(f, NULL, _IONBF, 0);
	ck_assert_int_eq(fputs_escaped("abcdefgh", f), EOF);
	fclose(f);
	f = fmemopen(buf, sizeof(buf), "w");
	setvbuf(f, NULL, _IONBF, 0);
	ck_assert_int_eq(fputs_escaped("\033\033\033", f), EOF);
	fclose(f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("escape");

	tcase_add_test(tc, printable_ascii_as_it_is);
	tcase_add_test(tc, controls_escaped);
	tcase_add_test(tc, utf8_as_it_is);
	tcase_add_test(tc, invalid_utf8_escaped);
	tcase_add_test(tc, unsafe_characters_escaped);
	tcase_add_test(tc, a_short_buffer_cuts_between_pieces);
	tcase_add_test(tc, a_failed_write_is_eof);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
