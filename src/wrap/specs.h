/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fd-creating calls, spec_<call> for each CALL row of
 * src/entrypoints.def: which flag family spells their flags, which policy
 * class they belong to, which kernel capability their native path needs,
 * and how an old kernel gets them (the kind).  The family wrappers and
 * the syscall() wrapper share these.
 *
 * They are static constants here, not objects elsewhere, so that the fast
 * path inlined into each wrapper (fdreq_try_fast) knows its spec at compile
 * time: its test of the caller's flags and the flag it adds fold into a
 * few instructions.  The full remap runs out of line, on the slow path.
 */
#ifndef CLOEXEC_SPECS_H
#define CLOEXEC_SPECS_H

#include "core/fdreq.h"

/* The kinds of entrypoints.def, as the two fields fdreq reads. */
#define CALL_KIND_BITS_IN_ARG .plain_takes_no_flags = false, .flagged_call = false
#define CALL_KIND_HAS_TWIN .plain_takes_no_flags = true, .flagged_call = false
#define CALL_KIND_IS_TWIN .plain_takes_no_flags = true, .flagged_call = true
#define CALL_KIND_OWN_FLAGS .plain_takes_no_flags = false, .flagged_call = true

/* A CALL row's fields as a struct fd_spec initializer. */
#define CALL_SPEC(fam, class, capability, kind)                                \
	{ .family = fam(), .cls = (class), .cap = (capability),                \
	  CALL_KIND_##kind }

#define CALL(name, fam, class, capability, kind)                               \
	static const struct fd_spec spec_##name =                              \
		CALL_SPEC(fam, class, capability, kind);
#include "entrypoints.def"
#undef CALL

struct msghdr;
struct mmsghdr;
/*
 * Mark the fds that received messages carry, where the path owes them
 * anything: one message (msg, n 1: it came; 0: the call failed), or n of
 * vec's (msg NULL; n the call's result).  msg.c's, for syscall.c too.
 */
void msg_mark_received(struct fdreq *rq, struct msghdr *msg,
		       struct mmsghdr *vec, long n)
	__attribute__((visibility("hidden")));

/*
 * Only AF_UNIX carries fds, and some families refuse a flag they do not
 * know: AF_PACKET and CAN answer EINVAL to MSG_CMSG_CLOEXEC, before
 * taking a message.  Where the library added it (ret -1, EINVAL), the
 * call is made again with the caller's own flags, and answers as libc.
 */
static inline bool msg_flag_refused(long ret, int caller_flags, int flags)
{
	return ret < 0 && errno == EINVAL &&
	       (flags & ~caller_flags & MSG_CMSG_CLOEXEC);
}

/*
 * The kernel starts a message's msg_flags with the call's MSG_CMSG_CLOEXEC:
 * where the library added it, the n messages received (msg, or vec's) get
 * msg_flags without it, as the caller's call would have given them.
 */
void msg_hide_flag(struct msghdr *msg, struct mmsghdr *vec, long n,
		   int caller_flags, int flags)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_SPECS_H */
