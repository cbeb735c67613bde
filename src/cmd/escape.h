/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Names that another process chose (file names, executable paths, socket
 * paths, comm), made safe to print to a terminal or a log read by one.
 */
#ifndef CLOEXEC_CMD_ESCAPE_H
#define CLOEXEC_CMD_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * s with every byte that is not printable ASCII or part of a valid,
 * printable UTF-8 character written as \xHH, and '\' as "\\": no control
 * character (ESC, newline, C1), no bidirectional override, no invalid
 * UTF-8 reaches the output.  Returns what fputs returns.
 */
int fputs_escaped(const char *s, FILE *out);

/* The same into buf (always terminated; cut short if it does not fit). */
void escape_into(char *buf, size_t size, const char *s);

#endif
