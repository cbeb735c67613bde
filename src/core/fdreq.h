/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One fd-creating call, from the caller's flags to the fd it gets back.
 *
 * A wrapper describes its call once (struct fd_spec: which flag family,
 * which policy class, which kernel capability) and then reads like this:
 *
 *	fdreq_begin(&rq, &spec_socket, type, -1);
 *	return fdreq_end(&rq, REAL(socket)(domain, fdreq_flags(&rq), proto));
 *
 * fdreq_begin() decides the path: nothing to add (plain), the kernel takes
 * the flags (native: one call, no lock), or the kernel cannot (fallback:
 * the plain call inside the fork lock, and the flags set before the lock
 * is left).  fdreq_end() finishes what the path needs: on the native path
 * with fd >= 3, nothing at all (below 3: fdreq_mark).
 */
#ifndef CLOEXEC_FDREQ_H
#define CLOEXEC_FDREQ_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "fdtable.h"
#include "flags.h"
#include "load.h"
#include "probe.h"

struct fd_spec {
	struct flag_family family;
	enum fd_class cls;
	enum cap cap;
	/*
	 * The call used on the fallback path has no flags argument (accept
	 * for accept4, pipe for pipe2), so bits the family does not know
	 * are refused with EINVAL, as the flagged call would.
	 */
	bool plain_takes_no_flags;
	/*
	 * The entry point is the flagged call itself (accept4, pipe2): a
	 * program calling it must get it on a kernel without it too, even
	 * with no flags, so it is never passed through untouched there.
	 */
	bool flagged_call;
};

enum fdreq_path {
	FDREQ_FAILED = -1, /* refused: fdreq_try_begin only; errno is set */
	FDREQ_PLAIN,	   /* nothing to add: make the caller's call as is */
	FDREQ_NATIVE,	   /* the kernel takes the flags */
	FDREQ_FALLBACK,	   /* plain call under the fork lock, then fcntl */
};

struct fdreq {
	enum fdreq_path path;
	unsigned want;	/* properties the caller asked for */
	unsigned force; /* properties the policy adds */
	int rest;	/* the caller's bits the family does not know (slow) */
	int flags;	/* the flags argument for the call on this path */
	uint32_t extra; /* POLICY_KEEPS, POLICY_REPORT: more to do after */
	int cancel_state;
	bool in_flight; /* fallback outside the lock: see fdreq_begin_open */
	bool onto;	/* the program chose the number (dup2, dup3) */
	bool unforce;	/* ... after the call: F_DUPFD onto its minimum */
	bool fast;	/* native, close-on-exec, nothing else to do above 2 */
	uint8_t mark;	/* on the fast path: the fd's bits (fdtable_note_new) */
	const char *call; /* for the audit: which call ... */
	void *caller;	  /* ... called from where */
};

/*
 * After the call, for results that are not one fd or a pair (messages with
 * SCM_RIGHTS, a FILE): fdreq_mark() each new fd, then fdreq_done().
 */
void fdreq_mark(struct fdreq *rq, int fd) __attribute__((visibility("hidden")));
void fdreq_done(struct fdreq *rq) __attribute__((visibility("hidden")));

/*
 * For a call that can be made without waiting (recvmsg's MSG_DONTWAIT):
 * on the fallback path it is made inside the lock without waiting, and
 * when it finds nothing (EAGAIN), this leaves the lock, waits for fd to be
 * readable and takes the lock again.  True: make the call again.  False:
 * return what it got, errno intact (the fd is non-blocking), or the wait's
 * error.
 */
bool fdreq_wait_outside(struct fdreq *rq, int fd)
	__attribute__((visibility("hidden")));
int fdreq_finish(struct fdreq *rq, int fd)
	__attribute__((visibility("hidden"), cold));
int fdreq_finish_pair(struct fdreq *rq, int ret, int fds[2])
	__attribute__((visibility("hidden"), cold));

