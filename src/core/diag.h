/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Diagnostics for the user: lines collected in a fixed buffer and written
 * to stderr with one write(2), so that no stdio, no allocation and no lock
 * is involved and lines from many processes do not interleave.
 */
#ifndef CLOEXEC_DIAG_H
#define CLOEXEC_DIAG_H

#include <stdbool.h>
#include <stddef.h>

struct diag {
	char buf[512];
	size_t len;
	/* For a command that stops on errors: no "libcloexec:", no "ignored". */
	bool strict;
	/* If not 0, a full buffer is written there to make room (commands). */
	int spill_fd;
};

void diag_put(struct diag *d, const char *s, size_t n)
	__attribute__((visibility("hidden")));
void diag_puts(struct diag *d, const char *s)
	__attribute__((visibility("hidden")));
/* A whole line, or nothing if it does not fit. */
void diag_put_line(struct diag *d, const char *s, size_t n)
	__attribute__((visibility("hidden")));
void diag_flush(struct diag *d, int fd) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_DIAG_H */
