/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The verdict on a leak: accepted, when a rule of the baseline (--baseline
 * FILE, doc/audit.md) matches its record, or leaked.  Takes the baseline's
 * lines, and the "inherit" lines of the leaks; gives whether each is
 * accepted, and the rule that would accept it (--write-baseline).  Stands
 * on audit_line.c alone.
 */
#ifndef CLOEXEC_AUDIT_VERDICT_H
#define CLOEXEC_AUDIT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

struct rule;

struct baseline {
	struct rule *rules;
	size_t nrules;
};

/*
 * The rules of the baseline at path into b, which starts zeroed: -1, said
 * on stderr, if it cannot be read or has a bad line.
 */
int baseline_read(struct baseline *b, const char *path);
/* Whether a rule of b accepts the leak of an "inherit" line. */
bool baseline_accepts(const struct baseline *b, const char *line);
/* The baseline line that accepts that leak, allocated. */
char *baseline_rule_for(const char *line);
void baseline_free(struct baseline *b);

#endif /* CLOEXEC_AUDIT_VERDICT_H */