enum fdreq_path fdreq_start_slow(struct fdreq *rq, const struct fd_spec *spec,
				 int flags, int wait_fd, bool may_force,
				 bool onto, const char *call, void *caller)
	__attribute__((visibility("hidden"), cold));

/*
 * The classes whose calls take the fast path with each capability: the
 * policy is loaded, forces the class and has nothing more to do, and the
 * kernel is known to take the flag.  A bit is set by the slow path of the
 * first call that finds all of that (fdreq.c), and never cleared: the
 * policy of a process is loaded once, and a capability is found once.
 * One test of one word on the fast path, where there were two.
 */
extern _Atomic uint32_t fdreq_fast_classes[CAP_COUNT]
	__attribute__((visibility("hidden")));

/*
 * The common case, in a few instructions and no call: the class is fast
 * with the call's capability (fdreq_fast_classes), and the caller passed
 * none of the family's bits.  Everything else, the first call included,
 * is fdreq_start_slow().
 *
 * The wrappers programs call most (socket, pipe, open, dup, fopen) take
 * it without a request: the flagged call (fdreq_fast_flags), then
 * fdreq_fast_end(), and the general body apart.  No struct lives across
 * the call, so none is written, and no register is saved: some twenty
 * instructions fewer a call.
 */
static inline __attribute__((always_inline)) bool
fdreq_fast(const struct fd_spec *spec, int flags)
{
	uint32_t fast = atomic_load_explicit(&fdreq_fast_classes[spec->cap],
					     memory_order_relaxed);

	return __builtin_expect((fast & (1u << spec->cls)) &&
					!(flags & flags_known(&spec->family)),
				1);
}

static inline int fdreq_fast_flags(const struct fd_spec *spec, int flags)
{
	return flags | flags_unmap(&spec->family, FDP_CLOEXEC);
}

static inline __attribute__((always_inline)) bool
fdreq_try_fast(struct fdreq *rq, const struct fd_spec *spec, int flags,
	       bool onto)
{
	if (!fdreq_fast(spec, flags))
		return false;
	rq->in_flight = false;
	rq->onto = onto;
	rq->want = 0;
	rq->force = FDP_CLOEXEC;
	rq->extra = 0;
	rq->rest = flags;
	rq->flags = fdreq_fast_flags(spec, flags);
	rq->fast = true;
	rq->unforce = false;
	rq->mark = FDT_FORCED_MARK;
	rq->path = FDREQ_NATIVE;
	return true;
}

static inline __attribute__((always_inline)) enum fdreq_path
fdreq_start(struct fdreq *rq, const struct fd_spec *spec, int flags,
	    int wait_fd, bool may_force, bool onto, const char *call,
	    void *caller)
{
	if (__builtin_expect(may_force && fdreq_try_fast(rq, spec, flags, onto),
			     1))
		return FDREQ_NATIVE;
	return fdreq_start_slow(rq, spec, flags, wait_fd, may_force, onto,
				call, caller);
}

/*
 * FDREQ_FAILED, errno set, comes only from a call that may be refused on
 * the fallback path: one that first waits for wait_fd (the wait can fail),
 * or one whose plain call takes no flags (accept, pipe) given flags (a bit
 * the family does not know is EINVAL there, as the flagged call would
 * say).  The fdreq_begin macros are for every other call, and never
 * return it; a wrapper that can be refused uses fdreq_try_begin and
 * handles FDREQ_FAILED first, before any call.  Where the compiler
 * optimizes, it proves the begins' claim for each wrapper, whose spec is
 * a constant: an fdreq_begin that could be refused does not build.
 */
#ifdef __has_attribute
#if __has_attribute(error) && defined(__OPTIMIZE__)
#define FDREQ_PROVEN 1
void fdreq_begin_may_be_refused_use_fdreq_try_begin(void)
	__attribute__((error("this call may be refused: fdreq_try_begin")));
#endif
#endif

