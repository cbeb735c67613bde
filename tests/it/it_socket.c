/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The socket family, end to end, in every configuration (testlib.h):
 * what a plain call returns, what an exec'd child inherits, explicit flags,
 * errors and errno identical to libc's, and the fds that land on 0-2.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "oldkernel.h"
#include "testlib.h"

/* Without the library, the emulated kernel refuses flagged calls. */
static bool flags_refused(void)
{
	return tl_oldkernel() && !tl_preloaded();
}

START_TEST(socket_plain)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(s, 3);
	ck_assert(tl_cloexec(s) == tl_preloaded());
	ck_assert(!tl_nonblock(s));
	ck_assert_int_eq(tl_child_sees(s), !tl_preloaded());
}
END_TEST

START_TEST(socket_explicit_flags)
{
	int s = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	if (flags_refused()) {
		ck_assert_int_eq(s, -1);
		ck_assert_int_eq(errno, EINVAL);
		return;
	}
	ck_assert_int_ge(s, 3);
	ck_assert(tl_cloexec(s));
	ck_assert(tl_nonblock(s));
	ck_assert_int_eq(tl_child_sees(s), 0);
}
END_TEST

START_TEST(socket_nonblock_only)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);

	if (flags_refused()) {
		ck_assert_int_eq(s, -1);
		return;
	}
	ck_assert_int_ge(s, 3);
	ck_assert(tl_nonblock(s));
	ck_assert(tl_cloexec(s) == tl_preloaded());
}
END_TEST

START_TEST(socketpair_plain)
{
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert(tl_cloexec(sv[0]) == tl_preloaded());
	ck_assert(tl_cloexec(sv[1]) == tl_preloaded());
	ck_assert_int_eq(tl_child_sees(sv[0]), !tl_preloaded());
	ck_assert_int_eq(tl_child_sees(sv[1]), !tl_preloaded());
	ck_assert_int_eq(write(sv[0], "x", 1), 1);
}
END_TEST

START_TEST(socketpair_explicit_flags)
{
	int sv[2];
	int ret = socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC |
					      SOCK_NONBLOCK,
			     0, sv);

	if (flags_refused()) {
		ck_assert_int_eq(ret, -1);
		ck_assert_int_eq(errno, EINVAL);
		return;
	}
	ck_assert_int_eq(ret, 0);
	ck_assert(tl_cloexec(sv[0]) && tl_cloexec(sv[1]));
	ck_assert(tl_nonblock(sv[0]) && tl_nonblock(sv[1]));
}
END_TEST

START_TEST(accept_plain)
{
	struct sockaddr_in addr, peer;
	socklen_t len = sizeof(peer);
	int l = tl_listener(&addr);
	int c = tl_connect(&addr);
	int a = accept(l, (struct sockaddr *)&peer, &len);

	ck_assert_int_ge(a, 3);
	ck_assert_int_eq(len, sizeof(peer));
	ck_assert_int_eq(peer.sin_family, AF_INET);
	ck_assert(tl_cloexec(a) == tl_preloaded());
	ck_assert(!tl_nonblock(a));
	ck_assert_int_eq(tl_child_sees(a), !tl_preloaded());
	ck_assert_int_eq(write(c, "x", 1), 1);
}
END_TEST

START_TEST(accept4_flags)
{
	struct sockaddr_in addr;
	int l = tl_listener(&addr);
	int a;

	tl_connect(&addr);
	a = accept4(l, NULL, NULL, SOCK_NONBLOCK);
	if (flags_refused()) {
		ck_assert_int_eq(a, -1);
		ck_assert_int_eq(errno, OLDKERNEL_ACCEPT4_ERRNO);
		return;
	}
	ck_assert_int_ge(a, 3);
	ck_assert(tl_nonblock(a));
	ck_assert(tl_cloexec(a) == tl_preloaded());

	tl_connect(&addr);
	a = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	ck_assert_int_ge(a, 3);
	ck_assert(tl_cloexec(a));
	ck_assert(!tl_nonblock(a));
	ck_assert_int_eq(tl_child_sees(a), 0);
}
END_TEST

