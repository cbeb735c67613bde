/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NULL, and the other pointers that libc hands to the kernel unread, at
 * every entry point: the library answers as glibc 2.36 does, return value
 * and errno, in every configuration (testlib.h) and under policies that
 * send the wrappers down their other paths.
 *
 * Each call is made twice, each time in a child of its own: through the
 * name as the program binds it (the library's wrapper, where preloaded)
 * and through libc's own definition (tl_libc).  The two answers must be
 * one, and the table's; a crash or a hang fails the row.  (The headers
 * declare some of these arguments nonnull; the calls go through pointers
 * to functions, which carry no such declaration.)
 *
 * Every entry point of src/entrypoints.def is here, with its calls
 * (ROW) or the reason it has none (NONE): no pointer argument, or glibc
 * itself crashes on each NULL it could be given, where nothing is tested
 * (tests/cmd/exports.test checks that none is left out).
 */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pty.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

extern char **environ;

/* What env(1) prints is the environment the exec gave it. */
#define ENV_PROGRAM "/usr/bin/env"

/*
 * An address the kernel refuses with EFAULT, hidden from the compiler: the
 * "other bad pointer" that libc passes on as it passes NULL.
 */
static void *bad(void)
{
	static volatile uintptr_t addr = 8;

	return (void *)addr;
}

static void *nul(void)
{
	static void *volatile p;

	return p;
}

/* A listener with a connection waiting, and a socket with nothing. */
static int pending_listener(void)
{
	struct sockaddr_in addr;
	int l = tl_listener(&addr);

	tl_connect(&addr);
	return l;
}

/*
 * The calls run in children, where a failed ck_assert would go on with the
 * rest of the suite: a failure of the harness there is exit status 98.
 */
static void must(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "it_null: %s: %s\n", what, strerror(errno));
		_exit(98);
	}
}

