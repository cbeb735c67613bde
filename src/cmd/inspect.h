/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CLOEXEC_CMD_INSPECT_H
#define CLOEXEC_CMD_INSPECT_H

/*
 * Check the policy file FILE, or the configured file, its drop-ins and
 * CLOEXEC_POLICY: 0 if every item is good, 1 if not (each bad one named on
 * stderr with file:line).
 */
int check_config(const char *file);
/*
 * Print the policy in force under OPTIONS (cloexec's, or NULL), item by
 * item with the source of each, and whether PROGRAM (or NULL) would be
 * exempt, by which item.
 */
int show_policy(const char *options, const char *program);

#endif
