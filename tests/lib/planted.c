/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A library planted in a tree as libcloexec.so.0 (preload.test): its
 * soname and exports are the library's, and its constructor leaves a mark
 * if anything ever loads it.  `cloexec enable --root` must never do that.
 * No libc header: the exports reuse libc's names with other types.
 */
char *getenv(const char *name);
int creat(const char *path, unsigned int mode);
int close(int fd);

__attribute__((constructor)) static void planted_ran(void)
{
	const char *mark = getenv("PLANTED_MARK");

	if (mark)
		close(creat(mark, 0644));
}

/* The names elfcheck.c looks for; they do nothing. */
#define PLANTED(name)      \
	int name(void);    \
	int name(void)     \
	{                  \
		return -1; \
	}
PLANTED(cloexec_version)
PLANTED(open)
PLANTED(pipe2)
PLANTED(socket)
PLANTED(execve)
PLANTED(posix_spawn)
