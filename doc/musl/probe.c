/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * probe: call one C library function that may create an fd or start a
 * program, then say on stderr what this process holds and whether its
 * pthread_atfork prepare handler ran.  For doc/musl.md: run it under
 * strace, or with spy.so preloaded, to see what the C library does.
 *
 *	musl-gcc -o probe doc/musl/probe.c
 *	strace -f -e trace=open,openat,socket,pipe,pipe2,dup2,dup3,fcntl,clone,fork,vfork ./probe fopen
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <mntent.h>
#include <netdb.h>
#include <pty.h>
#include <pwd.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <syslog.h>
#include <pthread.h>
#include <unistd.h>
#include <wordexp.h>

extern char **environ;

static int prepared;

static void prepare(void)
{
	prepared++;
}

/* Every fd from 3 up: number, close-on-exec, what it is. */
static void report(const char *what)
{
	char link[64], target[256];
	int fd, fl;

	for (fd = 3; fd < 64; fd++) {
		ssize_t n;

		if ((fl = fcntl(fd, F_GETFD)) < 0)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "%s: fd %d cloexec=%d %s\n", what, fd,
			!!(fl & FD_CLOEXEC), target);
	}
	fprintf(stderr, "%s: atfork prepare ran %d times\n", what, prepared);
}

static void child_exits(pid_t pid)
{
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
}

int main(int argc, char **argv)
{
	char *true_argv[] = { "true", NULL };
	const char *w = argc > 1 ? argv[1] : "";
	char tmpl[] = "/tmp/probeXXXXXX";
	struct addrinfo *ai;
	wordexp_t we;
	glob_t g;
	pid_t pid;
	int m, s;

	/* The probe's own fds: none but stdio. */
	for (m = 3; m < 64; m++)
		close(m);
	pthread_atfork(prepare, NULL, NULL);
	if (!strcmp(w, "fopen"))
		fopen("/etc/passwd", "r");
	else if (!strcmp(w, "fopen-e"))
		fopen("/etc/passwd", "re");
	else if (!strcmp(w, "freopen"))
		freopen("/etc/passwd", "r", fopen("/etc/hostname", "re"));
	else if (!strcmp(w, "tmpfile"))
		tmpfile();
	else if (!strcmp(w, "mkstemp"))
		unlink(tmpl + 0 * mkstemp(tmpl));
	else if (!strcmp(w, "popen"))
		popen("true", "r");
	else if (!strcmp(w, "popen-e"))
		popen("true", "re");
	else if (!strcmp(w, "system"))
		system("true");
	else if (!strcmp(w, "posix_spawn") &&
		 !posix_spawn(&pid, "/bin/true", NULL, NULL, true_argv, environ))
		waitpid(pid, NULL, 0);
	else if (!strcmp(w, "fork"))
		child_exits(fork());
	else if (!strcmp(w, "_Fork"))
		child_exits(_Fork());
	else if (!strcmp(w, "vfork"))
		child_exits(vfork());
	else if (!strcmp(w, "daemon") && daemon(1, 1))
		return 1;
	else if (!strcmp(w, "wordexp"))
		wordexp("$(true)x", &we, 0);
	else if (!strcmp(w, "openpty"))
		openpty(&m, &s, NULL, NULL, NULL);
	else if (!strcmp(w, "forkpty"))
		child_exits(forkpty(&m, NULL, NULL, NULL));
	else if (!strcmp(w, "posix_openpt"))
		posix_openpt(O_RDWR);
	else if (!strcmp(w, "pipe"))
		pipe((int[2]){ 0 });
	else if (!strcmp(w, "creat"))
		unlink(creat("/tmp/probe-creat", 0600) < 0 ? "" : "/tmp/probe-creat");
	else if (!strcmp(w, "opendir"))
		opendir("/");
	else if (!strcmp(w, "glob"))
		glob("/etc/*", 0, NULL, &g);
	else if (!strcmp(w, "syslog"))
		openlog("probe", LOG_NDELAY, LOG_USER);
	else if (!strcmp(w, "getaddrinfo"))
		getaddrinfo("localhost", "80", NULL, &ai);
	else if (!strcmp(w, "getpwnam"))
		getpwnam("root");
	else if (!strcmp(w, "shm_open"))
		shm_unlink("/probe" + 0 * shm_open("/probe", O_RDWR | O_CREAT, 0600));
	else if (!strcmp(w, "setmntent"))
		setmntent("/proc/mounts", "r");
	else if (!strcmp(w, "getusershell"))
		getusershell();
	else
		fprintf(stderr, "probe: %s: not a probe\n", w);
	report(w);
	return 0;
}
