/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every fd-creating entry point, by table, in every configuration
 * (testlib.h): a plain call gets close-on-exec preloaded and a child does
 * not see it; an explicit flag request works with and without the library
 * (the emulated old kernel refuses or ignores it without); the same calls
 * through syscall().
 */
#include "config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <ftw.h>
#include <netdb.h>
#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

/* glibc's _FORTIFY_SOURCE entry points, called by name here. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
/* glibc's exported names of open, open64, pipe, dup2 and fcntl. */
int __open(const char *path, int flags, ...);
int __open64(const char *path, int flags, ...);
int __pipe(int fds[2]);
int __dup2(int oldfd, int newfd);
int __fcntl(int fd, int cmd, ...);

/* The mount API (Linux 5.2), where the C library's headers lack it. */
#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC 0x00000001
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC 0x00000001
#endif
#ifndef FSPICK_CLOEXEC
#define FSPICK_CLOEXEC 0x00000001
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef FSCONFIG_CMD_CREATE
#define FSCONFIG_CMD_CREATE 6
#endif
#define LIBC_MOUNT_API (HAVE_OPEN_TREE && HAVE_FSOPEN && HAVE_FSMOUNT)

#define SKIP (-2)

static char dir[] = "/tmp/cloexec-it.XXXXXX";

static int remove_entry(const char *p, const struct stat *st, int type,
			struct FTW *ftw)
{
	return remove(p);
}

static void remove_dir(void)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *path(const char *name)
{
	static char buf[sizeof(dir) + 64];
	static bool made;

	if (!made) {
		if (!mkdtemp(dir))
			ck_abort_msg("mkdtemp: %s", strerror(errno));
		atexit(remove_dir);
		made = true;
	}
	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

static int one(int fd, int fds[2])
{
	fds[0] = fd;
	return fd < 0 ? -1 : 1;
}

static int file_fd(FILE *f, int fds[2])
{
	return one(f ? fileno(f) : -1, fds);
}

/* An fd that arrives in a message (tl_sent_fd_socket), as one() has it. */
static int received_fd(struct msghdr *msg, int fds[2])
{
	fds[0] = tl_received_fd(msg);
	return fds[0] < 0 ? -1 : 1;
}

/* How a test reaches the kernel: libc, syscall(), or socketcall. */
enum via { LIBC, SYSCALL, SOCKETCALL };

#ifdef SYS_socketcall
/* socketcall(call, args), as 32-bit x86 libc makes its socket calls. */
static long socketcall(int call, long a0, long a1, long a2, long a3, long a4)
{
	long args[5] = { a0, a1, a2, a3, a4 };

	return syscall(SYS_socketcall, call, args);
}
#endif

static int via_recvmsg(int flags, enum via via, int fds[2])
{
	struct tl_fd_msg fm;
	struct msghdr *msg = &fm.msg;
	int s = tl_sent_fd_socket();
	long n;

	tl_fd_msg_init(&fm);
	n = via == LIBC ? recvmsg(s, msg, flags)
#ifdef SYS_socketcall
	    : via == SOCKETCALL ? socketcall(17, s, (long)msg, flags, 0, 0)
#endif
				: syscall(SYS_recvmsg, s, msg, flags);
	return n == 1 ? received_fd(msg, fds) : -1;
}

static int via_recvmmsg(int flags, enum via via, int fds[2])
{
	struct tl_fd_msg fm;
	struct mmsghdr m = { 0 };
	int s = tl_sent_fd_socket();
	long n;

	tl_fd_msg_init(&fm);
	m.msg_hdr = fm.msg;
	n = via == LIBC ? recvmmsg(s, &m, 1, flags, NULL)
#ifdef SYS_socketcall
	    : via == SOCKETCALL ? socketcall(19, s, (long)&m, 1, flags, 0)
#endif
				: syscall(SYS_recvmmsg, s, &m, 1, flags, NULL);
	return n == 1 ? received_fd(&m.msg_hdr, fds) : -1;
}

static int pending_listener(void)
{
	struct sockaddr_in addr;
	int l = tl_listener(&addr);

	tl_connect(&addr);
	return l;
}

static int file_handle_mount(struct file_handle **handle)
{
	int mount_id, fd = open(path("handle"), O_CREAT | O_RDWR, 0600);

	close(fd);
	*handle = malloc(sizeof(**handle) + MAX_HANDLE_SZ);
	(*handle)->handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, path("handle"), *handle, &mount_id,
			      0))
		return SKIP;
	return open(dir, O_RDONLY | O_DIRECTORY);
}

/*
 * An address the kernel refuses with EFAULT: not NULL, which glibc's
 * headers declare impossible (and UBSan checks), and hidden from the
 * compiler's own checks.
 */
static void *bad_address(void)
{
	static volatile uintptr_t addr = 8;

	return (void *)addr;
}

static sigset_t usr1(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	return set;
}

/* Permission and kernel configuration are not what is tested. */
static int skip_if_denied(int ret)
{
	return ret < 0 && (errno == EPERM || errno == EACCES ||
			   errno == EOPNOTSUPP || errno == ENODEV)
		       ? SKIP
		       : ret;
}

/* --- plain calls: no flag asked for --- */

static int mk_socket(int f[2])
{
	return one(socket(AF_INET, SOCK_STREAM, 0), f);
}
static int mk_socketpair(int f[2])
{
	return socketpair(AF_UNIX, SOCK_STREAM, 0, f) ? -1 : 2;
}
static int mk_accept(int f[2])
{
	return one(accept(pending_listener(), NULL, NULL), f);
}
static int mk_accept4(int f[2])
{
	return one(accept4(pending_listener(), NULL, NULL, 0), f);
}
static int mk_open(int f[2])
{
	return one(open("/dev/null", O_RDONLY), f);
}
static int mk_open64(int f[2])
{
	return one(open64("/dev/null", O_RDONLY), f);
}
static int mk_openat(int f[2])
{
	return one(openat(AT_FDCWD, "/dev/null", O_RDONLY), f);
}
static int mk_openat64(int f[2])
{
	return one(openat64(AT_FDCWD, "/dev/null", O_RDONLY), f);
}
static int mk_open_2(int f[2])
{
	return one(__open_2("/dev/null", O_RDONLY), f);
}
static int mk_open64_2(int f[2])
{
	return one(__open64_2("/dev/null", O_RDONLY), f);
}
static int mk_openat_2(int f[2])
{
	return one(__openat_2(AT_FDCWD, "/dev/null", O_RDONLY), f);
}
static int mk_openat64_2(int f[2])
{
	return one(__openat64_2(AT_FDCWD, "/dev/null", O_RDONLY), f);
}
static int mk_creat(int f[2])
{
	return one(creat(path("creat"), 0600), f);
}
static int mk_creat64(int f[2])
{
	return one(creat64(path("creat64"), 0600), f);
}
#if HAVE___OPEN
static int mk___open(int f[2])
{
	return one(__open("/dev/null", O_RDONLY), f);
}
#endif
#if HAVE___OPEN64
static int mk___open64(int f[2])
{
	return one(__open64("/dev/null", O_RDONLY), f);
}
#endif
static int mk_open_by_handle_at(int f[2])
{
	struct file_handle *h;
	int mount = file_handle_mount(&h), n;

	if (mount < 0) {
		free(h);
		return mount;
	}
	n = skip_if_denied(one(open_by_handle_at(mount, h, O_RDONLY), f));
	free(h);
	return n;
}
static int mk_fopen(int f[2])
{
	return file_fd(fopen("/dev/null", "r"), f);
}
/* Seven modifiers: glibc reads six, and there is no room for "e". */
static int mk_fopen_long_mode(int f[2])
{
	return file_fd(fopen("/dev/null", "rbbbbbbb"), f);
}
/*
 * Six modifiers: with the "e", nine bytes, more than the fast path's.
 * Twice: the first call of a process finds the real function.
 */
static int mk_fopen_mode7(int f[2])
{
	FILE *first = fopen("/dev/null", "rbbbbbb");

	if (first)
		fclose(first);
	return file_fd(fopen("/dev/null", "rbbbbbb"), f);
}

