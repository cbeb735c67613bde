/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <sys/socket.h>

#include "fdprop.h"
#include "forklock.h"
#include "probe.h"
#include "sys.h"

_Atomic unsigned char cap_cache[CAP_COUNT];
static atomic_bool fallback_seen;

/* A scratch fd created with flags: were they applied, ignored? */
static enum cap_state judge_scratch_fd(long fd, unsigned want)
{
	enum cap_state state;

	if (fd < 0)
		return CAP_UNKNOWN;
	state = (fd_get_props(fd) & want) == want ? CAP_NATIVE : CAP_IGNORES;
	sys_close(fd);
	return state;
}

static enum cap_state probe_sock_flags(void)
{
	long fd = sys_socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			     0);

	/* Before 2.6.27 the bits made the type invalid. */
	if (fd == -EINVAL)
		return CAP_REJECTS;
	return judge_scratch_fd(fd, FDP_CLOEXEC | FDP_NONBLOCK);
}

static enum cap_state probe_accept4(void)
{
	long ret = sys_accept4(-1, NULL, NULL, SOCK_CLOEXEC);

	/* The kernel checks the flags before it looks the fd up. */
	if (ret == -EBADF)
		return CAP_NATIVE;
	if (ret == -EINVAL)
		return CAP_REJECTS;
	/* ENOSYS, or what some sandboxes answer instead (EPERM, EACCES). */
	return CAP_ABSENT;
}

static const struct {
	const char *name;
	enum cap_state (*probe)(void);
} caps[CAP_COUNT] = {
	[CAP_SOCK_FLAGS] = { "SOCK_CLOEXEC", probe_sock_flags },
	[CAP_ACCEPT4] = { "accept4", probe_accept4 },
};

enum cap_state cap_probe(enum cap c)
{
	enum cap_state state;

	forklock_enter(FORKLOCK_CREATE);
	state = caps[c].probe();
	forklock_exit();

	/* An inconclusive answer (EMFILE, say) is asked again next time. */
	if (state != CAP_UNKNOWN)
		atomic_store_explicit(&cap_cache[c], state,
				      memory_order_relaxed);
	if (state != CAP_NATIVE)
		atomic_store_explicit(&fallback_seen, true,
				      memory_order_relaxed);
	return state;
}

bool cap_fallback_seen(void)
{
	return atomic_load_explicit(&fallback_seen, memory_order_relaxed);
}

const char *cap_name(enum cap c)
{
	return c < CAP_COUNT ? caps[c].name : "?";
}

const char *cap_state_name(enum cap_state s)
{
	static const char *const names[] = {
		[CAP_UNKNOWN] = "unknown", [CAP_NATIVE] = "native",
		[CAP_ABSENT] = "absent",   [CAP_REJECTS] = "rejects",
		[CAP_IGNORES] = "ignores",
	};

	return s <= CAP_IGNORES ? names[s] : "?";
}