/* A blocking listener: the fallback waits for the connection unlocked. */
static void *connect_later(void *arg)
{
	usleep(100 * 1000);
	tl_connect(arg);
	return NULL;
}

START_TEST(accept_blocking)
{
	struct sockaddr_in addr;
	int l = tl_listener(&addr);
	pthread_t th;
	int a;

	ck_assert_int_eq(pthread_create(&th, NULL, connect_later, &addr), 0);
	a = accept(l, NULL, NULL);
	ck_assert_int_ge(a, 3);
	ck_assert(tl_cloexec(a) == tl_preloaded());
	pthread_join(th, NULL);
}
END_TEST

static void *send_later(void *arg)
{
	usleep(100 * 1000);
	tl_send_fd(*(int *)arg, 0);
	return NULL;
}

/*
 * recvmsg waits when the caller waits, and only then: nothing there on a
 * non-blocking socket, or with MSG_DONTWAIT, is EAGAIN at once, as libc
 * says (the fallback takes messages without waiting, inside the lock).
 */
START_TEST(recvmsg_waits_only_when_asked)
{
	pthread_t th;
	int sv[2], fd;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert_int_eq(tl_recv_fd(sv[1], MSG_DONTWAIT), -1);
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_int_eq(fcntl(sv[1], F_SETFL, O_NONBLOCK), 0);
	ck_assert_int_eq(tl_recv_fd(sv[1], 0), -1);
	ck_assert_int_eq(errno, EAGAIN);
	ck_assert_int_eq(fcntl(sv[1], F_SETFL, 0), 0);

	ck_assert_int_eq(pthread_create(&th, NULL, send_later, &sv[0]), 0);
	fd = tl_recv_fd(sv[1], 0);
	ck_assert_int_ge(fd, 3);
	ck_assert(tl_cloexec(fd) == tl_preloaded());
	ck_assert_int_eq(tl_child_sees(fd), !tl_preloaded());
	pthread_join(th, NULL);

	tl_send_fd(sv[0], 0);
	fd = tl_recv_fd(sv[1], MSG_WAITALL);
	ck_assert_int_ge(fd, 3);
	ck_assert(tl_cloexec(fd) == tl_preloaded());
}
END_TEST

/*
 * Only AF_UNIX carries fds, and AF_PACKET refuses MSG_CMSG_CLOEXEC with
 * EINVAL: a flag the library adds must not turn a packet socket's EAGAIN
 * into EINVAL (socat's TUN test, preloaded), by any of the entry points;
 * one the caller passes is still refused, as by libc.  Needs CAP_NET_RAW.
 */
START_TEST(recvmsg_family_without_fds)
{
	ssize_t (*libc_recvmsg)(int, struct msghdr *, int) =
		tl_libc("recvmsg");
	char buf[64];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct mmsghdr vec = { .msg_hdr = msg };
	int fd = socket(AF_PACKET, SOCK_RAW, 0);
	int flags = MSG_DONTWAIT | MSG_PEEK;
	int own = tl_oldkernel() ? 0 : MSG_CMSG_CLOEXEC;

	if (fd < 0 && (errno == EPERM || errno == EAFNOSUPPORT))
		return;
	ck_assert_int_ge(fd, 0);
	/* Nothing queued yet, or a packet: either way, not EINVAL. */
	errno = 0;
	if (libc_recvmsg(fd, &msg, flags) < 0)
		ck_assert_int_eq(errno, EAGAIN);
	/* Twice: the library's second recvmsg takes its fast path. */
	errno = 0;
	if (recvmsg(fd, &msg, flags) < 0)
		ck_assert_int_eq(errno, EAGAIN);
	errno = 0;
	if (recvmsg(fd, &msg, flags) < 0)
		ck_assert_int_eq(errno, EAGAIN);
	errno = 0;
	if (recvmmsg(fd, &vec, 1, flags, NULL) < 0)
		ck_assert_int_eq(errno, EAGAIN);
	errno = 0;
	if (syscall(SYS_recvmsg, fd, &msg, flags) < 0)
		ck_assert_int_eq(errno, EAGAIN);
	errno = 0;
	if (syscall(SYS_recvmmsg, fd, &vec, 1, flags, NULL) < 0)
		ck_assert_int_eq(errno, EAGAIN);
	if (!own)
		return;
	tl_errno_is(libc_recvmsg(fd, &msg, flags | own), EINVAL);
	tl_errno_is(recvmsg(fd, &msg, flags | own), EINVAL);
	tl_errno_is(recvmmsg(fd, &vec, 1, flags | own, NULL), EINVAL);
	tl_errno_is(syscall(SYS_recvmsg, fd, &msg, flags | own), EINVAL);
	close(fd);
}
END_TEST

