/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary of an audit log (the library's JSON lines, src/core/report.h)
 * that `cloexec --audit` and `--check` print: read the audit lines, group
 * the same leak seen many times (a server hands its listening socket to
 * every CGI it runs), and say it once, with a count: which program handed
 * which fd, made by which call, to which.
 *
 * The summary of several logs (cloexec --summarize): audit_new, then
 * audit_read each (audit_log.h), then audit_print (audit_out.h).
 *
 * In rooms, each calling only those below it, and no circle:
 *
 *	audit_out.c	the summary for people: calls log, tree, verdict
 *	audit_log.c	the log reader, lines to records: tree, verdict, line
 *	audit_tree.c	processes, execs, fds received and handed on: line
 *	audit_verdict.c	the baseline, a leak accepted or not: line
 *	audit_line.c	one line's fields, its fd described: none
 *	audit_json.c	cloexec's own lines: none (read as any others)
 */
#ifndef CLOEXEC_AUDIT_H
#define CLOEXEC_AUDIT_H

#include "audit_json.h"
#include "audit_line.h"
#include "audit_log.h"
#include "audit_out.h"

#endif /* CLOEXEC_AUDIT_H */
