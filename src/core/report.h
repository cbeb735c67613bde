/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Audit lines: at an exec or a spawn, one JSON object per line for each fd
 * at 3 and above that the new program would inherit.
 *
 *	{"libcloexec":1,"schema":2,"event":"inherit",
 *	 "time":"2026-12-04T15:02:03.123456Z","pid":1234,"ppid":1200,
 *	 "uid":1000,"program":"/usr/bin/lua5.4","exec":"/bin/sh",
 *	 "argv0":"sh","argv":["sh","-c","ls"],"fd":4,"kind":"file",
 *	 "target":"/etc/passwd",
 *	 "created_by":"fopen","caller":"0x55d0c0a01234",
 *	 "caller_symbol":"main+0x42","caller_object":"/usr/bin/lua5.4",
 *	 "caller_offset":"0x1f3a","deliberate":false,"why":null,
 *	 "reason":null}
 *
 * Sockets add "family", "socktype", "local" and "peer".  created_by is
 * the wrapped call that made the fd, "inherited" for an fd the process was
 * given at start, or null where the library could not see it being made.
 * caller_symbol is null when the object exports no symbol there (then
 * caller_offset, for addr2line); caller_object is always a path, the
 * program's own (/proc/self/exe) for its main executable, which dladdr
 * names by argv[0].  deliberate is true for an fd passed on purpose:
 * inherited, made inheritable by the program itself, dup2'd onto a number
 * it chose, kept by an inheritance rule (exec.h), by keep= or
 * keep-path=, or handed on by an exempt program; "why" says which, in one
 * word, and "reason" in words ("named as --status-fd 16"); both are null
 * for a leak.
 *
 * A line is whole JSON, at most REPORT_LINE_MAX bytes with its newline
 * (so one write(2) of it is atomic on a pipe too).  Strings are copied
 * as they are where they are UTF-8; every other byte, and every control
 * byte, becomes \u00XX, one escape per byte: a reader gets the bytes back
 * by taking each \u0080..\u00ff as one byte, since the characters
 * U+0080..U+00FF themselves always appear as UTF-8.  A string longer
 * than its field's share of the line is cut after a whole character or
 * escape, and the line then ends with "truncated":true.
 *
 * Where the lines go (libcloexec(7), report.c): CLOEXEC_AUDIT_FD (below)
 * when set, checked, and not in a setuid process; log=PATH, a regular file
 * opened for each report; log=stderr; log=syslog; by default syslog
 * (/dev/log), or stderr where there is no syslog socket and stderr is not
 * a socket.  A setuid or setgid process uses no path and no fd its caller
 * could have chosen.
 */
#ifndef CLOEXEC_REPORT_H
#define CLOEXEC_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#define REPORT_LINE_MAX 4096

/*
 * Set by `cloexec --audit` for the whole tree: the log it opened, as
 * "FD:DEV:INO", which every process writes its lines to (report.c says
 * when it may); and the name (without its leading NUL) of the abstract
 * datagram socket on which cloexec takes the lines of a process that
 * cannot write them there, and appends them to the log.  A process that
 * cannot send them either sends, if it can, one line that says so:
 *
 *	{"libcloexec":1,"event":"lost","pid":1234,"program":"/usr/bin/x",
 *	 "exec":"/bin/sh","lost":2,"reason":"the audit log's fd was closed"}
 */
#define REPORT_AUDIT_FD_ENV "CLOEXEC_AUDIT_FD"
#define REPORT_AUDIT_SOCKET_ENV "CLOEXEC_AUDIT_SOCKET"
/*
 * CLOEXEC_AUDIT_SOCKET is NAME:TOKEN:INODE; each datagram to the socket
 * is the token (this many hex digits), a newline, then the line; INODE is
 * the socket's, which the name must still lead to (/proc/net/unix).
 */
#define REPORT_AUDIT_TOKEN_LEN 32

/*
 * The schema of the lines (doc/audit.md): "schema":2 in each, after
 * "libcloexec":1, which stays so that readers of either find the lines.
 * Lines without "schema" are version 1.
 */
#define REPORT_SCHEMA 2

/* One line's fields; a NULL string is written as null. */
struct report_record {
	long long pid, ppid, uid, fd;
	const char *time; /* UTC, ISO 8601, to the microsecond */
	const char *program, *exec, *argv0, *kind, *target;
	char *const *argv; /* the new program's, or NULL: left out */
	/* Sockets only: each NULL one is left out. */
	const char *family, *socktype, *local, *peer;
	const char *created_by;
	/* caller NULL: these four are left out; else object NULL: three. */
	const char *caller, *caller_symbol, *caller_object, *caller_offset;
	/*
	 * Why it is passed on purpose, for tools ("why": listen_fds,
	 * jobserver, dev_fd, argv, env, own_image, inherited, dup2,
	 * set_inheritable, keep, keep_path or exempt) and for people
	 * ("reason"); both NULL for a leak.
	 */
	const char *why, *reason;
	bool deliberate;
};

/*
 * The line for *r, newline included, into buf (size at least
 * REPORT_LINE_MAX); returns its length.  Async-signal-safe.
 */
size_t report_format(const struct report_record *r, char *buf, size_t size)
	__attribute__((visibility("hidden")));

/*
 * The time now as report_record.time has it, "YYYY-MM-DDThh:mm:ss.uuuuuuZ"
 * (28 bytes with the NUL), without stdio or locale.
 */
#define REPORT_TIME_MAX 32
void report_time(char out[REPORT_TIME_MAX])
	__attribute__((visibility("hidden")));

struct exec_kept;

/*
 * At an exec (spawn false) or a spawn: the lines for what the new program
 * will inherit, after an "exec" line under cloexec --audit.
 */
void report_inherited(const char *path, char *const argv[],
		      const struct exec_kept *kept, bool spawn)
	__attribute__((visibility("hidden")));

/*
 * At start, under cloexec --audit (CLOEXEC_AUDIT_FD): a "start" line
 * (pid, ppid, exe, argv) and a "received" line for each inheritable fd
 * at 3 and above, so that the summary knows which processes were
 * audited, and what each was given by a parent that was not.
 */
void report_started(void) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_REPORT_H */