/*
 * The kernel starts msg_flags with the call's MSG_CMSG_CLOEXEC: one the
 * library adds must not show there (Python's test_socket checks that
 * recv_fds gives flags 0), by any entry point; the caller's own shows,
 * as with libc.
 */
static int msg_flags_of(int how, int flags)
{
	struct tl_fd_msg m;
	struct mmsghdr vec;
	int s = tl_sent_fd_socket();

	tl_fd_msg_init(&m);
	m.msg.msg_flags = -1;
	if (how == 0) {
		ck_assert_int_eq(recvmsg(s, &m.msg, flags), 1);
	} else if (how == 1) {
		ck_assert_int_eq(syscall(SYS_recvmsg, s, &m.msg, flags), 1);
	} else {
		vec.msg_hdr = m.msg;
		ck_assert_int_eq(recvmmsg(s, &vec, 1, flags, NULL), 1);
		m.msg = vec.msg_hdr;
	}
	close(tl_received_fd(&m.msg));
	close(s);
	return m.msg.msg_flags;
}

START_TEST(recvmsg_flags_as_libc)
{
	int how;

	for (how = 0; how < 3; how++) {
		ck_assert_int_eq(msg_flags_of(how, 0), 0);
		ck_assert_int_eq(msg_flags_of(how, MSG_DONTWAIT), 0);
		if (!tl_oldkernel())
			ck_assert_int_eq(msg_flags_of(how, MSG_CMSG_CLOEXEC),
					 MSG_CMSG_CLOEXEC);
	}
}
END_TEST

/* An address the kernel will refuse, hidden from the compiler's checks. */
static void *bad_address(void)
{
	static volatile uintptr_t addr = 8;

	return (void *)addr;
}

/* Bad arguments: the same return and errno as libc on a current kernel. */
START_TEST(errors_match_libc)
{
	struct sockaddr_in addr;
	int l = tl_listener(&addr);
	int unbound = socket(AF_INET, SOCK_STREAM, 0);
	int file = open("/dev/null", O_RDONLY);
	int sv[2];

	tl_errno_is(socket(12345, SOCK_STREAM, 0), EAFNOSUPPORT);
	tl_errno_is(socket(AF_INET, 999, 0), EINVAL);
	tl_errno_is(socket(AF_INET, SOCK_STREAM | 0x100, 0), EINVAL);
	tl_errno_is(socket(AF_INET, SOCK_STREAM, 12345), EINVAL);
	tl_errno_is(socket(AF_INET, SOCK_STREAM, IPPROTO_UDP), EPROTONOSUPPORT);
	tl_errno_is(socketpair(AF_INET, SOCK_STREAM, 0, sv), EOPNOTSUPP);
	tl_errno_is(socketpair(AF_UNIX, SOCK_STREAM, 0, bad_address()), EFAULT);
	tl_errno_is(accept(-1, NULL, NULL), EBADF);
	tl_errno_is(accept(1000, NULL, NULL), EBADF);
	tl_errno_is(accept(file, NULL, NULL), ENOTSOCK);
	tl_errno_is(accept(unbound, NULL, NULL), EINVAL);
	if (flags_refused())
		return;
	/* Flags are checked first: no wait, even on a blocking listener. */
	tl_errno_is(accept4(l, NULL, NULL, 0x1000), EINVAL);
	tl_errno_is(accept4(-1, NULL, NULL, SOCK_CLOEXEC), EBADF);
#ifndef __SANITIZE_ADDRESS__
	/* (ASan's own accept4 reads *addrlen first, and crashes.) */
	tl_connect(&addr);
	tl_errno_is(accept4(l, bad_address(), bad_address(), SOCK_CLOEXEC),
		    EFAULT);
#endif
}
END_TEST

