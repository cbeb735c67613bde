/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fdreport: the child that tells what it inherited.  One line per open fd
 * at 3 and above: "FD DEV INO TARGET", where DEV and INO identify the open
 * file (so a test can match it with fstat on its own fd, whatever number
 * it has here) and TARGET is the /proc/self/fd link.
 */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;
	char link[64], target[PATH_MAX];

	if (!dir) {
		perror("fdreport: /proc/self/fd");
		return 2;
	}
	while ((e = readdir(dir))) {
		struct stat st;
		ssize_t n;
		int fd;

		if (e->d_name[0] == '.')
			continue;
		fd = atoi(e->d_name);
		if (fd < 3 || fd == dirfd(dir) || fstat(fd, &st))
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		printf("%d %llu %llu %s\n", fd, (unsigned long long)st.st_dev,
		       (unsigned long long)st.st_ino, target);
	}
	closedir(dir);
	return 0;
}
