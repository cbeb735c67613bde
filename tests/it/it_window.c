/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fork lock, deterministically.  On the emulated 2008 kernel, a
 * creator makes its fd plain and flags it afterwards, inside the fork
 * lock.  The test build of the library pauses it there, in the window
 * between the two (LIBCLOEXEC_TEST_WINDOW, src/core/policy.h), until this
 * test lets it go.  Meanwhile another thread forks: that fork must wait
 * for the creator to flag its fd and leave the lock, so that the child's
 * copy of the fd is close-on-exec.  The race tests look for the same bug
 * by chance; this one holds the window open.  For one fd (socket) and for
 * a pair (pipe).  And for an open that may block (a FIFO's), which runs
 * outside the lock, "in flight": a fork meanwhile does not wait for it,
 * and its child marks every fd it was not meant to get close-on-exec
 * (forklock_child), the one in the window included.
 *
 * Two processes, this program again: with the test build, which pauses
 * (that it was seen paused shows the test is not blind), and with the
 * library that is installed, which ignores the variable: its calls return
 * at once.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/policy.h"
#include "oldkernel.h"
#include "testlib.h"

static int failed;

static void check(bool ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	fflush(stdout);
	failed |= !ok;
}

/* Is there something to read on fd within ms milliseconds? */
static bool readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1;
}

/* The creator thread: the call, its fds in fds[0] (and fds[1]). */
struct creator {
	const char *call, *path;
	int fds[2];
	int ret;
};

static void *create(void *arg)
{
	struct creator *c = arg;

	c->fds[1] = -1;
	if (!strcmp(c->call, "pipe")) {
		c->ret = pipe(c->fds);
	} else if (!strcmp(c->call, "fifo")) {
		c->fds[0] = open(c->path, O_RDONLY);
		c->ret = c->fds[0] < 0 ? -1 : 0;
	} else {
		c->fds[0] = socket(AF_UNIX, SOCK_STREAM, 0);
		c->ret = c->fds[0] < 0 ? -1 : 0;
	}
	return NULL;
}

/*
 * The forking thread: its child writes the flags of fds first and
 * first + 1 as the fork copied them (F_GETFD, -1 if not open).
 */
struct forker {
	int first, report;
	pid_t pid;
};

/*
 * glibc's _Fork (no atfork handlers) and clone without CLONE_VM wait the
 * same: each takes the library's fork lock itself.
 */
static enum { BY_FORK, BY_UNDERSCORE_FORK, BY_CLONE } fork_by;

static int report_flags(struct forker *f)
{
	int flags[2];

	flags[0] = fcntl(f->first, F_GETFD);
	flags[1] = fcntl(f->first + 1, F_GETFD);
	return write(f->report, flags, sizeof(flags)) == sizeof(flags) ? 0 : 1;
}

static int clone_child(void *arg)
{
	_exit(report_flags(arg));
}

static void *do_fork(void *arg)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	struct forker *f = arg;

	if (fork_by == BY_CLONE) {
		f->pid = clone(clone_child, stack + sizeof(stack), SIGCHLD, f);
		return NULL;
	}
#if HAVE__FORK
	f->pid = fork_by == BY_UNDERSCORE_FORK ? _Fork() : fork();
#else
	f->pid = fork();
#endif
	if (f->pid == 0)
		_exit(report_flags(f));
	return NULL;
}

/* The lowest fd number free now: the next one a creator gets. */
static int next_fd(void)
{
	int fd = dup(0);

	close(fd);
	return fd;
}

/* Where the test build's creator says it has paused, and waits to go on. */
static void set_window(const int in[2], const int go[2])
{
	char env[32];

	snprintf(env, sizeof(env), "%d,%d", in[1], go[0]);
	setenv(POLICY_TEST_WINDOW_ENV, env, 1);
}

