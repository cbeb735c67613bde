/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * handon: the small C parent of tests/cmd/evidence.test.  Each mode does
 * what a real program does to hand an fd on (or to keep one), with plain
 * calls, then starts PROGRAM with %fd in its arguments replaced by the
 * number (and /dev/fd/%fd by its path):
 *
 *	handon child HOW PROGRAM ARG...
 *		open /etc/passwd, fork; the child makes a copy of it by HOW
 *		(dup, dup2:N, dupfd:N for F_DUPFD with the minimum N,
 *		dupfd_cloexec) and closes the original, then execs PROGRAM with
 *		the copy's number; HOW "open": the child opens /etc/passwd,
 *		"open:N": again and again, until it is fd N
 *	handon lock TYPE -x|-d|-D|-s|-r|-h|-u|-c FILE PROGRAM ARG...
 *		open FILE and lock it (flock, lockf, fcntl or ofd), then start
 *		PROGRAM: -x in place; -d as daemonize(1) does (fork, the child
 *		calls setsid and execs, the parent exits at once); -D the same
 *		by _Fork(), which runs no fork handlers; -U the same by
 *		glibc's __clone, which the library does not see; -s as -d,
 *		but the parent lingers until the child ends; -r fork, the
 *		parent exits, the child execs once it is gone; -h as a daemon
 *		runs a hook (fork and exec, the parent keeps its copy and
 *		waits); -c a fork child locks and execs in place (a job
 *		runner), the parent waits; -u the same, but it unlocks first
 *	handon probe TYPE FILE
 *		print "held" if the lock of TYPE on FILE is taken, else "free"
 *	handon closerange PROGRAM ARG...
 *		open /etc/passwd, close_range(3, ~0, CLOSE_RANGE_CLOEXEC),
 *		exec PROGRAM in place
 *	handon stale PROGRAM ARG...
 *		open and close /etc/hostname, then setpwent() (glibc opens
 *		/etc/passwd there, close-on-exec, at the same number, where no
 *		wrapper sees it); exec PROGRAM in place with that number
 *	handon drop UID FILE PROGRAM ARG...
 *		open FILE, drop to UID (setgroups, setresgid, setresuid: libc),
 *		exec PROGRAM in place
 *	handon rawdrop UID FILE PROGRAM ARG...
 *		the same by syscall(), which tells the library nothing
 *	handon rawgid UID FILE PROGRAM ARG...
 *		the same, the group ids alone (the user ids stay)
 *	handon groups FILE PROGRAM ARG...
 *		open FILE, setgroups(0, NULL) (the ids stay), exec in place
 *	handon dropopen UID FILE PROGRAM ARG...
 *		drop to UID first, then open FILE, exec in place
 *	handon dropdup UID FILE PROGRAM ARG...
 *		open FILE (and dup it once), drop to UID, dup() the fd, exec in
 *		place with the copy's number (CWE-403: a copy made after the
 *		drop)
 *	handon duphigh UID FILE PROGRAM ARG...
 *		the same, FILE's fd moved to 4096 first by F_DUPFD (the fd
 *		table's second chunk; the fd limit raised to 4097 if lower;
 *		77 where it cannot be)
 *	handon terminal [spawn|late] PROGRAM ARG...
 *		openpty(), open /etc/passwd, fork and exec PROGRAM: a terminal
 *		program starting a session; with spawn, by posix_spawnp, no
 *		fork before it; with late, /etc/passwd is opened and a child
 *		forked (which exits) before the terminal is made
 *	handon children N PROGRAM ARG...
 *		open /etc/passwd, then N times, one after another: fork, the
 *		child execs PROGRAM, the parent waits for it (a daemon's hooks)
 *
 * Bounded: 60 seconds, then SIGALRM ends it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pty.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1u << 2)
#endif

