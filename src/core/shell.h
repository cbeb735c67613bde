/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Is the program of this image a shell?  Debian registers each shell it
 * packages in /etc/shells (add-shell), so the next one needs no list
 * here; but that file also names programs that are not shells (tmux,
 * screen, git-shell): an entry counts only where its file name, less a
 * version or "-static", ends in "sh" (sh, bash, dash, posh, yash, mksh,
 * ksh93, zsh, fish, tcsh).  The executable must be that entry's file
 * (the same inode: links and a merged /usr agree).  On a kernel without
 * O_CLOEXEC (before 2.6.23) no program is a shell by this rule.
 */
#ifndef CLOEXEC_SHELL_H
#define CLOEXEC_SHELL_H

#include <stdbool.h>

/*
 * Reads /etc/shells at its first call in an image, and keeps the answer
 * where may_remember (not in a child that shares this memory).
 * Async-signal-safe: system calls only.
 */
bool shell_image(bool may_remember) __attribute__((visibility("hidden")));

struct stat;

/*
 * list (/etc/shells' text, written to) names exe as a shell: an entry
 * that is a shell's name (shell_name) and is exe's file.
 */
bool shell_listed(char *list, const struct stat *exe)
	__attribute__((visibility("hidden")));

/* name (a path) is one that /etc/shells may name a shell by. */
bool shell_name(const char *name, unsigned long len)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_SHELL_H */
