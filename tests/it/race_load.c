/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stress test of policy loading against starting programs.  With no
 * policy configured, the policy is loaded at the first fd a thread
 * creates.  Each trial is a fresh process (nothing loaded yet) where one
 * thread creates its first fd while the others start children every way
 * there is: fork, vfork, posix_spawn, the clone system call through
 * syscall(), and libc's clone().  Each child creates an fd and exits.  A
 * child copied while the policy was half loaded used to wait for a loader
 * that was not in its process, for ever; one made by a clone while another
 * thread looked up a real function, for the dynamic loader's lock.  The
 * trial's alarm finds such a child, names the way it was made, and kills
 * it.  RACE_LOAD_ONLY=fork (or another name below) makes children only
 * that way.
 */
#include "config.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/policy.h"
#include "testlib.h"

extern char **environ;

enum method { FORK, VFORK, SPAWN, SYSCALL_CLONE, LIBC_CLONE, METHODS };

static const char *const method_names[METHODS] = {
	"fork", "vfork", "posix_spawn", "syscall(SYS_clone)", "clone()",
};

#define TRIALS 200
#define SPAWNS 3 /* children per method per trial */
/*
 * A trial takes about 0.1 s; a hung child waits for ever.  The bound is
 * generous because CI's distcheck runs this on the emulated old kernel
 * (every call a round trip to the supervisor) on a loaded machine, where
 * a 3 s bound once failed one trial of 200 on a raw-clone child, never
 * seen again since: a slow child, or a rare hang that 15 s still finds.
 */
#define TRIAL_SECONDS 15
#define STACK_SIZE (64 * 1024)

static atomic_int go;
static unsigned trial_seed;
static pid_t children[METHODS][SPAWNS];
static char stacks[SPAWNS][STACK_SIZE] __attribute__((aligned(16)));
static char self_exe[] = "/proc/self/exe";

/* What every child does: its first fd, which needs the policy. */
static int child_work(void *arg)
{
	(void)arg;
	close(open("/dev/null", O_RDONLY));
	return 0;
}

static void put(const char *s)
{
	ssize_t n = write(2, s, strlen(s));

	(void)n;
}

/* A child that has not exited by now hangs: say how it was made. */
static void on_alarm(int sig)
{
	int m, k;

	(void)sig;
	for (m = 0; m < METHODS; m++)
		for (k = 0; k < SPAWNS; k++)
			if (children[m][k] > 0 &&
			    !waitpid(children[m][k], NULL, WNOHANG | __WALL)) {
				kill(children[m][k], SIGKILL);
				put("race_load: hung child made by ");
				put(method_names[m]);
				put("\n");
			}
	_exit(3);
}

static void spin(unsigned n)
{
	volatile unsigned i;

	for (i = 0; i < n; i++)
		;
}

/* A child made by m, or -2 when RACE_LOAD_ONLY names another way. */
static pid_t start(enum method m, int k)
{
	char *argv[] = { self_exe, NULL };
	char *envp[] = { "RACE_LOAD_CHILD=1", NULL };
	const char *only = getenv("RACE_LOAD_ONLY");
	pid_t pid;

	if (only && strcmp(only, method_names[m]))
		return -2;

	switch (m) {
	case FORK:
		pid = fork();
		break;
	case VFORK:
		pid = vfork();
		break;
	case SPAWN:
		return posix_spawn(&pid, self_exe, NULL, NULL, argv, envp) ?
			       -1 :
			       pid;
	case SYSCALL_CLONE:
		pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0, 0);
		break;
	case LIBC_CLONE:
		return clone(child_work, stacks[k] + STACK_SIZE, SIGCHLD,
			     NULL);
	default:
		return -1;
	}
	if (pid == 0)
		_exit(child_work(NULL));
	return pid;
}

static void *spawner(void *arg)
{
	enum method m = (enum method)(long)arg;
	unsigned seed = trial_seed * METHODS + m;
	unsigned delay = (unsigned)rand_r(&seed) % 20000;
	int k;

	while (!atomic_load(&go))
		;
	spin(delay);
	for (k = 0; k < SPAWNS; k++)
		children[m][k] = start(m, k);
	return NULL;
}

