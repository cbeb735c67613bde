/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec --scan: the inheritable fds of running processes (cloexec(1)).
 */
#ifndef CLOEXEC_SCAN_H
#define CLOEXEC_SCAN_H

#include <stdbool.h>

/* "high", "medium", "low" or "never" as a level for scan_run; -1 if none. */
int scan_parse_level(const char *s);

/*
 * Scan the processes named in pids (NULL-terminated; none: every process
 * in /proc), print them, and return 1 if an fd at or above the level
 * fail_on was found, 0 if not, 125 for a bad pid.
 */
/* found_status when an fd at or above fail_on is found, else 0. */
enum scan_format { SCAN_TEXT, SCAN_JSON, SCAN_PROMETHEUS };
/* output: the file that SCAN_PROMETHEUS replaces (NULL: stdout). */
int scan_run(char **pids, enum scan_format format, const char *output,
	     int fail_on, int found_status);

#endif /* CLOEXEC_SCAN_H */
