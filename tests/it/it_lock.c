/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fork lock as a program meets it, in every configuration: creators
 * that block do not hold fork up, cancelled creators leave nothing held,
 * signal handlers that create fds or fork do not deadlock, vfork stays
 * vfork unless the fallback is in use, and every way to start a program
 * still works.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/sys.h"
#include "testlib.h"

extern char **environ;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A fork (the child exits at once) and its reaping.  Nothing is timed: a
 * fork that waits behind a creator that never returns never returns
 * either, and the harness's alarm fails the test.
 */
static void fork_and_reap(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
}

static void spawn_and_reap(void)
{
	char *argv[] = { "true", NULL };
	int status;
	pid_t pid;

	ck_assert_int_eq(posix_spawnp(&pid, "true", NULL, NULL, argv, environ),
			 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
}

/* Set by a blocked creator when its call returns. */
static atomic_int creator_returned;

/* A first fd, so that the kernel has been probed (and the fallback,
 * on the emulated kernel, is in use). */
static void warm_up(void)
{
	close(socket(AF_UNIX, SOCK_STREAM, 0));
}

static void *blocked_accept(void *arg)
{
	int fd = accept(*(int *)arg, NULL, NULL);

	atomic_store(&creator_returned, 1);
	return (void *)(long)fd;
}

/* One byte and room for one fd, by libc's recvmsg or the raw call. */
static void *recv_one(int fd, bool raw)
{
	char byte, control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control,
			      .msg_controllen = sizeof(control) };
	long n = raw ? syscall(SYS_recvmsg, fd, &msg, 0) : recvmsg(fd, &msg, 0);

	atomic_store(&creator_returned, 1);
	return (void *)n;
}

static void *blocked_recvmsg(void *arg)
{
	return recv_one(*(int *)arg, false);
}

/*
 * The same calls through syscall(), which the library wraps by number
 * (syscall.c), where the kernel has them by name (not i386's socketcall).
 */
#if defined(SYS_accept) && defined(SYS_recvmsg)
#define RAW_BLOCKERS 1
static void *blocked_raw_accept(void *arg)
{
	long fd = syscall(SYS_accept, *(int *)arg, NULL, NULL);

	atomic_store(&creator_returned, 1);
	return (void *)fd;
}

static void *blocked_raw_recvmsg(void *arg)
{
	return recv_one(*(int *)arg, true);
}
#endif

static const char *fifo_path(void)
{
	static char path[64];

	snprintf(path, sizeof(path), "/tmp/cloexec-fifo.%d", getpid());
	return path;
}

static void *blocked_open(void *arg)
{
	long fd;

	(void)arg;
	fd = open(fifo_path(), O_RDONLY);
	atomic_store(&creator_returned, 1);
	return (void *)fd;
}

/*
 * A creator blocked, whatever it waits for, never makes fork or
 * posix_spawn wait: both return while it is still blocked, which it stays
 * until the test itself lets it go.
 */
START_TEST(blocked_creators_do_not_hold_fork)
{
	struct sockaddr_in addr;
	int l, sv[2];
	pthread_t th;
	void *(*blockers[])(void *) = { blocked_accept, blocked_recvmsg,
					blocked_open,
#ifdef RAW_BLOCKERS
					blocked_raw_accept, blocked_raw_recvmsg
#endif
	};
	static const char *const names[] = { "accept", "recvmsg", "open",
					     "syscall(SYS_accept)",
					     "syscall(SYS_recvmsg)" };
	void *result;

	atomic_store(&creator_returned, 0);
	warm_up();
	l = tl_listener(&addr);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	unlink(fifo_path());
	ck_assert_int_eq(mkfifo(fifo_path(), 0600), 0);
	int *args[] = { &l, &sv[1], NULL, &l, &sv[1] };
	/* What lets it go: a connection, a message, a writer. */
	int kind = _i % 3;

	pthread_create(&th, NULL, blockers[_i], args[_i]);
	/* Time to block; if it has not yet, the forks below test less. */
	usleep(300 * 1000);
	fork_and_reap();
	spawn_and_reap();
	usleep(300 * 1000);
	fork_and_reap();
	ck_assert_msg(!atomic_load(&creator_returned),
		      "the blocked %s returned before it was let go",
		      names[_i]);
	/* Let the creator finish, and check what it made. */
	if (kind == 0)
		tl_connect(&addr);
	else if (kind == 1)
		ck_assert_int_eq(write(sv[0], "x", 1), 1);
	else
		close(open(fifo_path(), O_WRONLY));
	pthread_join(th, &result);
	ck_assert_int_ge((long)result, 0);
	if (kind != 1)
		ck_assert(tl_cloexec((int)(long)result) == tl_preloaded());
	unlink(fifo_path());
}
END_TEST