static int mk_fopen_ccs(int f[2])
{
	FILE *file = fopen(path("ccs"), "w,ccs=UTF-8");

	return file && fwide(file, 0) > 0 ? file_fd(file, f) : -1;
}
static int mk_fopen64(int f[2])
{
	return file_fd(fopen64("/dev/null", "r"), f);
}
static int mk_freopen(int f[2])
{
	return file_fd(freopen("/dev/null", "r", fopen("/dev/zero", "r")), f);
}
static int mk_freopen64(int f[2])
{
	return file_fd(freopen64("/dev/null", "r", fopen("/dev/zero", "r")),
		       f);
}
static int mk_popen(int f[2])
{
	return file_fd(popen("true", "r"), f);
}
static int mk_tmpfile(int f[2])
{
	return file_fd(tmpfile(), f);
}
static int mk_tmpfile64(int f[2])
{
	return file_fd(tmpfile64(), f);
}
static char *tmpl(const char *suffix)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "%s%s", path("tmpXXXXXX"), suffix);
	return buf;
}
static int mk_mkstemp(int f[2])
{
	return one(mkstemp(tmpl("")), f);
}
static int mk_mkstemp64(int f[2])
{
	return one(mkstemp64(tmpl("")), f);
}
static int mk_mkstemps(int f[2])
{
	return one(mkstemps(tmpl(".x"), 2), f);
}
static int mk_mkstemps64(int f[2])
{
	return one(mkstemps64(tmpl(".x"), 2), f);
}
static int mk_mkostemp(int f[2])
{
	return one(mkostemp(tmpl(""), O_APPEND), f);
}
static int mk_mkostemp64(int f[2])
{
	return one(mkostemp64(tmpl(""), 0), f);
}
static int mk_mkostemps(int f[2])
{
	return one(mkostemps(tmpl(".x"), 2, 0), f);
}
static int mk_mkostemps64(int f[2])
{
	return one(mkostemps64(tmpl(".x"), 2, 0), f);
}
static int mk_pipe(int f[2])
{
	return pipe(f) ? -1 : 2;
}
static int mk_pipe2(int f[2])
{
	return pipe2(f, 0) ? -1 : 2;
}
#if HAVE___PIPE
static int mk___pipe(int f[2])
{
	return __pipe(f) ? -1 : 2;
}
#endif
static int mk_dup(int f[2])
{
	return one(dup(0), f);
}
static int mk_dup2(int f[2])
{
	return one(dup2(0, 100), f);
}
static int mk_dup3(int f[2])
{
	return one(dup3(0, 101, 0), f);
}
static int mk_fcntl(int f[2])
{
	return one(fcntl(0, F_DUPFD, 10), f);
}
static int mk_fcntl64(int f[2])
{
	return one(fcntl64(0, F_DUPFD, 10), f);
}
#if HAVE___DUP2
static int mk___dup2(int f[2])
{
	return one(__dup2(0, 106), f);
}
#endif
#if HAVE___FCNTL
static int mk___fcntl(int f[2])
{
	return one(__fcntl(0, F_DUPFD, 10), f);
}
#endif
static int mk_epoll_create(int f[2])
{
	return one(epoll_create(1), f);
}
static int mk_epoll_create1(int f[2])
{
	return one(epoll_create1(0), f);
}
static int mk_inotify_init(int f[2])
{
	return one(inotify_init(), f);
}
static int mk_inotify_init1(int f[2])
{
	return one(inotify_init1(0), f);
}
static int mk_eventfd(int f[2])
{
	return one(eventfd(0, 0), f);
}
static int mk_signalfd(int f[2])
{
	sigset_t set = usr1();

	return one(signalfd(-1, &set, 0), f);
}
static int mk_timerfd_create(int f[2])
{
	return one(timerfd_create(CLOCK_MONOTONIC, 0), f);
}
static int mk_memfd_create(int f[2])
{
	return one(memfd_create("it", 0), f);
}
static int mk_fanotify_init(int f[2])
{
	return skip_if_denied(one(fanotify_init(FAN_CLASS_NOTIF, O_RDONLY), f));
}
static int mk_posix_openpt(int f[2])
{
	return one(posix_openpt(O_RDWR | O_NOCTTY), f);
}
static int mk_getpt(int f[2])
{
	return one(getpt(), f);
}
static int mk_openpty(int f[2])
{
	return openpty(&f[0], &f[1], NULL, NULL, NULL) ? -1 : 2;
}
static int mk_forkpty(int f[2])
{
	pid_t pid = forkpty(&f[0], NULL, NULL, NULL);

	if (pid == 0)
		_exit(0);
	return pid < 0 ? -1 : 1;
}
static int mk_recvmsg(int f[2])
{
	return via_recvmsg(0, LIBC, f);
}
static int mk_recvmmsg(int f[2])
{
	return via_recvmmsg(0, LIBC, f);
}
static int mk_rresvport(int f[2])
{
	int port = 1023;

	return skip_if_denied(one(rresvport(&port), f));
}
static int mk_rresvport_af(int f[2])
{
	int port = 1023;

	return skip_if_denied(one(rresvport_af(&port, AF_INET6), f));
}

/*
 * A one-shot rexec/rsh server on the loopback: it reads the four
 * NUL-ended fields the client sends (no stderr port, the two names, the
 * command) and answers success, one zero byte.  Its port, network order.
 */
static int rsh_server(pid_t *pid)
{
	struct sockaddr_in addr;
	int l = tl_listener(&addr), c, nuls = 0;
	char ch;

	*pid = fork();
	if (*pid == 0) {
		c = accept(l, NULL, NULL);
		while (c >= 0 && nuls < 4 && read(c, &ch, 1) == 1)
			nuls += ch == '\0';
		_exit(c < 0 || write(c, "", 1) != 1);
	}
	close(l);
	return addr.sin_port;
}

/* A client that failed before it connected leaves the server waiting. */
static int rsh_done(pid_t pid, int fd)
{
	if (fd < 0)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return fd;
}

static int mk_rexec(int f[2])
{
	char *host = (char[]){ "127.0.0.1" };
	pid_t pid;
	int port = rsh_server(&pid);

	return one(rsh_done(pid, rexec(&host, port, "u", "p", "true", NULL)),
		   f);
}
static int mk_rexec_af(int f[2])
{
	char *host = (char[]){ "127.0.0.1" };
	pid_t pid;
	int port = rsh_server(&pid);

	return one(rsh_done(pid, rexec_af(&host, port, "u", "p", "true", NULL,
					  AF_INET)),
		   f);
}
/* From a reserved port: root only. */
static int mk_rcmd(int f[2])
{
	char *host = (char[]){ "127.0.0.1" };
	pid_t pid;
	int port = rsh_server(&pid);

	return skip_if_denied(one(
		rsh_done(pid, rcmd(&host, (unsigned short)port, "u", "u",
				   "true", NULL)),
		f));
}
static int mk_rcmd_af(int f[2])
{
	char *host = (char[]){ "127.0.0.1" };
	pid_t pid;
	int port = rsh_server(&pid);

	return skip_if_denied(one(rsh_done(pid, rcmd_af(&host,
							(unsigned short)port,
							"u", "u", "true", NULL,
							AF_INET)),
				  f));
}

#ifdef SYS_open_tree
/*
 * The mount API, through libc or syscall().  fsconfig is not an fd
 * creator: always the system call.
 */
static long mount_open_tree(enum via via, int dirfd, const char *p,
			    unsigned flags)
{
#if LIBC_MOUNT_API
	if (via == LIBC)
		return open_tree(dirfd, p, flags);
#endif
	return syscall(SYS_open_tree, dirfd, p, flags);
}

static long mount_fsopen(enum via via, const char *fs, unsigned flags)
{
#if LIBC_MOUNT_API
	if (via == LIBC)
		return fsopen(fs, flags);
#endif
	return syscall(SYS_fsopen, fs, flags);
}

