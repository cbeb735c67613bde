/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Audit lines: at an exec or a spawn, one JSON object per line for each fd
 * at 3 and above that the new program would inherit.  Written with one
 * write(2) per line, to stderr or to the policy's log file (opened, with
 * O_APPEND, for each report: the library keeps no fd of its own that a
 * program's "close every fd" loop could take away).
 *
 *	{"libcloexec":1,"event":"inherit","pid":1234,
 *	 "program":"/usr/bin/lua5.4","exec":"/bin/sh","argv0":"sh",
 *	 "fd":4,"kind":"file","target":"/etc/passwd",
 *	 "created_by":"fopen","caller":"0x55d0c0a01234",
 *	 "caller_symbol":"main+0x42","caller_object":"/usr/bin/lua5.4",
 *	 "caller_offset":"0x1f3a","deliberate":false}
 *
 * Sockets add "family", "socktype", "local" and "peer".  created_by is
 * the wrapped call that made the fd, "inherited" for an fd the process was
 * given at start, or null where the library could not see it being made.
 * caller_symbol is null when the object exports no symbol there (then
 * caller_offset, for addr2line).  deliberate is true for an fd passed on
 * purpose: inherited, made inheritable by the program itself, dup2'd onto
 * a number it chose, or kept by an inheritance rule (exec.h), which
 * "reason" then names ("named as --status-fd 16"; null otherwise).
 */
#ifndef CLOEXEC_REPORT_H
#define CLOEXEC_REPORT_H

struct exec_kept;

void report_inherited(const char *path, char *const argv[],
		      const struct exec_kept *kept)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_REPORT_H */
