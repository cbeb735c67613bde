/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every seed program of the 2008 series checks of its call, written
 * once: made without its flag, a new fd (or each of a pair) lacks the
 * property; made with the flag, it has it.  On a failure it prints the
 * message the original programs print, and returns 1; else 0.
 *
 * make(flags, fds) makes the fd or the pair into fds and returns how many
 * it made (1 or 2), or -1.
 */
#ifndef TESTS_SEEDCHECK_H
#define TESTS_SEEDCHECK_H

struct seed_prop {
	int get_cmd; /* the fcntl that reads it */
	int bit;
	const char *name;
};

extern const struct seed_prop seed_cloexec, seed_nonblock;

typedef int seed_make_fn(int flags, int fds[2]);

int seed_check(const struct seed_prop *prop, const char *call,
	       const char *flag_name, int flag, seed_make_fn *make);

/* Seeds 003 and 009: socket(PF_INET, SOCK_STREAM | flags, 0) and
 * socketpair(PF_UNIX, SOCK_STREAM | flags, 0, fds). */
seed_make_fn seed_make_socket, seed_make_socketpair;

/*
 * seed_check() through the libc function, then through syscall(): *raw
 * is 0, then 1, for make() to read, and "OK (libc)", "OK (syscall)" are
 * printed as each passes.
 */
int seed_check_both(int *raw, const struct seed_prop *prop, const char *call,
		    const char *flag_name, int flag, seed_make_fn *make);

#endif /* TESTS_SEEDCHECK_H */