/* On the real kernel, libc's own functions agree case by case. */
START_TEST(errors_same_as_libc_functions)
{
	int (*libc_socket)(int, int, int) = tl_libc("socket");
	int (*libc_accept4)(int, struct sockaddr *, socklen_t *, int) =
		tl_libc("accept4");
	static const int types[] = { 999, SOCK_STREAM | 0x100, -1,
				     SOCK_RAW | SOCK_CLOEXEC };
	static const int domains[] = { 12345, -1, AF_INET, AF_UNIX };
	size_t i, j;

	if (tl_oldkernel())
		return;
	ck_assert_ptr_nonnull(libc_socket);
	for (i = 0; i < sizeof(domains) / sizeof(domains[0]); i++) {
		for (j = 0; j < sizeof(types) / sizeof(types[0]); j++) {
			int r1, r2, e1, e2;

			errno = 0;
			r1 = libc_socket(domains[i], types[j], 0);
			e1 = errno;
			errno = 0;
			r2 = socket(domains[i], types[j], 0);
			e2 = errno;
			ck_assert_msg((r1 < 0) == (r2 < 0) && e1 == e2,
				      "socket(%d, %#x): libc %d/%d, here %d/%d",
				      domains[i], types[j], r1, e1, r2, e2);
		}
	}
	errno = 0;
	ck_assert_int_eq(libc_accept4(-1, NULL, NULL, SOCK_CLOEXEC), -1);
	ck_assert_int_eq(errno, EBADF);
}
END_TEST

START_TEST(errno_preserved)
{
	struct sockaddr_in addr;
	int l, sv[2];

	errno = 4242;
	ck_assert_int_ge(socket(AF_INET, SOCK_STREAM, 0), 0);
	ck_assert_int_eq(errno, 4242);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	ck_assert_int_eq(errno, 4242);
	l = tl_listener(&addr);
	tl_connect(&addr);
	errno = 4343;
	ck_assert_int_ge(accept(l, NULL, NULL), 0);
	ck_assert_int_eq(errno, 4343);
}
END_TEST

START_TEST(emfile)
{
	struct sockaddr_in addr;
	struct rlimit rl = { 16, 16 };
	int l = tl_listener(&addr);
	int sv[2];

	tl_connect(&addr);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	while (open("/dev/null", O_RDONLY) >= 0)
		;
	ck_assert_int_eq(errno, EMFILE);
	tl_errno_is(socket(AF_INET, SOCK_STREAM, 0), EMFILE);
	tl_errno_is(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), EMFILE);
	tl_errno_is(accept(l, NULL, NULL), EMFILE);
}
END_TEST

/* inetd: close(0); socket() hands the socket to the children as stdin. */
START_TEST(std_fds_stay_inheritable)
{
	struct sockaddr_in addr;
	int l = tl_listener(&addr);
	int stdout_copy = dup(1);
	int s, sv[2];

	close(0);
	s = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_eq(s, 0);
	ck_assert(!tl_cloexec(0));
	close(0);
	close(1);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ck_assert(sv[0] < 2 && sv[1] < 2);
	ck_assert(!tl_cloexec(0) && !tl_cloexec(1));
	dup2(stdout_copy, 1);
	tl_connect(&addr);
	close(0);
	ck_assert_int_eq(accept(l, NULL, NULL), 0);
	ck_assert(!tl_cloexec(0));
	/* Received, the second time on recvmsg's fast path. */
	for (int i = 0; i < 2; i++) {
		close(0);
		ck_assert_int_eq(tl_recv_fd(tl_sent_fd_socket(), 0), 0);
		ck_assert(!tl_cloexec(0));
	}
	/* A copy by dup(), onto 0 as the lowest free number, likewise. */
	for (int i = 0; i < 2; i++) {
		close(0);
		ck_assert_int_eq(dup(stdout_copy), 0);
		ck_assert(!tl_cloexec(0));
	}
	if (flags_refused())
		return;
	/* Asked for explicitly, the flag stays, even on 0. */
	close(0);
	ck_assert_int_eq(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), 0);
	ck_assert(tl_cloexec(0));
}
END_TEST