static long mount_fsmount(enum via via, int ctx, unsigned flags)
{
#if LIBC_MOUNT_API
	if (via == LIBC)
		return fsmount(ctx, flags, 0);
#endif
	return syscall(SYS_fsmount, ctx, flags, 0);
}

static long mount_fspick(enum via via, int dirfd, const char *p,
			 unsigned flags)
{
#if LIBC_MOUNT_API
	if (via == LIBC)
		return fspick(dirfd, p, flags);
#endif
	return syscall(SYS_fspick, dirfd, p, flags);
}

/* A tmpfs ready to mount (its context made close-on-exec), or -1. */
static int tmpfs_context(enum via via)
{
	int ctx = (int)mount_fsopen(via, "tmpfs", FSOPEN_CLOEXEC);

	if (ctx >= 0 && syscall(SYS_fsconfig, ctx, FSCONFIG_CMD_CREATE, NULL,
				NULL, 0)) {
		close(ctx);
		return -1;
	}
	return ctx;
}

/* A detached tmpfs mount: what fsmount gives. */
static int via_fsmount(enum via via, unsigned flags, int f[2])
{
	int ctx = tmpfs_context(via), n;

	/* On the emulated old kernel, fsmount's ENOSYS is the answer. */
	if (ctx < 0 && errno != ENOSYS)
		return skip_if_denied(ctx);
	n = skip_if_denied(one((int)mount_fsmount(via, ctx, flags), f));
	if (ctx >= 0)
		close(ctx);
	return n;
}

static int via_open_tree(enum via via, unsigned flags, int f[2])
{
	path("tree");
	return one((int)mount_open_tree(via, AT_FDCWD, dir, flags), f);
}

static int via_fsopen(enum via via, unsigned flags, int f[2])
{
	return skip_if_denied(one((int)mount_fsopen(via, "tmpfs", flags), f));
}

/* The root's filesystem, picked to be reconfigured (it is not). */
static int via_fspick(enum via via, unsigned flags, int f[2])
{
	return skip_if_denied(
		one((int)mount_fspick(via, AT_FDCWD, "/", flags), f));
}

#if LIBC_MOUNT_API
static int mk_open_tree(int f[2])
{
	return via_open_tree(LIBC, 0, f);
}
static int mk_fsopen(int f[2])
{
	return via_fsopen(LIBC, 0, f);
}
static int mk_fsmount(int f[2])
{
	return via_fsmount(LIBC, 0, f);
}
static int mk_fspick(int f[2])
{
	return via_fspick(LIBC, 0, f);
}
#endif
static int sys_open_tree(int f[2])
{
	return via_open_tree(SYSCALL, 0, f);
}
static int sys_fsopen(int f[2])
{
	return via_fsopen(SYSCALL, 0, f);
}
static int sys_fsmount(int f[2])
{
	return via_fsmount(SYSCALL, 0, f);
}
static int sys_fspick(int f[2])
{
	return via_fspick(SYSCALL, 0, f);
}
#endif

/* --- the same numbers through syscall() --- */

static int sys_one(long ret, int f[2])
{
	return one((int)ret, f);
}
static int sys_socket(int f[2])
{
	return sys_one(syscall(SYS_socket, AF_INET, SOCK_STREAM, 0), f);
}
static int sys_socketpair(int f[2])
{
	return syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, f) ? -1 : 2;
}
#ifdef SYS_accept
static int sys_accept(int f[2])
{
	return sys_one(syscall(SYS_accept, pending_listener(), 0, 0), f);
}
#endif
static int sys_accept4(int f[2])
{
	return sys_one(syscall(SYS_accept4, pending_listener(), 0, 0, 0), f);
}
#ifdef SYS_open
static int sys_open(int f[2])
{
	return sys_one(syscall(SYS_open, "/dev/null", O_RDONLY), f);
}
#endif
static int sys_openat(int f[2])
{
	return sys_one(syscall(SYS_openat, AT_FDCWD, "/dev/null", O_RDONLY),
		       f);
}
static int sys_openat2(int f[2])
{
	unsigned long long how[3] = { O_RDONLY, 0, 0 };

	return skip_if_denied(sys_one(syscall(SYS_openat2, AT_FDCWD,
					      "/dev/null", how, sizeof(how)),
				      f));
}
#ifdef SYS_creat
static int sys_creat(int f[2])
{
	return sys_one(syscall(SYS_creat, path("sys_creat"), 0600), f);
}
#endif
#ifdef SYS_pipe
static int sys_pipe(int f[2])
{
	return syscall(SYS_pipe, f) ? -1 : 2;
}
#endif
static int sys_pipe2(int f[2])
{
	return syscall(SYS_pipe2, f, 0) ? -1 : 2;
}
static int sys_dup(int f[2])
{
	return sys_one(syscall(SYS_dup, 0), f);
}
#ifdef SYS_dup2
static int sys_dup2(int f[2])
{
	return sys_one(syscall(SYS_dup2, 0, 102), f);
}
#endif
static int sys_dup3(int f[2])
{
	return sys_one(syscall(SYS_dup3, 0, 103, 0), f);
}
static int sys_fcntl(int f[2])
{
	return sys_one(syscall(SYS_fcntl, 0, F_DUPFD, 10), f);
}
#ifdef SYS_epoll_create
static int sys_epoll_create(int f[2])
{
	return sys_one(syscall(SYS_epoll_create, 1), f);
}
#endif
static int sys_epoll_create1(int f[2])
{
	return sys_one(syscall(SYS_epoll_create1, 0), f);
}
#ifdef SYS_inotify_init
static int sys_inotify_init(int f[2])
{
	return sys_one(syscall(SYS_inotify_init), f);
}
#endif
static int sys_inotify_init1(int f[2])
{
	return sys_one(syscall(SYS_inotify_init1, 0), f);
}
#ifdef SYS_eventfd
static int sys_eventfd(int f[2])
{
	return sys_one(syscall(SYS_eventfd, 0), f);
}
#endif
static int sys_eventfd2(int f[2])
{
	return sys_one(syscall(SYS_eventfd2, 0, 0), f);
}
#ifdef SYS_signalfd
static int sys_signalfd(int f[2])
{
	sigset_t set = usr1();

	return sys_one(syscall(SYS_signalfd, -1, &set, 8), f);
}
#endif
static int sys_signalfd4(int f[2])
{
	sigset_t set = usr1();

	return sys_one(syscall(SYS_signalfd4, -1, &set, 8, 0), f);
}
static int sys_timerfd_create(int f[2])
{
	return sys_one(syscall(SYS_timerfd_create, CLOCK_MONOTONIC, 0), f);
}
static int sys_memfd_create(int f[2])
{
	return sys_one(syscall(SYS_memfd_create, "it", 0), f);
}
static int sys_fanotify_init(int f[2])
{
	return skip_if_denied(
		sys_one(syscall(SYS_fanotify_init, FAN_CLASS_NOTIF, O_RDONLY),
			f));
}
static int sys_userfaultfd(int f[2])
{
	return skip_if_denied(sys_one(syscall(SYS_userfaultfd, 0), f));
}
/* perf_event_paranoid or a container's seccomp may refuse it. */
static int sys_perf_event_open(int f[2])
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.size = sizeof(attr),
					.config = PERF_COUNT_SW_CPU_CLOCK,
					.disabled = 1 };

	return skip_if_denied(sys_one(
		syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0), f));
}
static int sys_open_by_handle_at(int f[2])
{
	struct file_handle *h;
	int mount = file_handle_mount(&h), n;

	if (mount < 0) {
		free(h);
		return mount;
	}
	n = skip_if_denied(sys_one(
		syscall(SYS_open_by_handle_at, mount, h, O_RDONLY), f));
	free(h);
	return n;
}
static int sys_recvmsg(int f[2])
{
	return via_recvmsg(0, SYSCALL, f);
}
static int sys_recvmmsg(int f[2])
{
	return via_recvmmsg(0, SYSCALL, f);
}
#ifdef SYS_fcntl64
static int sys_fcntl64(int f[2])
{
	return sys_one(syscall(SYS_fcntl64, 0, F_DUPFD, 10), f);
}
#endif
#ifdef SYS_recvmmsg_time64
static int sys_recvmmsg_time64(int f[2])
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	char byte;
	struct iovec iov = { &byte, 1 };
	struct mmsghdr m = { .msg_hdr = { .msg_iov = &iov, .msg_iovlen = 1,
					  .msg_control = c.buf,
					  .msg_controllen = sizeof(c.buf) } };

	if (syscall(SYS_recvmmsg_time64, tl_sent_fd_socket(), &m, 1, 0, NULL) != 1)
		return -1;
	return received_fd(&m.msg_hdr, f);
}
#endif
#ifdef SYS_socketcall
static int sc_socket(int f[2])
{
	return sys_one(socketcall(1, AF_INET, SOCK_STREAM, 0, 0, 0), f);
}
static int sc_socketpair(int f[2])
{
	return socketcall(8, AF_UNIX, SOCK_STREAM, 0, (long)f, 0) ? -1 : 2;
}
static int sc_accept(int f[2])
{
	return sys_one(socketcall(5, pending_listener(), 0, 0, 0, 0), f);
}
static int sc_accept4(int f[2])
{
	return sys_one(socketcall(18, pending_listener(), 0, 0, 0, 0), f);
}
static int sc_recvmsg(int f[2])
{
	return via_recvmsg(0, SOCKETCALL, f);
}
static int sc_recvmmsg(int f[2])
{
	return via_recvmmsg(0, SOCKETCALL, f);
}
#endif