/* The three pipes a window test talks to its creator and forker by. */
static void close_pipes(int in[2], int go[2], int rep[2])
{
	close(in[0]);
	close(in[1]);
	close(go[0]);
	close(go[1]);
	close(rep[0]);
	close(rep[1]);
}

/* With the test build: the creator held in the window while a fork waits. */
static void window(const char *call)
{
	int in[2], go[2], rep[2], flags[2] = { -1, -1 }, n, status;
	struct creator c = { .call = call };
	struct forker f;
	pthread_t ct, ft;
	char byte = 'g', what[160];
	bool early;

	n = strcmp(call, "pipe") ? 1 : 2;
	if (pipe(in) || pipe(go) || pipe(rep)) {
		check(false, "pipes for the test");
		return;
	}
	f.first = next_fd();
	f.report = rep[1];
	set_window(in, go);
	pthread_create(&ct, NULL, create, &c);
	snprintf(what, sizeof(what), "%s: the creator pauses in its window",
		 call);
	check(readable(in[0], 30000) && read(in[0], &byte, 1) == 1, what);
	if (failed) {
		/* A creator that never paused: do not wait for it. */
		pthread_join(ct, NULL);
		return;
	}
	/* The calls after this one do not pause, nor the child's. */
	setenv(POLICY_TEST_WINDOW_ENV, "", 1);
	pthread_create(&ft, NULL, do_fork, &f);
	/* A fork that does not wait is done well within this. */
	early = readable(rep[0], 2000);
	snprintf(what, sizeof(what),
		 "%s: a fork from another thread waits while it is there",
		 call);
	check(!early, what);
	byte = 'g';
	check(write(go[1], &byte, 1) == 1, "the creator is let go");
	pthread_join(ct, NULL);
	pthread_join(ft, NULL);
	snprintf(what, sizeof(what), "%s: made fd %d", call, f.first);
	check(c.ret == 0 && c.fds[0] == f.first &&
		      (n == 1 || c.fds[1] == f.first + 1),
	      what);
	check(f.pid > 0 && waitpid(f.pid, &status, 0) == f.pid &&
		      WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the child reports");
	check(readable(rep[0], 30000) &&
		      read(rep[0], flags, sizeof(flags)) == sizeof(flags),
	      "its report is read");
	snprintf(what, sizeof(what),
		 "%s: the child's copy is close-on-exec (F_GETFD %d, %d)",
		 call, flags[0], flags[1]);
	check(flags[0] == FD_CLOEXEC && (n == 1 || flags[1] == FD_CLOEXEC),
	      what);
	snprintf(what, sizeof(what), "%s: and the parent's", call);
	check(c.ret == 0 && fcntl(c.fds[0], F_GETFD) == FD_CLOEXEC &&
		      (n == 1 || fcntl(c.fds[1], F_GETFD) == FD_CLOEXEC),
	      what);
	close(c.fds[0]);
	if (n == 2)
		close(c.fds[1]);
	close_pipes(in, go, rep);
}

/*
 * With the test build: an open in flight held after the open, before it
 * enters the lock to flag its fd.  The writer end is libc's own open, not
 * the library's, so that it does not pause too.
 */
static void window_in_flight(void)
{
	int (*libc_open)(const char *, int, ...) = tl_libc("open");
	char dir[] = "/tmp/it_window.XXXXXX", fifo[64], what[160];
	char byte = 'g';
	int in[2], go[2], rep[2], flags[2] = { -1, -1 }, w, status;
	struct creator c = { .call = "fifo", .path = fifo };
	struct forker f;
	pthread_t ct, ft;
	bool got;

	if (!libc_open || !mkdtemp(dir)) {
		check(false, "fifo: libc's open, a directory for the FIFO");
		return;
	}
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	if (mkfifo(fifo, 0600) || pipe(in) || pipe(go) || pipe(rep)) {
		check(false, "fifo: a FIFO and pipes for the test");
		return;
	}
	f.first = next_fd();
	f.report = rep[1];
	set_window(in, go);
	pthread_create(&ct, NULL, create, &c);
	w = libc_open(fifo, O_WRONLY);
	check(w >= 0, "fifo: the writer's end");
	check(readable(in[0], 30000) && read(in[0], &byte, 1) == 1,
	      "fifo: the open in flight pauses before it flags its fd");
	if (failed) {
		pthread_join(ct, NULL);
		return;
	}
	setenv(POLICY_TEST_WINDOW_ENV, "", 1);
	pthread_create(&ft, NULL, do_fork, &f);
	got = readable(rep[0], 30000) &&
	      read(rep[0], flags, sizeof(flags)) == sizeof(flags);
	check(got, "fifo: a fork meanwhile does not wait for it");
	/* Its fd and the writer's, whichever got which number. */
	snprintf(what, sizeof(what),
		 "fifo: the child marked both close-on-exec (F_GETFD %d, %d)",
		 flags[0], flags[1]);
	check(flags[0] == FD_CLOEXEC && flags[1] == FD_CLOEXEC, what);
	byte = 'g';
	check(write(go[1], &byte, 1) == 1, "the creator is let go");
	pthread_join(ct, NULL);
	pthread_join(ft, NULL);
	check(f.pid > 0 && waitpid(f.pid, &status, 0) == f.pid,
	      "the child is reaped");
	check(c.ret == 0 && fcntl(c.fds[0], F_GETFD) == FD_CLOEXEC,
	      "fifo: the parent's fd is close-on-exec");
	if (c.ret == 0)
		close(c.fds[0]);
	close(w);
	unlink(fifo);
	rmdir(dir);
	close_pipes(in, go, rep);
}

/* With the library that is installed: the variable changes nothing. */
static void no_window(void)
{
	int in[2], go[2], fds[2], s;

	if (pipe(in) || pipe(go)) {
		check(false, "pipes for the test");
		return;
	}
	set_window(in, go);
	/* Were it honoured, these would wait for ever (alarm below). */
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	check(s >= 0 && fcntl(s, F_GETFD) == FD_CLOEXEC &&
		      pipe(fds) == 0 && fcntl(fds[0], F_GETFD) == FD_CLOEXEC &&
		      fcntl(fds[1], F_GETFD) == FD_CLOEXEC,
	      "installed library: socket and pipe flagged, without a pause");
	check(!readable(in[0], 0), "installed library: no window signalled");
}

static int run(char **argv, const char *lib_var)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setenv("WINDOW_PHASE", lib_var, 1);
		/* There at the load, set for real once the test has its fds. */
		setenv(POLICY_TEST_WINDOW_ENV, "", 1);
		tl_set_preload_of(lib_var);
		execv("/proc/self/exe", argv);
		_exit(99);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 99;
	if (WIFSIGNALED(status)) {
		printf("FAIL: %s: killed by signal %d\n", lib_var,
		       WTERMSIG(status));
		return 1;
	}
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	const char *phase = getenv("WINDOW_PHASE");
	int installed, test;

	(void)argc;
	tl_close_from(3);
	if (!phase) {
		if (tl_valgrind() || !oldkernel_supported())
			return 77;
		installed = run(argv, "CLOEXEC_LIB");
		test = run(argv, "CLOEXEC_TEST_LIB");
		return installed == 0 && test == 0 ? 0 :
		       installed == 99 || test == 99 ? 99 :
						       1;
	}
	alarm(60);
	if (oldkernel_install())
		return 99;
	if (!strcmp(phase, "CLOEXEC_LIB")) {
		no_window();
	} else {
		window("socket");
		if (!failed)
			window("pipe");
		if (!failed)
			window_in_flight();
#if HAVE__FORK
		fork_by = BY_UNDERSCORE_FORK;
		if (!failed)
			window("socket, then _Fork");
#endif
		fork_by = BY_CLONE;
		if (!failed)
			window("socket, then clone");
	}
	return failed;
}
