/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Is the program of this image a shell?  Debian registers each shell it
 * packages in /etc/shells (add-shell), whatever its name (rc.byron, es,
 * fish), so the next one needs no list here: the executable must be the
 * file of an entry there (the same inode: links and a merged /usr agree).
 * The file also lists programs that are not shells.  Terminal
 * multiplexers (tmux, screen) are told apart by what they do: they make
 * a terminal (a pty master) for the sessions they run, which no shell
 * does for its commands, so a process that made one, and its fork
 * children, are not shells here.  nologin and false start no program:
 * the rule has nothing to give them.  On a kernel without O_CLOEXEC
 * (before 2.6.23) no program is a shell by this rule.
 */
#ifndef CLOEXEC_SHELL_H
#define CLOEXEC_SHELL_H

#include <stdbool.h>

/*
 * Reads /etc/shells at its first call in an image, and keeps the answer
 * where may_remember (not in a child that shares this memory): a parent
 * asks before its fork (exec.c), and its children inherit the answer.
 * Async-signal-safe: system calls only.
 */
bool shell_image(bool may_remember) __attribute__((visibility("hidden")));

/*
 * Is path (a program about to be run) a file that /etc/shells lists?
 * Asked only where its command text names an fd (handoff.c).
 */
bool shell_path(const char *path) __attribute__((visibility("hidden")));

/* This process made a pty master: a terminal program, not a shell. */
void shell_note_terminal(void) __attribute__((visibility("hidden")));

struct stat;

/* list (/etc/shells' text, written to) has an entry that is exe's file. */
bool shell_listed(char *list, const struct stat *exe)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_SHELL_H */
