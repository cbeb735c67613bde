/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stdfd: the ways old programs hand a child its stdin or stdout without
 * dup2's "onto this number" (NOTES.md, "two traps"), then a child started
 * by fork+exec, vfork+exec or posix_spawn tells what it got.
 *
 *	stdfd IDIOM HOW
 *
 * IDIOM makes fd 0 or 1 (or, for the control, an fd above 2) with a plain
 * call; HOW starts `stdfd --child N`.  On stderr, which no idiom touches:
 *
 *	made fd N DEV:INO	the parent's fd, after the idiom
 *	child fd N DEV:INO	what the child has at N (or "child fd N closed")
 *	child wrote: hello	for fd 1: the child wrote through its stdout
 *
 * The control idiom (dup-high) makes its fd above 2, where the library
 * does set close-on-exec: the child must not see it then, so a test of
 * the library that is not there can tell.
 */
#include "config.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int pipe_w = -1, pipe_r = -1;

static void id(const char *who, int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		fprintf(stderr, "%s fd %d closed\n", who, fd);
	else
		fprintf(stderr, "%s fd %d %llu:%llu\n", who, fd,
			(unsigned long long)st.st_dev,
			(unsigned long long)st.st_ino);
}

static int child(int fd)
{
	id("child", fd);
	if (fd == 1 && fcntl(1, F_GETFD) >= 0) {
		printf("hello\n");
		fflush(stdout);
	}
	return 0;
}

/*
 * fd moved above the numbers under test, close-on-exec.  Plain calls: the
 * emulated old kernel has no F_DUPFD_CLOEXEC, and glibc no fallback.
 */
static int high(int fd)
{
	int moved = fcntl(fd, F_DUPFD, 20);

	if (moved < 0 || fcntl(moved, F_SETFD, FD_CLOEXEC)) {
		perror("stdfd: F_DUPFD");
		exit(2);
	}
	close(fd);
	return moved;
}

/* A pipe for stdout, its ends kept above the numbers under test. */
static void make_pipe(void)
{
	int p[2];

	if (pipe(p)) {
		perror("stdfd: pipe");
		exit(2);
	}
	pipe_r = high(p[0]);
	pipe_w = high(p[1]);
}

/* A listener with a connection waiting (the client end stays open). */
static int listener(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int l = high(socket(AF_INET, SOCK_STREAM, 0));
	int c = high(socket(AF_INET, SOCK_STREAM, 0));

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(l, 1) || getsockname(l, (struct sockaddr *)&a, &len) ||
	    connect(c, (struct sockaddr *)&a, sizeof(a))) {
		perror("stdfd: loopback connection");
		exit(2);
	}
	return l;
}

/* The idiom: returns the fd it made. */
static int idiom(const char *name)
{
	int p[2];

	if (!strcmp(name, "dup-stdout")) {
		make_pipe();
		close(1);
		return dup(pipe_w);
	}
	if (!strcmp(name, "fcntl-stdout")) {
		make_pipe();
		close(1);
		return fcntl(pipe_w, F_DUPFD, 0);
	}
	if (!strcmp(name, "dup2-stdout")) {
		make_pipe();
		return dup2(pipe_w, 1);
	}
	if (!strcmp(name, "open-stdin")) {
		close(0);
		return open("/dev/null", O_RDONLY);
	}
	if (!strcmp(name, "fopen-stdin")) {
		FILE *f;

		close(0);
		f = fopen("/dev/null", "r");
		return f ? fileno(f) : -1;
	}
	if (!strcmp(name, "freopen-stdin"))
		return freopen("/dev/null", "r", stdin) ? 0 : -1;
	if (!strcmp(name, "socket-stdin")) {
		close(0);
		return socket(AF_INET, SOCK_STREAM, 0);
	}
	if (!strcmp(name, "accept-stdin")) {
		int l = listener();

		close(0);
		return accept(l, NULL, NULL);
	}
	if (!strcmp(name, "pipe-stdin")) {
		close(0);
		return pipe(p) ? -1 : p[0];
	}
	if (!strcmp(name, "dup-high")) {
		make_pipe();
		return dup(pipe_w);
	}
	fprintf(stderr, "stdfd: unknown idiom %s\n", name);
	exit(2);
}

static pid_t start(const char *how, char *self, int fd)
{
	char num[16];
	char *argv[] = { "stdfd", "--child", num, NULL };
	pid_t pid = -1;

	snprintf(num, sizeof(num), "%d", fd);
	if (!strcmp(how, "fork") || !strcmp(how, "vfork")) {
		pid = !strcmp(how, "fork") ? fork() : vfork();
		if (pid == 0) {
			execv(self, argv);
			_exit(127);
		}
	} else if (!strcmp(how, "spawn")) {
		if (posix_spawn(&pid, self, NULL, NULL, argv, environ))
			pid = -1;
	} else {
		fprintf(stderr, "stdfd: unknown way %s\n", how);
		exit(2);
	}
	return pid;
}

int main(int argc, char **argv)
{
	char self[4096], buf[256];
	ssize_t n;
	int fd, status;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--child"))
		return child(atoi(argv[2]));
	if (argc != 3) {
		fputs("usage: stdfd IDIOM fork|vfork|spawn\n", stderr);
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		perror("stdfd: /proc/self/exe");
		return 2;
	}
	self[n] = '\0';

	fd = idiom(argv[1]);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	id("made", fd);
	pid = start(argv[2], self, fd);
	if (pid < 0) {
		perror(argv[2]);
		return 1;
	}
	if (pipe_w >= 0) {
		/* Our own copies go, so that the child's end alone is left. */
		close(pipe_w);
		if (fd != pipe_w)
			close(fd);
		n = read(pipe_r, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		if (n > 0)
			fprintf(stderr, "child wrote: %s", buf);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fputs("stdfd: the child failed\n", stderr);
		return 1;
	}
	return 0;
}
