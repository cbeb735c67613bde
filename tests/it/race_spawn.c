/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stress test of the fork lock, on the emulated 2008 kernel where
 * every fd is created plain and marked afterwards.  Creator threads go
 * through every family (sockets, accepts of loopback connections, pipes,
 * opens, dups, epoll and event fds, fds received by SCM_RIGHTS) while
 * spawner threads start fdreport by fork+exec, vfork+exec, posix_spawn,
 * system and popen, and the main thread has children exec fdreport
 * straight from a process whose other threads create fds (exec without
 * fork).  fdreport lists every fd it inherited: each one is a leak.
 *
 * With the lock: no leak in a bounded run.  With the lock switched off
 * (the test-only switch): leaks through every one of the five ways that
 * start a child, so the test can fail for each.  Either way the run ends
 * within its bound (alarm): no deadlock, no hang.
 *
 * An exec without fork hands the new image every fd the process made,
 * its other threads' included (doc/inheritance.md, rule 1, which now
 * holds in a fork child too): what fdreport lists there is handed on by
 * design, not leaked, and is printed but not counted.  That way still
 * runs, for the bound.
 */
#include "config.h"

#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/policy.h"
#include "oldkernel.h"
#include "testlib.h"

extern char **environ;

#define CREATORS 3

enum method { FORK, VFORK, SPAWN, SYSTEM, POPEN, EXEC, METHODS };

static const char *const method_names[METHODS] = {
	"fork+exec", "vfork+exec", "posix_spawn", "system", "popen",
	"exec without fork",
};

static atomic_int stop;
static atomic_long leaks[METHODS], runs[METHODS];
static const char *fdreport;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --- creators: every family, round and round --- */

struct creator {
	int listener;
	struct sockaddr_in addr;
	int channel[2]; /* for SCM_RIGHTS */
};

static void pass_fd(int sock, int fd)
{
	char c[CMSG_SPACE(sizeof(int))], byte = 0;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = c, .msg_controllen = sizeof(c) };
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	memset(c, 0, sizeof(c));
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	sendmsg(sock, &msg, 0);
}

static void receive_fd(int sock)
{
	char c[CMSG_SPACE(sizeof(int))], byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = c, .msg_controllen = sizeof(c) };
	struct cmsghdr *cmsg;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (cmsg && cmsg->cmsg_type == SCM_RIGHTS) {
		memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
		close(fd);
	}
}

static void create_round(struct creator *c)
{
	int fd, sv[2], client;

	close(socket(AF_INET, SOCK_STREAM, 0));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
		close(sv[0]);
		close(sv[1]);
	}
	client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (client >= 0 && connect(client, (struct sockaddr *)&c->addr,
				   sizeof(c->addr)) == 0)
		close(accept(c->listener, NULL, NULL));
	close(client);
	if (pipe(sv) == 0) {
		close(sv[0]);
		close(sv[1]);
	}
	/* A regular file: an open that cannot block, so it holds the lock. */
	fd = open("/etc/passwd", O_RDONLY);
	close(dup(fd));
	pass_fd(c->channel[0], fd);
	close(fd);
	receive_fd(c->channel[1]);
	close(epoll_create(1));
	close(eventfd(0, 0));
}

static void creator_setup(struct creator *c)
{
	socklen_t len = sizeof(c->addr);

	c->listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&c->addr, 0, sizeof(c->addr));
	c->addr.sin_family = AF_INET;
	c->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(c->listener, (struct sockaddr *)&c->addr, sizeof(c->addr)) ||
	    listen(c->listener, 64) ||
	    getsockname(c->listener, (struct sockaddr *)&c->addr, &len) ||
	    socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, c->channel)) {
		perror("race: creator setup");
		exit(99);
	}
}

static void *create(void *arg)
{
	struct creator c;

	(void)arg;
	creator_setup(&c);
	while (!atomic_load(&stop))
		create_round(&c);
	return NULL;
}

/* --- spawners --- */

/* fdreport's output: one line per inherited fd. */
static long count_lines(int fd)
{
	char buf[4096];
	long n = 0;
	ssize_t got, i;

	while ((got = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < got; i++)
			n += buf[i] == '\n';
		/* What leaked, for the log: the fd and its target. */
		if (write(2, buf, (size_t)got) < 0)
			break;
	}
	return n;
}

/* fork or vfork, and exec fdreport with stdout on out. */
static pid_t fork_fdreport(enum method m, int out)
{
	char *argv[] = { "fdreport", NULL };
	pid_t pid = m == VFORK ? vfork() : fork();

	if (pid == 0) {
		dup2(out, 1);
		execve(fdreport, argv, environ);
		_exit(127);
	}
	return pid;
}

