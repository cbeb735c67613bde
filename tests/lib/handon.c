/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * handon: the small C parent of tests/cmd/evidence.test.  Each mode does
 * what a real program does to hand an fd on (or to keep one), with plain
 * calls, then starts PROGRAM with %fd in its arguments replaced by the
 * number:
 *
 *	handon childdup PROGRAM ARG...
 *		open /etc/passwd, fork; the child dup()s it and closes the
 *		original, then execs PROGRAM with the copy's number
 *	handon childopen PROGRAM ARG...
 *		fork; the child opens /etc/passwd, then execs PROGRAM
 *	handon dups PROGRAM ARG...
 *		pipe, fork; the child dup()s the write end three times and
 *		closes the original, then execs PROGRAM; the parent waits for
 *		the end of the pipe, prints "eof", then waits for the child
 *	handon lock TYPE [-x|-u] FILE PROGRAM ARG...
 *		open FILE and lock it (flock, lockf, fcntl or ofd); fork and
 *		exec PROGRAM, closing its own copy (or, with -x, exec in place;
 *		with -u, unlock first)
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
 *	handon groups FILE PROGRAM ARG...
 *		open FILE, setgroups(0, NULL) (the ids stay), exec in place
 *	handon dropopen UID FILE PROGRAM ARG...
 *		drop to UID first, then open FILE, exec in place
 *
 * Bounded: 60 seconds, then SIGALRM ends it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1u << 2)
#endif

static char **with_fd(char **argv, int fd)
{
	static char number[16];
	int i;

	snprintf(number, sizeof(number), "%d", fd);
	for (i = 0; argv[i]; i++)
		if (!strcmp(argv[i], "%fd"))
			argv[i] = number;
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

static int lock(int argc, char **argv)
{
	int in_place = argc > 4 && !strcmp(argv[3], "-x");
	int unlocked = argc > 4 && !strcmp(argv[3], "-u");
	int opt = in_place || unlocked;
	char **prog = argv + 4 + opt;
	int fd;
	pid_t pid;

	if (argc < 5 + opt)
		return 2;
	fd = plain_open(argv[3 + opt]);
	if (fd < 0 || take(argv[2], fd, 0) ||
	    (unlocked && unlock(argv[2], fd))) {
		perror("handon: lock");
		return 2;
	}
	if (in_place)
		return run(prog, fd);
	pid = fork();
	if (pid == 0)
		_exit(run(prog, fd));
	close(fd);
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

static int child(char **argv, int copy)
{
	int fd = copy ? plain_open("/etc/passwd") : -1;
	pid_t pid = fork();

	if (pid == 0) {
		if (!copy)
			_exit(run(argv, plain_open("/etc/passwd")));
		copy = dup(fd);
		close(fd);
		_exit(run(argv, copy));
	}
	return wait_for(pid);
}

static int dups(char **argv)
{
	int p[2], fd = -1, i;
	char c;
	pid_t pid;

	if (pipe(p))
		return 2;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		for (i = 0; i < 3; i++)
			fd = dup(p[1]);
		close(p[1]);
		_exit(run(argv, fd));
	}
	close(p[1]);
	while (read(p[0], &c, 1) > 0)
		;
	puts("eof");
	fflush(stdout);
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
	if (raw == 1 ? syscall(SYS_setgroups, 0, NULL) ||
			       syscall(SYS_setresgid, uid, uid, uid) ||
			       syscall(SYS_setresuid, uid, uid, uid) :
		       setgroups(0, NULL) || setresgid(uid, uid, uid) ||
			       setresuid(uid, uid, uid)) {
		perror("handon: drop");
		return 2;
	}
	if (raw == 2 && (fd = plain_open(argv[3])) < 0)
		return 2;
	return run(argv + 4, fd);
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
	if (argc > 2 && !strcmp(argv[1], "childdup"))
		return child(argv + 2, 1);
	if (argc > 2 && !strcmp(argv[1], "childopen"))
		return child(argv + 2, 0);
	if (argc > 2 && !strcmp(argv[1], "dups"))
		return dups(argv + 2);
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
	if (argc > 4 && !strcmp(argv[1], "dropopen"))
		return drop(argv, 2);
	if (argc > 3 && !strcmp(argv[1], "groups"))
		return groups(argv);
	fputs("usage: see tests/lib/handon.c\n", stderr);
	return 2;
}
