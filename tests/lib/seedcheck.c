/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "seedcheck.h"

const struct seed_prop seed_cloexec = { F_GETFD, FD_CLOEXEC,
					"close-on-exec flag" };
const struct seed_prop seed_nonblock = { F_GETFL, O_NONBLOCK,
					 "non-blocking mode" };

/* Each fd made with flags has the property, or lacks it; all closed. */
static int check_made(const struct seed_prop *prop, const char *call,
		      const char *flag_name, int flags, seed_make_fn *make)
{
	int fds[2], n = make(flags, fds), i, failed = 0;

	if (n < 0) {
		printf("%s(%s) failed\n", call, flag_name);
		return 1;
	}
	for (i = 0; i < n; i++) {
		int got = fcntl(fds[i], prop->get_cmd);

		if (got == -1) {
			puts("fcntl failed");
			failed = 1;
		} else if (!(got & prop->bit) != !flags) {
			printf("%s(%s) %s %s", call, flag_name,
			       flags ? "does not set" : "set", prop->name);
			if (n > 1)
				printf(" for fds[%d]", i);
			putchar('\n');
			failed = 1;
		}
		close(fds[i]);
		if (failed)
			return 1;
	}
	return 0;
}

int seed_check(const struct seed_prop *prop, const char *call,
	       const char *flag_name, int flag, seed_make_fn *make)
{
	return check_made(prop, call, "0", 0, make) ||
	       check_made(prop, call, flag_name, flag, make);
}

int seed_make_socket(int flags, int fds[2])
{
	fds[0] = socket(PF_INET, SOCK_STREAM | flags, 0);
	return fds[0] == -1 ? -1 : 1;
}

int seed_make_socketpair(int flags, int fds[2])
{
	return socketpair(PF_UNIX, SOCK_STREAM | flags, 0, fds) == -1 ? -1 : 2;
}

int seed_check_both(int *raw, const struct seed_prop *prop, const char *call,
		    const char *flag_name, int flag, seed_make_fn *make)
{
	int failed = 0;

	for (*raw = 0; *raw < 2; ++*raw) {
		if (seed_check(prop, call, flag_name, flag, make))
			failed = 1;
		else
			puts(*raw ? "OK (syscall)" : "OK (libc)");
	}
	return failed;
}