static void *loader(void *arg)
{
	unsigned delay = (unsigned)rand() % 20000;

	(void)arg;
	while (!atomic_load(&go))
		;
	spin(delay);
	close(open("/dev/null", O_RDONLY));
	return NULL;
}

/* One trial, in a fresh process: 0 if every child exited 0. */
static int trial(unsigned seed)
{
	pthread_t threads[METHODS + 1];
	int m, k, status, bad = 0;

	trial_seed = seed;
	srand(seed);
	signal(SIGALRM, on_alarm);
	alarm(TRIAL_SECONDS);
	for (m = 0; m < METHODS; m++)
		pthread_create(&threads[m], NULL, spawner, (void *)(long)m);
	pthread_create(&threads[METHODS], NULL, loader, NULL);
	atomic_store(&go, 1);
	for (m = 0; m <= METHODS; m++)
		pthread_join(threads[m], NULL);
	for (m = 0; m < METHODS; m++)
		for (k = 0; k < SPAWNS; k++) {
			if (children[m][k] == -2)
				continue;
			if (children[m][k] <= 0) {
				bad = 1;
				continue;
			}
			if (waitpid(children[m][k], &status, __WALL) < 0 ||
			    !WIFEXITED(status) || WEXITSTATUS(status))
				bad = 1;
			children[m][k] = 0;
		}
	return bad;
}

START_TEST(children_work_whenever_they_start)
{
	char env_seed[32], *argv[] = { self_exe, NULL }, *envp[256], **e;
	int i, n = 0, status, hung = 0, failed = 0;
	pid_t pid;

	if (!tl_preloaded())
		return;
	/* No policy configured: it loads at the first fd, in a thread. */
	for (e = environ; *e && n < 253; e++)
		if (strncmp(*e, POLICY_ENV "=", sizeof(POLICY_ENV)) &&
		    strncmp(*e, POLICY_FILE_ENV "=", sizeof(POLICY_FILE_ENV)))
			envp[n++] = *e;
	envp[n++] = env_seed;
	envp[n] = NULL;
	for (i = 0; i < TRIALS; i++) {
		snprintf(env_seed, sizeof(env_seed), "RACE_LOAD_TRIAL=%d", i);
		ck_assert_int_eq(posix_spawn(&pid, self_exe, NULL, NULL, argv,
					     envp),
				 0);
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
			hung++;
		else if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
		/* Enough to fail: the rest would only take longer. */
		if (hung + failed == 3)
			break;
	}
	printf("race_load (%s): %d of %d trials with a hung child, %d with "
	       "a failed one\n",
	       tl_config_name(), hung, i < TRIALS ? i + 1 : TRIALS, failed);
	ck_assert_msg(!hung && !failed, "%d trials hung, %d failed", hung,
		      failed);
}
END_TEST

static void *load_slow_library(void *arg)
{
	(void)arg;
	return dlopen(getenv("SLOWINIT_LIB"), RTLD_NOW);
}

/* A call this process has not made before: its real function is unknown. */
static int first_timerfd(void *arg)
{
	(void)arg;
	return timerfd_create(CLOCK_MONOTONIC, 0) < 0;
}

static int nothing(void *arg)
{
	(void)arg;
	return 0;
}

/* A copy of this process made without fork(), by way k, running fn. */
static pid_t copy_without_fork(int k, int (*fn)(void *))
{
	pid_t pid;

	switch (k) {
	case 0:
		pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0, 0);
		break;
	case 1:
		return clone(fn, stacks[0] + STACK_SIZE, SIGCHLD, NULL);
#if HAVE__FORK
	case 2:
		pid = _Fork();
		break;
#endif
	default:
		return -2;
	}
	if (pid == 0)
		_exit(fn(NULL));
	return pid;
}

