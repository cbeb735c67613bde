/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An emulated 2008 kernel, for the test that installs it.
 *
 * A seccomp filter makes the running kernel answer the fd-creating calls
 * the way Linux did before the flag-parameter series landed:
 *
 *   accept4, dup3, epoll_create1, inotify_init1,
 *   pipe2, with flags                             ENOSYS (no such call)
 *   socket/socketpair with SOCK_CLOEXEC/NONBLOCK  EINVAL (invalid type)
 *   eventfd2, signalfd4, timerfd_create flags     EINVAL
 *   fcntl F_DUPFD_CLOEXEC                         EINVAL
 *   close_range (5.9)                             ENOSYS
 *   open_tree, fsopen, fsmount, fspick (5.2)      ENOSYS
 *   open/openat with O_CLOEXEC                    bit silently ignored
 *   recvmsg/recvmmsg with MSG_CMSG_CLOEXEC        bit silently ignored
 *
 * Flagged calls with no flags stay allowed, because glibc 2.36 implements
 * pipe(), eventfd() and signalfd() with them, and freopen() with dup3():
 * the emulation refuses the flag bits, not the calls.  One flagged call
 * passes: glibc's popen() makes its pipe with pipe2(O_CLOEXEC) and could
 * not work at all otherwise; the library's own probe of pipe2 asks for
 * O_NONBLOCK too, and is refused.
 *
 * "Silently ignored" cannot be said in BPF: those calls are handed to a
 * supervisor thread of the same process (SECCOMP_RET_USER_NOTIF), which
 * makes the call itself without the bit, sharing the fd table, and answers
 * with its result.  Calls from other processes (exec'd children inherit
 * the filter) are let through unchanged.
 *
 * On 32-bit x86, libc makes its socket calls through socketcall(2), whose
 * arguments are in memory, where BPF cannot look: the supervisor reads
 * them and answers as 2.6.27 did (flag bits in the type EINVAL, accept4 an
 * unknown sub-call, EINVAL; MSG_CMSG_CLOEXEC ignored).  The direct socket
 * calls (Linux 4.3) refuse the flag bits as on x86_64; fcntl64 and
 * recvmmsg_time64 are treated as fcntl and recvmmsg.
 *
 * Install it in the process (or Check's forked test child) that is under
 * test, before it starts other threads: threads created afterwards inherit
 * the filter.  Returns 0, or -1 with a message on stderr when the machine
 * cannot do it (not x86, seccomp unavailable).
 */
#ifndef TESTS_OLDKERNEL_H
#define TESTS_OLDKERNEL_H

int oldkernel_install(void);

/*
 * Before oldkernel_install(): keep the supervisor's own fd at lowfd or
 * above, where the fd limit allows, out of the way of a program that
 * closes every fd below (examples/leaky closes 3 to 1023).
 */
void oldkernel_keep_fd_from(int lowfd);

/*
 * How libc's accept4() with flags fails there: no such system call on
 * x86_64; on 32-bit x86 a socketcall sub-call that 2.6.27 did not know.
 */
#if defined(__i386__)
#define OLDKERNEL_ACCEPT4_ERRNO EINVAL
#else
#define OLDKERNEL_ACCEPT4_ERRNO ENOSYS
#endif

/* Can this build emulate here (architecture, headers, kernel)? */
int oldkernel_supported(void);

/* Did this process install it? */
int oldkernel_active(void);

#endif /* TESTS_OLDKERNEL_H */
