/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel ABI values that older C library headers may lack.  configure says
 * which declarations exist; the values are the kernel's, which never change
 * once released.
 */
#ifndef CLOEXEC_COMPAT_H
#define CLOEXEC_COMPAT_H

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#if HAVE_SYS_FANOTIFY_H
#include <sys/fanotify.h>
#endif
#if HAVE_LINUX_FUTEX_H
#include <linux/futex.h>
#endif

/*
 * The environment, which is the user's only in a process that is not
 * setuid, setgid or privileged by file capabilities (AT_SECURE): there it
 * is the less-privileged caller's, and reads as empty.  What glibc's
 * secure_getenv() does (Linux always passes AT_SECURE), without its
 * version of libc, GLIBC_2.17, which the dynamic loader would check at
 * every process start (src/symvers.sh, bind); and getenv()'s walk done
 * here, which saves the process that loads the policy the binding of
 * getenv, some 800 instructions.  No locks, as getenv takes none.
 */
static inline const char *secure_env(const char *name)
{
	extern char **environ;
	char **e;

	if (getauxval(AT_SECURE))
		return NULL;
	for (e = environ; e && *e; e++) {
		const char *v = *e, *n = name;

		while (*n && *v == *n)
			v++, n++;
		if (!*n && *v == '=')
			return v + 1;
	}
	return NULL;
}

#if !HAVE_DECL_O_CLOEXEC
#define O_CLOEXEC 02000000
#endif

#if !HAVE_DECL_SOCK_CLOEXEC
#define SOCK_CLOEXEC O_CLOEXEC
#endif

#if !HAVE_DECL_SOCK_NONBLOCK
#define SOCK_NONBLOCK O_NONBLOCK
#endif

#if !HAVE_DECL_F_DUPFD_CLOEXEC
#define F_DUPFD_CLOEXEC 1030
#endif

#if !HAVE_DECL_MSG_CMSG_CLOEXEC
#define MSG_CMSG_CLOEXEC 0x40000000
#endif

#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif

/* The calls whose flag came with them spell it as bit 0. */
#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 1u
#endif
#ifndef FAN_CLOEXEC
#define FAN_CLOEXEC 1
#define FAN_NONBLOCK 2
#endif
#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC 8ul
#endif
/* Spelled as the kernel's uapi does: glibc's <sys/mount.h> may follow. */
#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC 0x00000001
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC 0x00000001
#endif

/* musl's own headers have no <linux/...>: the kernel headers may be absent. */
#ifndef FUTEX_WAIT_PRIVATE
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129
#endif

#ifndef TIOCGPTPEER
#define TIOCGPTPEER 0x5441
#endif

/*
 * glibc declares the address argument of accept() and friends as a
 * transparent union under _GNU_SOURCE; a definition must use the same type,
 * and the raw path needs the pointer inside it.
 */
#if HAVE_SOCKADDR_TRANSPARENT_UNION
typedef __SOCKADDR_ARG sockaddr_arg;
#define SOCKADDR_PTR(arg) ((arg).__sockaddr__)
#else
typedef struct sockaddr *sockaddr_arg;
#define SOCKADDR_PTR(arg) (arg)
#endif

/*
 * musl's headers spell the LFS64 names as macros for the standard ones
 * (off_t is 64 bits already), while its libc.so still exports them, as
 * aliases, for binaries that bind them: the wrappers define them as names
 * of their own.  A header that made one a macro declared no function.
 */
#ifdef open64
#undef open64
int open64(const char *path, int flags, ...);
#endif
#ifdef openat64
#undef openat64
int openat64(int dirfd, const char *path, int flags, ...);
#endif
#ifdef creat64
#undef creat64
int creat64(const char *path, mode_t mode);
#endif
#ifdef fopen64
#undef fopen64
FILE *fopen64(const char *path, const char *mode);
#endif
#ifdef freopen64
#undef freopen64
FILE *freopen64(const char *path, const char *mode, FILE *f);
#endif
#ifdef tmpfile64
#undef tmpfile64
FILE *tmpfile64(void);
#endif
#ifdef mkstemp64
#undef mkstemp64
int mkstemp64(char *tmpl);
#endif
#ifdef mkostemp64
#undef mkostemp64
int mkostemp64(char *tmpl, int flags);
#endif
#ifdef mkstemps64
#undef mkstemps64
int mkstemps64(char *tmpl, int suffixlen);
#endif
#ifdef mkostemps64
#undef mkostemps64
int mkostemps64(char *tmpl, int suffixlen, int flags);
#endif
#ifdef lockf64
#undef lockf64
int lockf64(int fd, int cmd, off_t len);
#endif

/* glibc's _FORTIFY_SOURCE entry points, declared only under fortify. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

/*
 * 32-bit glibc's names for the calls a program built with _TIME_BITS=64
 * makes (the headers only redirect to them).  The timeout of __recvmmsg64
 * is really a struct __timespec64: the library only passes the pointer on,
 * so it is typed as recvmmsg's and one helper serves both.
 */
#if HAVE___FCNTL_TIME64
int __fcntl_time64(int fd, int cmd, ...);
#endif
#if HAVE___IOCTL_TIME64
int __ioctl_time64(int fd, IOCTL_REQUEST_TYPE req, ...);
#endif
#if HAVE___RECVMSG64
ssize_t __recvmsg64(int fd, struct msghdr *msg, int flags);
#endif
#if HAVE___RECVMMSG64
int __recvmmsg64(int fd, struct mmsghdr *vec, unsigned vlen, int flags,
		 struct timespec *timeout);
#endif

#if !HAVE_DECL_ACCEPT4
int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);
#endif

#endif /* CLOEXEC_COMPAT_H */