/*
 * Cancelled while blocked: nothing held afterwards (fork is prompt), and
 * nothing counted in flight (a later fork child does not sweep away an fd
 * the library never saw).
 */
START_TEST(cancelled_creators_leave_nothing_held)
{
	struct sockaddr_in addr;
	void *(*blockers[])(void *) = { blocked_accept, blocked_open };
	pthread_t th;
	int l, unseen;

	warm_up();
	l = tl_listener(&addr);
	unlink(fifo_path());
	ck_assert_int_eq(mkfifo(fifo_path(), 0600), 0);
	pthread_create(&th, NULL, blockers[_i], &l);
	usleep(200 * 1000);
	ck_assert_int_eq(pthread_cancel(th), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	fork_and_reap();
	/* Made with the raw system call: the wrappers never see it. */
	unseen = (int)sys_openat(AT_FDCWD, "/dev/null", O_RDONLY, 0);
	ck_assert_int_ge(unseen, 3);
	ck_assert_int_eq(tl_child_sees(unseen), 1);
	unlink(fifo_path());
}
END_TEST

static volatile sig_atomic_t handled;

/* Creates and forks from inside whatever the thread was doing. */
static void busy_handler(int sig)
{
	int saved = errno, fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	pid_t pid;

	(void)sig;
	if (fd >= 0)
		close(fd);
	if (handled % 16 == 0) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	handled++;
	errno = saved;
}

/*
 * A timer interrupts fd creation a few thousand times; its handler creates
 * fds and forks.  The loop must end: no deadlock on the thread's own lock.
 */
START_TEST(signal_handlers_do_not_deadlock)
{
	struct sigaction sa = { .sa_handler = busy_handler,
				.sa_flags = SA_RESTART };
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	double end;
	int sv[2], n = 0;

	warm_up();
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	end = now() + 1.0;
	while (now() < end) {
		close(socket(AF_INET, SOCK_STREAM, 0));
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
			close(sv[0]);
			close(sv[1]);
		}
		close(open("/dev/null", O_RDONLY));
		n++;
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	ck_assert_int_gt(handled, 100);
	ck_assert_int_gt(n, 100);
}
END_TEST

/* The child of a fork creates fds and forks again, at once. */
START_TEST(the_child_can_create_and_fork)
{
	int status;
	pid_t pid;

	warm_up();
	pid = fork();
	if (pid == 0) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		pid_t grandchild = fork();

		if (grandchild == 0)
			_exit(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC) ==
						 (tl_preloaded() ? FD_CLOEXEC
								 : 0)
				      ? 0
				      : 1);
		waitpid(grandchild, &status, 0);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 2);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/*
 * vfork stays vfork (the child shares memory: its write shows) unless the
 * fallback is in use, when it becomes fork (it does not).
 */
