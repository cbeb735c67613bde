/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program bound to older versions of libc functions, as one linked
 * against an old glibc is: the references name the version with .symver.
 * tests/cmd/symvers.test runs it with and without the library and
 * compares what each call does, and whether its fds are close-on-exec.
 *
 * oldver CASE: prints one "key=value ..." line.  CASE "list" prints the
 * cases this architecture has (the versions are glibc's, per ABI).
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#if defined(__GLIBC__)
#if defined(__i386__)
#define FIRST "GLIBC_2.0"
#define OLD_LIBIO 1 /* FILE of glibc 2.0: fopen, popen, tmpfile */
#define OLD_FCNTL 1 /* fcntl before 2.28: F_OFD_* take a flock64 */
#define OLD_SPAWN "GLIBC_2.2"
#elif defined(__x86_64__)
#define FIRST "GLIBC_2.2.5"
#define OLD_SPAWN "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define FIRST "GLIBC_2.17"
#endif
#endif

static int cloexec(int fd)
{
	return (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0;
}

#ifdef OLD_LIBIO
FILE *old_fopen(const char *path, const char *mode);
FILE *old_popen(const char *command, const char *mode);
FILE *old_tmpfile(void);
__asm__(".symver old_fopen, fopen@" FIRST);
__asm__(".symver old_popen, popen@" FIRST);
__asm__(".symver old_tmpfile, tmpfile@" FIRST);

/* glibc 2.0's FILE is smaller: libc marks it by a vtable offset. */
static void show_file(const char *call, FILE *f)
{
	if (!f) {
		printf("%s failed: %s\n", call, strerror(errno));
		return;
	}
	printf("%s old_file=%d cloexec=%d\n", call, f->_vtable_offset != 0,
	       cloexec(fileno(f)));
}
#endif

#ifdef OLD_FCNTL
int old_fcntl(int fd, int cmd, ...);
__asm__(".symver old_fcntl, fcntl@" FIRST);

/*
 * A lock on bytes 10 to 19 through one open file description, then asked
 * about through another: the old fcntl hands F_OFD_GETLK a struct flock64
 * as it is; the default one would read it as a struct flock.
 */
static void fcntl_case(void)
{
	char path[] = "/tmp/oldver.XXXXXX";
	struct flock64 lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			      .l_start = 10, .l_len = 10 };
	int fd1 = mkstemp(path), fd2, dupfd;

	fd2 = open(path, O_RDWR);
	unlink(path);
	if (fd1 < 0 || fd2 < 0 ||
	    syscall(SYS_fcntl64, fd1, F_OFD_SETLK, &lk) != 0) {
		printf("fcntl setup failed: %s\n", strerror(errno));
		return;
	}
	memset(&lk, 0, sizeof(lk));
	lk.l_type = F_WRLCK;
	lk.l_whence = SEEK_SET;
	if (old_fcntl(fd2, F_OFD_GETLK, &lk) != 0) {
		printf("fcntl F_OFD_GETLK failed: %s\n", strerror(errno));
		return;
	}
	dupfd = old_fcntl(fd2, F_DUPFD, 20);
	printf("fcntl locked=%d start=%lld len=%lld dupfd_cloexec=%d\n",
	       lk.l_type == F_WRLCK, (long long)lk.l_start,
	       (long long)lk.l_len, dupfd < 0 ? -1 : cloexec(dupfd));
}
#endif

#ifdef OLD_SPAWN
int old_posix_spawn(pid_t *pid, const char *path,
		    const posix_spawn_file_actions_t *fa,
		    const posix_spawnattr_t *attr, char *const argv[],
		    char *const envp[]);
__asm__(".symver old_posix_spawn, posix_spawn@" OLD_SPAWN);

/* Before glibc 2.15, a file the kernel will not execute went to sh. */
static void spawn_case(void)
{
	char dir[] = "/tmp/oldver.XXXXXX", path[64];
	char *argv[] = { path, NULL };
	int ret, status = -1;
	pid_t pid;
	FILE *f;

	if (!mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/script", dir);
	f = fopen(path, "w");
	fputs("exit 7\n", f);
	fclose(f);
	chmod(path, 0700);
	ret = old_posix_spawn(&pid, path, NULL, NULL, argv, environ);
	if (ret == 0)
		waitpid(pid, &status, 0);
	unlink(path);
	rmdir(dir);
	printf("posix_spawn ret=%s status=%d\n", ret ? strerror(ret) : "0",
	       ret == 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}
#endif

#ifdef FIRST
int old_openpty(int *master, int *slave, char *name,
		const struct termios *termp, const struct winsize *winp);
__asm__(".symver old_openpty, openpty@" FIRST);

/* libutil's openpty, before glibc 2.34 moved it into libc. */
static void openpty_case(void)
{
	int master, slave;

	if (old_openpty(&master, &slave, NULL, NULL, NULL) != 0) {
		printf("openpty failed: %s\n", strerror(errno));
		return;
	}
	printf("openpty cloexec=%d,%d\n", cloexec(master), cloexec(slave));
}
#endif

/* The default versions: what an ordinary program and dlsym() reach. */
static void default_case(void)
{
	FILE *(*by_name)(const char *, const char *);
	FILE *f = fopen("/dev/null", "r");

	*(void **)&by_name = dlsym(RTLD_DEFAULT, "fopen");
	printf("fopen default cloexec=%d", cloexec(fileno(f)));
#ifdef __GLIBC__
	printf(" new_file=%d", f->_vtable_offset == 0);
#endif
	f = by_name("/dev/null", "r");
	printf(" dlsym_cloexec=%d\n", cloexec(fileno(f)));
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "list";

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(c, "list")) {
		printf("default");
#ifdef OLD_LIBIO
		printf(" fopen popen tmpfile");
#endif
#ifdef OLD_FCNTL
		printf(" fcntl");
#endif
#ifdef OLD_SPAWN
		printf(" posix_spawn");
#endif
#ifdef FIRST
		printf(" openpty");
#endif
		printf("\n");
		return 0;
	}
	if (!strcmp(c, "default"))
		default_case();
#ifdef OLD_LIBIO
	else if (!strcmp(c, "fopen"))
		show_file(c, old_fopen("/dev/null", "r"));
	else if (!strcmp(c, "popen"))
		show_file(c, old_popen("true", "r"));
	else if (!strcmp(c, "tmpfile"))
		show_file(c, old_tmpfile());
#endif
#ifdef OLD_FCNTL
	else if (!strcmp(c, "fcntl"))
		fcntl_case();
#endif
#ifdef OLD_SPAWN
	else if (!strcmp(c, "posix_spawn"))
		spawn_case();
#endif
#ifdef FIRST
	else if (!strcmp(c, "openpty"))
		openpty_case();
#endif
	else
		return 2;
	return 0;
}
