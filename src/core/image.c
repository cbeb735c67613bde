/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <stddef.h>
#include <unistd.h> /* __GLIBC__ */

#include "export.h"
#include "image.h"

static char *const *started_with STARTUP_DATA;

#ifdef __GLIBC__
/* glibc calls a shared object's constructors with main's arguments. */
__attribute__((constructor)) static void image_started(int argc, char **argv,
						       char **envp)
{
	(void)envp;
	if (argc > 0)
		started_with = argv;
}
#endif

CHILD_PATH char *const *image_argv(void)
{
	return started_with;
}
