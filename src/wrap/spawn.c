/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every way to start a program, on the spawn side of the fork lock, so that
 * no child is created, and no program exec'd, while another thread is
 * between creating an fd and marking it (a fallback window).
 *
 * fork() gets there through pthread_atfork.  glibc runs no atfork handlers
 * for the rest: posix_spawn, system and popen (clone with CLONE_VFORK
 * inside libc), vfork, _Fork, and exec without fork, so each is wrapped.
 * So is clone(), which starts a copy of the process like fork without CLONE_VM.
 * On a kernel with the flagged calls no creator ever holds the lock, and
 * the spawn side is one atomic add that never waits.
 *
 * system() is done again, as glibc does it, on the wrapped posix_spawn: the
 * real one would hold the lock for as long as the command runs, and a
 * command that needed this process to create an fd (to accept its
 * connection, say) would wait for ever.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/exec.h"
#include "core/export.h"
#include "core/forklock.h"
#include "core/load.h"
#include "core/probe.h"
#include "core/real.h"
#include "core/sys.h"
#include "specs.h"
#include "symvers.h"

extern char **environ;

/*
 * make coverage's build (CLOEXEC_COVERAGE): what this image counted, the
 * exec's own line included, is written before the exec replaces it, as
 * gcc does around the exec calls it compiles, but not for a call through
 * a pointer; counted again from zero if the exec fails.  Not in a vfork
 * child: it has its parent's memory.
 */
#if CLOEXEC_COVERAGE
void __gcov_dump(void);
void __gcov_reset(void);
#define REAL_EXEC(sym, vfork_child) \
	((vfork_child) ? (void)0 : __gcov_dump(), REAL(sym))
#define coverage_after_exec(vfork_child) \
	((vfork_child) ? (void)0 : __gcov_reset())
#else
#define REAL_EXEC(sym, vfork_child) REAL(sym)
#define coverage_after_exec(vfork_child) ((void)0)
#endif

/* No system call stands in for these: libc is loaded by now. */
static int no_posix_spawn(pid_t *pid, const char *path,
			  const posix_spawn_file_actions_t *fa,
			  const posix_spawnattr_t *attr, char *const argv[],
			  char *const envp[])
{
	return ENOSYS;
}

static int no_clone(int (*fn)(void *), void *stack, int flags, void *arg,
		    ...)
{
	(void)fn, (void)stack, (void)flags, (void)arg;
	errno = ENOSYS;
	return -1;
}

static pid_t no_fork(void)
{
	return fdreq_fail(ENOSYS);
}

static int raw_execve(const char *path, char *const argv[], char *const envp[])
{
	return sys_result(sys_call(SYS_execve, path, argv, envp, 0, 0));
}

/*
 * execv with this process's environment.  Stands in for execvp too, without
 * its search of PATH: a name with no slash is taken as a path.
 */
static int raw_execv(const char *path, char *const argv[])
{
	return raw_execve(path, argv, environ);
}

static int no_execvpe(const char *file, char *const argv[],
		      char *const envp[])
{
	return fdreq_fail(ENOSYS);
}

static int no_fexecve(int fd, char *const argv[], char *const envp[])
{
	return fdreq_fail(ENOSYS);
}

static int raw_execveat(int dirfd, const char *path, char *const argv[],
			char *const envp[], int flags)
{
	return sys_result(
		sys_call(SYS_execveat, dirfd, path, argv, envp, flags));
}

REAL_SLOT(posix_spawn, no_posix_spawn);
REAL_SLOT(posix_spawnp, no_posix_spawn);
REAL_SLOT(vfork, no_fork);
/* Looked up when first needed: its address is no relocation at start. */
REAL_SLOT(fork, no_fork);
REAL_SLOT_CHILD(execve, raw_execve);
REAL_SLOT_CHILD(execv, raw_execv);
REAL_SLOT_CHILD(execvp, raw_execv);
REAL_SLOT_CHILD(execvpe, no_execvpe);
REAL_SLOT(fexecve, no_fexecve);
#if HAVE__FORK
REAL_SLOT(_Fork, no_fork);
#endif
REAL_SLOT(clone, no_clone);
#if HAVE_EXECVEAT
REAL_SLOT(execveat, raw_execveat);
#else
int execveat(int dirfd, const char *path, char *const argv[],
	     char *const envp[], int flags);
