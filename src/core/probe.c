/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <time.h>

#include "export.h"
#include "fdprop.h"
#include "forklock.h"
#include "probe.h"
#include "sys.h"

/*
 * Two answers known in advance: the flag always came with its call
 * (memfd_create, fanotify_init), or no flag can reach the fd (rcmd).
 */
_Atomic unsigned char cap_cache[CAP_COUNT] = {
	[CAP_BUILTIN] = CAP_NATIVE,
	[CAP_NEVER] = CAP_ABSENT,
};
static atomic_bool fallback_seen STARTUP_DATA;

/* A scratch fd created with flags: were they applied, ignored? */
static enum cap_state judge_scratch_fd(long fd, unsigned want)
{
	enum cap_state state;

	if (fd < 0)
		return CAP_UNKNOWN;
	state = fd_get_props(fd, want) == want ? CAP_NATIVE : CAP_IGNORES;
	sys_close(fd);
	return state;
}

/* The usual answers of a call that creates a scratch fd with flags. */
static enum cap_state judge_flagged_call(long fd, unsigned want)
{
	if (fd == -ENOSYS)
		return CAP_ABSENT;
	if (fd == -EINVAL)
		return CAP_REJECTS;
	return judge_scratch_fd(fd, want);
}

static enum cap_state probe_builtin(void)
{
	return CAP_NATIVE;
}

static enum cap_state probe_never(void)
{
	return CAP_ABSENT;
}

static enum cap_state probe_sock_flags(void)
{
	/* Before 2.6.27 the bits made the type invalid: EINVAL. */
	return judge_flagged_call(
		sys_socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			   0),
		FDP_CLOEXEC | FDP_NONBLOCK);
}

static enum cap_state probe_accept4(void)
{
	long ret = sys_accept4(-1, NULL, NULL, SOCK_CLOEXEC);

	/* With valid flags, the only thing left to refuse is fd -1. */
	if (ret == -EBADF)
		return CAP_NATIVE;
	if (ret == -EINVAL)
		return CAP_REJECTS;
	/* ENOSYS, or what some sandboxes answer instead (EPERM, EACCES). */
	return CAP_ABSENT;
}

static long open_root(int flags)
{
	return sys_openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | flags, 0);
}

