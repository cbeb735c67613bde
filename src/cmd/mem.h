/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Memory for the command's tables (the scan's processes, fds, sockets and
 * mounts): out of memory, the command says so and exits 125, as a failed
 * run of it does.
 */
#ifndef CLOEXEC_CMD_MEM_H
#define CLOEXEC_CMD_MEM_H

#include <stddef.h>

/* v, an array of *cap elements of size, with room for element n. */
void *mem_grow(void *v, size_t *cap, size_t n, size_t size);
/* n zeroed elements of size. */
void *mem_zalloc(size_t n, size_t size);
char *mem_strdup(const char *s);

#endif /* CLOEXEC_CMD_MEM_H */