#endif

static int spawn(int (*real)(pid_t *, const char *,
			     const posix_spawn_file_actions_t *,
			     const posix_spawnattr_t *, char *const[],
			     char *const[]),
		 pid_t *pid, const char *path,
		 const posix_spawn_file_actions_t *fa,
		 const posix_spawnattr_t *attr, char *const argv[],
		 char *const envp[])
{
	uint32_t word = policy_word();
	size_t nslots = exec_env_slots(envp, word),
	       room = exec_env_preload_room(word);
	char *slots[nslots], preload[room];
	char *const *env = exec_env(envp, slots, nslots, preload, room);
	struct handoff_kept kept;
	int ret;

	/* Declared nonnull by posix_spawn's header: argv NULL crashes
	 * glibc itself, a NULL path is the child's EFAULT (export.h). */
	MAY_BE_NULL(argv);
	MAY_BE_NULL(path);
	forklock_enter_loaded(FORKLOCK_SPAWN);
	exec_prepare(argv, env, path, HANDOFF_AS_SPAWNER, word, &kept);
	ret = real(pid, path, fa, attr, argv, env);
	/* The child has its copy: no later one gets them by accident. */
	exec_undo(&kept);
	forklock_exit();
	return ret;
}

CLOEXEC_EXPORT int posix_spawn(pid_t *pid, const char *path,
			       const posix_spawn_file_actions_t *fa,
			       const posix_spawnattr_t *attr,
			       char *const argv[], char *const envp[])
{
	return spawn(REAL(posix_spawn), pid, path, fa, attr, argv, envp);
}

CLOEXEC_EXPORT int posix_spawnp(pid_t *pid, const char *file,
				const posix_spawn_file_actions_t *fa,
				const posix_spawnattr_t *attr,
				char *const argv[], char *const envp[])
{
	return spawn(REAL(posix_spawnp), pid, file, fa, attr, argv, envp);
}

/*
 * posix_spawn@GLIBC_2.2 and the like, before glibc 2.15: a file the kernel
 * will not execute (ENOEXEC) is run by /bin/sh instead, where the default
 * version fails.
 */
#define SPAWN_COMPAT(sym, tag, ver)                                            \
	REAL_SLOT_VERSION(sym, tag, ver, no_posix_spawn);                      \
	COMPAT_EXPORT(sym, tag, ver) int sym##_##tag(                          \
		pid_t *pid, const char *path,                                  \
		const posix_spawn_file_actions_t *fa,                          \
		const posix_spawnattr_t *attr, char *const argv[],             \
		char *const envp[])                                            \
	{                                                                      \
		return spawn(REAL_VERSION(sym, tag), pid, path, fa, attr,      \
			     argv, envp);                                      \
	}
#ifdef COMPAT_posix_spawn
COMPAT_posix_spawn(SPAWN_COMPAT)
#endif
#ifdef COMPAT_posix_spawnp
COMPAT_posix_spawnp(SPAWN_COMPAT)
#endif

/*
 * system(), as glibc 2.36 does it: SIGINT and SIGQUIT ignored and SIGCHLD
 * blocked while the command runs (counted, for concurrent callers), the
 * child reset to the caller's mask and to default dispositions, and a
 * cancelled caller kills and reaps its child.
 */
static pthread_mutex_t system_lock ZERO_DATA = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction system_intr ZERO_DATA, system_quit ZERO_DATA;
static int system_users ZERO_DATA;

static void system_restore_signals(void)
{
	pthread_mutex_lock(&system_lock);
	if (--system_users == 0) {
		sigaction(SIGINT, &system_intr, NULL);
		sigaction(SIGQUIT, &system_quit, NULL);
	}
	pthread_mutex_unlock(&system_lock);
}

static void system_cancelled(void *arg)
{
	pid_t pid = *(pid_t *)arg;

	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	system_restore_signals();
}

