/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Is this file the library, as far as its bytes say?  Read, never loaded:
 * loading a file runs its constructors, and `enable --root` must run
 * nothing from the tree it changes.
 */
#ifndef CLOEXEC_CMD_ELFCHECK_H
#define CLOEXEC_CMD_ELFCHECK_H

#include <stddef.h>

/*
 * 0 if fd is an ELF shared object of this command's class, byte order and
 * machine, built for its C library, with the soname and the library's
 * exports; else -1 and why in why.
 */
int elf_check_library(int fd, const char *soname, char *why, size_t size);

#endif