static inline __attribute__((always_inline)) void
fdreq_prove_unrefused(const struct fd_spec *spec, int flags, int wait_fd)
{
#ifdef FDREQ_PROVEN
	bool refusable = wait_fd >= 0 || (spec->plain_takes_no_flags && flags);

	if (!__builtin_constant_p(refusable) || refusable)
		fdreq_begin_may_be_refused_use_fdreq_try_begin();
#else
	(void)spec, (void)flags, (void)wait_fd;
#endif
}

static inline __attribute__((always_inline)) enum fdreq_path
fdreq_start_unrefused(struct fdreq *rq, const struct fd_spec *spec, int flags,
		      int wait_fd, bool may_force, bool onto, const char *call,
		      void *caller)
{
	fdreq_prove_unrefused(spec, flags, wait_fd);
	return fdreq_start(rq, spec, flags, wait_fd, may_force, onto, call,
			   caller);
}

/*
 * The wrapper's name and its caller, for the audit.  A helper shared by
 * several wrappers is WRAPPER_HELPER (inlined, so that the return address
 * is still the program's) and takes the name as an argument.
 */
#define FDREQ_WHO __func__, __builtin_return_address(0)
#define WRAPPER_HELPER static inline __attribute__((always_inline))
#define fdreq_begin_as(rq, spec, flags, wait_fd, call)                         \
	fdreq_start_unrefused((rq), (spec), (flags), (wait_fd), true, false,   \
			      (call), __builtin_return_address(0))
#define fdreq_try_begin_as(rq, spec, flags, wait_fd, call)                     \
	fdreq_start((rq), (spec), (flags), (wait_fd), true, false, (call),     \
		    __builtin_return_address(0))

/*
 * wait_fd: for a call that can block until wait_fd is readable (accept,
 * recvmsg), the fallback path waits for that outside the lock, so a fork
 * never waits behind a blocked creator.  -1 for calls that do not block.
 */
#define fdreq_begin(rq, spec, flags, wait_fd)                                  \
	fdreq_start_unrefused((rq), (spec), (flags), (wait_fd), true, false,   \
			      FDREQ_WHO)
#define fdreq_try_begin(rq, spec, flags, wait_fd)                              \
	fdreq_start((rq), (spec), (flags), (wait_fd), true, false, FDREQ_WHO)

/*
 * For opens: one of a FIFO or of a terminal can block with nothing to
 * wait for first.  On the fallback path such an open runs outside the
 * lock, counted as in flight, and marks its fd inside the lock afterwards;
 * a fork meanwhile sweeps its child (forklock_child).  Other opens hold
 * the creator side as any creator does.
 */
enum fdreq_path fdreq_start_open_slow(struct fdreq *rq,
				      const struct fd_spec *spec, int flags,
				      int dirfd, const char *path,
				      const char *call, void *caller)
	__attribute__((visibility("hidden"), cold));

/* The fast path never applies when the policy keeps paths. */
static inline __attribute__((always_inline)) enum fdreq_path
fdreq_start_open(struct fdreq *rq, const struct fd_spec *spec, int flags,
		 int dirfd, const char *path, const char *call, void *caller)
{
	if (__builtin_expect(fdreq_try_fast(rq, spec, flags, false), 1))
		return FDREQ_NATIVE;
	return fdreq_start_open_slow(rq, spec, flags, dirfd, path, call,
				     caller);
}

static inline __attribute__((always_inline)) enum fdreq_path
fdreq_start_open_unrefused(struct fdreq *rq, const struct fd_spec *spec,
			   int flags, int dirfd, const char *path,
			   const char *call, void *caller)
{
	fdreq_prove_unrefused(spec, flags, -1);
	return fdreq_start_open(rq, spec, flags, dirfd, path, call, caller);
}

#define fdreq_begin_open(rq, spec, flags, dirfd, path)                         \
	fdreq_start_open_unrefused((rq), (spec), (flags), (dirfd), (path),     \
				   FDREQ_WHO)
