/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Why an inherited fd is passed on purpose: the rows of why.def, as an
 * enum, with their word and their text for the audit's lines.
 */
#ifndef CLOEXEC_WHY_H
#define CLOEXEC_WHY_H

enum why {
#define WHY(id, word, text, rule) WHY_##id,
#include "why.def"
#undef WHY
	WHY_NONE /* not passed on purpose: a leak */
};

/* The row's word ("argv"), or NULL for WHY_NONE. */
const char *why_word(enum why why) __attribute__((visibility("hidden")));
/* The row's text ("named as "), or NULL for WHY_NONE. */
const char *why_text(enum why why) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_WHY_H */
