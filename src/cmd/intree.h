/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Files inside a tree (cloexec enable/disable --root DIR) that others may
 * be able to write to: every path is resolved with DIR as its "/", so no
 * symlink in it leads out of DIR.
 */
#ifndef CLOEXEC_CMD_INTREE_H
#define CLOEXEC_CMD_INTREE_H

#include <stdbool.h>
#include <sys/types.h>

struct tree {
	int rootfd;
	/* the running system's own "/": nothing lies outside it */
	bool host;
};

/* Open DIR ("" or "/" for the running system); -1 and errno if not. */
int tree_open(struct tree *t, const char *dir);
void tree_close(struct tree *t);

/*
 * openat(path) with the tree's root as "/" (path absolute or relative to
 * the root).  Where the kernel has no openat2 (before 5.6) a symlink on
 * the way, or a "..", is refused with ELOOP rather than followed, except
 * in the running system's own tree.
 */
int tree_openat(const struct tree *t, const char *path, int flags, mode_t mode);

/*
 * Replace name in the directory dirfd whole with text, or remove it if
 * text is blank: a temporary file of a name no one can guess, renamed
 * over it.  The caller holds the directory's lock (flock on dirfd).
 */
int tree_replace(int dirfd, const char *name, const char *text);

#endif
