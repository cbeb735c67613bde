/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec's own lines in the audit log, the JSON of the library's
 * (src/core/report.h): takes cloexec's argv, its fds and the program it
 * starts; gives the lines, written whole to the log's fd.  Calls no other
 * room of the audit: the summary reads these lines as any others.
 */
#ifndef CLOEXEC_AUDIT_JSON_H
#define CLOEXEC_AUDIT_JSON_H

#include <stddef.h>

/*
 * cloexec's own lines in the log (fd): "audit", with its pid, the root of
 * the tree, and a "received" line for each fd it was given (but except,
 * the log), which are the caller's; and, in the child, the "exec" line of
 * the program it starts (path, as execvp will find it).
 */
void audit_write_root(int fd, char *const argv[], int except);
void audit_write_exec(int fd, const char *path, char *const argv[]);
/* That line, for pid (whose parent is ppid), allocated; its length in len. */
char *audit_exec_line(long pid, long ppid, const char *path,
		      char *const argv[], size_t *len);

#endif /* CLOEXEC_AUDIT_JSON_H */
