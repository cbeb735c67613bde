/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy in a real process, each test with its own CLOEXEC_POLICY
 * (tl_add_env): fds kept by number and by path, a program exempt, the
 * exec-time sweep, scope=process, the protocols that name fds to a child
 * (LISTEN_FDS, /dev/fd/N), and the audit lines.  Only the preloaded
 * configurations have a library to obey it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/sys.h"
#include "testlib.h"

#define LOG "/tmp/cloexec-it-policy.log"

#ifndef SO_RCVMARK
#define SO_RCVMARK 75 /* Linux 5.19 */
#endif

static bool skip(void)
{
	return !tl_preloaded();
}

START_TEST(keep_by_number)
{
	int fd;

	if (skip())
		return;
	fd = fcntl(2, F_DUPFD, 50);
	ck_assert_int_eq(fd, 50);
	ck_assert(!tl_cloexec(50));
	ck_assert_int_eq(tl_child_sees(50), 1);
	fd = fcntl(2, F_DUPFD, 60);
	ck_assert(tl_cloexec(fd));
}
END_TEST

START_TEST(keep_by_path)
{
	int kept, forced;

	if (skip())
		return;
	kept = open("/dev/null", O_RDONLY);
	forced = open("/dev/zero", O_RDONLY);
	ck_assert(!tl_cloexec(kept));
	ck_assert(tl_cloexec(forced));
	ck_assert_int_eq(tl_child_sees(kept), 1);
#ifdef SYS_open_tree
	/* open_tree names a path as open does (the old kernel has none). */
	if (tl_oldkernel())
		return;
	kept = (int)syscall(SYS_open_tree, AT_FDCWD, "/dev/null", 0);
	forced = (int)syscall(SYS_open_tree, AT_FDCWD, "/dev/zero", 0);
	ck_assert(!tl_cloexec(kept));
	ck_assert(tl_cloexec(forced));
#if HAVE_OPEN_TREE
	kept = open_tree(AT_FDCWD, "/dev/null", 0);
	forced = open_tree(AT_FDCWD, "/dev/zero", 0);
	ck_assert(!tl_cloexec(kept));
	ck_assert(tl_cloexec(forced));
#endif
#endif
}
END_TEST

/*
 * A bound on CPU time, not alarm(): Check's SIGALRM handler, without
 * CK_FORK, kills the whole process group, the harness with it.  SIGPROF
 * kills this process alone, which fails the test.
 */
static void cpu_bound(int seconds)
{
	struct itimerval t = { .it_value = { .tv_sec = seconds } };

	setitimer(ITIMER_PROF, &t, NULL);
}

/*
 * keep-path= five times star-slash, then x: a backtracking matcher spends
 * seconds on one open() of a long path with many slashes.  The CPU-time
 * bound (far above the 50 ms it must take) fails the test; a path that
 * matches is still kept, one that does not is not.
 */