static long run_fdreport(enum method m, const char *tmp)
{
	char *argv[] = { "fdreport", NULL };
	char command[512];
	posix_spawn_file_actions_t fa;
	int p[2], status;
	long n = -1;
	pid_t pid = -1;
	FILE *f;

	switch (m) {
	case SYSTEM:
		snprintf(command, sizeof(command), "exec %s > %s", fdreport,
			 tmp);
		if (system(command) != 0)
			return -1;
		p[0] = open(tmp, O_RDONLY | O_CLOEXEC);
		n = count_lines(p[0]);
		close(p[0]);
		return n;
	case POPEN:
		f = popen(fdreport, "r");
		if (!f) {
			perror("race: popen");
			return -1;
		}
		n = count_lines(fileno(f));
		status = pclose(f);
		if (status)
			fprintf(stderr, "race: pclose: status %#x\n", status);
		return status == 0 ? n : -1;
	default:
		break;
	}
	if (pipe2(p, O_CLOEXEC))
		return -1;
	if (m == SPAWN) {
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, p[1], 1);
		if (posix_spawn(&pid, fdreport, &fa, NULL, argv, environ))
			pid = -1;
		posix_spawn_file_actions_destroy(&fa);
	} else {
		pid = fork_fdreport(m, p[1]);
	}
	close(p[1]);
	if (pid > 0)
		n = count_lines(p[0]);
	close(p[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
		return -1;
	return n;
}

static void *spawn_loop(void *arg)
{
	enum method m = (enum method)(long)arg;
	char tmp[64];
	long n;

	snprintf(tmp, sizeof(tmp), "/tmp/cloexec-race.%d.%d", getpid(), m);
	while (!atomic_load(&stop)) {
		n = run_fdreport(m, tmp);
		if (n < 0) {
			fprintf(stderr, "race: %s failed\n", method_names[m]);
			exit(99);
		}
		leaks[m] += n;
		runs[m]++;
	}
	unlink(tmp);
	return NULL;
}

/*
 * exec without fork: a child process whose other threads create fds
 * execs fdreport from its main thread.
 */
static long exec_without_fork(void)
{
	char *argv[] = { "fdreport", NULL };
	int p[2], status;
	pthread_t th[2];
	long n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		pthread_create(&th[0], NULL, create, NULL);
		pthread_create(&th[1], NULL, create, NULL);
		usleep(200 + rand() % 2000);
		dup2(p[1], 1);
		execve(fdreport, argv, environ);
		_exit(127);
	}
	close(p[1]);
	n = count_lines(p[0]);
	close(p[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
		return -1;
	return n;
}

static long total_leaks(void)
{
	long n = 0;
	int m;

	for (m = 0; m < EXEC; m++)
		n += leaks[m];
	return n;
}

/* Has every way of starting a program leaked at least once? */
static bool every_method_leaked(void)
{
	int m;

	for (m = 0; m < EXEC; m++)
		if (!leaks[m])
			return false;
	return true;
}

/*
 * One phase, in its own process: 0 without leaks, 1 with leaks through
 * every method, 2 with leaks through some.
 */
static int phase(double seconds, bool until_leak)
{
	pthread_t creators[CREATORS], spawners[EXEC];
	double end;
	long n;
	int i;

	alarm((unsigned)seconds + 60);
	/*
	 * glibc's malloc sizes its arenas by reading
	 * /sys/devices/system/cpu/online, with O_CLOEXEC, once a process
	 * has more arenas than its arena test (2 on 32-bit, 8 on 64-bit:
	 * seen on i386, one such fd in a child every few runs).  The
	 * emulated kernel drops the flag as a 2008 kernel did, and that fd
	 * is made inside libc, where no wrapper reaches (entrypoints.def,
	 * UNREACHABLE): not what this test measures.  A fixed arena limit
	 * means no such open.
	 */
	mallopt(M_ARENA_MAX, 8);
	if (oldkernel_install())
		return 99;
	for (i = 0; i < CREATORS; i++)
		pthread_create(&creators[i], NULL, create, NULL);
	for (i = 0; i < EXEC; i++)
		pthread_create(&spawners[i], NULL, spawn_loop, (void *)(long)i);
	end = now() + seconds;
	while (now() < end && !(until_leak && every_method_leaked())) {
		n = exec_without_fork();
		if (n < 0) {
			fputs("race: exec without fork failed\n", stderr);
			return 99;
		}
		leaks[EXEC] += n;
		runs[EXEC]++;
	}
	atomic_store(&stop, 1);
	for (i = 0; i < EXEC; i++)
		pthread_join(spawners[i], NULL);
	for (i = 0; i < CREATORS; i++)
		pthread_join(creators[i], NULL);
	printf("race (%s):", getenv("RACE_PHASE"));
	for (i = 0; i < METHODS; i++)
		printf(" %s %ld/%ld%s", method_names[i], leaks[i], runs[i],
		       i + 1 < METHODS ? "," : "\n");
	if (!total_leaks())
		return 0;
	return every_method_leaked() ? 1 : 2;
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_close_from(3);
	fdreport = getenv("FDREPORT");
	if (!fdreport)
		return 99;
	return tl_race_main(argv, phase, 4.0, 30.0,
			    "fds leaked with the lock on",
			    "some way of starting a program did not leak with "
			    "the lock off: the test is blind to it");
}
