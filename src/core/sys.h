/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Raw system calls.
 *
 * The library cannot reach the kernel through libc everywhere: a wrapper
 * entered while its real symbol is being resolved (dlsym may allocate, and
 * an allocator may open files) must not call back into libc, and libc's
 * syscall() is itself one of the wrapped names.  These helpers go straight
 * to the kernel, return -errno on failure and never touch errno, which is
 * what lets a wrapper change fd flags without disturbing the caller's errno.
 */
#ifndef CLOEXEC_SYS_H
#define CLOEXEC_SYS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#if defined(__x86_64__)

static inline long sys_call6(long n, long a, long b, long c, long d, long e,
			     long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

#elif defined(__i386__)

/*
 * int $0x80 takes the sixth argument in %ebp, which may be the frame
 * pointer and cannot be named as an operand: the last two arguments go in
 * memory, %edi points at them, and %ebp is saved around the call.
 */
static inline long sys_call6(long n, long a, long b, long c, long d, long e,
			     long f)
{
	long last[2] = { e, f };
	long *p = last;
	long ret;

	__asm__ volatile("push %%ebp\n\t"
			 "movl 4(%%edi), %%ebp\n\t"
			 "movl (%%edi), %%edi\n\t"
			 "int $0x80\n\t"
			 "pop %%ebp"
			 : "=a"(ret), "+D"(p)
			 : "0"(n), "b"(a), "c"(b), "d"(c), "S"(d), "m"(last)
			 : "memory");
	return ret;
}

#elif defined(__aarch64__)

static inline long sys_call6(long n, long a, long b, long c, long d, long e,
			     long f)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;

	__asm__ volatile("svc 0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
}

#else
#error "libcloexec: no raw system call sequence for this architecture"
#endif

#define sys_call(n, a, b, c, d, e)                                           \
	sys_call6((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

/*
 * Up to three or four arguments: on x86_64 the registers of the others
 * are not loaded with zeros, instructions fewer on the wrappers' fast
 * paths (dup, pipe, socketpair, epoll_create1).
 */
#if defined(__x86_64__)
static inline long sys_call3(long n, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static inline long sys_call4(long n, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}
#else
#define sys_call3(n, a, b, c) sys_call6((n), (a), (b), (c), 0, 0, 0)
#define sys_call4(n, a, b, c, d) sys_call6((n), (a), (b), (c), (d), 0, 0)
#endif

/* Turn a raw result into libc's convention: -1 and errno. */
static inline long sys_result(long ret)
{
	if ((unsigned long)ret > -4096UL) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

#if defined(SYS_fcntl64)
#define SYS_FCNTL SYS_fcntl64
#else
#define SYS_FCNTL SYS_fcntl
#endif

/* 32-bit x86's SYS_mmap takes a struct; mmap2 takes the arguments. */
#if defined(SYS_mmap2)
#define SYS_MMAP SYS_mmap2
#else
#define SYS_MMAP SYS_mmap
#endif

static inline long sys_fcntl(int fd, int cmd, long arg)
{
	return sys_call3(SYS_FCNTL, fd, cmd, arg);
}

static inline long sys_close(int fd)
{
	return sys_call(SYS_close, fd, 0, 0, 0, 0);
}

static inline long sys_ioctl(int fd, unsigned long req, void *arg)
{
	return sys_call(SYS_ioctl, fd, req, arg, 0, 0);
}

static inline long sys_write(int fd, const void *buf, size_t len)
{
	return sys_call(SYS_write, fd, buf, len, 0, 0);
}

static inline long sys_openat(int dirfd, const char *path, int flags,
			      unsigned mode)
{
	return sys_call(SYS_openat, dirfd, path, flags, mode, 0);
}

static inline long sys_getdents64(int fd, void *buf, size_t len)
{
	return sys_call(SYS_getdents64, fd, buf, len, 0, 0);
}

static inline long sys_futex(void *addr, int op, unsigned val)
{
	return sys_call(SYS_futex, addr, op, val, 0, 0);
}

static inline long sys_pipe2(int fds[2], int flags)
{
	return sys_call3(SYS_pipe2, (long)fds, flags, 0);
}

static inline long sys_dup3(int oldfd, int newfd, int flags)
{
	return sys_call(SYS_dup3, oldfd, newfd, flags, 0, 0);
}

static inline long sys_epoll_create1(int flags)
{
	return sys_call3(SYS_epoll_create1, flags, 0, 0);
}

static inline long sys_inotify_init1(int flags)
{
	return sys_call(SYS_inotify_init1, flags, 0, 0, 0, 0);
}

static inline long sys_eventfd2(unsigned count, int flags)
{
	return sys_call(SYS_eventfd2, count, flags, 0, 0, 0);
}

/* The kernel's sigset is 64 bits, whatever libc's sigset_t is. */
static inline long sys_signalfd4(int fd, const void *mask, int flags)
{
	return sys_call(SYS_signalfd4, fd, mask, 8, flags, 0);
}

static inline long sys_timerfd_create(int clockid, int flags)
{
	return sys_call(SYS_timerfd_create, clockid, flags, 0, 0, 0);
}

/*
 * Sockets.  32-bit x86 multiplexes them through socketcall(2), as libc does
 * there; the direct calls only exist since Linux 4.3.
 */
#if defined(SYS_socketcall)
/* socketcall's sub-call numbers (linux/net.h), where it exists. */
#define SOCKETCALL_SOCKET 1
#define SOCKETCALL_ACCEPT 5
#define SOCKETCALL_SOCKETPAIR 8
#define SOCKETCALL_SENDMSG 16
#define SOCKETCALL_RECVMSG 17
#define SOCKETCALL_ACCEPT4 18
#define SOCKETCALL_RECVMMSG 19
#endif

#if defined(__i386__)

static inline long sys_socketcall(int call, long *args)
{
	return sys_call(SYS_socketcall, call, args, 0, 0, 0);
}

static inline long sys_socket(int domain, int type, int protocol)
{
	long args[3] = { domain, type, protocol };

	return sys_socketcall(SOCKETCALL_SOCKET, args);
}

static inline long sys_socketpair(int domain, int type, int protocol,
				  int sv[2])
{
	long args[4] = { domain, type, protocol, (long)sv };

	return sys_socketcall(SOCKETCALL_SOCKETPAIR, args);
}

static inline long sys_accept(int fd, struct sockaddr *sa, socklen_t *len)
{
	long args[3] = { fd, (long)sa, (long)len };

	return sys_socketcall(SOCKETCALL_ACCEPT, args);
}

static inline long sys_accept4(int fd, struct sockaddr *sa, socklen_t *len,
			       int flags)
{
	long args[4] = { fd, (long)sa, (long)len, flags };

	return sys_socketcall(SOCKETCALL_ACCEPT4, args);
}

static inline long sys_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	long args[3] = { fd, (long)msg, flags };

	return sys_socketcall(SOCKETCALL_SENDMSG, args);
}

static inline long sys_recvmsg(int fd, struct msghdr *msg, int flags)
{
	long args[3] = { fd, (long)msg, flags };

	return sys_socketcall(SOCKETCALL_RECVMSG, args);
}
#else
static inline long sys_socket(int domain, int type, int protocol)
{
	return sys_call(SYS_socket, domain, type, protocol, 0, 0);
}

static inline long sys_socketpair(int domain, int type, int protocol,
				  int sv[2])
{
	return sys_call4(SYS_socketpair, domain, type, protocol, (long)sv);
}

static inline long sys_accept(int fd, struct sockaddr *sa, socklen_t *len)
{
#if defined(SYS_accept)
	return sys_call(SYS_accept, fd, sa, len, 0, 0);
#else
	return sys_call(SYS_accept4, fd, sa, len, 0, 0);
#endif
}

static inline long sys_accept4(int fd, struct sockaddr *sa, socklen_t *len,
			       int flags)
{
	return sys_call(SYS_accept4, fd, sa, len, flags, 0);
}

static inline long sys_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	return sys_call(SYS_sendmsg, fd, msg, flags, 0, 0);
}

static inline long sys_recvmsg(int fd, struct msghdr *msg, int flags)
{
	return sys_call(SYS_recvmsg, fd, msg, flags, 0, 0);
}
#endif

#endif /* CLOEXEC_SYS_H */