#define fdreq_begin_open_as(rq, spec, flags, dirfd, path, call)                \
	fdreq_start_open_unrefused((rq), (spec), (flags), (dirfd), (path),     \
				   (call), __builtin_return_address(0))

/*
 * An open whose path came out native, that must take the fallback after
 * all (stdio.c: a mode with no room for "e"), as fdreq_begin_open's would.
 */
enum fdreq_path fdreq_fall_back_open(struct fdreq *rq,
				     const struct fd_spec *spec,
				     const char *path)
	__attribute__((visibility("hidden"), cold));

/*
 * For calls that name the new fd's number (dup2, dup3): onto 0, 1 or 2,
 * or onto a number the policy keeps, nothing is forced at all, not even
 * for an instant.
 */
static inline bool fdreq_may_force_onto(int target)
{
	return (unsigned)target > 2 &&
	       (!(policy_word() & POLICY_KEEPS) || !load_keeps_fd(target));
}

#define fdreq_begin_onto(rq, spec, flags, target)                              \
	fdreq_start_unrefused((rq), (spec), (flags), -1,                       \
			      fdreq_may_force_onto(target), true, FDREQ_WHO)
#define fdreq_try_begin_onto(rq, spec, flags, target)                          \
	fdreq_start((rq), (spec), (flags), -1, fdreq_may_force_onto(target),   \
		    true, FDREQ_WHO)

/*
 * The try begins again, with the call's name and caller given: for a
 * wrapper that is not the program's callee itself, whose spec is known
 * only at run time (syscall.c's translate).
 */
#define fdreq_try_begin_for(rq, spec, flags, wait_fd, call, caller)            \
	fdreq_start((rq), (spec), (flags), (wait_fd), true, false, (call),     \
		    (caller))
#define fdreq_try_begin_onto_for(rq, spec, flags, target, call, caller)       \
	fdreq_start((rq), (spec), (flags), -1, fdreq_may_force_onto(target),   \
		    true, (call), (caller))
#define fdreq_try_begin_open_for(rq, spec, flags, dirfd, path, call, caller) \
	fdreq_start_open((rq), (spec), (flags), (dirfd), (path), (call),       \
			 (caller))

/* The flags argument for the call on this path. */
static inline int fdreq_flags(const struct fdreq *rq)
{
	return rq->flags;
}

/*
 * The fast path: natively, a close-on-exec fd above 2, where all there is
 * left to do is to note whose flag it is (fdtable_note_new).
 */
static inline bool fdreq_done_natively(const struct fdreq *rq, int fd)
{
	return rq->fast && fd > 2;
}

static inline int fdreq_end(struct fdreq *rq, int fd)
{
	if (__builtin_expect(fdreq_done_natively(rq, fd), 1)) {
		fdtable_note_new(fd, rq->mark);
		return fd;
	}
	return fdreq_finish(rq, fd);
}

/*
 * For fds a call receives in messages (SCM_RIGHTS), between the call and
 * fdreq_done(): each one as fdreq_end() would take it.  Nothing is owed to
 * them natively when nothing is forced: the flag is the sender's or the
 * caller's own, the kernel's doing, and none of the library's.
 */
static inline bool fdreq_marks_received(const struct fdreq *rq)
{
	return rq->path == FDREQ_FALLBACK || rq->force;
}

static inline void fdreq_mark_received(struct fdreq *rq, int fd)
{
	if (fdreq_done_natively(rq, fd))
		fdtable_note_new(fd, rq->mark);
	else
		fdreq_mark(rq, fd);
}

/* For calls that fill in two fds (socketpair, pipe) and return 0 or -1. */
static inline int fdreq_end_pair(struct fdreq *rq, int ret, int fds[2])
{
	if (__builtin_expect(ret == 0 && fdreq_done_natively(rq, fds[0]) &&
				     fdreq_done_natively(rq, fds[1]),
			     1)) {
		fdtable_note_new(fds[0], rq->mark);
		fdtable_note_new(fds[1], rq->mark);
		return ret;
	}
	return fdreq_finish_pair(rq, ret, fds);
}

