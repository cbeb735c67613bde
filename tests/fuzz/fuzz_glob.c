/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the glob matcher of keep-path= and exempt=.  The
 * input is PATTERN NUL STRING.  What it looks for is time: `make fuzz`
 * runs it with a per-input limit (-timeout), which a matcher that
 * backtracks exponentially exceeds within seconds.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t plen = nul ? (size_t)(nul - data) : size;
	size_t slen = nul ? size - plen - 1 : 0;
	char *pat = malloc(plen + 1), *s = malloc(slen + 1);

	/* Copies of exact size: ASan sees any read past either end. */
	memcpy(pat, data, plen);
	pat[plen] = '\0';
	if (slen)
		memcpy(s, nul + 1, slen);
	s[slen] = '\0';
	/* The length bounds the pattern; the string ends at its NUL. */
	policy_glob(pat, plen, s);
	free(pat);
	free(s);
	return 0;
}
