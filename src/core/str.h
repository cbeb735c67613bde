/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The few string functions of the paths every process takes (the policy's
 * load, the first fopen, a fork child's exec), here rather than libc's:
 * the first call of a libc function from the library binds it, some 700
 * instructions each, in every process; and in a fork child each libc page
 * it runs is a page fault (export.h, CHILD_PATH).  Plain loops, which GCC
 * 12 does not turn back into calls of libc's.
 */
#ifndef CLOEXEC_STR_H
#define CLOEXEC_STR_H

#include <stdbool.h>
#include <stddef.h>

static inline size_t str_len(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

static inline bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Does s start with the first len bytes of prefix (which has no NUL)? */
static inline bool str_starts(const char *s, const char *prefix, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != prefix[i])
			return false;
	return true;
}

/* strchr for a c that is not NUL. */
static inline const char *str_chr(const char *s, char c)
{
	for (; *s; s++)
		if (*s == c)
			return s;
	return NULL;
}

/* What follows the last '/' of path: its file name (path if none). */
static inline const char *str_file_name(const char *path)
{
	const char *name = path;

	for (; *path; path++)
		if (*path == '/')
			name = path + 1;
	return name;
}

static inline void str_copy(char *to, const char *from, size_t n)
{
	while (n--)
		*to++ = *from++;
}

#endif /* CLOEXEC_STR_H */