START_TEST(vfork_is_fork_only_in_fallback)
{
	static volatile int shared;
	int status;
	pid_t pid;

	warm_up();
	shared = 0;
	pid = vfork();
	if (pid == 0) {
		shared = 1;
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	waitpid(pid, &status, 0);
	ck_assert_int_eq(shared, tl_preloaded() && tl_oldkernel() ? 0 : 1);
	/* And a vfork child can still exec. */
	pid = vfork();
	if (pid == 0) {
		execlp("true", "true", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

static int run_in_child(int how)
{
	char *argv[] = { "sh", "-c", "exit 7", NULL };
	char *envp[] = { "X=1", NULL };
	int status, fd;
	pid_t pid = fork();

	if (pid == 0) {
		switch (how) {
		case 0:
			execve("/bin/sh", argv, envp);
			break;
		case 1:
			execv("/bin/sh", argv);
			break;
		case 2:
			execvp("sh", argv);
			break;
		case 3:
			execvpe("sh", argv, envp);
			break;
		case 4:
			execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
			break;
		case 5:
			execlp("sh", "sh", "-c", "exit 7", (char *)NULL);
			break;
		case 6:
			execle("/bin/sh", "sh", "-c", "exit 7", (char *)NULL,
			       envp);
			break;
		case 7:
			fd = open("/bin/sh", O_RDONLY);
			fexecve(fd, argv, envp);
			break;
		case 8:
			syscall(SYS_execveat, AT_FDCWD, "/bin/sh", argv, envp,
				0);
			break;
		}
		_exit(99);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(every_exec_still_works)
{
	ck_assert_int_eq(run_in_child(_i), 7);
}
END_TEST

/* A failed exec leaves the lock as it found it: fork stays prompt. */
START_TEST(failed_exec_releases_the_lock)
{
	char *argv[] = { "nope", NULL };

	warm_up();
	tl_errno_is(execve("/nonexistent/nope", argv, environ), ENOENT);
	tl_errno_is(execvp("nonexistent-nope", argv), ENOENT);
	tl_errno_is(execl("/nonexistent/nope", "nope", (char *)NULL), ENOENT);
	/* A spawn side left held would keep this creator out for good. */
	close(socket(AF_INET, SOCK_STREAM, 0));
	fork_and_reap();
}
END_TEST

START_TEST(system_and_spawn_still_work)
{
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	struct sigaction before, after;
	int status;
	pid_t pid;

	warm_up();
	sigaction(SIGINT, NULL, &before);
	status = system("exit 5");
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 5);
	ck_assert_int_ne(system(NULL), 0);
	status = system("kill -INT $$; exit 0");
	ck_assert(WIFSIGNALED(status));
	/* SIGINT was ignored here only while the command ran. */
	sigaction(SIGINT, NULL, &after);
	ck_assert_ptr_eq(after.sa_handler, before.sa_handler);
	ck_assert_int_eq(posix_spawn(&pid, "/bin/sh", NULL, NULL, argv,
				     environ),
			 0);
	waitpid(pid, &status, 0);
	ck_assert_int_eq(WEXITSTATUS(status), 3);
	ck_assert_int_eq(posix_spawn(&pid, "/nonexistent", NULL, NULL, argv,
				     environ),
			 ENOENT);
	ck_assert_int_eq(posix_spawnp(&pid, "nonexistent-nope", NULL, NULL,
				      argv, environ),
			 ENOENT);
}
END_TEST

static volatile sig_atomic_t chld_seen;
static struct timespec chld_at;

static void note_chld(int sig)
{
	(void)sig;
	if (!chld_seen) {
		clock_gettime(CLOCK_MONOTONIC, &chld_at);
		chld_seen = 1;
	}
}

/*
 * system() blocks SIGCHLD while its command runs, as POSIX asks: a
 * program's handler that reaps must not take system()'s child.  Another
 * child's SIGCHLD, sent 0.2 s in, is handled only after the command's
 * one second: a lower bound no load can break.
 */
START_TEST(system_holds_sigchld)
{
	struct sigaction sa = { .sa_handler = note_chld,
				.sa_flags = SA_RESTART },
			 old;
	struct timespec start;
	double held;
	int status;
	pid_t other;

	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGCHLD, &sa, &old), 0);
	chld_seen = 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	other = fork();
	ck_assert_int_ge(other, 0);
	if (other == 0) {
		usleep(200 * 1000);
		_exit(0);
	}
	status = system("sleep 1");
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert(chld_seen);
	held = (double)(chld_at.tv_sec - start.tv_sec) +
	       (double)(chld_at.tv_nsec - start.tv_nsec) / 1e9;
	ck_assert_msg(held >= 1.0, "SIGCHLD handled %.3f s in, in system()",
		      held);
	waitpid(other, NULL, 0);
	sigaction(SIGCHLD, &old, NULL);
}
END_TEST

static Suite *lock_suite(void)
{
	Suite *s = suite_create("lock");

	tl_add_loop(s, blocked_creators_do_not_hold_fork,
#ifdef RAW_BLOCKERS
		    5
#else
		    3
#endif
	);
	tl_add_loop(s, cancelled_creators_leave_nothing_held, 2);
	tl_add(s, signal_handlers_do_not_deadlock);
	tl_add(s, the_child_can_create_and_fork);
	tl_add(s, vfork_is_fork_only_in_fallback);
	tl_add_loop(s, every_exec_still_works, 9);
	tl_add(s, failed_exec_releases_the_lock);
	tl_add(s, system_and_spawn_still_work);
	tl_add(s, system_holds_sigchld);
	return s;
}

int main(int argc, char **argv)
{
	return tl_main(argc, argv, lock_suite);
}