static char **with_fd(char **argv, int fd)
{
	static char number[16], path[32];
	int i;

	snprintf(number, sizeof(number), "%d", fd);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd);
	for (i = 0; argv[i]; i++)
		if (!strcmp(argv[i], "%fd"))
			argv[i] = number;
		else if (!strcmp(argv[i], "/dev/fd/%fd"))
			argv[i] = path;
	return argv;
}

static int run(char **argv, int fd)
{
	argv = with_fd(argv, fd);
	execvp(argv[0], argv);
	perror(argv[0]);
	return 127;
}

static int wait_for(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 126;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int plain_open(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT, 0600);

	if (fd < 0)
		fd = open(path, O_RDONLY);
	if (fd < 0)
		perror(path);
	return fd;
}

/* Take (or, with try, test without waiting) a lock of type on fd. */
static int take(const char *type, int fd, int try)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (!strcmp(type, "flock"))
		return flock(fd, LOCK_EX | (try ? LOCK_NB : 0));
	if (!strcmp(type, "lockf"))
		return lockf(fd, try ? F_TLOCK : F_LOCK, 0);
	if (!strcmp(type, "fcntl"))
		return fcntl(fd, try ? F_SETLK : F_SETLKW, &fl);
	if (!strcmp(type, "ofd"))
		return fcntl(fd, try ? F_OFD_SETLK : F_OFD_SETLKW, &fl);
	errno = EINVAL;
	return -1;
}

static int unlock(const char *type, int fd)
{
	struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET };

	if (!strcmp(type, "flock"))
		return flock(fd, LOCK_UN);
	if (!strcmp(type, "lockf"))
		return lockf(fd, F_ULOCK, 0);
	return fcntl(fd, strcmp(type, "ofd") ? F_SETLK : F_OFD_SETLK, &fl);
}

#ifdef __GLIBC__
/* glibc's own name for its clone(), which the library leaves alone. */
extern int __clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);
#endif

/*
 * A copy of this process, as fork() makes, running fn(arg) and exiting
 * with its value; made by glibc's __clone, which runs no fork handler.
 */
static pid_t unseen_copy(int (*fn)(void *), void *arg)
{
#ifdef __GLIBC__
	static char stack[1 << 16] __attribute__((aligned(16)));

	return __clone(fn, stack + sizeof(stack), SIGCHLD, arg);
#else
	(void)fn;
	(void)arg;
	errno = ENOSYS;
	return -1;
#endif
}

/*
 * The locker's ways to start PROGRAM (handon lock TYPE MODE ...): in
 * place, as a daemonizing launcher (daemonize(1): the child makes a
 * session of its own, the parent exits at once), as a launcher whose
 * child waits for the parent to be gone, or as a daemon running a hook
 * (it keeps its copy, and waits).
 */
struct locked {
	char mode;
	char **prog;
	int fd;
	pid_t parent;
};

/* The child's part: a session of its own, or a wait, then PROGRAM. */
static int start_locked(void *arg)
{
	struct locked *l = arg;

	if (strchr("dDUs", l->mode) && setsid() < 0)
		return 2;
	while (l->mode == 'r' && getppid() == l->parent)
		usleep(1000);
	return run(l->prog, l->fd);
}

static int lock(int argc, char **argv)
{
	static struct locked locked;
	const char *mode = argc > 4 ? argv[3] : "";
	char **prog = argv + 5;
	pid_t pid, parent = getpid();
	int fd;

	if (argc < 6 || mode[0] != '-' || !strchr("xdDUsrhuc", mode[1]))
		return 2;
	/*
	 * -c: a job runner's child locks, then becomes the job; -u: the same,
	 * but it unlocks first.
	 */
	if (mode[1] == 'c' || mode[1] == 'u') {
		pid = fork();
		if (pid != 0)
			return pid < 0 ? 2 : wait_for(pid);
	}
	fd = plain_open(argv[4]);
	if (fd < 0 || take(argv[2], fd, 0) ||
	    (mode[1] == 'u' && unlock(argv[2], fd))) {
		perror("handon: lock");
		return 2;
	}
	if (strchr("xcu", mode[1]))
		return run(prog, fd);
	locked = (struct locked){ mode[1], prog, fd, parent };
	if (mode[1] == 'U')
		pid = unseen_copy(start_locked, &locked);
	else
#if HAVE__FORK
		pid = mode[1] == 'D' ? _Fork() : fork();
#else
		pid = fork();
#endif
	if (pid < 0)
		return 2;
	if (pid == 0)
		_exit(start_locked(&locked));
	if (strchr("dDUr", mode[1]))
		return 0;
	return wait_for(pid);
}