static int system_run(const char *line)
{
	char *argv[] = { "sh", "-c", "--", (char *)line, NULL };
	struct sigaction ignore = { .sa_handler = SIG_IGN };
	posix_spawnattr_t attr;
	sigset_t block, omask, reset;
	int status = -1, ret;
	pid_t pid;

	sigemptyset(&ignore.sa_mask);
	pthread_mutex_lock(&system_lock);
	if (system_users++ == 0) {
		sigaction(SIGINT, &ignore, &system_intr);
		sigaction(SIGQUIT, &ignore, &system_quit);
	}
	pthread_mutex_unlock(&system_lock);

	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &omask);
	sigemptyset(&reset);
	if (system_intr.sa_handler != SIG_IGN)
		sigaddset(&reset, SIGINT);
	if (system_quit.sa_handler != SIG_IGN)
		sigaddset(&reset, SIGQUIT);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &omask);
	posix_spawnattr_setsigdefault(&attr, &reset);
	posix_spawnattr_setflags(&attr,
				 POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	ret = spawn(REAL(posix_spawn), &pid, "/bin/sh", NULL, &attr, argv,
		    environ);
	posix_spawnattr_destroy(&attr);

	if (ret == 0) {
		/* waitpid() is the cancellation point system() is. */
		pthread_cleanup_push(system_cancelled, &pid);
		if (waitpid(pid, &status, 0) != pid)
			status = -1;
		pthread_cleanup_pop(0);
	} else {
		/* As if the shell had run and called _exit(127). */
		status = 127 << 8;
	}
	system_restore_signals();
	sigprocmask(SIG_SETMASK, &omask, NULL);
	if (ret)
		errno = ret;
	return status;
}

/* A NULL command asks whether a shell is there at all. */
CLOEXEC_EXPORT int system(const char *line)
{
	if (!line)
		return system_run("exit 0") == 0;
	return system_run(line);
}

/*
 * vfork cannot be wrapped by a C function: the child would return through
 * the wrapper's frame and leave the parent a clobbered one.  A stub jumps
 * instead to what vfork_target() chooses, with the caller's return address
 * untouched: the real vfork, or, once the fallback is in use, fork, whose
 * child gets the atfork handlers.  (A vfork child shares memory with its
 * parent; a program that relies on that, beyond what POSIX allows, sees
 * the difference only on a kernel without the flagged calls.)
 */
void *cloexec_vfork_target(void) __attribute__((used, visibility("hidden")));

void *cloexec_vfork_target(void)
{
	/* The child shares this memory: no load half done in it (policy.h). */
	policy_word();
	if (cap_fallback_seen())
		return (void *)REAL(fork);
	return (void *)REAL(vfork);
}

#if defined(__x86_64__)
__asm__(".text\n"
	".globl vfork\n"
	".type vfork, @function\n"
	"vfork:\n"
	"	sub $8, %rsp\n"
	"	call cloexec_vfork_target\n"
	"	add $8, %rsp\n"
	"	jmp *%rax\n"
	".size vfork, .-vfork\n");
#elif defined(__i386__)
__asm__(".text\n"
	".globl vfork\n"
	".type vfork, @function\n"
	"vfork:\n"
	"	sub $12, %esp\n"
	"	call cloexec_vfork_target\n"
	"	add $12, %esp\n"
	"	jmp *%eax\n"
	".size vfork, .-vfork\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl vfork\n"
	".type vfork, %function\n"
	"vfork:\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	bl cloexec_vfork_target\n"
	"	ldp x29, x30, [sp], #16\n"
	"	br x0\n"
	".size vfork, .-vfork\n");
#else
#error "libcloexec: no vfork stub for this architecture"
#endif

#if HAVE__FORK
/* fork without the atfork handlers: the handlers' work, done here. */
CLOEXEC_EXPORT pid_t _Fork(void)
{
	pid_t pid;

	real_resolve_all();
	forklock_prepare();
	pid = REAL(_Fork)();
	if (pid == 0)
		forklock_child();
	else
		forklock_parent();
	return pid;
}

/*
 * Without CLONE_VM, clone() makes a copy of this process as fork does, but
 * runs no atfork handlers, and libc resets none of its locks in the child:
 * the child needs the real functions resolved (real.h) and the fork child
 * handler's work, which runs before the caller's function.  The call's
 * description is on this stack, which the child has a copy of.  With
 * CLONE_VM it is a thread, or a child that borrows this memory until it
 * execs (posix_spawn's way): the policy is settled first (policy.h).
 */
