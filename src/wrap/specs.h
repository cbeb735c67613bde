/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fd-creating calls, described once: which flag family spells their
 * flags, which policy class they belong to, which kernel capability their
 * native path needs.  The family wrappers and the syscall() wrapper share
 * these.
 *
 * They are static constants here, not objects elsewhere, so that each
 * wrapper's flag remapping folds into a few instructions at compile time.
 */
#ifndef CLOEXEC_SPECS_H
#define CLOEXEC_SPECS_H

#include "core/fdreq.h"

/* A plain call that gains a flag natively: accept -> accept4. */
#define PLAIN(fam, class, capability)                                          \
	{ .family = &(fam), .cls = (class), .cap = (capability),               \
	  .plain_takes_no_flags = true }
/* The flagged call itself: emulated even without flags on old kernels. */
#define FLAGGED(fam, class, capability)                                        \
	{ .family = &(fam), .cls = (class), .cap = (capability),               \
	  .plain_takes_no_flags = true, .flagged_call = true }
/* A call whose own flags argument carries the bits, plain or not. */
#define WITH_FLAGS(fam, class, capability)                                     \
	{ .family = &(fam), .cls = (class), .cap = (capability),               \
	  .flagged_call = true }

static const struct fd_spec spec_socket = {
	.family = &flags_sock, .cls = FD_CLASS_SOCKET, .cap = CAP_SOCK_FLAGS
};
static const struct fd_spec spec_accept =
	PLAIN(flags_sock, FD_CLASS_ACCEPT, CAP_ACCEPT4);
static const struct fd_spec spec_accept4 =
	FLAGGED(flags_sock, FD_CLASS_ACCEPT, CAP_ACCEPT4);
static const struct fd_spec spec_open = {
	.family = &flags_open, .cls = FD_CLASS_FILE, .cap = CAP_O_CLOEXEC
};
static const struct fd_spec spec_stdio = {
	.family = &flags_open, .cls = FD_CLASS_STDIO, .cap = CAP_O_CLOEXEC
};
/* glibc's popen makes its pipe with pipe2(O_CLOEXEC): "e" always works. */
static const struct fd_spec spec_popen = {
	.family = &flags_open, .cls = FD_CLASS_STDIO, .cap = CAP_BUILTIN
};
static const struct fd_spec spec_pipe = PLAIN(flags_pipe, FD_CLASS_PIPE, CAP_PIPE2);
static const struct fd_spec spec_pipe2 =
	FLAGGED(flags_pipe, FD_CLASS_PIPE, CAP_PIPE2);
static const struct fd_spec spec_dup =
	PLAIN(flags_open, FD_CLASS_DUP, CAP_F_DUPFD_CLOEXEC);
static const struct fd_spec spec_dupfd_cloexec =
	FLAGGED(flags_open, FD_CLASS_DUP, CAP_F_DUPFD_CLOEXEC);
static const struct fd_spec spec_dup2 = PLAIN(flags_open, FD_CLASS_DUP2, CAP_DUP3);
static const struct fd_spec spec_dup3 = FLAGGED(flags_open, FD_CLASS_DUP2, CAP_DUP3);
static const struct fd_spec spec_epoll =
	PLAIN(flags_epoll, FD_CLASS_EVENT, CAP_EPOLL_CREATE1);
static const struct fd_spec spec_epoll1 =
	FLAGGED(flags_epoll, FD_CLASS_EVENT, CAP_EPOLL_CREATE1);
static const struct fd_spec spec_inotify =
	PLAIN(flags_inotify, FD_CLASS_EVENT, CAP_INOTIFY_INIT1);
static const struct fd_spec spec_inotify1 =
	FLAGGED(flags_inotify, FD_CLASS_EVENT, CAP_INOTIFY_INIT1);
static const struct fd_spec spec_eventfd =
	WITH_FLAGS(flags_eventfd, FD_CLASS_EVENT, CAP_EVENTFD_FLAGS);
static const struct fd_spec spec_signalfd =
	WITH_FLAGS(flags_signalfd, FD_CLASS_EVENT, CAP_SIGNALFD_FLAGS);
static const struct fd_spec spec_timerfd =
	WITH_FLAGS(flags_timerfd, FD_CLASS_EVENT, CAP_TIMERFD_FLAGS);
static const struct fd_spec spec_memfd =
	WITH_FLAGS(flags_memfd, FD_CLASS_EVENT, CAP_BUILTIN);
static const struct fd_spec spec_fanotify =
	WITH_FLAGS(flags_fanotify, FD_CLASS_EVENT, CAP_BUILTIN);
static const struct fd_spec spec_userfaultfd =
	WITH_FLAGS(flags_pipe, FD_CLASS_EVENT, CAP_BUILTIN);
static const struct fd_spec spec_perf =
	WITH_FLAGS(flags_perf, FD_CLASS_EVENT, CAP_BUILTIN);
/*
 * The mount API (Linux 5.2): each call came with its flag.  open_tree and
 * fsmount give a path or a mount, as an O_PATH open does; fsopen a
 * filesystem's configuration context, an anonymous kernel object.
 */
static const struct fd_spec spec_open_tree =
	WITH_FLAGS(flags_open, FD_CLASS_FILE, CAP_BUILTIN);
static const struct fd_spec spec_fsopen =
	WITH_FLAGS(flags_mount, FD_CLASS_EVENT, CAP_BUILTIN);
static const struct fd_spec spec_fsmount =
	WITH_FLAGS(flags_mount, FD_CLASS_FILE, CAP_BUILTIN);
static const struct fd_spec spec_pty = {
	.family = &flags_open, .cls = FD_CLASS_PTY, .cap = CAP_O_CLOEXEC
};
static const struct fd_spec spec_msg = {
	.family = &flags_msg, .cls = FD_CLASS_MESSAGE, .cap = CAP_CMSG_CLOEXEC
};
static const struct fd_spec spec_rcmd = {
	.family = &flags_sock, .cls = FD_CLASS_SOCKET, .cap = CAP_NEVER
};

struct msghdr;
/* Mark the fds a received message carries (msg.c, for syscall.c too). */
void msg_mark_received(struct fdreq *rq, struct msghdr *msg)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_SPECS_H */