static const struct maker {
	const char *name;
	int (*make)(int fds[2]);
	/* dup2/dup3 onto a chosen number: not forced by default. */
	bool not_forced;
	/* libc itself leaves errno changed on success (rresvport). */
	bool clobbers_errno;
	/* A call after 2008's: the emulated old kernel says ENOSYS. */
	bool enosys_on_old;
} plain[] = {
#define M(fn) { #fn, mk_##fn, false, false, false }
#define S(fn) { "syscall " #fn, sys_##fn, false, false, false }
	M(socket), M(socketpair), M(accept), M(accept4), M(open), M(open64),
	M(openat), M(openat64), { "__open_2", mk_open_2, false, false, false },
	{ "__open64_2", mk_open64_2, false, false, false },
	{ "__openat_2", mk_openat_2, false, false, false },
	{ "__openat64_2", mk_openat64_2, false, false, false }, M(creat),
	M(creat64),
	M(open_by_handle_at), M(fopen), M(fopen_long_mode), M(fopen_mode7),
	M(fopen_ccs), M(fopen64), M(freopen), M(freopen64),
	{ "popen", mk_popen, false, false, false }, M(tmpfile), M(tmpfile64),
	M(mkstemp), M(mkstemp64), M(mkstemps), M(mkstemps64), M(mkostemp),
	M(mkostemp64), M(mkostemps), M(mkostemps64), M(pipe), M(pipe2), M(dup),
	{ "dup2", mk_dup2, true, false, false },
	{ "dup3", mk_dup3, true, false, false },
	M(fcntl), M(fcntl64), M(epoll_create), M(epoll_create1),
	M(inotify_init), M(inotify_init1), M(eventfd), M(signalfd),
	M(timerfd_create), M(memfd_create), M(fanotify_init), M(posix_openpt),
	M(getpt),
	M(openpty), M(forkpty), M(recvmsg), M(recvmmsg),
	{ "rresvport", mk_rresvport, false, true, false },
	{ "rresvport_af", mk_rresvport_af, false, true, false },
	{ "rexec", mk_rexec, false, true, false },
	{ "rexec_af", mk_rexec_af, false, true, false },
	{ "rcmd", mk_rcmd, false, true, false },
	{ "rcmd_af", mk_rcmd_af, false, true, false },
#if HAVE___OPEN
	{ "__open", mk___open, false, false, false },
#endif
#if HAVE___OPEN64
	{ "__open64", mk___open64, false, false, false },
#endif
#if HAVE___PIPE
	{ "__pipe", mk___pipe, false, false, false },
#endif
#if HAVE___DUP2
	{ "__dup2", mk___dup2, true, false, false },
#endif
#if HAVE___FCNTL
	{ "__fcntl", mk___fcntl, false, false, false },
#endif
#if LIBC_MOUNT_API
	{ "open_tree", mk_open_tree, false, false, true },
	{ "fsopen", mk_fsopen, false, false, true },
	{ "fsmount", mk_fsmount, false, false, true },
	{ "fspick", mk_fspick, false, false, true },
#endif
#ifdef SYS_open_tree
	{ "syscall open_tree", sys_open_tree, false, false, true },
	{ "syscall fsopen", sys_fsopen, false, false, true },
	{ "syscall fsmount", sys_fsmount, false, false, true },
	{ "syscall fspick", sys_fspick, false, false, true },
#endif
	S(socket), S(socketpair),
#ifdef SYS_accept
	S(accept),
#endif
	S(accept4), S(openat), S(openat2), S(pipe2), S(dup),
	{ "syscall dup3", sys_dup3, true, false, false }, S(fcntl),
	S(epoll_create1), S(inotify_init1), S(eventfd2), S(signalfd4),
	S(timerfd_create), S(memfd_create),
#ifdef SYS_open
	/* The calls that newer architectures (aarch64) never had. */
	S(open), S(creat), S(pipe),
	{ "syscall dup2", sys_dup2, true, false, false },
	S(epoll_create), S(inotify_init), S(eventfd), S(signalfd),
#endif
	S(fanotify_init), S(userfaultfd), S(perf_event_open),
	S(open_by_handle_at), S(recvmsg),
	S(recvmmsg),
#ifdef SYS_fcntl64
	S(fcntl64),
#endif
#ifdef SYS_recvmmsg_time64
	S(recvmmsg_time64),
#endif
#ifdef SYS_socketcall
#define SC(fn) { "socketcall " #fn, sc_##fn, false, false, false }
	SC(socket), SC(socketpair), SC(accept), SC(accept4), SC(recvmsg),
	SC(recvmmsg),
#undef SC
#endif
#undef M
#undef S
};

#define NPLAIN ((int)(sizeof(plain) / sizeof(plain[0])))

/* m's fds into fds, their number (or SKIP); errno as it was. */
static int make_keeping_errno(const struct maker *m, int fds[2])
{
	int n;

	errno = 4242;
	n = m->make(fds);
	if (n == SKIP)
		return n;
	if (m->enosys_on_old && tl_oldkernel()) {
		ck_assert_msg(n == -1 && errno == ENOSYS,
			      "%s on the old kernel: %d, errno %s", m->name, n,
			      strerror(errno));
		return SKIP;
	}
	ck_assert_msg(n > 0, "%s failed: %s", m->name, strerror(errno));
	ck_assert_msg(errno == 4242 || m->clobbers_errno,
		      "%s changed errno to %d", m->name, errno);
	return n;
}

START_TEST(plain_calls)
{
	const struct maker *m = &plain[_i];
	bool forced = tl_preloaded() && !m->not_forced;
	int fds[2] = { -1, -1 }, n, i;

	n = make_keeping_errno(m, fds);
	if (n == SKIP)
		return;
	for (i = 0; i < n; i++) {
		ck_assert_msg(tl_cloexec(fds[i]) == forced,
			      "%s: fd %d close-on-exec %d, expected %d",
			      m->name, fds[i], tl_cloexec(fds[i]), forced);
		ck_assert_msg(tl_child_sees(fds[i]) == !forced,
			      "%s: fd %d seen by the child: %d", m->name,
			      fds[i], tl_child_sees(fds[i]));
	}
	/* Inheritable leftovers would look like this fd to the next child. */
	for (i = 0; i < n; i++)
		close(fds[i]);
}
END_TEST

/*
 * errno on success, with a policy that sends each call down another path
 * than the default's: report=on notes each fd's origin, keep= and
 * keep-path= check each fd and path against lists, mode=audit forces
 * nothing.  plain_calls checks the default policy.
 */
