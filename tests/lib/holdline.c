/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec held between writing the program's exec line to the audit's
 * log and copying it: preloaded into cloexec, the first write() of the
 * process that is an exec line ({"libcloexec":1,...,"event":"exec",...)
 * returns HOLDLINE_MS after it is made.  A program let run meanwhile may
 * act on the log before cloexec copies it (trust.test).  Without
 * HOLDLINE_MS, write() is the kernel's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t size)
{
	static const char line[] = "{\"libcloexec\":1,";
	static const char exec[] = "\"event\":\"exec\"";
	static int held;
	const char *ms = getenv("HOLDLINE_MS");
	ssize_t n = syscall(SYS_write, fd, buf, size);
	long hold_ms;

	if (ms && !held && size >= sizeof(line) - 1 &&
	    !memcmp(buf, line, sizeof(line) - 1) &&
	    memmem(buf, size, exec, sizeof(exec) - 1)) {
		struct timespec hold;

		held = 1;
		hold_ms = atol(ms);
		hold.tv_sec = hold_ms / 1000;
		hold.tv_nsec = hold_ms % 1000 * 1000000;
		nanosleep(&hold, NULL);
	}
	return n;
}
