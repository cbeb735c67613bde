/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Flag remapping, after the kernel's flags_remap() of the 2008 "flag
 * parameters" series: each fd-creating call spells "close-on-exec" and
 * "non-blocking" with its own bits (SOCK_CLOEXEC, EFD_NONBLOCK, MFD_CLOEXEC
 * ...).  A family table maps them onto the two fd properties the library
 * understands; whatever is left over belongs to the kernel, which alone
 * decides whether it is valid, so unknown bits still give EINVAL exactly
 * as they would without the library.
 */
#ifndef CLOEXEC_FLAGS_H
#define CLOEXEC_FLAGS_H

#include <fcntl.h>
#include <sys/socket.h>

#include "compat.h"

/* The fd properties a creating call can ask for. */
enum fd_prop {
	FDP_CLOEXEC = 1 << 0,
	FDP_NONBLOCK = 1 << 1,
};

struct flag_map {
	int bit;
	unsigned prop;
};

/*
 * One spelling of the properties, for one family of calls: one or two
 * bits.  Held by value in each spec (fdreq.h), with no pointer to it: a
 * pointer in the library's data is a relocation the dynamic loader
 * applies in every process at start.
 */
struct flag_family {
	struct flag_map map[2];
	unsigned n;
};

/*
 * Split flags into the properties they ask for (*props) and the bits the
 * table does not know, which are returned.  Called out of line, on the
 * slow path (fdreq_start_slow), where the family is a run-time value: a
 * loop over its one or two entries.  The inline fast path needs only
 * flags_known() and flags_unmap(), which fold there (specs.h).
 */
static inline int flags_remap(const struct flag_family *fam, int flags,
			      unsigned *props)
{
	unsigned i;

	*props = 0;
	for (i = 0; i < fam->n; i++) {
		if (flags & fam->map[i].bit) {
			*props |= fam->map[i].prop;
			flags &= ~fam->map[i].bit;
		}
	}
	return flags;
}

/* All the bits the family knows. */
static inline int flags_known(const struct flag_family *fam)
{
	int bits = 0;
	unsigned i;

	for (i = 0; i < fam->n; i++)
		bits |= fam->map[i].bit;
	return bits;
}

/* The family's bits for a set of properties: the reverse mapping. */
static inline int flags_unmap(const struct flag_family *fam, unsigned props)
{
	int flags = 0;
	unsigned i;

	for (i = 0; i < fam->n; i++) {
		if (props & fam->map[i].prop) {
			flags |= fam->map[i].bit;
			props &= ~fam->map[i].prop;
		}
	}
	return flags;
}

/*
 * A family's initializer, from its { bit, property } pairs.  The families
 * are function-like macros, so that a CALL row's name for one reaches
 * CALL_SPEC (src/wrap/specs.h) as one argument, and is expanded there.
 */
#define FLAG_FAMILY(...)                                                       \
	{ .map = { __VA_ARGS__ },                                              \
	  .n = sizeof((struct flag_map[]){ __VA_ARGS__ }) /                    \
	       sizeof(struct flag_map) }

#define FLAGS_SOCK()                                                           \
	FLAG_FAMILY({ SOCK_CLOEXEC, FDP_CLOEXEC }, { SOCK_NONBLOCK, FDP_NONBLOCK })
/* open() always took O_NONBLOCK: only close-on-exec is ever emulated. */
#define FLAGS_OPEN() FLAG_FAMILY({ O_CLOEXEC, FDP_CLOEXEC })
#define FLAGS_PIPE()                                                           \
	FLAG_FAMILY({ O_CLOEXEC, FDP_CLOEXEC }, { O_NONBLOCK, FDP_NONBLOCK })
#define FLAGS_EPOLL() FLAG_FAMILY({ EPOLL_CLOEXEC, FDP_CLOEXEC })
#define FLAGS_INOTIFY()                                                        \
	FLAG_FAMILY({ IN_CLOEXEC, FDP_CLOEXEC }, { IN_NONBLOCK, FDP_NONBLOCK })
#define FLAGS_EVENTFD()                                                        \
	FLAG_FAMILY({ EFD_CLOEXEC, FDP_CLOEXEC }, { EFD_NONBLOCK, FDP_NONBLOCK })
#define FLAGS_SIGNALFD()                                                       \
	FLAG_FAMILY({ SFD_CLOEXEC, FDP_CLOEXEC }, { SFD_NONBLOCK, FDP_NONBLOCK })
#define FLAGS_TIMERFD()                                                        \
	FLAG_FAMILY({ TFD_CLOEXEC, FDP_CLOEXEC }, { TFD_NONBLOCK, FDP_NONBLOCK })
/* Bit 0, not O_CLOEXEC: O_CLOEXEC there is EINVAL. */
#define FLAGS_MEMFD() FLAG_FAMILY({ MFD_CLOEXEC, FDP_CLOEXEC })
#define FLAGS_FANOTIFY()                                                       \
	FLAG_FAMILY({ FAN_CLOEXEC, FDP_CLOEXEC }, { FAN_NONBLOCK, FDP_NONBLOCK })
#define FLAGS_MSG() FLAG_FAMILY({ MSG_CMSG_CLOEXEC, FDP_CLOEXEC })
#define FLAGS_PERF() FLAG_FAMILY({ PERF_FLAG_FD_CLOEXEC, FDP_CLOEXEC })
/* fsopen and fsmount: bit 0 as well (FSMOUNT_CLOEXEC is the same bit). */
#define FLAGS_MOUNT() FLAG_FAMILY({ FSOPEN_CLOEXEC, FDP_CLOEXEC })

#endif /* CLOEXEC_FLAGS_H */
