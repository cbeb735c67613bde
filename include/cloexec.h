/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libcloexec public API.
 *
 * Most programs never include this: the library works by being preloaded
 * (LD_PRELOAD, the cloexec command, /etc/ld.so.preload) and interposing the
 * libc calls that create file descriptors.  What is here is for programs
 * that want the library's extras by name.  Linking against libcloexec has
 * the same effect as preloading it: its wrappers come before libc's.
 */
#ifndef CLOEXEC_H
#define CLOEXEC_H

#include <signal.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * accept4() with a signal mask, as paccept() was designed in 2008: while
 * waiting for a connection the thread's signal mask is replaced by
 * *sigmask (if not NULL), so a signal that it unblocks interrupts the wait
 * with EINTR, with no window between a check and the wait.  flags takes
 * SOCK_CLOEXEC and SOCK_NONBLOCK; anything else is EINVAL.  See
 * cloexec_paccept(3).
 */
int cloexec_paccept(int fd, struct sockaddr *addr, socklen_t *addrlen,
		    const sigset_t *sigmask, int flags);

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *cloexec_version(void);

#ifdef __cplusplus
}
#endif

#endif /* CLOEXEC_H */
