/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A library whose constructor runs long: dlopen() holds the dynamic
 * loader's lock meanwhile, which is what race_load needs a thread to do.
 * It says when it has started by writing a byte to the fd that
 * SLOWINIT_READY names, and holds 300 ms, or SLOWINIT_HOLD_MS.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((constructor)) static void slowinit(void)
{
	const char *ready = getenv("SLOWINIT_READY");
	const char *ms = getenv("SLOWINIT_HOLD_MS");
	long hold_ms = ms ? atol(ms) : 300;
	struct timespec hold = { hold_ms / 1000, hold_ms % 1000 * 1000000 };

	if (ready && write(atoi(ready), "r", 1) != 1)
		abort();
	nanosleep(&hold, NULL);
}
