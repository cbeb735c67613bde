/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#if (defined(__x86_64__) || defined(__i386__)) && HAVE_KERNEL_TEST_HEADERS
#define OLDKERNEL_SUPPORTED 1
#include <linux/audit.h>
#include <linux/filter.h>
#include <elf.h>
#include <link.h>
#include <linux/seccomp.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/uio.h>
#if defined(__x86_64__)
#define OLDKERNEL_ARCH AUDIT_ARCH_X86_64
#else
#define OLDKERNEL_ARCH AUDIT_ARCH_I386
#endif
#endif

#include "core/sys.h"
#include "oldkernel.h"

/* The process that installed it: a forked child must install its own. */
static pid_t active_pid;

int oldkernel_active(void)
{
	return active_pid == getpid();
}

#ifndef OLDKERNEL_SUPPORTED

int oldkernel_supported(void)
{
	return 0;
}

void oldkernel_keep_fd_from(int lowfd)
{
}

int oldkernel_install(void)
{
	fputs("oldkernel: no emulation for this architecture\n", stderr);
	return -1;
}

#else

enum test { ANY, BITS, EQUALS };

#define NOTIFY SECCOMP_RET_USER_NOTIF
#define FAIL(e) (SECCOMP_RET_ERRNO | (e))

static const struct rule {
	int nr;
	enum test test;
	int arg;
	uint32_t value;
	uint32_t action;
} rules[] = {
	{ SYS_accept4, BITS, 3, ~0u, FAIL(ENOSYS) },
	{ SYS_dup3, BITS, 2, ~0u, FAIL(ENOSYS) },
	{ SYS_epoll_create1, BITS, 0, ~0u, FAIL(ENOSYS) },
	{ SYS_inotify_init1, BITS, 0, ~0u, FAIL(ENOSYS) },
	/* glibc's popen() needs pipe2(O_CLOEXEC) itself: that one passes. */
	{ SYS_pipe2, BITS, 1, ~(unsigned)O_CLOEXEC, FAIL(ENOSYS) },
	{ SYS_socket, BITS, 1, SOCK_CLOEXEC | SOCK_NONBLOCK, FAIL(EINVAL) },
	{ SYS_socketpair, BITS, 1, SOCK_CLOEXEC | SOCK_NONBLOCK, FAIL(EINVAL) },
	{ SYS_eventfd2, BITS, 1, O_CLOEXEC | O_NONBLOCK, FAIL(EINVAL) },
	{ SYS_signalfd4, BITS, 3, O_CLOEXEC | O_NONBLOCK, FAIL(EINVAL) },
	{ SYS_timerfd_create, BITS, 1, O_CLOEXEC | O_NONBLOCK, FAIL(EINVAL) },
	{ SYS_fcntl, EQUALS, 1, F_DUPFD_CLOEXEC, FAIL(EINVAL) },
	{ SYS_close_range, ANY, 0, 0, FAIL(ENOSYS) },
#ifdef SYS_open_tree
	{ SYS_open_tree, ANY, 0, 0, FAIL(ENOSYS) },
	{ SYS_fsopen, ANY, 0, 0, FAIL(ENOSYS) },
	{ SYS_fsmount, ANY, 0, 0, FAIL(ENOSYS) },
	{ SYS_fspick, ANY, 0, 0, FAIL(ENOSYS) },
#endif
	{ SYS_open, BITS, 1, O_CLOEXEC, NOTIFY },
	{ SYS_openat, BITS, 2, O_CLOEXEC, NOTIFY },
	{ SYS_recvmsg, BITS, 2, MSG_CMSG_CLOEXEC, NOTIFY },
	{ SYS_recvmmsg, BITS, 3, MSG_CMSG_CLOEXEC, NOTIFY },
#ifdef SYS_fcntl64
	{ SYS_fcntl64, EQUALS, 1, F_DUPFD_CLOEXEC, FAIL(EINVAL) },
#endif
#ifdef SYS_recvmmsg_time64
	{ SYS_recvmmsg_time64, BITS, 3, MSG_CMSG_CLOEXEC, NOTIFY },
#endif
#ifdef SYS_socketcall
	/* The arguments are in memory, out of BPF's reach: see answer(). */
	{ SYS_socketcall, EQUALS, 0, SOCKETCALL_SOCKET, NOTIFY },
	{ SYS_socketcall, EQUALS, 0, SOCKETCALL_SOCKETPAIR, NOTIFY },
	{ SYS_socketcall, EQUALS, 0, SOCKETCALL_ACCEPT4, NOTIFY },
	{ SYS_socketcall, EQUALS, 0, SOCKETCALL_RECVMSG, NOTIFY },
	{ SYS_socketcall, EQUALS, 0, SOCKETCALL_RECVMMSG, NOTIFY },
#endif
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

/*
 * User-mode emulators (qemu-user, which CI runs the unit tests of other
 * architectures under) implement no seccomp: there the emulation cannot be
 * installed, though this build has it.
 */
int oldkernel_supported(void)
{
	uint32_t action = SECCOMP_RET_USER_NOTIF;
	int saved = errno;
	int ok = syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;

	errno = saved;
	return ok;
}
#define LOAD(off) ((struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off)))
#define RET(v) ((struct sock_filter)BPF_STMT(BPF_RET | BPF_K, (v)))
#define ARG_LOW(i) (offsetof(struct seccomp_data, args) + 8 * (i))

/*
 * One block per rule, in order; a rule whose call matches but whose test
 * does not reloads the number and goes on, so that several rules may name
 * the same call (socketcall's sub-calls).
 */
static size_t build_filter(struct sock_filter *f)
{
	size_t n = 0, i;

	f[n++] = LOAD(offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					      OLDKERNEL_ARCH, 1, 0);
	f[n++] = RET(SECCOMP_RET_ALLOW);
	f[n++] = LOAD(offsetof(struct seccomp_data, nr));
	for (i = 0; i < NRULES; i++) {
		const struct rule *r = &rules[i];

		if (r->test == ANY) {
			f[n++] = (struct sock_filter)BPF_JUMP(
				BPF_JMP | BPF_JEQ | BPF_K, r->nr, 0, 1);
			f[n++] = RET(r->action);
			continue;
		}
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      r->nr, 0, 4);
		f[n++] = LOAD(ARG_LOW(r->arg));
		f[n++] = (struct sock_filter)BPF_JUMP(
			BPF_JMP | (r->test == BITS ? BPF_JSET : BPF_JEQ) |
				BPF_K,
			r->value, 0, 1);
		f[n++] = RET(r->action);
		f[n++] = LOAD(offsetof(struct seccomp_data, nr));
	}
	f[n++] = RET(SECCOMP_RET_ALLOW);
	return n;
}