struct clone_call {
	int (*fn)(void *);
	void *arg;
};

static int clone_child(void *p)
{
	struct clone_call *call = p;

	forklock_child();
	return call->fn(call->arg);
}

CLOEXEC_EXPORT READS_UNPASSED_ARGS int clone(int (*fn)(void *), void *stack,
					     int flags, void *arg, ...)
{
	struct clone_call call = { fn, arg };
	void *parent_tid, *tls, *child_tid;
	int ret, saved_errno;
	va_list ap;

	va_start(ap, arg);
	parent_tid = va_arg(ap, void *);
	tls = va_arg(ap, void *);
	child_tid = va_arg(ap, void *);
	va_end(ap);
	/* Without a function or a stack libc's answer is EINVAL: no child. */
	if (!fn || !stack)
		return REAL(clone)(fn, stack, flags, arg, parent_tid, tls,
				   child_tid);
	if (flags & CLONE_VM) {
		policy_word();
		return REAL(clone)(fn, stack, flags, arg, parent_tid, tls,
				   child_tid);
	}
	real_resolve_all();
	forklock_prepare();
	ret = REAL(clone)(clone_child, stack, flags, &call, parent_tid, tls,
			  child_tid);
	saved_errno = errno;
	forklock_parent();
	errno = saved_errno;
	return ret;
}
#endif

/*
 * exec without fork replaces this process, with whatever another thread
 * has not marked yet: wait for the windows to close, and hold new ones off
 * until the exec has succeeded or failed.  One function for every form, so
 * that each gets the same preparation (exec.h) and, with scope=process,
 * the array forms become their envp forms with the cleaned environment.
 */
enum exec_form { EXEC_VE, EXEC_V, EXEC_VP, EXEC_VPE, EXEC_FD, EXEC_AT };

struct exec_call {
	enum exec_form form;
	const char *path; /* or file, for the p forms */
	int fd;		  /* fexecve, execveat */
	int flags;	  /* execveat */
	char *const *argv;
	/* environ for the forms without one; NULL is the caller's own: the
	 * kernel takes it as empty, and glibc's fexecve refuses it. */
	char *const *envp;
};

WRAPPER_HELPER int exec_run(const struct exec_call *c)
{
	char *const *envp = c->envp, *const *argv = c->argv;
	const char *path = c->path;
	uint32_t word = exec_policy_word();
	size_t nslots = exec_env_slots(envp, word),
	       room = exec_env_preload_room(word);
	char *slots[nslots], preload[room];
	char *const *env = exec_env(envp, slots, nslots, preload, room);
	bool own = env != envp, vfork_child = forklock_in_vfork_child();
	struct handoff_kept kept;
	int err;

	/*
	 * The headers declare path and argv nonnull; the kernel takes a NULL
	 * argv as empty, and a NULL path is its EFAULT (export.h).
	 */
	MAY_BE_NULL(argv);
	MAY_BE_NULL(path);
	/*
	 * A vfork child's lock is its parent's: it must not take it.  An exec
	 * in place makes no child: the policy is loaded only if it must be.
	 */
	if (!vfork_child)
		forklock_enter_loaded(FORKLOCK_SPAWN);
	exec_prepare(argv, env, path,
		     vfork_child ? HANDOFF_AS_VFORK_CHILD : HANDOFF_AS_SELF,
		     word, &kept);
	switch (c->form) {
	case EXEC_VE:
		REAL_EXEC(execve, vfork_child)(c->path, c->argv, env);
		break;
	case EXEC_V:
		if (own)
			REAL_EXEC(execve, vfork_child)(c->path, c->argv, env);
		else
			REAL_EXEC(execv, vfork_child)(c->path, c->argv);
		break;
	case EXEC_VP:
		if (own)
			REAL_EXEC(execvpe, vfork_child)(c->path, c->argv, env);
		else
			REAL_EXEC(execvp, vfork_child)(c->path, c->argv);
		break;
	case EXEC_VPE:
		REAL_EXEC(execvpe, vfork_child)(c->path, c->argv, env);
		break;
	case EXEC_FD:
		REAL_EXEC(fexecve, vfork_child)(c->fd, c->argv, env);
		break;
	case EXEC_AT:
#if HAVE_EXECVEAT
		REAL_EXEC(execveat, vfork_child)(c->fd, c->path, c->argv, env,
						 c->flags);
#else
		raw_execveat(c->fd, c->path, c->argv, env, c->flags);
#endif
		break;
	}
	coverage_after_exec(vfork_child);
	err = errno;
	exec_undo(&kept);
	if (!vfork_child)
		forklock_exit();
	errno = err;
	return -1;
}

