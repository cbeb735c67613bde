/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sockets: socket, socketpair, accept, accept4, and cloexec_paccept.
 *
 * socket() and socketpair() carry their flags in the type argument, so the
 * fallback passes the type without them.  accept() has no flags at all:
 * natively it becomes accept4(), and the fallback waits for a connection
 * outside the fork lock before taking it inside.
 */
#include "config.h"

#include <poll.h>
#include <signal.h>

#include "cloexec.h"
#include "core/export.h"
#include "core/fdreq.h"
#include "core/real.h"
#include "core/sys.h"
#include "specs.h"

static int raw_socket(int domain, int type, int protocol)
{
	return sys_result(sys_socket(domain, type, protocol));
}

static int raw_socketpair(int domain, int type, int protocol, int sv[2])
{
	return sys_result(sys_socketpair(domain, type, protocol, sv));
}

static int raw_accept(int fd, sockaddr_arg sa, socklen_t *len)
{
	return sys_result(sys_accept(fd, SOCKADDR_PTR(sa), len));
}

static int raw_accept4(int fd, sockaddr_arg sa, socklen_t *len, int flags)
{
	return sys_result(sys_accept4(fd, SOCKADDR_PTR(sa), len, flags));
}

REAL_SLOT(socket, raw_socket);
REAL_SLOT(socketpair, raw_socketpair);
REAL_SLOT(accept, raw_accept);
REAL_SLOT(accept4, raw_accept4);

/* All but the fast path (fdreq.h), apart: it needs a frame. */
static __attribute__((noinline)) int socket_slow(int domain, int type,
						 int protocol, void *caller)
{
	struct fdreq rq;

	fdreq_start_unrefused(&rq, &spec_socket, type, -1, true, false,
			      "socket", caller);
	return fdreq_end(&rq, REAL(socket)(domain, fdreq_flags(&rq), protocol));
}

CLOEXEC_EXPORT int socket(int domain, int type, int protocol)
{
	int (*real)(int, int, int) = REAL_READY(socket);

	if (real && fdreq_fast(&spec_socket, type))
		return fdreq_fast_end(&spec_socket,
				      real(domain,
					   fdreq_fast_flags(&spec_socket, type),
					   protocol));
	return socket_slow(domain, type, protocol, __builtin_return_address(0));
}

static __attribute__((noinline)) int
socketpair_slow(int domain, int type, int protocol, int sv[2], void *caller)
{
	struct fdreq rq;

	fdreq_start_unrefused(&rq, &spec_socket, type, -1, true, false,
			      "socketpair", caller);
	return fdreq_end_pair(
		&rq, REAL(socketpair)(domain, fdreq_flags(&rq), protocol, sv),
		sv);
}

/* errno, out of line: the fast path then keeps nothing across a call. */
static __attribute__((noinline, cold)) int socketpair_failed(long err)
{
	return (int)sys_result(err);
}

/*
 * Natively the kernel's socketpair itself, as pipe is pipe2 (pipe.c):
 * libc's is the system call and nothing else, and no cancellation point.
 */
CLOEXEC_EXPORT int socketpair(int domain, int type, int protocol, int sv[2])
{
	if (fdreq_fast(&spec_socket, type)) {
		long err = sys_socketpair(
			domain, fdreq_fast_flags(&spec_socket, type), protocol,
			sv);

		if (__builtin_expect(err != 0, 0))
			return socketpair_failed(err);
		return fdreq_fast_end_pair(&spec_socket, 0, sv);
	}
	return socketpair_slow(domain, type, protocol, sv,
			       __builtin_return_address(0));
}

WRAPPER_HELPER int accept_with(const char *call, const struct fd_spec *spec,
			       int fd, sockaddr_arg sa, socklen_t *len,
			       int flags, void *caller)
{
	struct fdreq rq;

	switch (fdreq_try_begin_for(&rq, spec, flags, fd, call, caller)) {
	case FDREQ_PLAIN:
		return fdreq_end(&rq, REAL(accept)(fd, sa, len));
	case FDREQ_NATIVE:
		return fdreq_end(&rq,
				 REAL(accept4)(fd, sa, len, fdreq_flags(&rq)));
	case FDREQ_FALLBACK:
		return fdreq_end(&rq, REAL(accept)(fd, sa, len));
	default:
		return -1;
	}
}

static __attribute__((noinline)) int accept_slow(int fd, sockaddr_arg sa,
						 socklen_t *len, void *caller)
{
	return accept_with("accept", &spec_accept, fd, sa, len, 0, caller);
}

/*
 * The fast path (fdreq.h) first, where accept4 is resolved: accept is a
 * cancellation point, so it stays libc's.
 */
CLOEXEC_EXPORT int accept(int fd, sockaddr_arg sa, socklen_t *len)
{
	int (*ready)(int, sockaddr_arg, socklen_t *, int) = REAL_READY(accept4);

	if (ready && fdreq_fast(&spec_accept, 0))
		return fdreq_fast_end(&spec_accept,
				      ready(fd, sa, len,
					    fdreq_fast_flags(&spec_accept, 0)));
	return accept_slow(fd, sa, len, __builtin_return_address(0));
}

CLOEXEC_EXPORT int accept4(int fd, sockaddr_arg sa, socklen_t *len, int flags)
{
	return accept_with(__func__, &spec_accept4, fd, sa, len, flags,
			   __builtin_return_address(0));
}

/*
 * A slot of its own, not a call bound by the dynamic loader: ppoll is the
 * only GLIBC_2.4 name the library calls, and that version would be
 * checked at every process start (src/symvers.sh, bind).
 */
static int raw_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		     const sigset_t *mask)
{
	return sys_result(sys_call(SYS_ppoll, fds, n, ts, mask, _NSIG / 8));
}

REAL_SLOT(ppoll, raw_ppoll);

/*
 * paccept as the 2008 patch had it, in user space: ppoll() installs the
 * mask atomically for the wait, so a signal it unblocks, whether pending
 * already or arriving during the wait, ends it with EINTR.  The accept that
 * follows finds the connection waiting; only when another thread or process
 * takes it first on a blocking listener does that accept block, under the
 * caller's own mask (cloexec_paccept(3) says so).
 */
CLOEXEC_EXPORT int cloexec_paccept(int fd, struct sockaddr *addr,
				   socklen_t *addrlen, const sigset_t *sigmask,
				   int flags)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long fl;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return fdreq_fail(EINVAL);
	if (sigmask) {
		fl = sys_fcntl(fd, F_GETFL, 0);
		if (fl >= 0 && !(fl & O_NONBLOCK) &&
		    REAL(ppoll)(&p, 1, NULL, sigmask) < 0)
			return -1;
	}
	return accept_with(__func__, &spec_accept4, fd, addr, addrlen, flags,
			   __builtin_return_address(0));
}