static int listener = -1;
static sem_t ready;

/* Is tid a thread of this process?  Signal 0 to it only checks. */
static int own_thread(pid_t tid)
{
	return sys_call(SYS_tgkill, getpid(), tid, 0, 0, 0) == 0;
}

#ifdef SYS_socketcall
static size_t socketcall_nargs(int call)
{
	switch (call) {
	case SOCKETCALL_RECVMMSG:
		return 5;
	case SOCKETCALL_SOCKETPAIR:
	case SOCKETCALL_ACCEPT4:
		return 4;
	default:
		return 3;
	}
}

/*
 * socketcall(call, args) as a 2.6.27 kernel answered it, the arguments
 * read from the caller's memory (this process's).  SOCK_CLOEXEC and
 * SOCK_NONBLOCK made a type invalid; accept4 (2.6.28) was a sub-call
 * beyond the last one known, so EINVAL, though accept4 with no flags is
 * let through, as the direct call is; MSG_CMSG_CLOEXEC (2.6.23) was
 * ignored.  Returns 1 with *ret set, or 0 to let the call through.
 */
static int answer_socketcall(const struct seccomp_data *d, long *ret)
{
	int call = (int)d->args[0];
	unsigned long args[5] = { 0 };
	/* What the sub-call reads, not more: the array may end a page. */
	size_t len = socketcall_nargs(call) * sizeof(args[0]);
	struct iovec local = { args, len };
	struct iovec remote = { (void *)(uintptr_t)d->args[1], len };

	if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) !=
	    (ssize_t)local.iov_len)
		return 0;
	switch (call) {
	case SOCKETCALL_SOCKET:
	case SOCKETCALL_SOCKETPAIR:
		if (!(args[1] & (SOCK_CLOEXEC | SOCK_NONBLOCK)))
			return 0;
		*ret = -EINVAL;
		return 1;
	case SOCKETCALL_ACCEPT4:
		if (!args[3])
			return 0;
		*ret = -EINVAL;
		return 1;
	case SOCKETCALL_RECVMSG:
		if (!(args[2] & MSG_CMSG_CLOEXEC))
			return 0;
		args[2] &= ~(unsigned long)MSG_CMSG_CLOEXEC;
		break;
	case SOCKETCALL_RECVMMSG:
		if (!(args[3] & MSG_CMSG_CLOEXEC))
			return 0;
		args[3] &= ~(unsigned long)MSG_CMSG_CLOEXEC;
		break;
	default:
		return 0;
	}
	*ret = sys_socketcall(call, (long *)args);
	return 1;
}
#endif