static void errno_kept(int i_maker)
{
	int fds[2] = { -1, -1 }, n, i;

	n = make_keeping_errno(&plain[i_maker], fds);
	if (n == SKIP)
		return;
	for (i = 0; i < n; i++)
		close(fds[i]);
}

START_TEST(errno_kept_with_report)
{
	errno_kept(_i);
}
END_TEST

START_TEST(errno_kept_with_keep_lists)
{
	errno_kept(_i);
}
END_TEST

START_TEST(errno_kept_in_audit_mode)
{
	errno_kept(_i);
}
END_TEST

/* --- explicit requests --- */

/* What the emulated old kernel does without the library. */
enum old_libc { WORKS, IGNORED, FAILS_ENOSYS, FAILS_EINVAL };

static int ex_open(int f[2])
{
	return one(open("/dev/null", O_RDONLY | O_CLOEXEC), f);
}
static int ex_openat(int f[2])
{
	return one(openat(AT_FDCWD, "/dev/null", O_RDONLY | O_CLOEXEC), f);
}
static int ex_fopen(int f[2])
{
	return file_fd(fopen("/dev/null", "re"), f);
}
static int ex_popen(int f[2])
{
	return file_fd(popen("true", "re"), f);
}
static int ex_mkostemp(int f[2])
{
	return one(mkostemp(tmpl(""), O_CLOEXEC), f);
}
static int ex_mkostemps(int f[2])
{
	return one(mkostemps(tmpl(".x"), 2, O_CLOEXEC), f);
}
static int ex_pipe2(int f[2])
{
	return pipe2(f, O_CLOEXEC | O_NONBLOCK) ? -1 : 2;
}
static int ex_dup3(int f[2])
{
	return one(dup3(0, 104, O_CLOEXEC), f);
}
static int ex_fcntl(int f[2])
{
	return one(fcntl(0, F_DUPFD_CLOEXEC, 10), f);
}
static int ex_epoll_create1(int f[2])
{
	return one(epoll_create1(EPOLL_CLOEXEC), f);
}
static int ex_inotify_init1(int f[2])
{
	return one(inotify_init1(IN_CLOEXEC | IN_NONBLOCK), f);
}
static int ex_eventfd(int f[2])
{
	return one(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK), f);
}
static int ex_signalfd(int f[2])
{
	sigset_t set = usr1();

	return one(signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK), f);
}
static int ex_timerfd(int f[2])
{
	return one(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK),
		   f);
}
static int ex_memfd(int f[2])
{
	return one(memfd_create("it", MFD_CLOEXEC), f);
}
static int ex_posix_openpt(int f[2])
{
	return one(posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), f);
}
static int ex_recvmsg(int f[2])
{
	return via_recvmsg(MSG_CMSG_CLOEXEC, LIBC, f);
}
static int ex_sys_pipe2(int f[2])
{
	return syscall(SYS_pipe2, f, O_CLOEXEC | O_NONBLOCK) ? -1 : 2;
}
static int ex_sys_accept4(int f[2])
{
	return sys_one(syscall(SYS_accept4, pending_listener(), 0, 0,
			       SOCK_CLOEXEC | SOCK_NONBLOCK),
		       f);
}
static int ex_sys_dup3(int f[2])
{
	return sys_one(syscall(SYS_dup3, 0, 105, O_CLOEXEC), f);
}
static int ex_sys_fcntl(int f[2])
{
	return sys_one(syscall(SYS_fcntl, 0, F_DUPFD_CLOEXEC, 10), f);
}
static int ex_sys_eventfd2(int f[2])
{
	return sys_one(syscall(SYS_eventfd2, 0, EFD_CLOEXEC | EFD_NONBLOCK),
		       f);
}
static int ex_sys_openat(int f[2])
{
	return sys_one(syscall(SYS_openat, AT_FDCWD, "/dev/null",
			       O_RDONLY | O_CLOEXEC),
		       f);
}
static int ex_sys_recvmsg(int f[2])
{
	return via_recvmsg(MSG_CMSG_CLOEXEC, SYSCALL, f);
}
#ifdef SYS_fcntl64
static int ex_sys_fcntl64(int f[2])
{
	return sys_one(syscall(SYS_fcntl64, 0, F_DUPFD_CLOEXEC, 10), f);
}
#endif
#ifdef SYS_socketcall
static int ex_sc_socket(int f[2])
{
	return sys_one(socketcall(1, AF_INET, SOCK_STREAM | SOCK_CLOEXEC |
					      SOCK_NONBLOCK,
				  0, 0, 0),
		       f);
}
static int ex_sc_socketpair(int f[2])
{
	return socketcall(8, AF_UNIX,
			  SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
			  (long)f, 0)
		       ? -1
		       : 2;
}
static int ex_sc_accept4(int f[2])
{
	return sys_one(socketcall(18, pending_listener(), 0, 0,
				  SOCK_CLOEXEC | SOCK_NONBLOCK, 0),
		       f);
}
static int ex_sc_recvmsg(int f[2])
{
	return via_recvmsg(MSG_CMSG_CLOEXEC, SOCKETCALL, f);
}
static int ex_sc_recvmmsg(int f[2])
{
	return via_recvmmsg(MSG_CMSG_CLOEXEC, SOCKETCALL, f);
}
#endif

static const struct explicit_maker {
	const char *name;
	int (*make)(int fds[2]);
	bool nonblock;
	enum old_libc old;
} explicit[] = {
	{ "open O_CLOEXEC", ex_open, false, IGNORED },
	{ "openat O_CLOEXEC", ex_openat, false, IGNORED },
	{ "fopen re", ex_fopen, false, IGNORED },
	{ "popen re", ex_popen, false, WORKS },
	{ "mkostemp O_CLOEXEC", ex_mkostemp, false, IGNORED },
	{ "mkostemps O_CLOEXEC", ex_mkostemps, false, IGNORED },
	{ "pipe2 O_CLOEXEC|O_NONBLOCK", ex_pipe2, true, FAILS_ENOSYS },
	{ "dup3 O_CLOEXEC", ex_dup3, false, FAILS_ENOSYS },
	{ "fcntl F_DUPFD_CLOEXEC", ex_fcntl, false, FAILS_EINVAL },
	{ "epoll_create1 EPOLL_CLOEXEC", ex_epoll_create1, false,
	  FAILS_ENOSYS },
	{ "inotify_init1 IN_CLOEXEC|IN_NONBLOCK", ex_inotify_init1, true,
	  FAILS_ENOSYS },
	{ "eventfd EFD_CLOEXEC|EFD_NONBLOCK", ex_eventfd, true, FAILS_EINVAL },
	{ "signalfd SFD_CLOEXEC|SFD_NONBLOCK", ex_signalfd, true,
	  FAILS_EINVAL },
	{ "timerfd_create TFD_CLOEXEC|TFD_NONBLOCK", ex_timerfd, true,
	  FAILS_EINVAL },
	{ "memfd_create MFD_CLOEXEC", ex_memfd, false, WORKS },
	{ "posix_openpt O_CLOEXEC", ex_posix_openpt, false, IGNORED },
	{ "recvmsg MSG_CMSG_CLOEXEC", ex_recvmsg, false, IGNORED },
	{ "syscall pipe2", ex_sys_pipe2, true, FAILS_ENOSYS },
	{ "syscall accept4", ex_sys_accept4, true, FAILS_ENOSYS },
	{ "syscall dup3", ex_sys_dup3, false, FAILS_ENOSYS },
	{ "syscall fcntl F_DUPFD_CLOEXEC", ex_sys_fcntl, false, FAILS_EINVAL },
	{ "syscall eventfd2", ex_sys_eventfd2, true, FAILS_EINVAL },
	{ "syscall openat O_CLOEXEC", ex_sys_openat, false, IGNORED },
	{ "syscall recvmsg MSG_CMSG_CLOEXEC", ex_sys_recvmsg, false, IGNORED },
#ifdef SYS_fcntl64
	{ "syscall fcntl64 F_DUPFD_CLOEXEC", ex_sys_fcntl64, false,
	  FAILS_EINVAL },
#endif
#ifdef SYS_socketcall
	/* 2.6.27's socketcall: bad type, unknown sub-call (accept4). */
	{ "socketcall socket", ex_sc_socket, true, FAILS_EINVAL },
	{ "socketcall socketpair", ex_sc_socketpair, true, FAILS_EINVAL },
	{ "socketcall accept4", ex_sc_accept4, true, FAILS_EINVAL },
	{ "socketcall recvmsg MSG_CMSG_CLOEXEC", ex_sc_recvmsg, false,
	  IGNORED },
	{ "socketcall recvmmsg MSG_CMSG_CLOEXEC", ex_sc_recvmmsg, false,
	  IGNORED },
#endif
};

