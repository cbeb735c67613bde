/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fdinfofloor PID...: the least that any scan of these processes' fds
 * must do for each fd, and no more: list /proc/PID/fdinfo and read each
 * entry once (its flags are the only place that says whether the fd is
 * close-on-exec), the entries' fds closed a run at a time, as cloexec
 * --scan does.  Prints the CPU seconds it took (user + system), the
 * floor under bench/scan.sh's figures.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static double cpu_seconds(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return (double)r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 +
	       (double)r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	double start = cpu_seconds();
	unsigned long fds = 0;
	int i;

	for (i = 1; i < argc; i++) {
		char path[64], buf[256];
		struct dirent *d;
		int dirfd, fd, lo = -1, hi = -1;
		DIR *dir;

		snprintf(path, sizeof(path), "/proc/%s/fdinfo", argv[i]);
		dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0 || !(dir = fdopendir(dirfd))) {
			perror(path);
			return 1;
		}
		while ((d = readdir(dir))) {
			if (d->d_name[0] == '.')
				continue;
			fd = openat(dirfd, d->d_name, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			if (read(fd, buf, sizeof(buf)) > 0)
				fds++;
			/* closed a run of consecutive numbers at a time */
			if (lo >= 0 && (fd != hi + 1 || fd - lo >= 255)) {
				syscall(SYS_close_range, lo, hi, 0);
				lo = -1;
			}
			if (lo < 0)
				lo = fd;
			hi = fd;
		}
		if (lo >= 0)
			syscall(SYS_close_range, lo, hi, 0);
		closedir(dir);
	}
	printf("%.2f %lu\n", cpu_seconds() - start, fds);
	return 0;
}
