/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * leaky: a server written the way they were before 2008.  It opens a
 * listening socket and a file with plain calls, then runs a helper with
 * system(), as a CGI-style server runs its scripts.  The helper (this
 * program again, with --child) lists the fds it inherited.
 *
 * Run it as it is, then under `cloexec --`, and compare.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The helper: every fd above stderr that it did not open itself. */
static int list_inherited(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!dir) {
		perror("leaky child: /proc/self/fd");
		return 1;
	}
	while ((e = readdir(dir))) {
		char link[64], target[PATH_MAX];
		int fd = atoi(e->d_name);
		ssize_t len;

		if (e->d_name[0] == '.' || fd < 3 || fd == dirfd(dir))
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		len = readlink(link, target, sizeof(target) - 1);
		target[len > 0 ? len : 0] = '\0';
		printf("  child inherited fd %d -> %s\n", fd, target);
		n++;
	}
	closedir(dir);
	if (!n)
		printf("  child inherited nothing beyond stdin, stdout, stderr\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	char self[PATH_MAX], cmd[PATH_MAX + 16];
	ssize_t len;
	int sock, file, fd;

	if (argc > 1 && !strcmp(argv[1], "--child"))
		return list_inherited();

	/* So that the demo shows only what this program creates. */
	for (fd = 3; fd < 1024; fd++)
		close(fd);

	sock = socket(AF_INET, SOCK_STREAM, 0);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (sock < 0 || bind(sock, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(sock, 16)) {
		perror("leaky: socket");
		return 1;
	}
	file = open(argc > 1 ? argv[1] : "/etc/passwd", O_RDONLY);
	if (file < 0) {
		perror("leaky: open");
		return 1;
	}
	printf("leaky: listening socket on fd %d, file on fd %d; "
	       "running a helper with system()\n",
	       sock, file);
	fflush(stdout);

	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0) {
		perror("leaky: /proc/self/exe");
		return 1;
	}
	self[len] = '\0';
	snprintf(cmd, sizeof(cmd), "'%s' --child", self);
	return system(cmd) == 0 ? 0 : 1;
}
