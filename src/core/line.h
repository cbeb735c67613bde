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
 * This is the writer of those lines: it takes the fields, gives the line
 * (line_format_record), and the pieces the other lines are made of (struct
 * line, line_put_*), with no allocation, no stdio, no locale.
 */
#ifndef CLOEXEC_LINE_H
#define CLOEXEC_LINE_H

#include <stdbool.h>
#include <stddef.h>

#define REPORT_LINE_MAX 4096

/*
 * The schema of the lines (doc/audit.md): "schema":2 in each, after
 * "libcloexec":1, which stays so that readers of either find the lines.
 * Lines without "schema" are version 1.
 */
#define LINE_SCHEMA 2

/* One line's fields; a NULL string is written as null. */
struct line_record {
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
size_t line_format_record(const struct line_record *r, char *buf, size_t size)
	__attribute__((visibility("hidden")));

/*
 * The time now as line_record.time has it, "YYYY-MM-DDThh:mm:ss.uuuuuuZ"
 * (28 bytes with the NUL), without stdio or locale.
 */
#define LINE_TIME_MAX 32
void line_time(char out[LINE_TIME_MAX]) __attribute__((visibility("hidden")));

/*
 * Each string's share of a line, quotes included.  With the names, the
 * numbers and the punctuation (about 400 bytes) they fit in a line, so a
 * line is never cut: only a value is.  An address is at most 159 bytes
 * (socket_fields' buffers).
 */
enum {
	CAP_PATH = 512, /* program, exec, target, caller_object */
	CAP_NAME = 128, /* argv0, which argv has too */
	CAP_ARGV = 384, /* all of argv, brackets and commas included */
	CAP_WORD = 32, /* time, kind, family, socktype, created_by, why... */
	CAP_ADDRESS = 160,
	CAP_SYMBOL = 256,
	CAP_REASON = 128,
	CAP_ALL = 4 * CAP_PATH + CAP_NAME + CAP_ARGV + 9 * CAP_WORD +
		  2 * CAP_ADDRESS + CAP_SYMBOL + CAP_REASON,
};

/* A line being built: the caller's buffer, no allocation. */
struct line {
	char *buf;
	size_t len, size;
	bool cut; /* a value was shortened */
	bool overflow; /* cannot happen (CAP_ALL): then no line at all */
};

void line_put(struct line *l, const char *s, size_t n)
	__attribute__((visibility("hidden")));
void line_put_raw(struct line *l, const char *s)
	__attribute__((visibility("hidden")));
void line_put_string(struct line *l, const char *str, size_t cap)
	__attribute__((visibility("hidden")));
void line_put_decimal(struct line *l, long long n)
	__attribute__((visibility("hidden")));
void line_put_key(struct line *l, const char *name)
	__attribute__((visibility("hidden")));
void line_put_field(struct line *l, const char *name, const char *value,
		    size_t cap) __attribute__((visibility("hidden")));
void line_put_argv(struct line *l, char *const argv[], size_t cap)
	__attribute__((visibility("hidden")));
void line_put_head_fields(struct line *l, const char *event, const char *time,
			  long long pid, long long ppid, long long uid,
			  const char *program)
	__attribute__((visibility("hidden")));
/*
 * The line's end: "truncated" where a value was cut, the brace and the
 * newline.  Its length, or 0 where it could not be made.
 */
size_t line_end(struct line *l) __attribute__((visibility("hidden")));
/*
 * The "kind" of an fd whose /proc link reads target: socket, pipe, anon,
 * file or other.
 */
const char *line_kind_of(const char *target)
	__attribute__((visibility("hidden")));
/* "Mmm dd hh:mm:ss", RFC 3164's time stamp, in UTC. */
void line_syslog_time(char out[16]) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_LINE_H */