static int probe(char **argv)
{
	int fd = plain_open(argv[3]);

	if (fd < 0)
		return 2;
	puts(take(argv[2], fd, 1) ? "held" : "free");
	return 0;
}

/*
 * fork; the child opens /etc/passwd, or makes a copy of the parent's
 * open of it by how (dup, dup2:N, dupfd:N, dupfd_cloexec), closes the
 * original, and execs PROGRAM with the copy's number.
 */
static int open_and_run(void *argv)
{
	return run(argv, plain_open("/etc/passwd"));
}

/* A copy of this process that the library cannot know for one. */
static int unseen(char **argv)
{
	return wait_for(unseen_copy(open_and_run, argv));
}

static int child(const char *how, char **argv)
{
	int fd, copy, n = strchr(how, ':') ? atoi(strchr(how, ':') + 1) : 0;
	pid_t pid;

	if (!strcmp(how, "unseen"))
		return unseen(argv);
	fd = strncmp(how, "open", 4) ? plain_open("/etc/passwd") : -1;
	pid = fork();

	if (pid == 0) {
		if (!strcmp(how, "open"))
			_exit(run(argv, plain_open("/etc/passwd")));
		if (!strncmp(how, "open:", 5)) {
			while ((copy = plain_open("/etc/passwd")) >= 0 &&
			       copy < n)
				;
			_exit(copy == n ? run(argv, copy) : 2);
		}
		if (!strcmp(how, "dup"))
			copy = dup(fd);
		else if (!strncmp(how, "dup2:", 5))
			copy = dup2(fd, n);
		else if (!strncmp(how, "dupfd:", 6))
			copy = fcntl(fd, F_DUPFD, n);
		else if (!strcmp(how, "dupfd_cloexec"))
			copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		else
			_exit(2);
		if (copy < 0)
			_exit(2);
		close(fd);
		_exit(run(argv, copy));
	}
	return wait_for(pid);
}

static int stale(char **argv)
{
	int fd;

	/*
	 * A close first: a wrapper's first call resolves the real function
	 * on its general path, and the usual close is the next, on the fast
	 * path (both must forget the number).
	 */
	close(plain_open("/etc/hostname"));
	fd = plain_open("/etc/hostname");
	close(fd);
	setpwent();
	if (fcntl(fd, F_GETFD) < 0) {
		fputs("handon: setpwent() opened nothing at the number\n",
		      stderr);
		return 3;
	}
	return run(argv, fd);
}

static int drop(char **argv, int raw)
{
	uid_t uid = (uid_t)atoi(argv[2]);
	int fd = raw == 2 ? -1 : plain_open(argv[3]);

	if (fd < 0 && raw != 2)
		return 2;
	if (raw == 4) {
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 4097) {
			rl.rlim_cur = 4097;
			if (rl.rlim_max < 4097)
				rl.rlim_max = 4097;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
		/* F_DUPFD, not dup2: a number chosen by dup2 is passed on. */
		if (fcntl(fd, F_DUPFD, 4096) != 4096) {
			perror("handon: F_DUPFD 4096");
			return 77;
		}
		close(fd);
		fd = 4096;
	}
	/* A copy made before, too: the library's dup is on its fast path. */
	if (raw == 3 || raw == 4)
		close(dup(fd));
	if (raw == 5 ? syscall(SYS_setresgid, uid, uid, uid) != 0 :
	    raw == 1 ? syscall(SYS_setgroups, 0, NULL) ||
			       syscall(SYS_setresgid, uid, uid, uid) ||
			       syscall(SYS_setresuid, uid, uid, uid) :
		       setgroups(0, NULL) || setresgid(uid, uid, uid) ||
			       setresuid(uid, uid, uid)) {
		perror("handon: drop");
		return 2;
	}
	if (raw == 2 && (fd = plain_open(argv[3])) < 0)
		return 2;
	if ((raw == 3 || raw == 4) && (fd = dup(fd)) < 0)
		return 2;
	return run(argv + 4, fd);
}

