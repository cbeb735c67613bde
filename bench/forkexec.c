/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * forkexec: the whole-system figures of `make bench`, where the parent is
 * preloaded as much as its children (an image with /etc/ld.so.preload).
 * Whether it is, and with what, is up to bench/run.sh (LD_PRELOAD).
 *
 *	forkexec fork N		N children, one at a time, that _exit(0)
 *	forkexec exec N		N children, one at a time, that exec /bin/true
 *	forkexec run PROG [ARG...]	PROG once, with this environment
 *
 * fork and exec print "flt M" (M: the median of the children's minor
 * faults) and "pid P" (the last child's, for a callgrind file: the
 * first fork may carry the parent's once-only work, such as looking up
 * what its children call, which a dump before fork counts as the
 * child's); run
 * prints "cpu U", the user and system microseconds of PROG and all it
 * waited for, and "flt M".  All from wait4's rusage, which counts a
 * child's faults from its fork, exec or not.  The exit status is 1 when a
 * child failed: its figures are then no measure of anything.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static int failed;

static long reap(pid_t pid, struct rusage *ru)
{
	int status;

	if (wait4(pid, &status, 0, ru) < 0)
		die("forkexec: wait4");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "forkexec: child %ld failed\n", (long)pid);
		failed = 1;
	}
	return ru->ru_minflt;
}

static int children(int exec, int n)
{
	long *flt;
	struct rusage ru;
	pid_t pid, last = 0;
	int i;

	if (n < 1 || !(flt = calloc(n, sizeof(*flt))))
		return 2;
	/*
	 * An fd of the parent's own, made by the preloaded open: the library
	 * has an fd table to look after in every child, as a daemon would.
	 */
	if (open("/dev/null", O_RDONLY) < 0)
		die("forkexec: open");
	fflush(stdout);
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			die("forkexec: fork");
		if (!pid) {
			if (exec)
				execl("/bin/true", "true", (char *)NULL);
			_exit(exec ? 127 : 0);
		}
		last = pid;
		flt[i] = reap(pid, &ru);
	}
	qsort(flt, n, sizeof(*flt), cmp_long);
	printf("flt %ld\npid %ld\n", flt[n / 2], (long)last);
	free(flt);
	return failed;
}

static int run(char **argv)
{
	struct rusage ru;
	long flt;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("forkexec: fork");
	if (!pid) {
		execvp(argv[0], argv);
		_exit(127);
	}
	flt = reap(pid, &ru);
	printf("cpu %lld\nflt %ld\n",
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
		       ru.ru_utime.tv_usec + ru.ru_stime.tv_usec,
	       flt);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return children(0, atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "exec"))
		return children(1, atoi(argv[2]));
	if (argc >= 3 && !strcmp(argv[1], "run"))
		return run(argv + 2);
	fputs("usage: forkexec fork|exec N | run PROG [ARG...]\n", stderr);
	return 2;
}