/*
 * A control buffer of CMSG_LEN(sizeof(int)), not CMSG_SPACE: the kernel
 * fills it to its last byte, and the fd in it is still taken (here on 0,
 * where a flag the library added comes off), the second time on the
 * fast path.
 */
START_TEST(recvmsg_control_buffer_without_padding)
{
	struct tl_fd_msg m;
	int i, s;

	for (i = 0; i < 2; i++) {
		s = tl_sent_fd_socket();
		tl_fd_msg_init(&m);
		m.msg.msg_controllen = CMSG_LEN(sizeof(int));
		close(0);
		ck_assert_int_eq(recvmsg(s, &m.msg, 0), 1);
		ck_assert_int_eq(m.msg.msg_controllen, CMSG_LEN(sizeof(int)));
		ck_assert_int_eq(tl_received_fd(&m.msg), 0);
		ck_assert(!tl_cloexec(0));
		close(s);
	}
}
END_TEST

/*
 * With SO_PASSCRED the kernel puts SCM_CREDENTIALS (pid, uid, gid) first,
 * then SCM_RIGHTS.  The fd after the credentials is still taken (on 0 it
 * is left inheritable), and the ids are no fds: with this user's uid on
 * fd 0, 1 or 2 (root's 0), that fd keeps its flag.  Twice each: the
 * second recvmsg takes the fast path.
 */
static int recv_with_credentials(int *received)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(struct ucred)) +
			 CMSG_SPACE(sizeof(int))];
	} c;
	struct tl_fd_msg m;
	struct cmsghdr *h;
	int one = 1, sv[2], payload, n = 0;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	ck_assert_int_eq(setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one,
				    sizeof(one)),
			 0);
	payload = open("/dev/null", O_RDONLY);
	tl_send_fd(sv[0], payload);
	close(payload);
	close(sv[0]);
	tl_fd_msg_init(&m);
	m.msg.msg_control = c.buf;
	m.msg.msg_controllen = sizeof(c.buf);
	ck_assert_int_eq(recvmsg(sv[1], &m.msg, 0), 1);
	*received = -1;
	for (h = CMSG_FIRSTHDR(&m.msg); h; h = CMSG_NXTHDR(&m.msg, h)) {
		n++;
		if (h->cmsg_type == SCM_RIGHTS)
			memcpy(received, CMSG_DATA(h), sizeof(int));
	}
	close(sv[1]);
	return n;
}

START_TEST(recvmsg_rights_after_credentials)
{
	uid_t uid = getuid();
	int i, fd;

	for (i = 0; i < 2; i++) {
		close(0);
		ck_assert_int_eq(recv_with_credentials(&fd), 2);
		ck_assert_int_eq(fd, 0);
		ck_assert(!tl_cloexec(0));
	}
	if (uid > 2)
		return;
	fd = open("/dev/null", O_RDONLY);
	ck_assert_int_eq(dup2(fd, (int)uid), (int)uid);
	ck_assert_int_eq(fcntl((int)uid, F_SETFD, FD_CLOEXEC), 0);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(recv_with_credentials(&fd), 2);
		ck_assert_int_gt(fd, 2);
		ck_assert(tl_cloexec((int)uid));
		close(fd);
	}
}
END_TEST

/*
 * A datagram of no bytes still carries its fds: recvmsg returns 0 and the
 * fd is taken (on 0 it is left inheritable) and the flag hidden, the
 * second time on the fast path.
 */
