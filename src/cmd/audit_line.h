/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One line of the library's, as the summary reads it.  Takes a line of
 * the log (flat JSON, src/core/report.h); gives its fields, its "argv" as
 * a command line, and the fd it names described for people.  Calls no
 * other room of the audit: they all stand on it.
 */
#ifndef CLOEXEC_AUDIT_LINE_H
#define CLOEXEC_AUDIT_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* A field's value, unescaped, into buf; false if absent or null. */
bool line_field(const char *line, const char *name, char *buf, size_t size);
/* A number field's value, or -1. */
long line_number(const char *line, const char *name);
/* The "argv" array as a command line, cut to about max bytes. */
void line_argv(const char *line, char *buf, size_t size, size_t max);
/*
 * The fd of an "inherit" line for people, into what ("fd 4, socket
 * socket:[] (inet stream on ...), made by accept() at ..."): the inode
 * of a socket:[N] or pipe:[N] into inode (32 bytes), out of what, so
 * that rows differing only by it are one; *inode_at, its place there.
 * With audit_resolve, a caller's offset is given as FILE:LINE.
 */
void line_describe(const char *line, char *what, size_t size, char *inode,
		   size_t *inode_at);

/*
 * Offsets to FILE:LINE by running addr2line (not in the fuzz target):
 * line_describe's, when it describes an fd.
 */
extern bool audit_resolve;

#endif /* CLOEXEC_AUDIT_LINE_H */