unsigned cap_kernel_version(void)
{
	int saved_errno = errno;
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) *ph;
	const ElfW(Nhdr) *n;
	const char *p, *end, *desc;
	unsigned i, version;

	/* getauxval says ENOENT where there is no vDSO (valgrind, vdso=0). */
	errno = saved_errno;
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return 0;
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_NOTE)
			continue;
		p = (const char *)eh + ph[i].p_offset;
		end = p + ph[i].p_filesz;
		while ((size_t)(end - p) >= sizeof(*n)) {
			n = (const void *)p;
			desc = p + sizeof(*n) + ((n->n_namesz + 3) & ~3u);
			if (desc + n->n_descsz > end)
				break;
			if (n->n_namesz == sizeof("Linux") && n->n_type == 0 &&
			    n->n_descsz == 4 &&
			    !memcmp(p + sizeof(*n), "Linux", sizeof("Linux"))) {
				memcpy(&version, desc, sizeof(version));
				return version;
			}
			p = desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

/*
 * Before 2.6.23 open() ignored the bit: only F_GETFD tells.  A kernel
 * whose vDSO states a later version honours it, and that costs no system
 * call at all: a seccomp filter can refuse a call, not drop one bit of
 * it.  Only a supervisor that makes the call in the program's stead can
 * (SECCOMP_RET_USER_NOTIF, ptrace); the test suite's emulated old kernel
 * is one, and states its version in the vDSO too (tests/lib/oldkernel.c).
 * No vDSO, no note, or an older version: the scratch fd asks.
 */
static enum cap_state probe_o_cloexec(void)
{
	if (cap_kernel_version() >= CAP_KERNEL_VERSION(2, 6, 23))
		return CAP_NATIVE;
	return judge_scratch_fd(open_root(O_CLOEXEC), FDP_CLOEXEC);
}

static enum cap_state probe_f_dupfd_cloexec(void)
{
	long fd = open_root(0), dup;

	if (fd < 0)
		return CAP_UNKNOWN;
	dup = sys_fcntl(fd, F_DUPFD_CLOEXEC, 0);
	sys_close(fd);
	return judge_flagged_call(dup, FDP_CLOEXEC);
}

static enum cap_state probe_pipe2(void)
{
	int fds[2];
	long ret = sys_pipe2(fds, O_CLOEXEC | O_NONBLOCK);
	enum cap_state s0;

	if (ret < 0)
		return judge_flagged_call(ret, 0);
	s0 = judge_scratch_fd(fds[0], FDP_CLOEXEC | FDP_NONBLOCK);
	if (judge_scratch_fd(fds[1], FDP_CLOEXEC | FDP_NONBLOCK) != s0)
		return CAP_IGNORES;
	return s0;
}

static enum cap_state probe_dup3(void)
{
	/* Distinct fds and valid flags: only the huge newfd is wrong. */
	long ret = sys_dup3(-1, INT_MAX, O_CLOEXEC);

	if (ret == -EBADF)
		return CAP_NATIVE;
	return ret == -EINVAL ? CAP_REJECTS : CAP_ABSENT;
}

static enum cap_state probe_epoll_create1(void)
{
	return judge_flagged_call(sys_epoll_create1(O_CLOEXEC), FDP_CLOEXEC);
}

static enum cap_state probe_inotify_init1(void)
{
	return judge_flagged_call(sys_inotify_init1(O_CLOEXEC | O_NONBLOCK),
				  FDP_CLOEXEC | FDP_NONBLOCK);
}

static enum cap_state probe_eventfd_flags(void)
{
	return judge_flagged_call(sys_eventfd2(0, O_CLOEXEC | O_NONBLOCK),
				  FDP_CLOEXEC | FDP_NONBLOCK);
}

static enum cap_state probe_signalfd_flags(void)
{
	unsigned long long none = 0;

	return judge_flagged_call(
		sys_signalfd4(-1, &none, O_CLOEXEC | O_NONBLOCK),
		FDP_CLOEXEC | FDP_NONBLOCK);
}

static enum cap_state probe_timerfd_flags(void)
{
	return judge_flagged_call(
		sys_timerfd_create(CLOCK_MONOTONIC, O_CLOEXEC | O_NONBLOCK),
		FDP_CLOEXEC | FDP_NONBLOCK);
}

/*
 * Send an fd over a scratch socket pair and receive it with the flag.
 * Kernels before 2.6.23 ignore unknown recvmsg flags: F_GETFD tells.
 */
static enum cap_state probe_cmsg_cloexec(void)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
	enum cap_state state = CAP_UNKNOWN;
	int sv[2], got;
	long ret;

	/* Plain socketpair: this runs inside the fork lock anyway. */
	if (sys_socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		return CAP_UNKNOWN;
	memset(control.buf, 0, sizeof(control.buf));
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &sv[0], sizeof(int));
	if (sys_sendmsg(sv[0], &msg, 0) == 1) {
		msg.msg_controllen = sizeof(control.buf);
		ret = sys_recvmsg(sv[1], &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		cmsg = CMSG_FIRSTHDR(&msg);
		if (ret == -EINVAL) {
			state = CAP_REJECTS;
		} else if (ret == 1 && cmsg && cmsg->cmsg_type == SCM_RIGHTS) {
			memcpy(&got, CMSG_DATA(cmsg), sizeof(int));
			state = judge_scratch_fd(got, FDP_CLOEXEC);
		}
	}
	sys_close(sv[0]);
	sys_close(sv[1]);
	return state;
}

/* A switch, not a table of pointers: no relocation at load (policy.c). */
static enum cap_state probe(enum cap c)
{
	switch (c) {
	case CAP_BUILTIN:
		return probe_builtin();
	case CAP_NEVER:
		return probe_never();
	case CAP_SOCK_FLAGS:
		return probe_sock_flags();
	case CAP_ACCEPT4:
		return probe_accept4();
	case CAP_O_CLOEXEC:
		return probe_o_cloexec();
	case CAP_F_DUPFD_CLOEXEC:
		return probe_f_dupfd_cloexec();
	case CAP_PIPE2:
		return probe_pipe2();
	case CAP_DUP3:
		return probe_dup3();
	case CAP_EPOLL_CREATE1:
		return probe_epoll_create1();
	case CAP_INOTIFY_INIT1:
		return probe_inotify_init1();
	case CAP_EVENTFD_FLAGS:
		return probe_eventfd_flags();
	case CAP_SIGNALFD_FLAGS:
		return probe_signalfd_flags();
	case CAP_TIMERFD_FLAGS:
		return probe_timerfd_flags();
	case CAP_CMSG_CLOEXEC:
		return probe_cmsg_cloexec();
	case CAP_COUNT:
		break;
	}
	return CAP_UNKNOWN;
}

enum cap_state cap_probe(enum cap c)
{
	enum cap_state state;

	forklock_enter(FORKLOCK_CREATE);
	state = probe(c);
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
