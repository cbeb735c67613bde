/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

static void *checked(void *p)
{
	if (!p) {
		fputs("cloexec: out of memory\n", stderr);
		exit(125);
	}
	return p;
}

void *mem_grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 16;
	return checked(realloc(v, *cap * size));
}

void *mem_zalloc(size_t n, size_t size)
{
	return checked(calloc(n, size));
}

char *mem_strdup(const char *s)
{
	return checked(strdup(s));
}