/*
 * A terminal program (tmux, screen, script): it makes a pty, then starts
 * a session's program in a fork child, with a file it opened plainly.
 * Or by posix_spawn: the library then asks whether this is a shell for
 * the first time after the terminal was made.
 */
static int terminal(char **argv)
{
	extern char **environ;
	int master, slave, fd = -1;
	pid_t pid;

	if (!strcmp(argv[0], "late")) {
		fd = plain_open("/etc/passwd");
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (wait_for(pid))
			return 2;
		argv++;
	}
	if (openpty(&master, &slave, NULL, NULL, NULL)) {
		perror("handon: openpty");
		return 2;
	}
	if (fd < 0)
		fd = plain_open("/etc/passwd");
	if (!strcmp(argv[0], "spawn")) {
		argv = with_fd(argv + 1, fd);
		if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ))
			return 127;
		return wait_for(pid);
	}
	pid = fork();
	if (pid == 0)
		_exit(run(argv, fd));
	return wait_for(pid);
}

static int children(char **argv)
{
	int fd = plain_open("/etc/passwd"), n = atoi(argv[2]), status = 0;
	pid_t pid;

	while (n-- > 0 && !status) {
		pid = fork();
		if (pid == 0)
			_exit(run(argv + 3, fd));
		status = wait_for(pid);
	}
	return status;
}

static int groups(char **argv)
{
	int fd = plain_open(argv[2]);

	if (fd < 0 || setgroups(0, NULL)) {
		perror("handon: groups");
		return 2;
	}
	return run(argv + 3, fd);
}

int main(int argc, char **argv)
{
	alarm(60);
	if (argc > 3 && !strcmp(argv[1], "child"))
		return child(argv[2], argv + 3);
	if (argc > 3 && !strcmp(argv[1], "lock"))
		return lock(argc, argv);
	if (argc == 4 && !strcmp(argv[1], "probe"))
		return probe(argv);
	if (argc > 2 && !strcmp(argv[1], "closerange")) {
#if HAVE_CLOSE_RANGE
		int fd = plain_open("/etc/passwd");

		if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC))
			return 2;
		return run(argv + 2, fd);
#else
		return 77; /* libc has no close_range() */
#endif
	}
	if (argc > 2 && !strcmp(argv[1], "stale"))
		return stale(argv + 2);
	if (argc > 4 && !strcmp(argv[1], "drop"))
		return drop(argv, 0);
	if (argc > 4 && !strcmp(argv[1], "rawdrop"))
		return drop(argv, 1);
	if (argc > 4 && !strcmp(argv[1], "rawgid"))
		return drop(argv, 5);
	if (argc > 4 && !strcmp(argv[1], "dropopen"))
		return drop(argv, 2);
	if (argc > 4 && !strcmp(argv[1], "dropdup"))
		return drop(argv, 3);
	if (argc > 4 && !strcmp(argv[1], "duphigh"))
		return drop(argv, 4);
	if (argc > 2 && !strcmp(argv[1], "terminal"))
		return terminal(argv + 2);
	if (argc > 3 && !strcmp(argv[1], "children"))
		return children(argv);
	if (argc > 3 && !strcmp(argv[1], "groups"))
		return groups(argv);
	fputs("usage: see tests/lib/handon.c\n", stderr);
	return 2;
}