/*
 * The same without luck: a copy of the process made, without fork(),
 * while another thread holds the dynamic loader's lock (dlopen runs
 * constructors under it).  The child calls a wrapper that this process
 * has not called before, whose real function the library had not looked up
 * yet.  Looked up in the child, it waited for ever for a lock whose owner
 * is not there (real.h).
 */
static void copy_while_the_loader_is_busy(int way)
{
	static const char *const ways[] = { "syscall(SYS_clone)", "clone()",
					     "_Fork()" };
	int ready[2], status, i;
	char c, fd_name[16];
	void *library;
	pthread_t thread;
	pid_t pid;

	ck_assert_ptr_nonnull(getenv("SLOWINIT_LIB"));
	/* Once before, so that the way's own real function is known. */
	pid = copy_without_fork(way, nothing);
	if (pid == -2)
		return;
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &status, __WALL), pid);
	ck_assert_int_eq(pipe(ready), 0);
	snprintf(fd_name, sizeof(fd_name), "%d", ready[1]);
	setenv("SLOWINIT_READY", fd_name, 1);
	ck_assert_int_eq(pthread_create(&thread, NULL, load_slow_library,
					NULL),
			 0);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	pid = copy_without_fork(way, first_timerfd);
	ck_assert_int_gt(pid, 0);
	/* The loader is done with its lock in 0.3 s; the child, soon after. */
	for (i = 0; i < 200 && !waitpid(pid, &status, WNOHANG | __WALL); i++)
		usleep(50 * 1000);
	if (i == 200) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, __WALL);
	}
	ck_assert_msg(i < 200, "the child of %s hung", ways[way]);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(pthread_join(thread, &library), 0);
	ck_assert_ptr_nonnull(library);
}

/* Each in a process of its own, where no real function is known yet. */
START_TEST(raw_clone_while_the_loader_is_busy)
{
	copy_while_the_loader_is_busy(0);
}
END_TEST

START_TEST(libc_clone_while_the_loader_is_busy)
{
	copy_while_the_loader_is_busy(1);
}
END_TEST

START_TEST(bare_fork_while_the_loader_is_busy)
{
	copy_while_the_loader_is_busy(2);
}
END_TEST

/*
 * The same where the library's calls were bound at start (LD_BIND_NOW):
 * next.c has no link_map to walk then, and every look-up is dlsym's, which
 * takes the loader's lock.  Elsewhere next.c finds timerfd_create without
 * it, and a child that looked it up itself would not wait.
 */
START_TEST(raw_clone_bound_at_start_while_the_loader_is_busy)
{
	copy_while_the_loader_is_busy(0);
}
END_TEST

START_TEST(libc_clone_bound_at_start_while_the_loader_is_busy)
{
	copy_while_the_loader_is_busy(1);
}
END_TEST

START_TEST(bare_fork_bound_at_start_while_the_loader_is_busy)
{
	copy_while_the_loader_is_busy(2);
}
END_TEST

static Suite *load_suite(void)
{
	Suite *s = suite_create("race_load");

	tl_add(s, children_work_whenever_they_start);
	tl_add(s, raw_clone_while_the_loader_is_busy);
	tl_add(s, libc_clone_while_the_loader_is_busy);
	tl_add(s, bare_fork_while_the_loader_is_busy);
	tl_add_env(s, raw_clone_bound_at_start_while_the_loader_is_busy, 1,
		   "LD_BIND_NOW=1");
	tl_add_env(s, libc_clone_bound_at_start_while_the_loader_is_busy, 1,
		   "LD_BIND_NOW=1");
	tl_add_env(s, bare_fork_bound_at_start_while_the_loader_is_busy, 1,
		   "LD_BIND_NOW=1");
	return s;
}

int main(int argc, char **argv)
{
	const char *seed = getenv("RACE_LOAD_TRIAL");

	/* Before anything that could create an fd and load the policy. */
	if (getenv("RACE_LOAD_CHILD"))
		return child_work(NULL);
	if (seed)
		return trial((unsigned)atoi(seed));
	return tl_main(argc, argv, load_suite);
}