#define NEXPLICIT ((int)(sizeof(explicit) / sizeof(explicit[0])))

START_TEST(explicit_requests)
{
	const struct explicit_maker *m = &explicit[_i];
	enum old_libc expect = WORKS;
	int fds[2] = { -1, -1 }, n, i;

	if (tl_oldkernel() && !tl_preloaded())
		expect = m->old;
	errno = 4242;
	n = m->make(fds);
	if (expect == FAILS_ENOSYS || expect == FAILS_EINVAL) {
		ck_assert_msg(n == -1 && errno == (expect == FAILS_ENOSYS
							   ? ENOSYS
							   : EINVAL),
			      "%s: %d, errno %s", m->name, n, strerror(errno));
		return;
	}
	ck_assert_msg(n > 0, "%s failed: %s", m->name, strerror(errno));
	ck_assert_msg(errno == 4242, "%s changed errno to %d", m->name, errno);
	for (i = 0; i < n; i++) {
		ck_assert_msg(tl_cloexec(fds[i]) == (expect != IGNORED),
			      "%s: fd %d close-on-exec %d", m->name, fds[i],
			      tl_cloexec(fds[i]));
		if (m->nonblock)
			ck_assert_msg(tl_nonblock(fds[i]), "%s: blocking",
				      m->name);
	}
}
END_TEST

/*
 * Bad arguments: the libc answer on a current kernel, with the library
 * too, on either kernel.  (Without the library the old kernel refuses
 * some flagged calls outright: ENOSYS; not the case here.)
 */
START_TEST(errors_match_libc)
{
	int fd = open("/dev/null", O_RDONLY), fds[2];
	sigset_t set = usr1();
	char bad_template[] = "nope";

	tl_errno_is(open("/nonexistent/x", O_RDONLY), ENOENT);
	tl_errno_is(openat(12345, "relative", O_RDONLY), EBADF);
	tl_errno_is(__open_2("/nonexistent/x", O_RDONLY), ENOENT);
	tl_errno_is(creat("/nonexistent/x", 0600), ENOENT);
#ifndef __SANITIZE_ADDRESS__
	/* (ASan's own open_by_handle_at reads *handle first, and crashes.) */
	tl_errno_is(open_by_handle_at(-1, NULL, O_RDONLY), EFAULT);
#endif
	errno = 0;
	ck_assert_ptr_null(fopen("/nonexistent/x", "r"));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(fopen("/dev/null", "z"));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(popen("true", "z"));
	ck_assert_int_eq(errno, EINVAL);
	tl_errno_is(mkstemp(bad_template), EINVAL);
	tl_errno_is(dup(-1), EBADF);
	tl_errno_is(dup(12345), EBADF);
	tl_errno_is(dup2(-1, 50), EBADF);
	tl_errno_is(dup2(fd, -1), EBADF);
	tl_errno_is(dup2(12345, 12345), EBADF);
	tl_errno_is(fcntl(-1, F_DUPFD, 0), EBADF);
	tl_errno_is(fcntl(fd, F_DUPFD, -1), EINVAL);
	tl_errno_is(epoll_create(0), EINVAL);
	tl_errno_is(epoll_create(-5), EINVAL);
	tl_errno_is(signalfd(-1, bad_address(), 0), EFAULT);
	tl_errno_is(signalfd(fd, &set, 0), EINVAL);
	tl_errno_is(timerfd_create(12345, 0), EINVAL);
	tl_errno_is(memfd_create("x", 0x1000), EINVAL);
	tl_errno_is(recvmsg(-1, bad_address(), 0), EBADF);
	tl_errno_is(recvmsg(fd, bad_address(), 0), ENOTSOCK);
#if HAVE___OPEN
	tl_errno_is(__open("/nonexistent/x", O_RDONLY), ENOENT);
#endif
#if HAVE___OPEN64
	tl_errno_is(__open64("/nonexistent/x", O_RDONLY), ENOENT);
#endif
#if HAVE___PIPE
	tl_errno_is(__pipe(bad_address()), EFAULT);
#endif
#if HAVE___DUP2
	tl_errno_is(__dup2(-1, 50), EBADF);
	tl_errno_is(__dup2(fd, -1), EBADF);
	tl_errno_is(__dup2(12345, 12345), EBADF);
#endif
#if HAVE___FCNTL
	tl_errno_is(__fcntl(-1, F_DUPFD, 0), EBADF);
	tl_errno_is(__fcntl(fd, F_DUPFD, -1), EINVAL);
#endif
	tl_errno_is(syscall(99999), ENOSYS);
	tl_errno_is(syscall(SYS_socket, 12345, SOCK_STREAM, 0), EAFNOSUPPORT);
	tl_errno_is(syscall(SYS_dup, -1), EBADF);
#ifdef SYS_epoll_create
	tl_errno_is(syscall(SYS_epoll_create, 0), EINVAL);
#endif
	if (tl_oldkernel() && !tl_preloaded())
		return;
	tl_errno_is(pipe2(fds, 0x1234), EINVAL);
	tl_errno_is(pipe2(fds, O_DIRECT << 1), EINVAL);
	tl_errno_is(dup3(fd, fd, 0), EINVAL);
	tl_errno_is(dup3(fd, 50, 0x1234), EINVAL);
	tl_errno_is(epoll_create1(0x1234), EINVAL);
	tl_errno_is(inotify_init1(0x1234), EINVAL);
	tl_errno_is(syscall(SYS_dup3, fd, fd, 0), EINVAL);
	tl_errno_is(syscall(SYS_pipe2, fds, 0x1234), EINVAL);
#ifdef SYS_epoll_create
	tl_errno_is(syscall(SYS_epoll_create1, 0x1234), EINVAL);
#endif
}
END_TEST

/*
 * At the fd limit each call answers EMFILE, as libc's (openpty and
 * forkpty too, which the library does itself), leaving nothing open when
 * the second of two fds fails, and nothing the library probes meanwhile
 * is taken for the kernel's answer: with room again, the same calls make
 * close-on-exec fds.
 */
START_TEST(out_of_fds_is_emfile)
{
	struct rlimit rl, full;
	int lowest = dup(0), fds[2], master, slave;

	ck_assert_int_ge(lowest, 3);
	close(lowest);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	full = rl;
	full.rlim_cur = (rlim_t)lowest;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &full), 0);
	tl_errno_is(socket(AF_UNIX, SOCK_STREAM, 0), EMFILE);
	tl_errno_is(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), EMFILE);
	tl_errno_is(pipe(fds), EMFILE);
	tl_errno_is(open("/dev/null", O_RDONLY), EMFILE);
	tl_errno_is(dup(0), EMFILE);
	tl_errno_is(epoll_create1(0), EMFILE);
	tl_errno_is(eventfd(0, 0), EMFILE);
	tl_errno_is(openpty(&master, &slave, NULL, NULL, NULL), EMFILE);
	tl_errno_is(forkpty(&master, NULL, NULL, NULL), EMFILE);
	errno = 0;
	ck_assert_ptr_null(fopen("/dev/null", "r"));
	ck_assert_int_eq(errno, EMFILE);
	/* Room for one: the calls that make two fail, and leave none open. */
	full.rlim_cur = (rlim_t)lowest + 1;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &full), 0);
	tl_errno_is(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), EMFILE);
	tl_errno_is(pipe(fds), EMFILE);
	tl_errno_is(openpty(&master, &slave, NULL, NULL, NULL), EMFILE);
	tl_errno_is(forkpty(&master, NULL, NULL, NULL), EMFILE);
	ck_assert_int_eq(dup(0), lowest);
	close(lowest);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
	ck_assert_int_eq(tl_cloexec(fds[0]), tl_preloaded());
	ck_assert_int_eq(tl_cloexec(fds[1]), tl_preloaded());
	close(fds[0]);
	close(fds[1]);
	ck_assert_int_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
	ck_assert_int_eq(tl_cloexec(master), tl_preloaded());
	ck_assert_int_eq(tl_cloexec(slave), tl_preloaded());
	close(master);
	close(slave);
}
END_TEST