/*
 * The call as a pre-2.6.23 kernel made it: without the bit.  Raw system
 * calls, so that the library under test, preloaded in this process, does
 * not put the bit back.  Returns 1 with *ret set, or 0 to let the call
 * through as it is.
 */
static int answer(const struct seccomp_data *d, long *ret)
{
	const __u64 *a = d->args;

	switch (d->nr) {
	case SYS_open:
		*ret = sys_call(SYS_open, a[0], a[1] & ~O_CLOEXEC, a[2], 0, 0);
		return 1;
	case SYS_openat:
		*ret = sys_call(SYS_openat, a[0], a[1], a[2] & ~O_CLOEXEC,
				a[3], 0);
		return 1;
	case SYS_recvmsg:
		*ret = sys_call(SYS_recvmsg, a[0], a[1],
				a[2] & ~MSG_CMSG_CLOEXEC, 0, 0);
		return 1;
	case SYS_recvmmsg:
#ifdef SYS_recvmmsg_time64
	case SYS_recvmmsg_time64:
#endif
		*ret = sys_call(d->nr, a[0], a[1], a[2],
				a[3] & ~MSG_CMSG_CLOEXEC, a[4]);
		return 1;
#ifdef SYS_socketcall
	case SYS_socketcall:
		return answer_socketcall(d, ret);
#endif
	}
	*ret = -ENOSYS;
	return 1;
}

static void *supervise(void *unused)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	sigset_t all;

	/*
	 * Signals go to the test's threads: a handler here that created an
	 * fd could wait on the fork lock for a thread that waits on us.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	sem_wait(&ready);
	if (listener < 0)
		return NULL;
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		abort();
	req = calloc(1, sizes.seccomp_notif);
	resp = calloc(1, sizes.seccomp_notif_resp);
	if (!req || !resp)
		abort();
	for (;;) {
		long ret;

		memset(req, 0, sizes.seccomp_notif);
		if (sys_ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) < 0)
			continue;
		memset(resp, 0, sizes.seccomp_notif_resp);
		resp->id = req->id;
		if (!own_thread(req->pid) || !answer(&req->data, &ret)) {
			resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		} else if ((unsigned long)ret > -4096UL) {
			resp->error = (int32_t)ret;
		} else {
			resp->val = ret;
		}
		/* ENOENT: the caller was killed meanwhile; nothing to do. */
		sys_ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
	}
	return NULL;
}

static int keep_from = -1;

void oldkernel_keep_fd_from(int lowfd)
{
	keep_from = lowfd;
}

/*
 * The listener, moved to keep_from or above if the fd limit allows.  Raw
 * calls, allowed by the filter: F_DUPFD_CLOEXEC is not.
 */
static int move_up(int fd)
{
	struct rlimit rl;
	long high;

	if (keep_from < 0 || getrlimit(RLIMIT_NOFILE, &rl) ||
	    rl.rlim_cur <= (rlim_t)keep_from)
		return fd;
	high = sys_fcntl(fd, F_DUPFD, keep_from);
	if (high < 0)
		return fd;
	sys_fcntl(high, F_SETFD, FD_CLOEXEC);
	sys_close(fd);
	return (int)high;
}

/* The "Linux" note of an ELF image in memory: its 4-byte desc, or NULL. */
static char *linux_note(const ElfW(Ehdr) *eh, size_t size)
{
	const ElfW(Phdr) *ph = (const void *)((const char *)eh + eh->e_phoff);
	char *p, *end, *desc;
	ElfW(Nhdr) *n;
	int i;

	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_NOTE ||
		    ph[i].p_offset + ph[i].p_filesz > size)
			continue;
		p = (char *)eh + ph[i].p_offset;
		end = p + ph[i].p_filesz;
		while ((size_t)(end - p) >= sizeof(*n)) {
			n = (void *)p;
			desc = p + sizeof(*n) + ((n->n_namesz + 3) & ~3u);
			if (n->n_namesz == sizeof("Linux") && n->n_type == 0 &&
			    n->n_descsz == 4 && desc + 4 <= end &&
			    !memcmp(p + sizeof(*n), "Linux", sizeof("Linux")))
				return desc;
			p = desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return NULL;
}

