/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How cloexec ends when it, not the program, fails (status.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"

_Noreturn void die(const char *what, const char *arg)
{
	if (arg)
		fprintf(stderr, "cloexec: %s '%s'\n", what, arg);
	else
		fprintf(stderr, "cloexec: %s\n", what);
	exit(EXIT_CANCELED);
}

int exec_failed(const char *program)
{
	int err = errno;

	fprintf(stderr, "cloexec: '%s': %s\n", program, strerror(err));
	return err == ENOENT ? EXIT_ENOENT : EXIT_CANNOT_INVOKE;
}
