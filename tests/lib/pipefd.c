/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pipefd: the small C parent of the inheritance tests.  It makes a plain
 * pipe(), as apt does for dpkg --status-fd, and starts a program by fork
 * and exec with the number of one end in its arguments, where an argument
 * says %fd (or has it in it: --print-address=%fd):
 *
 *	pipefd write TEXT PROGRAM ARG...  the program reads TEXT from the
 *					  pipe; exits with its status
 *	pipefd read PROGRAM ARG...	  the program writes a line to the
 *					  pipe, which is printed; then the
 *					  program is stopped (SIGTERM)
 *
 * Before the mode, -c makes the pipe with O_CLOEXEC (the program's own
 * flag, which nothing may clear), -x, for write, execs the program in
 * place instead of forking (a process handing on to its next image), and
 * -2 makes a pipe and closes it first: the one that counts is then the
 * process's second call, which the library makes on its fast path (the
 * first one finds the policy and the kernel unknown yet).  -s sets
 * FD_CLOEXEC on both ends itself with fcntl F_SETFD (the program's own
 * flag again, set after the call); -f first tries to exec, in place, a
 * program that does not exist, and then goes on (a shell's search of
 * PATH, an exec that failed).
 *
 * Bounded: 60 seconds, then SIGALRM ends it.
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Each "%fd" in an argument, whole or part of it, becomes the number. */
static char **with_fd(char **argv, int fd)
{
	static char args[16][64];
	char number[16], *at;
	int i;

	snprintf(number, sizeof(number), "%d", fd);
	for (i = 0; argv[i]; i++) {
		at = strstr(argv[i], "%fd");
		if (!at || i >= 16 || strlen(argv[i]) >= sizeof(args[i]) - 8)
			continue;
		snprintf(args[i], sizeof(args[i]), "%.*s%s%s",
			 (int)(at - argv[i]), argv[i], number, at + 3);
		argv[i] = args[i];
	}
	return argv;
}

static pid_t start(char **argv, int fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		argv = with_fd(argv, fd);
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	return pid;
}

static int usage(void)
{
	fputs("usage: pipefd write TEXT PROGRAM ARG... | "
	      "pipefd read PROGRAM ARG...\n",
	      stderr);
	return 2;
}

int main(int argc, char **argv)
{
	char line[256];
	int p[2], status;
	bool own_flag = false, in_place = false, second = false;
	bool set_flag = false, fail_first = false;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	alarm(60);
	for (; argc > 1 && argv[1][0] == '-'; argc--, argv++) {
		own_flag |= !strcmp(argv[1], "-c");
		in_place |= !strcmp(argv[1], "-x");
		second |= !strcmp(argv[1], "-2");
		set_flag |= !strcmp(argv[1], "-s");
		fail_first |= !strcmp(argv[1], "-f");
	}
	if (second) {
		if (pipe(p))
			return 2;
		close(p[0]);
		close(p[1]);
	}
	if (argc < 3 || (own_flag ? pipe2(p, O_CLOEXEC) : pipe(p)))
		return usage();
	if (set_flag && (fcntl(p[0], F_SETFD, FD_CLOEXEC) ||
			 fcntl(p[1], F_SETFD, FD_CLOEXEC)))
		return 2;
	if (fail_first) {
		char *none[] = { "/nonexistent/pipefd-none", NULL };

		execv(none[0], none);
	}
	if (!strcmp(argv[1], "write") && argc >= 4) {
		if (write(p[1], argv[2], strlen(argv[2])) < 0 ||
		    write(p[1], "\n", 1) != 1)
			return 2;
		close(p[1]);
		if (in_place) {
			argv = with_fd(argv + 3, p[0]);
			execvp(argv[0], argv);
			perror(argv[0]);
			return 127;
		}
		pid = start(argv + 3, p[0]);
		close(p[0]);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return 2;
		return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	}
	if (strcmp(argv[1], "read"))
		return usage();
	pid = start(argv + 2, p[1]);
	close(p[1]);
	while (len < sizeof(line) - 1 &&
	       (n = read(p[0], line + len, 1)) == 1 && line[len] != '\n')
		len++;
	line[len] = '\0';
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, &status, 0);
	}
	if (!len)
		return 1;
	puts(line);
	return 0;
}
