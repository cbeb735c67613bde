/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec --scan --format=prometheus: what the scan found, as the text
 * format that node_exporter's textfile collector reads (cloexec(1)).
 */
#ifndef CLOEXEC_SCAN_PROM_H
#define CLOEXEC_SCAN_PROM_H

#include <stdbool.h>
#include <stddef.h>

struct scan_prom;

/*
 * Metrics to write to path (NULL: stdout), with a count for each of the
 * nrisks risk names even where it is 0; NULL if out of memory.
 */
struct scan_prom *scan_prom_new(const char *path, const char *const *risks,
				size_t nrisks);

/* One inheritable fd of a process whose executable is exe. */
void scan_prom_fd(struct scan_prom *m, const char *exe, const char *risk,
		  const char *kind);

/* One process read, once its fds are in; library: libcloexec is mapped. */
void scan_prom_process(struct scan_prom *m, const char *exe, bool library);

/*
 * Write the metrics, with the processes read and those that could not
 * be, then free m.  A file is written whole or not at all: a temporary
 * file beside it, renamed over it.  0, or 125 after saying why.
 */
int scan_prom_write(struct scan_prom *m, size_t read, size_t unreadable);

#endif /* CLOEXEC_SCAN_PROM_H */