START_TEST(keep_path_pattern_is_not_exponential)
{
	char path[769], dir[] = "/tmp/it_policy.XXXXXX", kept_path[64];
	int i, fd;

	if (skip())
		return;
	for (i = 0; i < 768; i++)
		path[i] = i % 2 ? 'a' : '/';
	path[767] = 'y';
	path[768] = '\0';
	cpu_bound(2);
	tl_errno_is(open(path, O_RDONLY), ENOENT);
	cpu_bound(0);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(kept_path, sizeof(kept_path), "%s/a", dir);
	ck_assert_int_eq(mkdir(kept_path, 0700), 0);
	snprintf(kept_path, sizeof(kept_path), "%s/a/b", dir);
	ck_assert_int_eq(mkdir(kept_path, 0700), 0);
	snprintf(kept_path, sizeof(kept_path), "%s/a/b/x", dir);
	fd = open(kept_path, O_RDONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert(!tl_cloexec(fd));
	unlink(kept_path);
	snprintf(kept_path, sizeof(kept_path), "%s/x", dir);
	fd = open(kept_path, O_RDONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert(tl_cloexec(fd));
	unlink(kept_path);
	snprintf(kept_path, sizeof(kept_path), "%s/a/b", dir);
	rmdir(kept_path);
	snprintf(kept_path, sizeof(kept_path), "%s/a", dir);
	rmdir(kept_path);
	rmdir(dir);
}
END_TEST

/* The test program itself is exempt: nothing forced, flags still work. */
START_TEST(exempt_program)
{
	int s;

	if (skip())
		return;
	s = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert(!tl_cloexec(s));
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert(tl_cloexec(s));
}
END_TEST

/*
 * The sweep marks what no wrapper saw (a raw system call), but not what
 * the program kept (F_SETFD 0, a dup2 target), nor what it inherited.
 */
START_TEST(sweep_catches_raw_syscalls)
{
	int unseen, kept, target;

	if (skip())
		return;
	unseen = (int)sys_openat(AT_FDCWD, "/dev/null", O_RDONLY, 0);
	ck_assert_int_ge(unseen, 3);
	ck_assert(!tl_cloexec(unseen));
	kept = open("/dev/zero", O_RDONLY);
	ck_assert_int_eq(fcntl(kept, F_SETFD, 0), 0);
	target = dup2(kept, 70);
	ck_assert_int_eq(tl_child_sees(unseen), 0);
	ck_assert_int_eq(tl_child_sees(kept), 1);
	ck_assert_int_eq(tl_child_sees(target), 1);
}
END_TEST

/*
 * fdreport exec'd with CPU time bounded: the sweep runs in the child, at
 * its exec, and a sweep that walked every number of keep=100-999999999
 * (2 s) gets the child killed.  True if it ran and exited 0.
 */
static bool exec_within_cpu_bound(void)
{
	struct itimerval t = { .it_value = { .tv_usec = 500000 } };
	int status, devnull = open("/dev/null", O_WRONLY);
	pid_t pid = fork();

	if (pid == 0) {
		dup2(devnull, 1);
		setitimer(ITIMER_PROF, &t, NULL);
		execl(getenv("FDREPORT"), "fdreport", (char *)NULL);
		_exit(127);
	}
	close(devnull);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/* path opened at fd by system calls no wrapper sees. */
static int raw_open_at(const char *path, int fd)
{
	int tmp = (int)sys_openat(AT_FDCWD, path, O_RDONLY, 0);

	ck_assert_int_ge(tmp, 3);
	ck_assert_int_eq(sys_call(SYS_dup3, tmp, fd, 0, 0, 0), fd);
	sys_close(tmp);
	return fd;
}

/*
 * A flag the program set itself is the program's: the table does not
 * take its fd for one to keep, so that where the program clears the flag
 * unseen (a raw system call), the sweep marks it like any other.  keep=
 * takes every call the slow way (fdreq_mark), as the old kernel does.
 */
START_TEST(sweep_marks_an_own_flag_cleared_unseen)
{
	int fd;

	if (skip())
		return;
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 3);
	ck_assert(tl_cloexec(fd));
	ck_assert_int_eq(sys_fcntl(fd, F_SETFD, 0), 0);
	ck_assert(!tl_cloexec(fd));
	ck_assert_int_eq(tl_child_sees(fd), 0);
}
END_TEST

/*
 * A wide keep= range: the sweep's cost follows the fds, and it still
 * marks those below the range and keeps those in it.
 */
START_TEST(sweep_with_a_wide_keep_range)
{
	int unseen, in_range, far_in_range;

	if (skip())
		return;
	/* Three files (tl_child_sees looks for the file), none seen. */
	unseen = (int)sys_openat(AT_FDCWD, "/dev/null", O_RDONLY, 0);
	ck_assert_int_ge(unseen, 3);
	in_range = raw_open_at("/dev/zero", 100);
	far_in_range = raw_open_at("/dev/full", 5000);
	ck_assert(exec_within_cpu_bound());
	ck_assert_int_eq(tl_child_sees(unseen), 0);
	ck_assert_int_eq(tl_child_sees(in_range), 1);
	ck_assert_int_eq(tl_child_sees(far_in_range), 1);
	ck_assert(!tl_cloexec(in_range));
}
END_TEST

/*
 * Past the first 4096 numbers the table's marks are in chunks mapped on
 * first use: the sweep reads them too, and marks what no wrapper saw
 * there, and in the chunks between (where the fd limit allows it).
 */
START_TEST(sweep_reads_the_far_chunks)
{
	struct rlimit rl;
	int null, zero, full, unseen, near;

	if (skip())
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur < 13000) {
		printf("skipped: the soft fd limit is below 13000\n");
		return;
	}
	/*
	 * The program's: dup2 targets, through the wrapper, each its file
	 * (4096: the first number past the first chunk).
	 */
	zero = open("/dev/zero", O_RDONLY);
	full = open("/dev/full", O_RDONLY);
	ck_assert_int_eq(dup2(zero, 4096), 4096);
	ck_assert_int_eq(dup2(full, 12500), 12500);
	close(zero);
	close(full);
	/* no wrapper saw these */
	null = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(null, 3);
	unseen = (int)sys_dup3(null, 9000, 0);
	near = (int)sys_dup3(null, 4095, 0);
	close(null);
	ck_assert_int_eq(unseen, 9000);
	ck_assert_int_eq(near, 4095);
	ck_assert(!tl_cloexec(unseen) && !tl_cloexec(4096));
	ck_assert_int_eq(tl_child_sees(4096), 1);
	ck_assert_int_eq(tl_child_sees(12500), 1);
	/* /dev/null: through neither 9000 nor 4095 */
	ck_assert_int_eq(tl_child_sees(unseen), 0);
	close(4096);
	close(12500);
	sys_close(unseen);
	sys_close(near);
}
END_TEST

/* Without the sweep, what no wrapper saw stays as it was. */
START_TEST(no_sweep_by_default)
{
	int unseen;

	if (skip())
		return;
	unseen = (int)sys_openat(AT_FDCWD, "/dev/null", O_RDONLY, 0);
	ck_assert_int_eq(tl_child_sees(unseen), 1);
}
END_TEST

/*
 * The environment a child gets from an exec of env(1) given envp (NULL:
 * this process's own, through execlp), read back through a pipe; the
 * child's wait status.
 */
static int child_env(char *const envp[], char *buf, size_t size)
{
	int p[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		if (envp)
			execve("/usr/bin/env", (char *[]){ "env", NULL }, envp);
		else
			execlp("env", "env", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while ((n = read(p[0], buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return status;
}

START_TEST(scope_process_leaves_children_alone)
{
	static char env[1 << 16];
	const char *preload;

	if (skip())
		return;
	ck_assert_int_eq(setenv("CLOEXEC_CONFIG", "/dev/null", 1), 0);
	child_env(NULL, env, sizeof(env));
	unsetenv("CLOEXEC_CONFIG");

	ck_assert_ptr_nonnull(strstr(env, "\nPATH="));
	ck_assert_ptr_null(strstr(env, "CLOEXEC_POLICY="));
	ck_assert_ptr_null(strstr(env, "CLOEXEC_CONFIG="));
	/* (A sanitizer runtime may stay preloaded: not this library.) */
	preload = strstr(env, "\nLD_PRELOAD=");
	if (preload)
		ck_assert_ptr_null(memmem(preload, strcspn(preload + 1, "\n"),
					  "libcloexec", 10));
}
END_TEST

/*
 * A null environment, which the kernel takes for an empty one: the
 * program runs with none, and scope=process's copy of the environment
 * for it has nothing to copy.
 */
START_TEST(scope_process_takes_a_null_environment)
{
	char buf[256];
	int p[2], status;
	ssize_t n;
	pid_t pid;

	if (skip())
		return;
	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		execve("/usr/bin/env", (char *[]){ "env", NULL }, NULL);
		_exit(127);
	}
	close(p[1]);
	n = read(p[0], buf, sizeof(buf));
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(n, 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

/* An environment of one variable, the policy's: the program gets none. */
START_TEST(scope_process_strips_a_lone_variable)
{
	char *const envp[] = { "CLOEXEC_POLICY=scope=process", NULL };
	char buf[256];

	if (skip())
		return;
	ck_assert_int_eq(child_env(envp, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
}
END_TEST

/*
 * The children's LD_PRELOAD, for this process's LD_PRELOAD set to
 * BEFORE, the library's own entry, AFTER: the other entries, joined by
 * ':', or "" if it has none.
 */
static const char *children_preload(const char *before, const char *after)
{
	static char env[1 << 16], preload[8192], got[8192];
	const char *now = getenv("LD_PRELOAD"), *p;
	size_t len;

	ck_assert_ptr_nonnull(now);
	ck_assert_uint_lt(strlen(before) + strlen(now) + strlen(after),
			  sizeof(preload));
	strcpy(preload, before);
	strcat(preload, now);
	strcat(preload, after);
	ck_assert_int_eq(setenv("LD_PRELOAD", preload, 1), 0);
	child_env(NULL, env, sizeof(env));
	ck_assert_int_eq(setenv("LD_PRELOAD", now, 1), 0);
	if (!(p = strstr(env, "\nLD_PRELOAD=")))
		return "";
	p += strlen("\nLD_PRELOAD=");
	len = strcspn(p, "\n");
	ck_assert_uint_lt(len, sizeof(got));
	memcpy(got, p, len);
	got[len] = '\0';
	return got;
}

/*
 * What the children's LD_PRELOAD should be: the sanitizer's runtime,
 * which the library's own entry carries in a sanitizer build, then REST.
 */
static const char *others_then(const char *rest)
{
	static char want[8192];
	const char *san = getenv("CLOEXEC_SAN_LIB");
	char *p;

	snprintf(want, sizeof(want), "%s%s%s", san && *san ? san : "",
		 san && *san && *rest ? ":" : "", rest);
	for (p = want; *p; p++)
		if (*p == ' ')
			*p = ':';
	return want;
}

/*
 * Only this library leaves the children's LD_PRELOAD: another entry stays
 * as it was given, last here (a sanitizer's runtime must stay first).  The
 * entries left are joined with colons, which the loader takes as blanks.
 */
START_TEST(scope_process_keeps_the_other_preloads)
{
	const char *got;
	size_t len;

	if (skip())
		return;
	got = children_preload("", " libc.so.6");
	len = strlen(got);
	ck_assert_msg(len >= 9 && !memcmp(got + len - 9, "libc.so.6", 9) &&
			      (len == 9 || got[len - 10] == ':'),
		      "the children's LD_PRELOAD: %s", got);
	ck_assert_ptr_null(strstr(got, "libcloexec"));
}
END_TEST

/*
 * Entries are separated by ':' and blanks, empty ones skipped; an entry
 * is the library's by its file name's start (libcloexec.so, .so.0),
 * not by containing it; one that would not fit the copy is left out.
 * (mylibcloexec.so is no file: the children's loader says so, and runs
 * on.)
 */
START_TEST(scope_process_reads_preload_lists_as_the_loader_does)
{
	static char longer[8192];
	const char *got;

	if (skip())
		return;
	got = children_preload("::", " :libc.so.6:: mylibcloexec.so ");
	ck_assert_str_eq(got, others_then("libc.so.6:mylibcloexec.so"));
	got = children_preload("", ":/usr/lib/libcloexec.so.0 libcloexec.so");
	ck_assert_str_eq(got, others_then(""));
	memset(longer, 'x', 5000);
	strcpy(longer + 5000, ".so:");
	got = children_preload(longer, ":libc.so.6");
	ck_assert_str_eq(got, others_then("libc.so.6"));
}
END_TEST

/*
 * An exec given its own environment, without the policy's variable:
 * nothing is dropped from it, and the child gets it whole, with room for
 * each entry and the NULL (an environment of 1 to 4 entries, each size).
 */
START_TEST(scope_process_takes_an_exec_of_its_own_environment)
{
	static char *entries[] = { "A=1", "B=2", "C=3", "D=4" };
	static const char *const printed[] = { "A=1\n", "A=1\nB=2\n",
					       "A=1\nB=2\nC=3\n",
					       "A=1\nB=2\nC=3\nD=4\n" };
	char *envp[5], buf[256];
	int n, i, status;

	if (skip())
		return;
	for (n = 1; n <= 4; n++) {
		for (i = 0; i < n; i++)
			envp[i] = entries[i];
		envp[n] = NULL;
		status = child_env(envp, buf, sizeof(buf));
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		ck_assert_str_eq(buf, printed[n - 1]);
	}
}
END_TEST

START_TEST(scope_tree_by_default)
{
	static char env[1 << 16];

	if (skip())
		return;
	child_env(NULL, env, sizeof(env));
	ck_assert_ptr_nonnull(strstr(env, "\nLD_PRELOAD="));
}
END_TEST

/*
 * In a child with no fds but 0-2 (the test runner's own are left alone
 * in this process): setup(), then a fork whose child execs fdreport; its
 * report into buf.  What setup() made was made before that fork, as a
 * server makes what it could leak: a fork child's own fds, made between
 * its fork and its exec, are for the program it execs (doc/inheritance.md,
 * rule 1).  LISTEN_PID=self stands for the pid of the one that execs.
 * setup() must not use ck_assert: Check's own channel is closed there.
 */
static void clean_child_report(void (*setup)(void), char *buf, size_t size)
{
	char *argv[] = { "fdreport", NULL };
	const char *fdreport = getenv("FDREPORT");
	const char *listen_pid;
	char pid[16];
	int p[2], status;
	ssize_t n, len = 0;
	pid_t child, grandchild;

	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	child = fork();
	if (child == 0) {
		dup2(p[1], 1);
		tl_close_from(3);
		setup();
		grandchild = fork();
		if (grandchild == 0) {
			listen_pid = getenv("LISTEN_PID");
			if (listen_pid && !strcmp(listen_pid, "self")) {
				snprintf(pid, sizeof(pid), "%d", getpid());
				setenv("LISTEN_PID", pid, 1);
			}
			execv(fdreport, argv);
			_exit(127);
		}
		_exit(grandchild > 0 &&
				      waitpid(grandchild, &status, 0) ==
					      grandchild &&
				      WIFEXITED(status)
			      ? WEXITSTATUS(status)
			      : 126);
	}
	close(p[1]);
	while ((n = read(p[0], buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(p[0]);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/*
 * systemd's protocol: the activator forks, sets LISTEN_FDS and LISTEN_PID
 * to its own pid, and execs: fds 3.. reach the server, forced or not.
 */
static void two_sockets_announced(void)
{
	socket(AF_INET, SOCK_STREAM, 0);
	socket(AF_INET, SOCK_STREAM, 0);
	setenv("LISTEN_FDS", "2", 1);
	setenv("LISTEN_PID", "self", 1);
}

START_TEST(listen_fds_reach_the_server)
{
	char buf[4096];

	if (skip())
		return;
	clean_child_report(two_sockets_announced, buf, sizeof(buf));
	ck_assert_msg(!strncmp(buf, "3 ", 2) && strstr(buf, "\n4 "),
		      "the server got: %s", buf);
}
END_TEST

/*
 * A vfork child that changes its credentials (setgid to its own group:
 * the wrapper reports a change all the same) shares its parent's memory:
 * what the change means is for its own exec, and the parent's forced
 * sockets still reach the server the parent starts.
 */
static void two_sockets_then_a_vfork_child_setgid(void)
{
	pid_t pid;

	two_sockets_announced();
	pid = vfork();
	if (pid == 0) {
		if (setgid(getgid()))
			_exit(1);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, NULL, 0) != pid)
		_exit(2);
}

START_TEST(a_vfork_childs_setgid_is_not_the_parents)
{
	char buf[4096];

	if (skip())
		return;
	clean_child_report(two_sockets_then_a_vfork_child_setgid, buf,
			   sizeof(buf));
	ck_assert_msg(!strncmp(buf, "3 ", 2) && strstr(buf, "\n4 "),
		      "the server got: %s", buf);
}
END_TEST

/* A stale LISTEN_PID names another process: nothing is unmarked. */
static void two_sockets_stale(void)
{
	socket(AF_INET, SOCK_STREAM, 0);
	socket(AF_INET, SOCK_STREAM, 0);
	setenv("LISTEN_FDS", "2", 1);
	setenv("LISTEN_PID", "1", 1);
}

START_TEST(stale_listen_fds_are_ignored)
{
	char buf[4096];

	if (skip())
		return;
	clean_child_report(two_sockets_stale, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
}
END_TEST

/*
 * An fd named in the arguments as /dev/fd/N or /proc/self/fd/N is meant
 * for the child: it reads the file through it.  The parent's fd stays
 * close-on-exec, after a fork and exec as after a posix_spawn (which
 * clears the flag in the parent for the spawn, and sets it back).
 */
static const char *const fd_forms[] = { "/dev/fd/", "/proc/self/fd/" };

/*
 * PROGRAM NAME's output (up to size - 1 bytes) and exit status, started
 * by fork and exec or by posix_spawn.
 */
static int output_of(const char *prog, const char *arg, const char *name,
		     bool spawn, char *out, size_t size)
{
	char *argv[] = { (char *)prog, (char *)arg, (char *)name, NULL };
	posix_spawn_file_actions_t fa;
	extern char **environ;
	int p[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (!arg) {
		argv[1] = (char *)name;
		argv[2] = NULL;
	}
	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	if (spawn) {
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, p[1], 1);
		ck_assert_int_eq(posix_spawnp(&pid, prog, &fa, NULL, argv,
					      environ),
				 0);
		posix_spawn_file_actions_destroy(&fa);
	} else {
		pid = fork();
		if (pid == 0) {
			dup2(p[1], 1);
			execvp(prog, argv);
			_exit(127);
		}
	}
	close(p[1]);
	while (len < size - 1 &&
	       (n = read(p[0], out + len, size - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Does fdreport's output list fd? */
static bool lists_fd(const char *report, int fd)
{
	char start[16];
	const char *p;

	snprintf(start, sizeof(start), "%d ", fd);
	for (p = report; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, start, strlen(start)))
			return true;
	return false;
}

START_TEST(fd_named_in_arguments_reaches_the_child)
{
	const char *fdreport = getenv("FDREPORT");
	char name[40], first[2], got[4096];
	int fd, other, spawn;

	if (skip())
		return;
	ck_assert_ptr_nonnull(fdreport);
	fd = open("/etc/passwd", O_RDONLY);
	other = open("/etc/passwd", O_RDONLY);
	ck_assert_int_eq(read(fd, first, 1), 1);
	first[1] = '\0';
	ck_assert(tl_cloexec(fd) && tl_cloexec(other));
	snprintf(name, sizeof(name), "%s%d", fd_forms[_i], fd);
	for (spawn = 0; spawn < 2; spawn++) {
		const char *how = spawn ? "spawn" : "fork";

		ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
		ck_assert_msg(output_of("head", "-c1", name, spawn, got,
					sizeof(got)) == 0,
			      "%s: head -c1 %s failed", how, name);
		ck_assert_str_eq(got, first);
		ck_assert_msg(tl_cloexec(fd),
			      "%s %s: the parent's fd lost its flag", how,
			      name);
		/* The child gets the fd named, and not the other one. */
		ck_assert_int_eq(output_of(fdreport, NULL, name, spawn, got,
					   sizeof(got)),
				 0);
		ck_assert_msg(lists_fd(got, fd), "%s %s: fd %d not passed",
			      how, name, fd);
		ck_assert_msg(!lists_fd(got, other), "%s %s: fd %d passed",
			      how, name, other);
	}
	close(fd);
	close(other);
}
END_TEST

static int count_lines_with(const char *path, const char *needle)
{
	char line[4096];
	FILE *f = fopen(path, "re");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

/*
 * Audit: nothing changes, and each fd a child would inherit is reported
 * with the call that made it.
 */
static void one_of_each(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	int l, c, sv[2], p[2];

	/* (No ck_assert here: Check's channel fd is gone in this child.) */
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (bind(l, (struct sockaddr *)&addr, sizeof(addr)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&addr, &len) ||
	    connect(c, (struct sockaddr *)&addr, sizeof(addr)))
		_exit(3);
	accept(l, NULL, NULL);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pipe(p);
	open("/etc/passwd", O_RDONLY);
	fopen("/etc/passwd", "r");
	dup(2);
}

START_TEST(audit_names_the_creating_call)
{
	char buf[4096];

	if (skip())
		return;
	unlink(LOG);
	clean_child_report(one_of_each, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "socket:") && strstr(buf, "pipe:"),
		      "audit mode forced something: %s", buf);
	ck_assert_int_eq(count_lines_with(LOG, "\"created_by\":\"socket\""),
			 2);
	ck_assert_int_eq(count_lines_with(LOG, "\"created_by\":\"accept\""),
			 1);
	ck_assert_int_eq(
		count_lines_with(LOG, "\"created_by\":\"socketpair\""), 2);
	ck_assert_int_eq(count_lines_with(LOG, "\"created_by\":\"pipe\""), 2);
	ck_assert_int_eq(count_lines_with(LOG, "\"created_by\":\"open\""), 1);
	ck_assert_int_eq(count_lines_with(LOG, "\"created_by\":\"fopen\""), 1);
	ck_assert_int_eq(count_lines_with(LOG, "\"created_by\":\"dup\""), 1);
	ck_assert_int_ge(count_lines_with(LOG, "\"local\":\"127.0.0.1:"), 3);
	ck_assert_int_ge(count_lines_with(LOG, "\"deliberate\":false"), 10);
	unlink(LOG);
}
END_TEST

/* report=on with enforcement: only what still reaches the child. */
static void one_kept_one_forced(void)
{
	socket(AF_INET, SOCK_STREAM, 0);
	dup2(open("/dev/null", O_RDONLY), 40);
}

START_TEST(report_alongside_enforcement)
{
	char buf[4096];

	if (skip())
		return;
	unlink(LOG);
	clean_child_report(one_kept_one_forced, buf, sizeof(buf));
	ck_assert_ptr_nonnull(strstr(buf, "40 "));
	ck_assert_int_eq(count_lines_with(LOG, "\"libcloexec\":1"), 1);
	ck_assert_int_eq(count_lines_with(LOG, "\"fd\":40,"), 1);
	ck_assert_int_eq(count_lines_with(LOG, "\"deliberate\":true"), 1);
	unlink(LOG);
}
END_TEST

/*
 * The sweep and the rules together: an fd no wrapper saw (a raw system
 * call, no flag) that the arguments name as --status-fd N is kept; the
 * same kind of fd, not named, is swept.
 */
START_TEST(sweep_spares_what_a_rule_keeps)
{
	const char *fdreport = getenv("FDREPORT");
	char number[16], got[4096];
	int named, unnamed, spawn;

	if (skip())
		return;
	ck_assert_ptr_nonnull(fdreport);
	named = (int)sys_openat(AT_FDCWD, "/dev/zero", O_RDONLY, 0);
	unnamed = (int)sys_openat(AT_FDCWD, "/dev/zero", O_RDONLY, 0);
	ck_assert_int_ge(named, 3);
	ck_assert_int_ge(unnamed, 3);
	ck_assert(!tl_cloexec(named) && !tl_cloexec(unnamed));
	snprintf(number, sizeof(number), "%d", named);
	for (spawn = 0; spawn < 2; spawn++) {
		ck_assert_int_eq(output_of(fdreport, "--status-fd", number,
					   spawn, got, sizeof(got)),
				 0);
		ck_assert_msg(lists_fd(got, named), "%s: --status-fd %d swept",
			      spawn ? "spawn" : "fork", named);
		ck_assert_msg(!lists_fd(got, unnamed), "%s: fd %d not swept",
			      spawn ? "spawn" : "fork", unnamed);
	}
	sys_close(named);
	sys_close(unnamed);
}
END_TEST

/*
 * A control message's numbers that are no fds stay no fds.  With
 * SO_RCVMARK each datagram comes with SOL_SOCKET's SO_MARK, four bytes
 * the sender chose: here the number of an fd whose close-on-exec flag is
 * the program's own.  Taken for a received fd, the flag would be the
 * library's, which an argument naming the fd takes off.  Twice: on the
 * old kernel the general path, natively the fast path's walk.  (A mark
 * needs CAP_NET_ADMIN, and SO_RCVMARK Linux 5.19: without, nothing to
 * try.)
 */
START_TEST(a_mark_received_is_no_fd)
{
	const char *fdreport = getenv("FDREPORT");
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	union {
		struct cmsghdr hdr;
		char buf[64];
	} c;
	char number[16], got[4096], byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr m;
	int r, s, fd, mark, one = 1, i;

	if (skip())
		return;
	ck_assert_ptr_nonnull(fdreport);
	r = socket(AF_INET, SOCK_DGRAM, 0);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	fd = open("/dev/zero", O_RDONLY);
	ck_assert_int_ge(fd, 3);
	ck_assert_int_eq(fcntl(fd, F_SETFD, FD_CLOEXEC), 0);
	if (setsockopt(r, SOL_SOCKET, SO_RCVMARK, &one, sizeof(one)) ||
	    setsockopt(s, SOL_SOCKET, SO_MARK, &fd, sizeof(fd))) {
		fprintf(stderr, "a_mark_received_is_no_fd: no mark: %s\n",
			strerror(errno));
		return;
	}
	ck_assert_int_eq(bind(r, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(getsockname(r, (struct sockaddr *)&a, &len), 0);
	snprintf(number, sizeof(number), "%d", fd);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(
			sendto(s, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)),
			1);
		m = (struct msghdr){ .msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = c.buf,
				     .msg_controllen = sizeof(c.buf) };
		ck_assert_int_eq(recvmsg(r, &m, 0), 1);
		ck_assert_ptr_nonnull(CMSG_FIRSTHDR(&m));
		ck_assert_int_eq(CMSG_FIRSTHDR(&m)->cmsg_type, SO_MARK);
		memcpy(&mark, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof(mark));
		ck_assert_int_eq(mark, fd);
		ck_assert(tl_cloexec(fd));
		ck_assert_int_eq(output_of(fdreport, "--status-fd", number,
					   false, got, sizeof(got)),
				 0);
		ck_assert_msg(!lists_fd(got, fd),
			      "recvmsg %d: SO_MARK %d taken for an fd", i, fd);
	}
	close(fd);
	close(r);
	close(s);
}
END_TEST

/* An SCM_RIGHTS control message of n fds, in a buffer of size bytes. */
static void put_rights(struct cmsghdr *hdr, size_t size, const int *fds,
		       size_t n)
{
	memset(hdr, 0, size);
	hdr->cmsg_level = SOL_SOCKET;
	hdr->cmsg_type = SCM_RIGHTS;
	hdr->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(hdr), fds, n * sizeof(int));
}

/*
 * Is fd's flag the library's?  A child it is named to (the number rule)
 * gets it only then.
 */
static bool flag_is_the_librarys(const char *fdreport, int fd)
{
	char number[16], got[4096];

	snprintf(number, sizeof(number), "%d", fd);
	ck_assert_int_eq(output_of(fdreport, "--status-fd", number, false, got,
				   sizeof(got)),
			 0);
	return lists_fd(got, fd);
}

/*
 * One control message of two fds: both are the library's, the second
 * too (the one-fd shortcut must not take a message it does not fit).
 * Each is named to a child (the number rule): one whose flag the
 * library forced reaches it.  Twice: a process's first recvmsg takes
 * the general path, the second the fast one.
 */
START_TEST(two_fds_in_one_message_are_both_noted)
{
	const char *fdreport = getenv("FDREPORT");
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(2 * sizeof(int))];
	} c;
	char byte = 'x';
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	int sv[2], fds[2], got_fds[2], i, round;

	if (skip())
		return;
	ck_assert_ptr_nonnull(fdreport);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	fds[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	fds[1] = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	for (round = 0; round < 2; round++) {
		put_rights(&c.hdr, sizeof(c), fds, 2);
		m.msg_control = c.buf;
		m.msg_controllen = sizeof(c.buf);
		ck_assert_int_eq(sendmsg(sv[0], &m, 0), 1);
		memset(&c, 0, sizeof(c));
		m.msg_controllen = sizeof(c.buf);
		ck_assert_int_eq(recvmsg(sv[1], &m, 0), 1);
		ck_assert_int_eq(m.msg_controllen, CMSG_SPACE(sizeof(fds)));
		ck_assert_int_eq(c.hdr.cmsg_len, CMSG_LEN(sizeof(fds)));
		memcpy(got_fds, CMSG_DATA(&c.hdr), sizeof(got_fds));
		for (i = 0; i < 2; i++) {
			ck_assert(tl_cloexec(got_fds[i]));
			ck_assert_msg(
				flag_is_the_librarys(fdreport, got_fds[i]),
				"recvmsg %d: fd %d of two received is not the library's",
				round, got_fds[i]);
			close(got_fds[i]);
		}
	}
	close(fds[0]);
	close(fds[1]);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

/*
 * A datagram of no bytes may carry fds: recvmsg answers 0, a success,
 * and the fd it carries is the library's, its header without the flag
 * the library added.  Twice, for the fast path.
 */
START_TEST(an_empty_datagram_carries_an_fd)
{
	const char *fdreport = getenv("FDREPORT");
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	struct msghdr m;
	int sv[2], fd, got_fd, round;

	if (skip())
		return;
	ck_assert_ptr_nonnull(fdreport);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	for (round = 0; round < 2; round++) {
		put_rights(&c.hdr, sizeof(c), &fd, 1);
		m = (struct msghdr){ .msg_control = c.buf,
				     .msg_controllen = sizeof(c.buf) };
		ck_assert_int_eq(sendmsg(sv[0], &m, 0), 0);
		memset(&c, 0, sizeof(c));
		m = (struct msghdr){ .msg_control = c.buf,
				     .msg_controllen = sizeof(c.buf) };
		ck_assert_int_eq(recvmsg(sv[1], &m, 0), 0);
		ck_assert_int_eq(c.hdr.cmsg_type, SCM_RIGHTS);
		ck_assert_msg(!(m.msg_flags & MSG_CMSG_CLOEXEC),
			      "recvmsg %d: msg_flags %#x", round, m.msg_flags);
		memcpy(&got_fd, CMSG_DATA(&c.hdr), sizeof(got_fd));
		ck_assert(tl_cloexec(got_fd));
		ck_assert_msg(flag_is_the_librarys(fdreport, got_fd),
			      "recvmsg %d: fd %d received is not the library's",
			      round, got_fd);
		close(got_fd);
	}
	close(fd);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

/*
 * A program reuses its control buffer: after a message without fds the
 * kernel says so with msg_controllen 0, and what an earlier message left
 * in the buffer (here an fd of the program's own flag) is not read.
 * After a first recvmsg, which takes the general path.
 */
START_TEST(a_stale_control_buffer_is_not_read)
{
	const char *fdreport = getenv("FDREPORT");
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	char byte = 'x';
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	int sv[2], fd;

	if (skip())
		return;
	ck_assert_ptr_nonnull(fdreport);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	fd = open("/dev/zero", O_RDONLY);
	ck_assert_int_ge(fd, 3);
	ck_assert_int_eq(fcntl(fd, F_SETFD, FD_CLOEXEC), 0);
	ck_assert_int_eq(send(sv[0], "x", 1, 0), 1);
	ck_assert_int_eq(recvmsg(sv[1], &m, 0), 1);
	ck_assert_int_eq(send(sv[0], "x", 1, 0), 1);
	put_rights(&c.hdr, sizeof(c), &fd, 1);
	m.msg_control = c.buf;
	m.msg_controllen = sizeof(c.buf);
	ck_assert_int_eq(recvmsg(sv[1], &m, 0), 1);
	ck_assert_int_eq(m.msg_controllen, 0);
	ck_assert_msg(
		!flag_is_the_librarys(fdreport, fd),
		"fd %d, left in the control buffer, taken for one received",
		fd);
	close(fd);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

static Suite *policy_suite(void)
{
	Suite *s = suite_create("policy");

	tl_add_env(s, keep_by_number, 1, "CLOEXEC_POLICY=keep=50");
	tl_add_env(s, keep_by_path, 1, "CLOEXEC_POLICY=keep-path=/dev/nul?");
	tl_add_env(s, keep_path_pattern_is_not_exponential, 1,
		   "CLOEXEC_POLICY=keep-path=*/*/*/*/*/x");
	tl_add_env(s, exempt_program, 1, "CLOEXEC_POLICY=exempt=it_policy");
	tl_add_env(s, sweep_catches_raw_syscalls, 1,
		   "CLOEXEC_POLICY=sweep=on");
	tl_add_env(s, sweep_marks_an_own_flag_cleared_unseen, 1,
		   "CLOEXEC_POLICY=sweep=on keep=999");
	tl_add_env(s, sweep_reads_the_far_chunks, 1,
		   "CLOEXEC_POLICY=sweep=on");
	tl_add_env(s, sweep_with_a_wide_keep_range, 1,
		   "CLOEXEC_POLICY=sweep=on keep=100-999999999");
	tl_add_env(s, sweep_spares_what_a_rule_keeps, 1,
		   "CLOEXEC_POLICY=sweep=on");
	tl_add(s, no_sweep_by_default);
	tl_add_env(s, scope_process_leaves_children_alone, 1,
		   "CLOEXEC_POLICY=scope=process");
	tl_add_env(s, scope_process_keeps_the_other_preloads, 1,
		   "CLOEXEC_POLICY=scope=process");
	tl_add_env(s, scope_process_takes_a_null_environment, 1,
		   "CLOEXEC_POLICY=scope=process");
	tl_add_env(s, scope_process_strips_a_lone_variable, 1,
		   "CLOEXEC_POLICY=scope=process");
	tl_add_env(s, scope_process_takes_an_exec_of_its_own_environment, 1,
		   "CLOEXEC_POLICY=scope=process");
	tl_add_env(s, scope_process_reads_preload_lists_as_the_loader_does, 1,
		   "CLOEXEC_POLICY=scope=process");
	tl_add(s, scope_tree_by_default);
	tl_add(s, listen_fds_reach_the_server);
	tl_add(s, a_vfork_childs_setgid_is_not_the_parents);
	tl_add(s, stale_listen_fds_are_ignored);
	tl_add_loop(s, fd_named_in_arguments_reaches_the_child, 2);
	tl_add(s, a_mark_received_is_no_fd);
	tl_add(s, two_fds_in_one_message_are_both_noted);
	tl_add(s, a_stale_control_buffer_is_not_read);
	tl_add(s, an_empty_datagram_carries_an_fd);
	tl_add_env(s, audit_names_the_creating_call, 1,
		   "CLOEXEC_POLICY=mode=audit log=" LOG);
	tl_add_env(s, report_alongside_enforcement, 1,
		   "CLOEXEC_POLICY=report=on log=" LOG);
	return s;
}

int main(int argc, char **argv)
{
	/* Without the library there is no policy to obey. */
	setenv("TL_CONFIGS", "preload,preload-oldkernel", 0);
	return tl_main(argc, argv, policy_suite);
}