#ifdef SYS_open_tree
/*
 * The mount API answers as libc does, through libc and syscall(): on the
 * emulated old kernel ENOSYS, whatever the arguments, with the library
 * too (it has no fallback to offer); here, each bad argument its error,
 * and an explicit close-on-exec flag kept.  fsopen, fsmount and fspick
 * check privilege first: without it, EPERM is libc's answer.
 */
static void mount_api_answers(enum via via)
{
	int null = open("/dev/null", O_RDONLY), ctx, fd, priv;
	unsigned unknown = 1u << 30;

	errno = 4242;
	ctx = tmpfs_context(via);
	if (tl_oldkernel()) {
		ck_assert_int_eq(ctx, -1);
		ck_assert_int_eq(errno, ENOSYS);
		tl_errno_is(mount_open_tree(via, AT_FDCWD, "/", 0), ENOSYS);
		tl_errno_is(mount_open_tree(via, AT_FDCWD, "/",
					    OPEN_TREE_CLOEXEC),
			    ENOSYS);
		tl_errno_is(mount_open_tree(via, -1, "x", unknown), ENOSYS);
		tl_errno_is(mount_fsopen(via, "tmpfs", 0), ENOSYS);
		tl_errno_is(mount_fsopen(via, "tmpfs", unknown), ENOSYS);
		tl_errno_is(mount_fsmount(via, null, FSMOUNT_CLOEXEC), ENOSYS);
		tl_errno_is(mount_fsmount(via, -1, 0), ENOSYS);
		tl_errno_is(mount_fspick(via, AT_FDCWD, "/", 0), ENOSYS);
		tl_errno_is(mount_fspick(via, -1, "x", unknown), ENOSYS);
		return;
	}
	priv = ctx < 0 && (errno == EPERM || errno == EACCES) ? errno : 0;
	ck_assert_msg(ctx >= 0 || priv, "fsopen: %s", strerror(errno));
	if (ctx >= 0)
		ck_assert_int_eq(errno, 4242);

	tl_errno_is(mount_open_tree(via, -1, "relative", 0), EBADF);
	tl_errno_is(mount_open_tree(via, AT_FDCWD, "/nonexistent/x", 0),
		    ENOENT);
	tl_errno_is(mount_open_tree(via, AT_FDCWD, "/", unknown), EINVAL);
	tl_errno_is(mount_open_tree(via, AT_FDCWD, "/", OPEN_TREE_CLOEXEC |
							     unknown),
		    EINVAL);
	errno = 4242;
	fd = (int)mount_open_tree(via, AT_FDCWD, "/", OPEN_TREE_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(errno, 4242);
	ck_assert(tl_cloexec(fd));
	close(fd);

	tl_errno_is(mount_fsopen(via, "tmpfs", unknown), priv ? priv : EINVAL);
	tl_errno_is(mount_fsopen(via, "no-such-fs", 0), priv ? priv : ENODEV);
	tl_errno_is(mount_fsmount(via, -1, 0), priv ? priv : EBADF);
	tl_errno_is(mount_fsmount(via, null, 0), priv ? priv : EINVAL);
	tl_errno_is(mount_fspick(via, AT_FDCWD, "/", unknown),
		    priv ? priv : EINVAL);
	tl_errno_is(mount_fspick(via, -1, "relative", 0), priv ? priv : EBADF);
	tl_errno_is(mount_fspick(via, AT_FDCWD, "/nonexistent/x", 0),
		    priv ? priv : ENOENT);
	if (priv)
		return;
	errno = 4242;
	fd = (int)mount_fspick(via, AT_FDCWD, "/", FSPICK_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(errno, 4242);
	ck_assert(tl_cloexec(fd));
	close(fd);
	tl_errno_is(mount_fsmount(via, ctx, unknown), EINVAL);
	errno = 4242;
	fd = (int)mount_fsmount(via, ctx, FSMOUNT_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(errno, 4242);
	ck_assert(tl_cloexec(fd));
	close(fd);
	close(ctx);
	close(null);
}

START_TEST(mount_api_answers_as_libc)
{
#if LIBC_MOUNT_API
	mount_api_answers(LIBC);
#endif
	mount_api_answers(SYSCALL);
}
END_TEST
#endif

/* The old ways of handing a child its stdio, with plain calls. */
START_TEST(std_fds_stay_inheritable)
{
	int p[2], stdout_copy = dup(1), fd;
	char buf[16] = "";

	ck_assert_int_eq(pipe(p), 0);
	/* close(1); dup(pipe): the child's stdout is the pipe. */
	close(1);
	ck_assert_int_eq(dup(p[1]), 1);
	ck_assert(!tl_cloexec(1));
	if (fork() == 0) {
		execlp("echo", "echo", "handed", (char *)NULL);
		_exit(127);
	}
	wait(NULL);
	dup2(stdout_copy, 1);
	close(p[1]);
	ck_assert_int_gt(read(p[0], buf, sizeof(buf) - 1), 0);
	ck_assert_str_eq(buf, "handed\n");

	close(0);
	ck_assert_int_eq(open("/dev/null", O_RDONLY), 0);
	ck_assert(!tl_cloexec(0));
	ck_assert_ptr_nonnull(freopen("/dev/zero", "r", stdin));
	ck_assert_int_eq(fileno(stdin), 0);
	ck_assert(!tl_cloexec(0));
	close(0);
	ck_assert_int_eq(fcntl(p[0], F_DUPFD, 0), 0);
	ck_assert(!tl_cloexec(0));
	close(0);
	ck_assert_int_eq(syscall(SYS_dup, p[0]), 0);
	ck_assert(!tl_cloexec(0));
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ck_assert_int_eq(dup2(fd, 0), 0);
	ck_assert(!tl_cloexec(0));
	close(0);
	ck_assert_int_eq(epoll_create(1), 0);
	ck_assert(!tl_cloexec(0));
}
END_TEST

/* dup2 keeps its meanings: onto itself, and onto a number of its own. */
START_TEST(dup2_semantics)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int inheritable = fcntl(fd, F_DUPFD, 20);

	fcntl(inheritable, F_SETFD, 0);
	ck_assert_int_eq(dup2(fd, fd), fd);
	ck_assert(tl_cloexec(fd) || (tl_oldkernel() && !tl_preloaded()));
	ck_assert_int_eq(dup2(inheritable, inheritable), inheritable);
	ck_assert(!tl_cloexec(inheritable));
	ck_assert_int_eq(dup2(fd, 30), 30);
	ck_assert(!tl_cloexec(30));
	ck_assert_int_eq(tl_child_sees(30), 1);
#if HAVE___DUP2
	ck_assert_int_eq(__dup2(fd, fd), fd);
	ck_assert(tl_cloexec(fd) || (tl_oldkernel() && !tl_preloaded()));
	ck_assert_int_eq(__dup2(inheritable, inheritable), inheritable);
	ck_assert(!tl_cloexec(inheritable));
	ck_assert_int_eq(__dup2(fd, 31), 31);
	ck_assert(!tl_cloexec(31));
#endif
}
END_TEST

START_TEST(fcntl_passes_everything_else)
{
	struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	int fd = open(path("locked"), O_CREAT | O_RDWR, 0600);

	ck_assert_int_eq(fcntl(fd, F_SETFL, O_NONBLOCK | O_APPEND), 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & (O_NONBLOCK | O_APPEND),
			 O_NONBLOCK | O_APPEND);
	ck_assert_int_eq(fcntl(fd, F_SETLK, &lock), 0);
	ck_assert_int_eq(fcntl(fd, F_GETLK, &lock), 0);
	ck_assert_int_ge(fcntl(fd, F_DUPFD, 50), 50);
	ck_assert_int_ge(fcntl64(fd, F_DUPFD, 60), 60);
	ck_assert_int_eq(fcntl64(fd, F_SETLK, &lock), 0);
}
END_TEST

START_TEST(open_mode_is_read)
{
	struct stat st;
	int fd;

	umask(0);
	fd = open(path("mode"), O_CREAT | O_WRONLY, 0640);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640);
	fd = openat(AT_FDCWD, path("mode2"), O_CREAT | O_WRONLY, 0604);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0604);
	fd = creat(path("mode3"), 0611);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0611);
	fd = open(dir, O_TMPFILE | O_RDWR, 0620);
	if (fd >= 0) {
		ck_assert_int_eq(fstat(fd, &st), 0);
		ck_assert_int_eq(st.st_mode & 0777, 0620);
	}
}
END_TEST

