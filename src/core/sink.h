/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where the lines go (libcloexec(7), sink.c): CLOEXEC_AUDIT_FD (below)
 * when set, checked, and not in a setuid process; log=PATH, a regular file
 * opened for each report; log=stderr; log=syslog; by default syslog
 * (/dev/log), or stderr where there is no syslog socket and stderr is not
 * a socket.  A setuid or setgid process uses no path and no fd its caller
 * could have chosen.
 *
 * This takes a report's lines, made with line.h, and gives them to where
 * they go: it chooses the destination at a report's first line, writes
 * or sends each, and at its end closes what it opened and says what it
 * lost.
 */
#ifndef CLOEXEC_SINK_H
#define CLOEXEC_SINK_H

#include <stdbool.h>
#include <stddef.h>

#include "line.h"

/*
 * Set by `cloexec --audit` for the whole tree: the log it opened, as
 * "FD:DEV:INO", which every process writes its lines to (sink.c says
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
 * CLOEXEC_AUDIT_SOCKET is NAME:TOKEN:INODE:COOKIE; each datagram to the
 * socket is the token (this many hex digits), a newline, then the line;
 * INODE and COOKIE (decimal; left out by a cloexec that could not learn
 * it) are the socket's, which the name must still lead to (sock_diag).
 */
#define REPORT_AUDIT_TOKEN_LEN 32

/*
 * Where the lines of one report go, chosen at its first line: a report
 * with nothing to say opens nothing.
 */
struct report {
	const struct handoff_kept *kept;
	const char *program, *path, *argv0;
	char *const *argv;
	long long pid, ppid, uid;
	char time[LINE_TIME_MAX];
	bool chosen;
	bool secure; /* AT_SECURE: the caller chose argv, env and stdio */
	bool to_syslog;
	bool syslog_only; /* log=syslog: no stderr when nobody listens */
	int out; /* the file, stderr, the syslog socket, or -1: nowhere */
	int named; /* CLOEXEC_AUDIT_FD's log, NAMED_NONE or NAMED_BAD */
	const char *named_why; /* why NAMED_BAD, or why a write failed */
	int sock; /* to CLOEXEC_AUDIT_SOCKET: -1 not yet, -2 cannot */
	/* the tree's token, each datagram's first line; "" where none */
	char token[REPORT_AUDIT_TOKEN_LEN + 2];
	int lost; /* lines neither in the named log nor sent */
};

enum { NAMED_NONE = -1, NAMED_BAD = -2 };

/* Room before a line, for the syslog head that send_syslog puts there. */
#define SYSLOG_HEAD_MAX 64

/* CLOEXEC_AUDIT_FD's log, if it is still the file cloexec opened. */
int sink_named_log(const char **why) __attribute__((visibility("hidden")));
/* The head of a line of this process's report. */
void sink_put_head(struct line *l, const struct report *r, const char *event)
	__attribute__((visibility("hidden")));
/* One line, whose buffer has SYSLOG_HEAD_MAX bytes of room before it. */
void sink_deliver(struct report *r, char *line, size_t len)
	__attribute__((visibility("hidden")));
/* The line ended ("truncated" if cut), then delivered. */
void sink_end_and_deliver(struct report *r, struct line *l)
	__attribute__((visibility("hidden")));
void sink_done(struct report *r) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_SINK_H */