START_TEST(recvmsg_empty_datagram_with_an_fd)
{
	struct tl_fd_msg m;
	int i, sv[2], payload;

	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
		payload = open("/dev/null", O_RDONLY);
		tl_fd_msg_init(&m);
		m.iov.iov_len = 0;
		tl_fd_msg_put(&m, payload);
		ck_assert_int_eq(sendmsg(sv[0], &m.msg, 0), 0);
		close(payload);
		close(0);
		tl_fd_msg_init(&m);
		ck_assert_int_eq(recvmsg(sv[1], &m.msg, 0), 0);
		ck_assert_int_eq(tl_received_fd(&m.msg), 0);
		ck_assert(!tl_cloexec(0));
		ck_assert_int_eq(m.msg.msg_flags & MSG_CMSG_CLOEXEC, 0);
		close(sv[0]);
		close(sv[1]);
	}
}
END_TEST

START_TEST(cleared_flag_stays_cleared)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_eq(fcntl(s, F_SETFD, 0), 0);
	ck_assert_int_eq(tl_child_sees(s), 1);
}
END_TEST

typedef int (*paccept_fn)(int, struct sockaddr *, socklen_t *,
			  const sigset_t *, int);

static paccept_fn find_paccept(void)
{
	return (paccept_fn)dlsym(RTLD_DEFAULT, "cloexec_paccept");
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void *signal_later(void *arg)
{
	usleep(200 * 1000);
	pthread_kill(*(pthread_t *)arg, SIGUSR1);
	return NULL;
}

START_TEST(paccept_flags_and_sigmask)
{
	paccept_fn paccept = find_paccept();
	struct sockaddr_in addr;
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t blocked, during;
	pthread_t self = pthread_self(), th;
	int l, a;

	if (!tl_preloaded()) {
		ck_assert_ptr_null(paccept);
		return;
	}
	ck_assert_ptr_nonnull(paccept);
	l = tl_listener(&addr);
	tl_errno_is(paccept(l, NULL, NULL, NULL, 0x1000), EINVAL);

	tl_connect(&addr);
	a = paccept(l, NULL, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	ck_assert_int_ge(a, 3);
	ck_assert(tl_cloexec(a) && tl_nonblock(a));

	/* SIGUSR1 blocked normally, unblocked only while paccept waits. */
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &blocked, &during);
	sigdelset(&during, SIGUSR1);

	pthread_create(&th, NULL, signal_later, &self);
	tl_errno_is(paccept(l, NULL, NULL, &during, 0), EINTR);
	pthread_join(th, NULL);

	/* Pending before the call: the wait must not start at all. */
	raise(SIGUSR1);
	tl_errno_is(paccept(l, NULL, NULL, &during, 0), EINTR);

	/* A connection and the mask: accepted, flags applied. */
	tl_connect(&addr);
	a = paccept(l, NULL, NULL, &during, 0);
	ck_assert_int_ge(a, 3);
	ck_assert(tl_cloexec(a));
}
END_TEST

static Suite *socket_suite(void)
{
	Suite *s = suite_create("socket");

	tl_add(s, socket_plain);
	tl_add(s, socket_explicit_flags);
	tl_add(s, socket_nonblock_only);
	tl_add(s, socketpair_plain);
	tl_add(s, socketpair_explicit_flags);
	tl_add(s, accept_plain);
	tl_add(s, accept4_flags);
	tl_add(s, accept_blocking);
	tl_add(s, recvmsg_waits_only_when_asked);
	tl_add(s, recvmsg_family_without_fds);
	tl_add(s, recvmsg_flags_as_libc);
	tl_add(s, errors_match_libc);
	tl_add(s, errors_same_as_libc_functions);
	tl_add(s, errno_preserved);
	tl_add(s, emfile);
	tl_add(s, std_fds_stay_inheritable);
	tl_add(s, recvmsg_control_buffer_without_padding);
	tl_add(s, recvmsg_rights_after_credentials);
	tl_add(s, recvmsg_empty_datagram_with_an_fd);
	tl_add(s, cleared_flag_stays_cleared);
	tl_add(s, paccept_flags_and_sigmask);
	return s;
}

int main(int argc, char **argv)
{
	return tl_main(argc, argv, socket_suite);
}