static int idle_socket(void)
{
	int sv[2];

	must(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
	return sv[0];
}

/*
 * An exec that may succeed, made in a child whose stdout is a pipe, of
 * env(1): the answer is the number of bytes it printed (0: it was given
 * an empty environment), or the exec's failure, -1 and its errno.
 */
struct answer {
	long ret;
	int err;
};

static long exec_outcome(long (*exec)(void *fn), void *fn)
{
	char buf[1 << 16];
	struct answer a;
	ssize_t len = 0, n;
	int p[2], status;
	pid_t pid;

	must(pipe2(p, O_CLOEXEC) == 0, "pipe2");
	pid = fork();
	must(pid >= 0, "fork");
	if (pid == 0) {
		dup2(p[1], 1);
		errno = 4242;
		a.ret = exec(fn);
		a.err = errno;
		buf[0] = '\377';
		memcpy(buf + 1, &a, sizeof(a));
		_exit(write(1, buf, 1 + sizeof(a)) != 1 + sizeof(a));
	}
	close(p[1]);
	while (len < (ssize_t)sizeof(buf) &&
	       (n = read(p[0], buf + len, sizeof(buf) - len)) > 0)
		len += n;
	close(p[0]);
	must(waitpid(pid, &status, 0) == pid, "waitpid");
	/* The call crashed in the exec's child: so does this one. */
	if (WIFSIGNALED(status)) {
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
	}
	must(WIFEXITED(status) && !WEXITSTATUS(status), "the exec's child");
	if (len == 1 + sizeof(a) && buf[0] == '\377') {
		memcpy(&a, buf + 1, sizeof(a));
		errno = a.err;
		return a.ret;
	}
	errno = 4242;
	return len;
}

/* posix_spawn's: the same, the child spawned with this stdout. */
static long spawn_outcome(long (*spawn)(void *fn), void *fn)
{
	char buf[1 << 16];
	ssize_t len = 0, n;
	int p[2], status, saved;
	long ret;

	must(pipe2(p, O_CLOEXEC) == 0, "pipe2");
	dup2(p[1], 1);
	close(p[1]);
	errno = 4242;
	ret = spawn(fn);
	saved = errno;
	close(1);
	if (ret == 0) {
		while (len < (ssize_t)sizeof(buf) &&
		       (n = read(p[0], buf + len, sizeof(buf) - len)) > 0)
			len += n;
		must(wait(&status) > 0, "wait");
		/* The child's end: its output, or the signal that ended it. */
		ret = WIFSIGNALED(status) ? 1000 + WTERMSIG(status) : len;
	}
	errno = saved;
	return ret;
}

/* --- the calls --- */

#define FN(type) ((__typeof__(type) *)fn)

static long closedir_null(void *fn)
{
	return FN(closedir)(nul());
}

static long socketpair_null(void *fn)
{
	return FN(socketpair)(AF_UNIX, SOCK_STREAM, 0, nul());
}
static long socketpair_bad(void *fn)
{
	return FN(socketpair)(AF_UNIX, SOCK_STREAM, 0, bad());
}

static long accept_null_len(void *fn)
{
	struct sockaddr_storage sa;

	return FN(accept)(pending_listener(), (struct sockaddr *)&sa, nul());
}
static long accept_bad_addr(void *fn)
{
	socklen_t len = sizeof(struct sockaddr_storage);

	return FN(accept)(pending_listener(), bad(), &len);
}
static long accept4_null_len(void *fn)
{
	struct sockaddr_storage sa;

	return FN(accept4)(pending_listener(), (struct sockaddr *)&sa, nul(),
			   0);
}
static long paccept_null_len(void *fn)
{
	int (*paccept)(int, struct sockaddr *, socklen_t *, const sigset_t *,
		       int) = fn;
	struct sockaddr_storage sa;

	return paccept(pending_listener(), (struct sockaddr *)&sa, nul(), nul(),
		       0);
}

typedef int open_fn(const char *, int, ...);
typedef int openat_fn(int, const char *, int, ...);
typedef int open_2_fn(const char *, int);
typedef int openat_2_fn(int, const char *, int);

static long open_null(void *fn)
{
	return ((open_fn *)fn)(nul(), O_RDONLY);
}
static long open_bad(void *fn)
{
	return ((open_fn *)fn)(bad(), O_RDONLY);
}
static long open_null_creat(void *fn)
{
	return ((open_fn *)fn)(nul(), O_CREAT | O_WRONLY, 0600);
}
static long openat_null(void *fn)
{
	return ((openat_fn *)fn)(AT_FDCWD, nul(), O_RDONLY);
}
static long openat_bad(void *fn)
{
	return ((openat_fn *)fn)(AT_FDCWD, bad(), O_RDONLY);
}
static long open_2_null(void *fn)
{
	return ((open_2_fn *)fn)(nul(), O_RDONLY);
}
static long open_2_bad(void *fn)
{
	return ((open_2_fn *)fn)(bad(), O_RDONLY);
}
static long openat_2_null(void *fn)
{
	return ((openat_2_fn *)fn)(AT_FDCWD, nul(), O_RDONLY);
}
static long openat_2_bad(void *fn)
{
	return ((openat_2_fn *)fn)(AT_FDCWD, bad(), O_RDONLY);
}
static long creat_null(void *fn)
{
	return FN(creat)(nul(), 0600);
}
static long creat_bad(void *fn)
{
	return FN(creat)(bad(), 0600);
}
static long open_by_handle_null(void *fn)
{
	return FN(open_by_handle_at)(AT_FDCWD, nul(), O_RDONLY);
}

/* A FILE: 0 if there is one (closed again), -1 if not. */
static long file_answer(FILE *f)
{
	int saved = errno;

	if (!f)
		return -1;
	fclose(f);
	errno = saved;
	return 0;
}

static long fopen_null(void *fn)
{
	return file_answer(FN(fopen)(nul(), "r"));
}
static long fopen_bad(void *fn)
{
	return file_answer(FN(fopen)(bad(), "r"));
}
static long fopen_null_w(void *fn)
{
	return file_answer(FN(fopen)(nul(), "w"));
}
/* NULL is the same file again, in the new mode. */
static long freopen_null(void *fn)
{
	return file_answer(FN(freopen)(nul(), "r", fopen("/dev/null", "r")));
}
static long freopen_bad(void *fn)
{
	return file_answer(FN(freopen)(bad(), "r", fopen("/dev/null", "r")));
}
/* sh -c with no command: it says so, and popen's pclose has its status. */
static long popen_null(void *fn)
{
	FILE *f;

	/* The shell's complaint is not the test's output. */
	dup2(open("/dev/null", O_WRONLY), 2);
	errno = 4242;
	f = FN(popen)(nul(), "r");
	return f ? pclose(f) : -1;
}

static long pipe_null(void *fn)
{
	return FN(pipe)(nul());
}
static long pipe_bad(void *fn)
{
	return FN(pipe)(bad());
}
static long pipe2_null(void *fn)
{
	return FN(pipe2)(nul(), 0);
}
static long pipe2_null_cloexec(void *fn)
{
	return FN(pipe2)(nul(), O_CLOEXEC);
}

typedef int fcntl_fn(int, int, ...);

static long fcntl_setlk_null(void *fn)
{
	return ((fcntl_fn *)fn)(open("/dev/null", O_RDWR), F_SETLK, nul());
}
static long fcntl_getlk_null(void *fn)
{
	return ((fcntl_fn *)fn)(open("/dev/null", O_RDWR), F_GETLK, nul());
}
static long fcntl_ofd_setlk_bad(void *fn)
{
	return ((fcntl_fn *)fn)(open("/dev/null", O_RDWR), F_OFD_SETLK, bad());
}

typedef int ioctl_fn(int, unsigned long, ...);

static long ioctl_fionread_null(void *fn)
{
	return ((ioctl_fn *)fn)(idle_socket(), FIONREAD, nul());
}
static long ioctl_fionclex_null(void *fn)
{
	return ((ioctl_fn *)fn)(open("/dev/null", O_RDONLY), FIONCLEX, nul());
}

static long setgroups_null(void *fn)
{
	return FN(setgroups)(1, nul());
}
static long capset_null(void *fn)
{
	int (*capset)(void *, const void *) = fn;

	return capset(nul(), nul());
}

static long signalfd_null(void *fn)
{
	return FN(signalfd)(-1, nul(), 0);
}
static long signalfd_bad(void *fn)
{
	return FN(signalfd)(-1, bad(), 0);
}
static long memfd_create_null(void *fn)
{
	return FN(memfd_create)(nul(), 0);
}

static long open_tree_null(void *fn)
{
	int (*open_tree)(int, const char *, unsigned) = fn;

	return open_tree(AT_FDCWD, nul(), 0);
}
static long fsopen_null(void *fn)
{
	int (*fsopen)(const char *, unsigned) = fn;

	return fsopen(nul(), 0);
}
static long fspick_null(void *fn)
{
	int (*fspick)(int, const char *, unsigned) = fn;

	return fspick(AT_FDCWD, nul(), 0);
}

/* openpty needs the two fds; the rest may be NULL, and glibc ignores the
 * answers of tcsetattr and TIOCSWINSZ. */
static long openpty_nulls(void *fn)
{
	int m, s;

	return FN(openpty)(&m, &s, nul(), nul(), nul());
}
static long openpty_bad_winsize(void *fn)
{
	int m, s;

	return FN(openpty)(&m, &s, nul(), nul(), bad());
}
static long forkpty_answer(pid_t pid)
{
	int saved = errno, status;

	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return -1;
	must(waitpid(pid, &status, 0) == pid, "waitpid");
	errno = saved;
	return 0;
}
static long forkpty_nulls(void *fn)
{
	int m;

	return forkpty_answer(FN(forkpty)(&m, nul(), nul(), nul()));
}
static long forkpty_bad_winsize(void *fn)
{
	int m;

	return forkpty_answer(FN(forkpty)(&m, nul(), nul(), bad()));
}

typedef ssize_t recvmsg_fn(int, struct msghdr *, int);
typedef int recvmmsg_fn(int, struct mmsghdr *, unsigned, int,
			struct timespec *);

static long recvmsg_null(void *fn)
{
	return ((recvmsg_fn *)fn)(idle_socket(), nul(), 0);
}
static long recvmsg_null_waitall(void *fn)
{
	return ((recvmsg_fn *)fn)(idle_socket(), nul(), MSG_WAITALL);
}
static long recvmsg_bad(void *fn)
{
	return ((recvmsg_fn *)fn)(idle_socket(), bad(), 0);
}
static long recvmsg_null_badfd(void *fn)
{
	return ((recvmsg_fn *)fn)(-1, nul(), 0);
}
static long recvmmsg_null(void *fn)
{
	return ((recvmmsg_fn *)fn)(idle_socket(), nul(), 1, 0, nul());
}
static long recvmmsg_bad_timeout(void *fn)
{
	struct tl_fd_msg m;
	struct mmsghdr v = { 0 };

	tl_fd_msg_init(&m);
	v.msg_hdr = m.msg;
	return ((recvmmsg_fn *)fn)(idle_socket(), &v, 1, 0, bad());
}

typedef long syscall_fn(long, ...);

#define SYS(name, ...)                                  \
	static long sys_##name(void *fn)                \
	{                                               \
		return ((syscall_fn *)fn)(__VA_ARGS__); \
	}
SYS(socketpair_null, SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, nul())
SYS(pipe2_null, SYS_pipe2, nul(), 0)
#ifdef SYS_pipe
SYS(pipe_null, SYS_pipe, nul())
SYS(open_null, SYS_open, nul(), O_RDONLY)
SYS(open_bad, SYS_open, bad(), O_RDONLY)
SYS(creat_null, SYS_creat, nul(), 0600)
#endif
SYS(openat_null, SYS_openat, AT_FDCWD, nul(), O_RDONLY)
SYS(openat_bad, SYS_openat, AT_FDCWD, bad(), O_RDONLY)
SYS(openat2_null_how, SYS_openat2, AT_FDCWD, "/dev/null", nul(), 24)
SYS(openat2_null_path, SYS_openat2, AT_FDCWD, nul(),
    (unsigned long long[3]){ O_RDONLY }, 24)
SYS(open_by_handle_null, SYS_open_by_handle_at, AT_FDCWD, nul(), O_RDONLY)
SYS(signalfd4_null, SYS_signalfd4, -1, nul(), 8, 0)
SYS(memfd_create_null, SYS_memfd_create, nul(), 0)
SYS(accept4_null_len, SYS_accept4, pending_listener(),
    (struct sockaddr_storage[1]){ 0 }, nul(), 0)
SYS(recvmsg_null, SYS_recvmsg, idle_socket(), nul(), 0)
SYS(recvmmsg_null, SYS_recvmmsg, idle_socket(), nul(), 1, 0, nul())
#ifdef SYS_open_tree
SYS(open_tree_null, SYS_open_tree, AT_FDCWD, nul(), 0)
#endif
SYS(perf_event_open_null, SYS_perf_event_open, nul(), 0, -1, -1, 0)
#ifdef SYS_clone3
SYS(clone3_null, SYS_clone3, nul(), 88)
#endif
#undef SYS

static char *env_argv[] = { "env", NULL };

static long do_spawn_null_env(void *fn)
{
	return FN(posix_spawn)(nul(), ENV_PROGRAM, nul(), nul(), env_argv,
			       nul());
}
static long spawn_null_env(void *fn)
{
	return spawn_outcome(do_spawn_null_env, fn);
}
static long do_spawn_null_path(void *fn)
{
	pid_t pid;

	return FN(posix_spawn)(&pid, nul(), nul(), nul(), env_argv, environ);
}
static long spawn_null_path(void *fn)
{
	return spawn_outcome(do_spawn_null_path, fn);
}
static long do_spawn_bad_env(void *fn)
{
	pid_t pid;

	return FN(posix_spawn)(&pid, ENV_PROGRAM, nul(), nul(), env_argv,
			       bad());
}
static long spawn_bad_env(void *fn)
{
	return spawn_outcome(do_spawn_bad_env, fn);
}
static long do_spawnp_null_env(void *fn)
{
	return FN(posix_spawnp)(nul(), "env", nul(), nul(), env_argv, nul());
}
static long spawnp_null_env(void *fn)
{
	return spawn_outcome(do_spawnp_null_env, fn);
}
/* The child reads the name, and is killed by SIGSEGV: 1011 below. */
static long do_spawnp_null_file(void *fn)
{
	pid_t pid;

	return FN(posix_spawnp)(&pid, nul(), nul(), nul(), env_argv, environ);
}
static long spawnp_null_file(void *fn)
{
	return spawn_outcome(do_spawnp_null_file, fn);
}

/* Whether there is a shell at all. */
static long system_null(void *fn)
{
	return FN(system)(nul());
}

static int clone_fn(void *arg)
{
	(void)arg;
	_exit(0);
}
static long clone_null_fn(void *fn)
{
	static char stack[1 << 14];

	return FN(clone)(nul(), stack + sizeof(stack), SIGCHLD, nul());
}
static long clone_null_stack(void *fn)
{
	return FN(clone)(clone_fn, nul(), SIGCHLD, nul());
}

static long do_execve_null_path(void *fn)
{
	return FN(execve)(nul(), env_argv, environ);
}
static long do_execve_bad_path(void *fn)
{
	return FN(execve)(bad(), env_argv, environ);
}
static long do_execve_null_argv(void *fn)
{
	return FN(execve)("/nonexistent", nul(), nul());
}
static long do_execve_null_env(void *fn)
{
	return FN(execve)(ENV_PROGRAM, env_argv, nul());
}
static long do_execve_nulls(void *fn)
{
	return FN(execve)(ENV_PROGRAM, nul(), nul());
}
static long do_execve_bad_argv(void *fn)
{
	return FN(execve)(ENV_PROGRAM, bad(), environ);
}
static long do_execve_bad_env(void *fn)
{
	return FN(execve)(ENV_PROGRAM, env_argv, bad());
}
static long do_execve_bad_arg(void *fn)
{
	return FN(execve)(ENV_PROGRAM, (char *[]){ "env", bad(), NULL },
			  environ);
}
static long do_execv_null_path(void *fn)
{
	return FN(execv)(nul(), env_argv);
}
static long do_execv_null_argv(void *fn)
{
	return FN(execv)("/nonexistent", nul());
}
static long do_execv_bad_argv(void *fn)
{
	return FN(execv)(ENV_PROGRAM, bad());
}
static long do_execvp_null_argv(void *fn)
{
	return FN(execvp)("cloexec-no-such-program", nul());
}
static long do_execvp_bad_argv(void *fn)
{
	return FN(execvp)(ENV_PROGRAM, bad());
}
static long do_execvpe_null_env(void *fn)
{
	return FN(execvpe)("env", env_argv, nul());
}
static long do_execvpe_nulls(void *fn)
{
	return FN(execvpe)(ENV_PROGRAM, nul(), nul());
}
static long do_execl_null_path(void *fn)
{
	return FN(execl)(nul(), "env", (char *)NULL);
}
static long do_execl_null_arg0(void *fn)
{
	return FN(execl)("/nonexistent", nul(), (char *)NULL);
}
static long do_execlp_null_arg0(void *fn)
{
	return FN(execlp)("cloexec-no-such-program", nul(), (char *)NULL);
}
static long do_execle_null_env(void *fn)
{
	return FN(execle)(ENV_PROGRAM, "env", (char *)NULL, nul());
}
static long do_fexecve_null_env(void *fn)
{
	return FN(fexecve)(open(ENV_PROGRAM, O_RDONLY), env_argv, nul());
}
static long do_fexecve_null_argv(void *fn)
{
	return FN(fexecve)(open(ENV_PROGRAM, O_RDONLY), nul(), environ);
}
#if HAVE_EXECVEAT
static long do_execveat_null_path(void *fn)
{
	return FN(execveat)(AT_FDCWD, nul(), env_argv, environ, 0);
}
static long do_execveat_null_env(void *fn)
{
	return FN(execveat)(open(ENV_PROGRAM, O_RDONLY), "", env_argv, nul(),
			    AT_EMPTY_PATH);
}
#endif

#define EXEC(name)                                  \
	static long name(void *fn)                  \
	{                                           \
		return exec_outcome(do_##name, fn); \
	}
EXEC(execve_null_path)
EXEC(execve_bad_path)
EXEC(execve_null_argv)
EXEC(execve_null_env)
EXEC(execve_nulls)
EXEC(execve_bad_argv)
EXEC(execve_bad_env)
EXEC(execve_bad_arg)
EXEC(execv_null_path)
EXEC(execv_null_argv)
EXEC(execv_bad_argv)
EXEC(execvp_null_argv)
EXEC(execvp_bad_argv)
EXEC(execvpe_null_env)
EXEC(execvpe_nulls)
EXEC(execl_null_path)
EXEC(execl_null_arg0)
EXEC(execlp_null_arg0)
EXEC(execle_null_env)
EXEC(fexecve_null_env)
EXEC(fexecve_null_argv)
#if HAVE_EXECVEAT
EXEC(execveat_null_path)
EXEC(execveat_null_env)
#endif
#undef EXEC

/* --- the table --- */

/* How a row's answer may differ from the table's. */
enum {
	/* Libc's answer depends on privilege: the two answers must agree. */
	AS_LIBC = 1,
	/* The emulated old kernel has no such call: ENOSYS there. */
	OLD_ENOSYS = 2,
	/* It refuses the flag: libc alone has another answer there. */
	OLD_REFUSES = 4,
	/* The library's own call: nothing in libc to compare with. */
	OWN = 8,
};

static const struct row {
	const char *entry; /* the entry point, as src/entrypoints.def has it */
	const char *call; /* what it is given */
	long (*run)(void *fn);
	long ret; /* glibc's answer: its return value, and errno if -1 */
	int err;
	unsigned how;
} rows[] = {
#define ROW(entry, ...) { #entry, __VA_ARGS__ }
	ROW(closedir, "NULL", closedir_null, -1, EINVAL, 0),
	ROW(socketpair, "NULL fds", socketpair_null, -1, EFAULT, 0),
	ROW(socketpair, "bad fds", socketpair_bad, -1, EFAULT, 0),
	ROW(accept, "NULL length", accept_null_len, -1, EFAULT, 0),
	ROW(accept, "bad address", accept_bad_addr, -1, EFAULT, 0),
	ROW(accept4, "NULL length", accept4_null_len, -1, EFAULT, 0),
	ROW(cloexec_paccept, "NULL length, NULL mask", paccept_null_len, -1,
	    EFAULT, OWN),
	ROW(open, "NULL", open_null, -1, EFAULT, 0),
	ROW(open, "bad path", open_bad, -1, EFAULT, 0),
	ROW(open, "NULL, O_CREAT", open_null_creat, -1, EFAULT, 0),
	ROW(open64, "NULL", open_null, -1, EFAULT, 0),
	ROW(open64, "bad path", open_bad, -1, EFAULT, 0),
#if HAVE___OPEN
	ROW(__open, "NULL", open_null, -1, EFAULT, 0),
	ROW(__open, "bad path", open_bad, -1, EFAULT, 0),
#endif
#if HAVE___OPEN64
	ROW(__open64, "NULL", open_null, -1, EFAULT, 0),
	ROW(__open64, "bad path", open_bad, -1, EFAULT, 0),
#endif
	ROW(openat, "NULL", openat_null, -1, EFAULT, 0),
	ROW(openat, "bad path", openat_bad, -1, EFAULT, 0),
	ROW(openat64, "NULL", openat_null, -1, EFAULT, 0),
	ROW(openat64, "bad path", openat_bad, -1, EFAULT, 0),
#if HAVE___OPEN_2
	ROW(__open_2, "NULL", open_2_null, -1, EFAULT, 0),
	ROW(__open_2, "bad path", open_2_bad, -1, EFAULT, 0),
#endif
#if HAVE___OPEN64_2
	ROW(__open64_2, "NULL", open_2_null, -1, EFAULT, 0),
	ROW(__open64_2, "bad path", open_2_bad, -1, EFAULT, 0),
#endif
#if HAVE___OPENAT_2
	ROW(__openat_2, "NULL", openat_2_null, -1, EFAULT, 0),
	ROW(__openat_2, "bad path", openat_2_bad, -1, EFAULT, 0),
#endif
#if HAVE___OPENAT64_2
	ROW(__openat64_2, "NULL", openat_2_null, -1, EFAULT, 0),
	ROW(__openat64_2, "bad path", openat_2_bad, -1, EFAULT, 0),
#endif
	ROW(creat, "NULL", creat_null, -1, EFAULT, 0),
	ROW(creat, "bad path", creat_bad, -1, EFAULT, 0),
	ROW(creat64, "NULL", creat_null, -1, EFAULT, 0),
	ROW(creat64, "bad path", creat_bad, -1, EFAULT, 0),
	/* EPERM without CAP_DAC_READ_SEARCH, before the handle is read. */
	ROW(open_by_handle_at, "NULL handle", open_by_handle_null, -1, EFAULT,
	    AS_LIBC),
	ROW(fopen, "NULL path", fopen_null, -1, EFAULT, 0),
	ROW(fopen, "bad path", fopen_bad, -1, EFAULT, 0),
	ROW(fopen, "NULL path, \"w\"", fopen_null_w, -1, EFAULT, 0),
	ROW(fopen64, "NULL path", fopen_null, -1, EFAULT, 0),
	ROW(fopen64, "bad path", fopen_bad, -1, EFAULT, 0),
	ROW(freopen, "NULL path", freopen_null, 0, 0, 0),
	ROW(freopen, "bad path", freopen_bad, -1, EFAULT, 0),
	ROW(freopen64, "NULL path", freopen_null, 0, 0, 0),
	ROW(freopen64, "bad path", freopen_bad, -1, EFAULT, 0),
	ROW(popen, "NULL command", popen_null, 2 << 8, 0, 0),
	ROW(pipe, "NULL", pipe_null, -1, EFAULT, 0),
	ROW(pipe, "bad fds", pipe_bad, -1, EFAULT, 0),
#if HAVE___PIPE
	ROW(__pipe, "NULL", pipe_null, -1, EFAULT, 0),
#endif
	ROW(pipe2, "NULL", pipe2_null, -1, EFAULT, 0),
	ROW(pipe2, "NULL, O_CLOEXEC", pipe2_null_cloexec, -1, EFAULT,
	    OLD_REFUSES),
	ROW(fcntl, "F_SETLK NULL", fcntl_setlk_null, -1, EFAULT, 0),
	ROW(fcntl, "F_GETLK NULL", fcntl_getlk_null, -1, EFAULT, 0),
	ROW(fcntl, "F_OFD_SETLK bad", fcntl_ofd_setlk_bad, -1, EFAULT, 0),
	ROW(fcntl64, "F_SETLK NULL", fcntl_setlk_null, -1, EFAULT, 0),
	ROW(fcntl64, "F_OFD_SETLK bad", fcntl_ofd_setlk_bad, -1, EFAULT, 0),
#if HAVE___FCNTL
	ROW(__fcntl, "F_SETLK NULL", fcntl_setlk_null, -1, EFAULT, 0),
#endif
	ROW(ioctl, "FIONREAD NULL", ioctl_fionread_null, -1, EFAULT, 0),
	ROW(ioctl, "FIONCLEX NULL", ioctl_fionclex_null, 0, 0, 0),
	/* EPERM without CAP_SETGID, before the list is read. */
	ROW(setgroups, "1, NULL", setgroups_null, -1, EFAULT, AS_LIBC),
#if HAVE_CAPSET
	ROW(capset, "NULL, NULL", capset_null, -1, EFAULT, 0),
#endif
	ROW(signalfd, "NULL mask", signalfd_null, -1, EFAULT, 0),
	ROW(signalfd, "bad mask", signalfd_bad, -1, EFAULT, 0),
	ROW(memfd_create, "NULL name", memfd_create_null, -1, EFAULT, 0),
#if HAVE_OPEN_TREE
	ROW(open_tree, "NULL path", open_tree_null, -1, EFAULT, OLD_ENOSYS),
#endif
#if HAVE_FSOPEN
	/* EPERM without CAP_SYS_ADMIN, before the name is read. */
	ROW(fsopen, "NULL name", fsopen_null, -1, EFAULT, AS_LIBC | OLD_ENOSYS),
#endif
#if HAVE_FSPICK
	ROW(fspick, "NULL path", fspick_null, -1, EFAULT, AS_LIBC | OLD_ENOSYS),
#endif
	ROW(openpty, "NULL name, termios, winsize", openpty_nulls, 0, 0, 0),
	ROW(openpty, "bad winsize", openpty_bad_winsize, 0, 0, 0),
	ROW(forkpty, "NULL name, termios, winsize", forkpty_nulls, 0, 0, 0),
	ROW(forkpty, "bad winsize", forkpty_bad_winsize, 0, 0, 0),
	ROW(recvmsg, "NULL message", recvmsg_null, -1, EFAULT, 0),
	ROW(recvmsg, "NULL message, MSG_WAITALL", recvmsg_null_waitall, -1,
	    EFAULT, 0),
	ROW(recvmsg, "bad message", recvmsg_bad, -1, EFAULT, 0),
	ROW(recvmsg, "fd -1, NULL message", recvmsg_null_badfd, -1, EBADF, 0),
	ROW(recvmmsg, "NULL messages", recvmmsg_null, -1, EFAULT, 0),
	ROW(recvmmsg, "bad timeout", recvmmsg_bad_timeout, -1, EFAULT, 0),
	ROW(syscall, "socketpair NULL", sys_socketpair_null, -1, EFAULT, 0),
	ROW(syscall, "pipe2 NULL", sys_pipe2_null, -1, EFAULT, 0),
#ifdef SYS_pipe
	ROW(syscall, "pipe NULL", sys_pipe_null, -1, EFAULT, 0),
	ROW(syscall, "open NULL", sys_open_null, -1, EFAULT, 0),
	ROW(syscall, "open bad path", sys_open_bad, -1, EFAULT, 0),
	ROW(syscall, "creat NULL", sys_creat_null, -1, EFAULT, 0),
#endif
	ROW(syscall, "openat NULL", sys_openat_null, -1, EFAULT, 0),
	ROW(syscall, "openat bad path", sys_openat_bad, -1, EFAULT, 0),
	ROW(syscall, "openat2 NULL how", sys_openat2_null_how, -1, EFAULT, 0),
	ROW(syscall, "openat2 NULL path", sys_openat2_null_path, -1, EFAULT, 0),
	ROW(syscall, "open_by_handle_at NULL", sys_open_by_handle_null, -1,
	    EFAULT, AS_LIBC),
	ROW(syscall, "signalfd4 NULL", sys_signalfd4_null, -1, EFAULT, 0),
	ROW(syscall, "memfd_create NULL", sys_memfd_create_null, -1, EFAULT, 0),
	ROW(syscall, "accept4 NULL length", sys_accept4_null_len, -1, EFAULT,
	    0),
	ROW(syscall, "recvmsg NULL", sys_recvmsg_null, -1, EFAULT, 0),
	ROW(syscall, "recvmmsg NULL", sys_recvmmsg_null, -1, EFAULT, 0),
#ifdef SYS_open_tree
	ROW(syscall, "open_tree NULL", sys_open_tree_null, -1, EFAULT,
	    OLD_ENOSYS),
#endif
	/* perf_event_paranoid may refuse it first: EACCES. */
	ROW(syscall, "perf_event_open NULL", sys_perf_event_open_null, -1,
	    EFAULT, AS_LIBC),
#ifdef SYS_clone3
	ROW(syscall, "clone3 NULL", sys_clone3_null, -1, EFAULT, 0),
#endif
	/* posix_spawn's answers are its return value (a NULL argv crashes
	 * glibc, which counts it); a child's output is counted, or the
	 * signal that ended it is 1000 + its number. */
	ROW(posix_spawn, "NULL pid, actions, attributes, envp", spawn_null_env,
	    0, 0, 0),
	ROW(posix_spawn, "NULL path", spawn_null_path, EFAULT, 0, 0),
	ROW(posix_spawn, "bad envp", spawn_bad_env, EFAULT, 0, 0),
	ROW(posix_spawnp, "NULL pid, actions, attributes, envp",
	    spawnp_null_env, 0, 0, 0),
	ROW(posix_spawnp, "NULL file", spawnp_null_file, 1000 + SIGSEGV, 0, 0),
	ROW(system, "NULL", system_null, 1, 0, 0),
	ROW(clone, "NULL function", clone_null_fn, -1, EINVAL, 0),
	ROW(clone, "NULL stack", clone_null_stack, -1, EINVAL, 0),
	/* The exec family: env(1)'s output is counted, so an empty
	 * environment is 0 (the kernel takes a NULL argv or envp as empty). */
	ROW(execve, "NULL path", execve_null_path, -1, EFAULT, 0),
	ROW(execve, "bad path", execve_bad_path, -1, EFAULT, 0),
	ROW(execve, "NULL argv, NULL envp, no file", execve_null_argv, -1,
	    ENOENT, 0),
	ROW(execve, "NULL envp", execve_null_env, 0, 0, 0),
	ROW(execve, "NULL argv, NULL envp", execve_nulls, 0, 0, 0),
	ROW(execve, "bad argv", execve_bad_argv, -1, EFAULT, 0),
	ROW(execve, "bad envp", execve_bad_env, -1, EFAULT, 0),
	ROW(execve, "bad argument", execve_bad_arg, -1, EFAULT, 0),
	ROW(execv, "NULL path", execv_null_path, -1, EFAULT, 0),
	ROW(execv, "NULL argv, no file", execv_null_argv, -1, ENOENT, 0),
	ROW(execv, "bad argv", execv_bad_argv, -1, EFAULT, 0),
	/* (A NULL file crashes glibc's execvp, execvpe and execlp.) */
	ROW(execvp, "NULL argv, no such program", execvp_null_argv, -1, ENOENT,
	    0),
	ROW(execvp, "bad argv", execvp_bad_argv, -1, EFAULT, 0),
	ROW(execvpe, "NULL envp", execvpe_null_env, 0, 0, 0),
	ROW(execvpe, "NULL argv, NULL envp", execvpe_nulls, 0, 0, 0),
	ROW(execl, "NULL path", execl_null_path, -1, EFAULT, 0),
	ROW(execl, "NULL arg0, no file", execl_null_arg0, -1, ENOENT, 0),
	ROW(execlp, "NULL arg0, no such program", execlp_null_arg0, -1, ENOENT,
	    0),
	ROW(execle, "NULL envp", execle_null_env, 0, 0, 0),
	ROW(fexecve, "NULL envp", fexecve_null_env, -1, EINVAL, 0),
	ROW(fexecve, "NULL argv", fexecve_null_argv, -1, EINVAL, 0),
#if HAVE_EXECVEAT
	ROW(execveat, "NULL path", execveat_null_path, -1, EFAULT, 0),
	ROW(execveat, "NULL envp", execveat_null_env, 0, 0, 0),
#endif
#undef ROW
};

#define NROWS ((int)(sizeof(rows) / sizeof(rows[0])))

/*
 * Entry points with no call above, and why.  NO_POINTER: nothing to give
 * NULL to.  CRASHES: glibc 2.36 itself dies of a NULL in each pointer
 * argument (or of the other pointers: a NULL there is valid, and tried
 * by it_entry); nothing to compare with.
 */
#define NO_POINTER "no pointer argument"
static const struct none {
	const char *entry, *why;
} nones[] = {
#define NONE(entry, why) { #entry, why }
	NONE(socket, NO_POINTER),
	NONE(tmpfile, NO_POINTER),
	NONE(tmpfile64, NO_POINTER),
	NONE(mkstemp, "glibc crashes: it reads the template's length"),
	NONE(mkstemp64, "glibc crashes: it reads the template's length"),
	NONE(mkstemps, "glibc crashes: it reads the template's length"),
	NONE(mkstemps64, "glibc crashes: it reads the template's length"),
	NONE(mkostemp, "glibc crashes: it reads the template's length"),
	NONE(mkostemp64, "glibc crashes: it reads the template's length"),
	NONE(mkostemps, "glibc crashes: it reads the template's length"),
	NONE(mkostemps64, "glibc crashes: it reads the template's length"),
	NONE(dup, NO_POINTER),
	NONE(dup2, NO_POINTER),
	NONE(dup3, NO_POINTER),
	NONE(close, NO_POINTER),
	NONE(__close, NO_POINTER),
	NONE(close_range, NO_POINTER),
	NONE(closefrom, NO_POINTER),
	NONE(fclose, "glibc crashes: it locks the FILE first"),
	NONE(pclose, "glibc crashes: it locks the FILE first"),
	NONE(flock, NO_POINTER),
	NONE(lockf, NO_POINTER),
	NONE(lockf64, NO_POINTER),
	NONE(setuid, NO_POINTER),
	NONE(setgid, NO_POINTER),
	NONE(seteuid, NO_POINTER),
	NONE(setegid, NO_POINTER),
	NONE(setreuid, NO_POINTER),
	NONE(setregid, NO_POINTER),
	NONE(setresuid, NO_POINTER),
	NONE(setresgid, NO_POINTER),
	NONE(setfsuid, NO_POINTER),
	NONE(setfsgid, NO_POINTER),
	NONE(epoll_create, NO_POINTER),
	NONE(epoll_create1, NO_POINTER),
	NONE(inotify_init, NO_POINTER),
	NONE(inotify_init1, NO_POINTER),
	NONE(eventfd, NO_POINTER),
	NONE(timerfd_create, NO_POINTER),
	NONE(fanotify_init, NO_POINTER),
	NONE(__dup2, NO_POINTER),
	NONE(fsmount, NO_POINTER),
	NONE(posix_openpt, NO_POINTER),
	NONE(getpt, NO_POINTER),
	NONE(rresvport, "glibc crashes: it reads *port"),
	NONE(rresvport_af, "glibc crashes: it reads *port"),
	NONE(rcmd, "glibc crashes: it reads *host (a NULL fd2p: it_entry)"),
	NONE(rcmd_af, "glibc crashes: it reads *host (a NULL fd2p: it_entry)"),
	NONE(rexec, "glibc crashes: it reads *host (a NULL fd2p: it_entry)"),
	NONE(rexec_af, "glibc crashes: it reads *host (a NULL fd2p: it_entry)"),
	NONE(vfork, NO_POINTER),
	NONE(_Fork, NO_POINTER),
	NONE(cloexec_version, NO_POINTER),
#undef NONE
};

/* One call in a child of its own: its answer, or the signal that ended it. */
struct outcome {
	struct answer a;
	int signal;
};

static struct outcome run_in_child(const struct row *r, void *fn)
{
	struct outcome o = { { 0, 0 }, 0 };
	int p[2], status;
	pid_t pid;

	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		/* A hang ends here: Check's own handler would end the test. */
		signal(SIGALRM, SIG_DFL);
		alarm(10);
		errno = 4242;
		o.a.ret = r->run(fn);
		o.a.err = errno;
		_exit(write(p[1], &o.a, sizeof(o.a)) != sizeof(o.a));
	}
	close(p[1]);
	if (read(p[0], &o.a, sizeof(o.a)) != sizeof(o.a))
		o.a.ret = LONG_MIN;
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		o.signal = WTERMSIG(status);
	else
		ck_assert_msg(WEXITSTATUS(status) == 0 && o.a.ret != LONG_MIN,
			      "%s(%s): the child ended with %#x", r->entry,
			      r->call, status);
	return o;
}

/*
 * Before the first child: what the library learns of the kernel it learns
 * here.  The emulated kernel's supervisor is a thread of this process,
 * which answers its own threads' calls as 2008's kernel did and lets a
 * child's through: a child that probed O_CLOEXEC or MSG_CMSG_CLOEXEC
 * itself would find today's kernel.  The open leaves a flag the library
 * forced, so that an exec has its rules to apply.
 */
static void prepare(void)
{
	static int fd = -1;
	int s;

	if (fd >= 0)
		return;
	fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	s = tl_sent_fd_socket();
	close(tl_recv_fd(s, 0));
	close(s);
}

static const char *said(const struct outcome *o)
{
	static char buf[2][128];
	static int n;
	char *s = buf[n++ % 2];

	if (o->signal)
		snprintf(s, 128, "killed by signal %d (%s)", o->signal,
			 strsignal(o->signal));
	else if (o->a.ret == -1 || o->a.err != 4242)
		snprintf(s, 128, "%ld, errno %d (%s)", o->a.ret, o->a.err,
			 strerror(o->a.err));
	else
		snprintf(s, 128, "%ld", o->a.ret);
	return s;
}

static void check_row(const struct row *r)
{
	struct outcome prog,
		libc = { { r->ret, r->ret == -1 ? r->err : 4242 }, 0 };
	void *fn = dlsym(RTLD_DEFAULT, r->entry);
	bool old = tl_oldkernel();

	/* The library's own calls are there only where it is. */
	if ((r->how & OWN) && !tl_preloaded())
		return;
	ck_assert_msg(fn, "%s: not found", r->entry);
	prepare();
	prog = run_in_child(r, fn);
	if (!(r->how & OWN)) {
		ck_assert_ptr_nonnull(tl_libc(r->entry));
		libc = run_in_child(r, tl_libc(r->entry));
		ck_assert_msg(!libc.signal, "%s(%s): libc itself %s", r->entry,
			      r->call, said(&libc));
	}
	ck_assert_msg(!prog.signal && prog.a.ret == libc.a.ret &&
			      prog.a.err == libc.a.err,
		      "%s(%s): %s where libc says %s", r->entry, r->call,
		      said(&prog), said(&libc));
	/* And libc's answer is the table's. */
	if (r->how & AS_LIBC)
		return;
	if (old && (r->how & OLD_ENOSYS)) {
		ck_assert_msg(prog.a.ret == -1 && prog.a.err == ENOSYS,
			      "%s(%s) on the old kernel: %s", r->entry, r->call,
			      said(&prog));
		return;
	}
	if (old && !tl_preloaded() && (r->how & OLD_REFUSES))
		return;
	ck_assert_msg(prog.a.ret == r->ret &&
			      (r->ret != -1 || prog.a.err == r->err),
		      "%s(%s): %s, where glibc 2.36 answers %ld, errno %d (%s)",
		      r->entry, r->call, said(&prog), r->ret, r->err,
		      strerror(r->err));
}

START_TEST(null_parity)
{
	check_row(&rows[_i]);
}
END_TEST

/*
 * The same, with policies that take the wrappers' other paths (libc's own
 * answers are null_parity's).
 */
START_TEST(null_parity_report_keeps)
{
	if (tl_preloaded())
		check_row(&rows[_i]);
}
END_TEST

START_TEST(null_parity_audit)
{
	if (tl_preloaded())
		check_row(&rows[_i]);
}
END_TEST

START_TEST(null_parity_sweep_scope)
{
	if (tl_preloaded())
		check_row(&rows[_i]);
}
END_TEST

/* Each entry point has its rows or its reason, once. */
START_TEST(every_entry_point_is_here)
{
	size_t i, j;

	for (i = 0; i < sizeof(nones) / sizeof(nones[0]); i++)
		for (j = 0; j < (size_t)NROWS; j++)
			ck_assert_msg(strcmp(nones[i].entry, rows[j].entry),
				      "%s: both a row and none",
				      nones[i].entry);
}
END_TEST

static Suite *null_suite(void)
{
	Suite *s = suite_create("NULL parity");

	tl_add(s, every_entry_point_is_here);
	tl_add_loop(s, null_parity, NROWS);
	tl_add_env(s, null_parity_report_keeps, NROWS,
		   "CLOEXEC_POLICY=report=on log=syslog keep=200-210 "
		   "keep-path=/nonexistent/*");
	tl_add_env(s, null_parity_audit, NROWS,
		   "CLOEXEC_POLICY=mode=audit log=syslog");
	tl_add_env(s, null_parity_sweep_scope, NROWS,
		   "CLOEXEC_POLICY=sweep=on scope=process");
	return s;
}

int main(int argc, char **argv)
{
#ifdef __SANITIZE_ADDRESS__
	/*
	 * The sanitizers' interceptors stand between the program and libc,
	 * and read what libc passes on to the kernel (open_by_handle_at's
	 * handle, a path's length): NULL crashes them, not libc.
	 */
	(void)null_suite;
	puts("SKIP: under AddressSanitizer, whose interceptors read NULL");
	return 77;
#endif
	return tl_main(argc, argv, null_suite);
}
