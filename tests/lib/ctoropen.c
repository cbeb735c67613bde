/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A library whose constructor opens the file that CTOROPEN_PATH names,
 * inheritable, as a library's may (a log, /dev/null).  Preloaded after
 * libcloexec, its constructor runs first: the fd is made through the
 * wrapper before the library's own start-up, which must not take it for
 * one the process was given (tree.test).
 */
#include <fcntl.h>
#include <stdlib.h>

__attribute__((constructor)) static void ctoropen(void)
{
	const char *path = getenv("CTOROPEN_PATH");

	if (path && open(path, O_RDONLY) < 0)
		abort();
}