/* The wrapped stdio calls still do their jobs. */
START_TEST(stdio_still_works)
{
	char buf[64] = "", name[] = "/tmp/cloexec-itXXXXXX";
	struct stat st;
	FILE *f;

	f = popen("echo from-child", "r");
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	ck_assert_str_eq(buf, "from-child\n");
	ck_assert_int_eq(pclose(f), 0);
	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs("temp", f), 0);
	ck_assert_int_eq(fstat(fileno(f), &st), 0);
	ck_assert_int_eq(st.st_nlink, 0);
	ck_assert_int_ge(mkstemp(name), 0);
	ck_assert_str_ne(name, "/tmp/cloexec-itXXXXXX");
	ck_assert_int_eq(unlink(name), 0);
	f = fopen(path("rw"), "w+x");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_null(fopen(path("rw"), "wx"));
	ck_assert_int_eq(errno, EEXIST);
}
END_TEST

START_TEST(pty_still_works)
{
	struct winsize ws = { .ws_row = 33, .ws_col = 77 }, got;
	char name[64], slave_name[64], buf[512] = "";
	const char *report = getenv("FDREPORT");
	int master, slave, fd;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(openpty(&master, &slave, name, NULL, &ws), 0);
	ck_assert_str_eq(name, ttyname(slave));
	ck_assert_int_eq(ioctl(slave, TIOCGWINSZ, &got), 0);
	ck_assert_int_eq(got.ws_row, 33);
	ck_assert_ptr_nonnull(report);
	close(master);
	close(slave);
	pid = forkpty(&master, slave_name, NULL, NULL);
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/*
		 * Its stdio is the slave, and it is inherited by an exec: the
		 * reporter (a program of this build, so of the library's
		 * word size) writes to it that it holds the slave above 2.
		 */
		fd = fcntl(0, F_DUPFD, 3);
		if (fd < 3 || fcntl(fd, F_SETFD, 0))
			_exit(126);
		execl(report, report, (char *)NULL);
		_exit(127);
	}
	while (len < sizeof(buf) - 1 &&
	       (n = read(master, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	ck_assert_msg(strstr(buf, slave_name),
		      "the child did not report %s: '%s'", slave_name, buf);
	waitpid(pid, NULL, 0);
}
END_TEST

/* signalfd on an existing fd only changes the mask: no flags touched. */
START_TEST(signalfd_update_keeps_flags)
{
	sigset_t set = usr1();
	int fd = signalfd(-1, &set, 0);

	ck_assert_int_ge(fd, 0);
	fcntl(fd, F_SETFD, 0);
	sigaddset(&set, SIGUSR2);
	ck_assert_int_eq(signalfd(fd, &set, 0), fd);
	ck_assert(!tl_cloexec(fd));
	ck_assert_int_eq(syscall(SYS_signalfd4, fd, &set, 8, 0), fd);
	ck_assert(!tl_cloexec(fd));
}
END_TEST

/* What the coverage table says needs no wrapper: true without one. */
START_TEST(already_cloexec_without_the_library)
{
	DIR *d = opendir("/");
	int shm = shm_open("/cloexec-it", O_CREAT | O_RDWR, 0600);
	int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);

	/* (On the emulated kernel, O_CLOEXEC itself is gone.) */
	if (tl_oldkernel())
		return;
	ck_assert_ptr_nonnull(d);
	ck_assert(tl_cloexec(dirfd(d)));
	closedir(d);
	ck_assert_int_ge(shm, 0);
	ck_assert(tl_cloexec(shm));
	shm_unlink("/cloexec-it");
	if (pidfd >= 0)
		ck_assert(tl_cloexec(pidfd));
}
END_TEST

/*
 * The calls the inheritance rules learn from (close, the locks, the
 * credentials): libc's answer for each bad argument, and errno kept
 * where they succeed.
 */
START_TEST(markers_answer_as_libc)
{
	int fd = open("/dev/null", O_RDONLY);
	gid_t groups[1];
	int n;

	tl_errno_is(close(-1), EBADF);
	tl_errno_is(close(12345), EBADF);
#if HAVE_CLOSE_RANGE
	/* The emulated old kernel has no close_range: ENOSYS, as libc's. */
	tl_errno_is(close_range(5, 4, 0), tl_oldkernel() ? ENOSYS : EINVAL);
	tl_errno_is(close_range(3, ~0U, 1u << 30),
		    tl_oldkernel() ? ENOSYS : EINVAL);
#endif
	tl_errno_is(flock(-1, LOCK_EX), EBADF);
	tl_errno_is(flock(fd, 0), EINVAL);
	tl_errno_is(lockf(-1, F_LOCK, 0), EBADF);
	tl_errno_is(lockf(fd, 12345, 0), EINVAL);
	tl_errno_is(fcntl(-1, F_SETLK, &(struct flock){ .l_type = F_RDLCK }),
		    EBADF);
	tl_errno_is(setgroups((size_t)-1, NULL), EINVAL);

	errno = 4242;
	n = getgroups(1, groups);
	ck_assert_int_eq(setresuid(-1, -1, -1), 0);
	ck_assert_int_eq(setresgid(-1, -1, -1), 0);
	if (n == 1 && getuid() == 0)
		ck_assert_int_eq(setgroups(1, groups), 0);
	ck_assert_int_eq(flock(fd, LOCK_SH), 0);
	ck_assert_int_eq(flock(fd, LOCK_UN), 0);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(errno, 4242);
}
END_TEST

static Suite *entry_suite(void)
{
	Suite *s = suite_create("entry points");

	tl_add_loop(s, plain_calls, NPLAIN);
	tl_add_loop(s, explicit_requests, NEXPLICIT);
	tl_add_env(s, errno_kept_with_report, NPLAIN,
		   "CLOEXEC_POLICY=report=on log=/dev/null");
	tl_add_env(s, errno_kept_with_keep_lists, NPLAIN,
		   "CLOEXEC_POLICY=keep=200-210 keep-path=/nonexistent/*");
	tl_add_env(s, errno_kept_in_audit_mode, NPLAIN,
		   "CLOEXEC_POLICY=mode=audit log=/dev/null");
	tl_add(s, errors_match_libc);
	tl_add(s, out_of_fds_is_emfile);
	tl_add(s, markers_answer_as_libc);
#ifdef SYS_open_tree
	tl_add(s, mount_api_answers_as_libc);
#endif
	tl_add(s, std_fds_stay_inheritable);
	tl_add(s, dup2_semantics);
	tl_add(s, fcntl_passes_everything_else);
	tl_add(s, open_mode_is_read);
	tl_add(s, stdio_still_works);
	tl_add(s, pty_still_works);
	tl_add(s, signalfd_update_keeps_flags);
	tl_add(s, already_cloexec_without_the_library);
	return s;
}

int main(int argc, char **argv)
{
	return tl_main(argc, argv, entry_suite);
}