/*
 * What the fast path's end leaves to a call: failures, fds on 0, 1 or 2,
 * above the table's top or its first chunk (fdreq.c).  Returns fd.
 */
int fdreq_fast_rest(int fd, unsigned mark)
	__attribute__((visibility("hidden"), cold));
int fdreq_fast_low_pair(unsigned mark, int ret, int fds[2])
	__attribute__((visibility("hidden"), cold));

/*
 * The fast path's note of a new fd, where it is one store: true then.
 * False for what fdreq_fast_rest() does.
 */
static inline __attribute__((always_inline)) bool fdreq_fast_note(int fd,
								  unsigned mark)
{
	if (__builtin_expect((unsigned)fd - 3 <
				     atomic_load_explicit(&fdtable_fast_span,
							  memory_order_relaxed),
			     1)) {
		fdtable_chunk0[fd] = (uint8_t)mark;
		return true;
	}
	return false;
}

static inline __attribute__((always_inline)) bool
fdreq_fast_noted(const struct fd_spec *spec, int fd)
{
	(void)spec;
	return fdreq_fast_note(fd, FDT_FORCED_MARK);
}

/*
 * The fd of the fast path's call, as fdreq_end() would leave it: nothing
 * live across a call, so that the wrapper needs no saved register.
 */
static inline __attribute__((always_inline)) int
fdreq_fast_end(const struct fd_spec *spec, int fd)
{
	if (fdreq_fast_noted(spec, fd))
		return fd;
	return fdreq_fast_rest(fd, FDT_FORCED_MARK);
}

/*
 * fdreq_fast_end for a copy of src (dup): a copy carries its source's
 * mark (fdtable_copy_mark).
 */
static inline __attribute__((always_inline)) unsigned
fdreq_fast_copy_mark(int src)
{
	return fdtable_copy_mark(fdtable_get(src));
}

/* fd, a copy made on the fast path; mark from fdreq_fast_copy_mark(). */
static inline __attribute__((always_inline)) int
fdreq_fast_end_copy(int fd, unsigned mark)
{
	if (fdreq_fast_note(fd, mark))
		return fd;
	return fdreq_fast_rest(fd, mark);
}

/* The request makes a copy of src: its fd carries src's mark. */
static inline void fdreq_copy_of(struct fdreq *rq, int src)
{
	if (rq->mark)
		rq->mark = (uint8_t)fdtable_copy_mark(fdtable_get(src));
}

/*
 * fdreq_end for F_DUPFD's copy fd, asked for at min or above: in a fork
 * child, landed on min (3 or more), it is on the number the child chose,
 * as dup2 onto it would be, and is not forced unless the policy forces
 * dup2's class.
 */
int fdreq_end_dupfd(struct fdreq *rq, int fd, long min)
	__attribute__((visibility("hidden")));

/* fds is read only after a success: before, it may be a bad pointer. */
static inline __attribute__((always_inline)) int
fdreq_fast_end_pair(const struct fd_spec *spec, int ret, int fds[2])
{
	unsigned span, a, b;

	if (__builtin_expect(ret == 0, 1)) {
		span = atomic_load_explicit(&fdtable_fast_span,
					    memory_order_relaxed);
		a = (unsigned)fds[0];
		b = (unsigned)fds[1];
		if (__builtin_expect(a - 3 < span && b - 3 < span, 1)) {
			fdtable_chunk0[a] = FDT_FORCED_MARK;
			fdtable_chunk0[b] = FDT_FORCED_MARK;
			return ret;
		}
	}
	(void)spec;
	return fdreq_fast_low_pair(FDT_FORCED_MARK, ret, fds);
}

/* A wrapper's own refusal, as the call's: -1 with errno set. */
static inline int fdreq_fail(int err)
{
	errno = err;
	return -1;
}

#endif /* CLOEXEC_FDREQ_H */