/*
 * The value word of the process's auxiliary vector entry TYPE, which
 * holds VALUE, where the kernel put it: after argv and envp.  Read with
 * raw system calls: a preloaded library's open would learn about the
 * kernel before it is emulated.  Searched word by word from the end of
 * argv, not stepped over envp: unsetenv() (oldkernel-preload.c calls it)
 * shifts envp in place and leaves a second NULL before the vector.
 */
static unsigned long *initial_auxv_value(unsigned long type,
					 unsigned long value)
{
	char buf[1024], *p;
	unsigned long start = 0, *w;
	long fd, n, *sp;
	int field, i;

	fd = sys_openat(AT_FDCWD, "/proc/self/stat", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return NULL;
	n = sys_call(SYS_read, fd, buf, sizeof(buf) - 1, 0, 0);
	sys_close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* Field 28, startstack: where argc is. */
	for (field = 2; p && field < 28; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoul(p + 1, NULL, 10);
	if (!start)
		return NULL;
	sp = (long *)start;
	w = (unsigned long *)((char **)(sp + 1) + sp[0] + 1);
	for (i = 0; i < (1 << 16); i++)
		if (w[i] == type && w[i + 1] == value)
			return &w[i + 1];
	return NULL;
}

/*
 * A 2008 kernel says so in its vDSO, whose "Linux" note carries
 * LINUX_VERSION_CODE: the library believes a later one honours O_CLOEXEC
 * without asking (src/core/probe.c).  So this one says 2.6.22, the last
 * before O_CLOEXEC.  The vDSO itself cannot be written (recent kernels
 * refuse): the auxiliary vector's AT_SYSINFO_EHDR, which getauxval()
 * reads, is pointed at a read-only copy that says so.  Nothing runs the
 * vDSO's code through it after start (libc found its functions then).
 * Children by fork inherit the copy, and a probe there asks the real
 * kernel, which answers them.
 */
static int state_old_version(void)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr) *ph;
	unsigned old = (2 << 16) | (6 << 8) | 22;
	size_t size = 0, page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long *slot;
	char *copy, *desc;
	int i;

	if (!eh)
		return 0; /* no vDSO: the library asks the kernel anyway */
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD &&
		    ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	if (!size || !linux_note(eh, size))
		return 0; /* no note: the library asks the kernel anyway */
	size = (size + page - 1) & ~(page - 1);
	slot = initial_auxv_value(AT_SYSINFO_EHDR, (uintptr_t)eh);
	if (!slot) {
		fputs("oldkernel: cannot find the auxiliary vector\n", stderr);
		return -1;
	}
	copy = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (copy == MAP_FAILED) {
		perror("oldkernel: mmap");
		return -1;
	}
	memcpy(copy, eh, size);
	desc = linux_note((const void *)copy, size);
	memcpy(desc, &old, sizeof(old));
	mprotect(copy, size, PROT_READ);
	*slot = (uintptr_t)copy;
	return 0;
}

int oldkernel_install(void)
{
	struct sock_filter f[8 + 5 * NRULES];
	struct sock_fprog prog = { .filter = f };
	pthread_t th;

	/*
	 * Filters stack: a forked child keeps its parent's, whose supervisor
	 * thread did not come along, so it installs one more with its own.
	 * The newest filter wins, so its own supervisor gets its calls.
	 */
	if (oldkernel_active())
		return 0;
	if (state_old_version())
		return -1;
	prog.len = (unsigned short)build_filter(f);
	sem_init(&ready, 0, 0);
	/* The supervisor starts before the filter, so it is not under it. */
	if (pthread_create(&th, NULL, supervise, NULL)) {
		perror("oldkernel: pthread_create");
		return -1;
	}
	pthread_detach(th);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("oldkernel: PR_SET_NO_NEW_PRIVS");
		sem_post(&ready);
		return -1;
	}
	listener = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			   SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (listener < 0)
		perror("oldkernel: seccomp");
	else
		listener = move_up(listener);
	sem_post(&ready);
	if (listener < 0)
		return -1;
	active_pid = getpid();
	return 0;
}

#endif