CLOEXEC_EXPORT CHILD_PATH int execve(const char *path, char *const argv[],
				     char *const envp[])
{
	struct exec_call c = { EXEC_VE, path, -1, 0, argv, envp };

	return exec_run(&c);
}

CLOEXEC_EXPORT CHILD_PATH int execv(const char *path, char *const argv[])
{
	struct exec_call c = { EXEC_V, path, -1, 0, argv, environ };

	return exec_run(&c);
}

CLOEXEC_EXPORT CHILD_PATH int execvp(const char *file, char *const argv[])
{
	struct exec_call c = { EXEC_VP, file, -1, 0, argv, environ };

	return exec_run(&c);
}

CLOEXEC_EXPORT CHILD_PATH int execvpe(const char *file, char *const argv[],
				      char *const envp[])
{
	struct exec_call c = { EXEC_VPE, file, -1, 0, argv, envp };

	return exec_run(&c);
}

CLOEXEC_EXPORT CHILD_PATH int fexecve(int fd, char *const argv[],
				      char *const envp[])
{
	struct exec_call c = { EXEC_FD, NULL, fd, 0, argv, envp };

	return exec_run(&c);
}

#if HAVE_EXECVEAT
CLOEXEC_EXPORT CHILD_PATH int execveat(int dirfd, const char *path,
				       char *const argv[], char *const envp[],
				       int flags)
{
	struct exec_call c = { EXEC_AT, path, dirfd, flags, argv, envp };

	return exec_run(&c);
}
#endif

/*
 * The execl family: the arguments gathered into an array on the stack
 * (exec is async-signal-safe: no malloc), then the array form.
 */
CHILD_PATH static size_t list_length(va_list *ap)
{
	size_t n = 1;
	va_list count;

	va_copy(count, *ap);
	while (va_arg(count, char *))
		n++;
	va_end(count);
	return n;
}

CHILD_PATH static void list_fill(char **argv, const char *arg0, size_t n,
				 va_list *ap)
{
	size_t i;

	argv[0] = (char *)arg0;
	for (i = 1; i <= n; i++)
		argv[i] = va_arg(*ap, char *);
}

CLOEXEC_EXPORT CHILD_PATH int execl(const char *path, const char *arg0, ...)
{
	va_list ap;

	va_start(ap, arg0);
	size_t n = list_length(&ap);
	char *argv[n + 1];
	struct exec_call c = { EXEC_V, path, -1, 0, argv, environ };

	list_fill(argv, arg0, n, &ap);
	va_end(ap);
	return exec_run(&c);
}

CLOEXEC_EXPORT CHILD_PATH int execlp(const char *file, const char *arg0, ...)
{
	va_list ap;

	va_start(ap, arg0);
	size_t n = list_length(&ap);
	char *argv[n + 1];
	struct exec_call c = { EXEC_VP, file, -1, 0, argv, environ };

	list_fill(argv, arg0, n, &ap);
	va_end(ap);
	return exec_run(&c);
}

CLOEXEC_EXPORT CHILD_PATH int execle(const char *path, const char *arg0, ...)
{
	va_list ap;

	va_start(ap, arg0);
	size_t n = list_length(&ap);
	char *argv[n + 1];
	struct exec_call c = { EXEC_VE, path, -1, 0, argv, NULL };

	list_fill(argv, arg0, n, &ap);
	c.envp = va_arg(ap, char *const *);
	va_end(ap);
	return exec_run(&c);
}
