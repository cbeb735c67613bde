/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <stddef.h>

#include "why.h"

/* Characters, not pointers: no relocation at load (policy.c). */
static const struct {
	char word[16];
	char text[52];
} whys[] = {
#define WHY(id, word, text, rule) { word, text },
#include "why.def"
#undef WHY
};

const char *why_word(enum why why)
{
	return why < WHY_NONE ? whys[why].word : NULL;
}

const char *why_text(enum why why)
{
	return why < WHY_NONE ? whys[why].text : NULL;
}
