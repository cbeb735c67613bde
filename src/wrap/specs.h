/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fd-creating calls, described once: which flag family spells their
 * flags, which policy class they belong to, which kernel capability their
 * native path needs.  The family wrappers and the syscall() wrapper share
 * these.
 */
#ifndef CLOEXEC_SPECS_H
#define CLOEXEC_SPECS_H

#include "core/fdreq.h"

#define SPEC(name) extern const struct fd_spec name \
	__attribute__((visibility("hidden")))

SPEC(spec_socket);	/* socket, socketpair */
SPEC(spec_accept);	/* accept */
SPEC(spec_accept4);	/* accept4, cloexec_paccept */
SPEC(spec_open);	/* open and friends */
SPEC(spec_stdio);	/* fopen and friends, temporary files */
SPEC(spec_popen);	/* popen: its pipe comes from pipe2 */
SPEC(spec_pipe);	/* pipe */
SPEC(spec_pipe2);	/* pipe2 */
SPEC(spec_dup);		/* dup, fcntl(F_DUPFD) */
SPEC(spec_dupfd_cloexec); /* fcntl(F_DUPFD_CLOEXEC) */
SPEC(spec_dup2);	/* dup2 onto another number */
SPEC(spec_dup3);	/* dup3 */
SPEC(spec_epoll);	/* epoll_create */
SPEC(spec_epoll1);	/* epoll_create1 */
SPEC(spec_inotify);	/* inotify_init */
SPEC(spec_inotify1);	/* inotify_init1 */
SPEC(spec_eventfd);
SPEC(spec_signalfd);
SPEC(spec_timerfd);
SPEC(spec_memfd);
SPEC(spec_fanotify);
SPEC(spec_userfaultfd);
SPEC(spec_perf);	/* perf_event_open */
SPEC(spec_pty);		/* posix_openpt, getpt, openpty, forkpty */
SPEC(spec_msg);		/* recvmsg, recvmmsg */
SPEC(spec_rcmd);	/* rresvport, rcmd, rexec: always marked after */

#undef SPEC

struct msghdr;
/* Mark the fds a received message carries (msg.c, for syscall.c too). */
void msg_mark_received(struct fdreq *rq, struct msghdr *msg)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_SPECS_H */
