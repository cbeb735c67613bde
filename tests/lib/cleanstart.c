/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cleanstart: the test runner's first step (LOG_COMPILER in
 * tests/local.mk).  Every test starts from the same process state,
 * whoever runs make check:
 *
 *	cleanstart PROGRAM [ARG...]
 *
 * fds 0-2 open (on /dev/null where closed) and no other; umask 022; every
 * signal at its default action and none blocked; no core files; the soft
 * fd limit 65536 (or the hard one, if lower) and the soft file size limit
 * the hard one.  A shell cannot do this for its script: it cannot close
 * fds above 9 (dash), nor undo a SIG_IGN it was started with (POSIX).
 * A suite about fd inheritance that inherited its caller's fds, or its
 * terminal's ignored SIGHUP, would test the caller.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * Tests use fd numbers up to 5000 (it_policy), and the emulated old
 * kernel moves its fds up where the limit allows (legacy.test counts on
 * it); a limit in the millions would make a loop over every number slow.
 */
#define KNOWN_NOFILE 65536

static void stdio_open(void)
{
	int fd;

	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 &&
		    open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			_exit(99);
}

static void close_above_stdio(void)
{
	struct rlimit lim;
	long fd;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3, ~0u, 0) == 0)
		return;
#endif
	/* Kernels before 5.9: every number the limit allows. */
	if (getrlimit(RLIMIT_NOFILE, &lim) || lim.rlim_cur == RLIM_INFINITY)
		lim.rlim_cur = 1 << 20;
	for (fd = 3; fd < (long)lim.rlim_cur; fd++)
		close((int)fd);
}

static void signals_default(void)
{
	struct sigaction dfl;
	sigset_t none;
	int sig;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	/* SIGKILL, SIGSTOP and the C library's own real-time signals
	 * refuse; each refusal leaves that signal as it must be anyway. */
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static void limits_known(void)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
		lim.rlim_cur = KNOWN_NOFILE;
		if (lim.rlim_max != RLIM_INFINITY &&
		    lim.rlim_max < KNOWN_NOFILE)
			lim.rlim_cur = lim.rlim_max;
		setrlimit(RLIMIT_NOFILE, &lim);
	}
	if (getrlimit(RLIMIT_CORE, &lim) == 0) {
		lim.rlim_cur = 0;
		setrlimit(RLIMIT_CORE, &lim);
	}
	if (getrlimit(RLIMIT_FSIZE, &lim) == 0) {
		lim.rlim_cur = lim.rlim_max;
		setrlimit(RLIMIT_FSIZE, &lim);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: cleanstart PROGRAM [ARG...]\n");
		return 99;
	}
	stdio_open();
	close_above_stdio();
	signals_default();
	limits_known();
	umask(022);
	execvp(argv[1], argv + 1);
	fprintf(stderr, "cleanstart: %s: %s\n", argv[1], strerror(errno));
	return 99;
}
