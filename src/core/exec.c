/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <pthread.h>
#include <string.h>
#include <sys/auxv.h>

#include "exec.h"
#include "export.h"
#include "fdtable.h"
#include "handoff.h"
#include "layers.h"
#include "load.h"
#include "peek.h"
#include "report.h"
#include "sys.h"

CHILD_PATH uint32_t exec_policy_word(void)
{
	uint32_t w = atomic_load_explicit(&policy_hot, memory_order_acquire);

	if (__builtin_expect(w != 0, 1) || policy_defaults_stand())
		return w;
	return policy_load();
}

CHILD_PATH static bool any_marked(unsigned bits)
{
	return fdtable_any_marked(bits);
}

/*
 * A fork child that execs with a flag the library forced asks whether
 * this image is a shell, and whether it is a program of the rows that
 * name fds for children.  Done once in the parent instead, at the first
 * fork that finds such a flag, the answers are every later child's.
 */
static _Atomic bool asked_for_children STARTUP_DATA;

static void before_fork(void)
{
	if (atomic_load_explicit(&asked_for_children, memory_order_relaxed) ||
	    !any_marked(FDT_FORCED))
		return;
	handoff_before_fork();
	atomic_store_explicit(&asked_for_children, true, memory_order_relaxed);
}

__attribute__((constructor)) static void exec_register(void)
{
	pthread_atfork(before_fork, NULL, NULL);
}

/* Rule 1 and the shell rule, for each fd they hand on. */
CHILD_PATH static void hand_on(int fd, void *ctx)
{
	long flags = sys_fcntl(fd, F_GETFD, 0);

	(void)ctx;
	if (flags >= 0 && (flags & FD_CLOEXEC))
		sys_fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
}

CHILD_PATH static void take_back(int fd, void *ctx)
{
	long flags = sys_fcntl(fd, F_GETFD, 0);

	(void)ctx;
	if (flags >= 0 && !(flags & FD_CLOEXEC))
		sys_fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

CHILD_PATH void exec_prepare(char *const argv[], char *const envp[],
			     const char *path, enum handoff_as as,
			     uint32_t word, struct handoff_kept *k)
{
	unsigned i;
	uint8_t bits;
	bool forced;

	k->n = 0;
	k->creds = 0;
	k->own = 0;
	k->shell = false;
	k->handed_on = 0;
	k->secure = false;
	/*
	 * Every rule clears a flag the library forced, and only such a flag:
	 * with none forced, no audit to tell and no sweep, nothing is left to
	 * do.  A shell's commands are mostly so: their pipes were moved onto
	 * 0 and 1, and the ends closed.
	 */
	forced = any_marked(FDT_FORCED);
	if (!(word & (POLICY_REPORT | POLICY_SWEEP)) && !forced)
		return;
	/*
	 * Arguments the kernel cannot read make the exec fail (EFAULT):
	 * nothing to hand on, and nothing to read here either.
	 */
	if ((path && !peek_string(path)) || !peek_strings(argv) ||
	    !peek_strings(envp))
		return;
	k->secure = word & POLICY_LOADED ? (word & POLICY_SECURE) != 0 :
					   getauxval(AT_SECURE) != 0;
	handoff_choose(argv, envp, path, as, word & POLICY_REPORT, forced, k);
	if (word & POLICY_SWEEP)
		fdtable_sweep(word & POLICY_KEEPS);
	for (i = 0; i < k->n; i++) {
		long flags = sys_fcntl(k->fd[i].fd, F_GETFD, 0);

		if (flags >= 0 && (flags & FD_CLOEXEC)) {
			sys_fcntl(k->fd[i].fd, F_SETFD, flags & ~FD_CLOEXEC);
			k->fd[i].cleared = true;
		}
	}
	bits = k->shell ? FDT_FORCED : k->own;
	if (bits && any_marked(bits)) {
		if (handoff_may_clear_forced(k)) {
			k->handed_on = bits;
		} else {
			k->shell = false;
			k->own = 0;
		}
	}
	if (k->handed_on)
		fdtable_for_each_marked(k->handed_on, hand_on, NULL);
	if (word & POLICY_REPORT)
		report_inherited(path, argv, k, as == HANDOFF_AS_SPAWNER);
}

CHILD_PATH void exec_undo(const struct handoff_kept *k)
{
	unsigned i;

	if (k->handed_on)
		fdtable_for_each_marked(k->handed_on, take_back, NULL);
	for (i = 0; i < k->n; i++)
		if (k->fd[i].cleared)
			take_back(k->fd[i].fd, NULL);
}

CHILD_PATH size_t exec_env_slots(char *const envp[], uint32_t word)
{
	size_t n = 1;

	if (!(word & POLICY_SCOPE_PROCESS) || !peek_strings(envp))
		return 1;
	while (envp && envp[n - 1])
		n++;
	return n;
}

CHILD_PATH size_t exec_env_preload_room(uint32_t word)
{
	return word & POLICY_SCOPE_PROCESS ? EXEC_PRELOAD_MAX : 1;
}

/* An LD_PRELOAD entry that names this library, by path or by name. */
CHILD_PATH static bool is_self(const char *entry, size_t n)
{
	static const char name[] = "libcloexec.so";
	const char *base = entry + n;

	while (base > entry && base[-1] != '/')
		base--;
	return (size_t)(entry + n - base) >= sizeof(name) - 1 &&
	       !memcmp(base, name, sizeof(name) - 1);
}

/* LD_PRELOAD=... without this library, into out; false if none is left. */
CHILD_PATH static bool strip_preload(const char *value, char *out, size_t size)
{
	const char *p = value, *end;
	size_t len = 0, n;

	while (*p) {
		end = p + strcspn(p, ": ");
		n = end - p;
		if (n && !is_self(p, n) && len + n + 2 < size) {
			if (len)
				out[len++] = ':';
			memcpy(out + len, p, n);
			len += n;
		}
		p = *end ? end + 1 : end;
	}
	out[len] = '\0';
	return len > 0;
}

CHILD_PATH char *const *exec_env(char *const envp[], char **slots,
				 size_t nslots, char *preload, size_t room)
{
	size_t n = 0;

	/* The room says whether the word asked for a copy. */
	if (nslots < 2 || room < EXEC_PRELOAD_MAX || !envp)
		return envp;
	for (; *envp; envp++) {
		if (!strncmp(*envp, POLICY_ENV "=", sizeof(POLICY_ENV)) ||
		    !strncmp(*envp, POLICY_FILE_ENV "=",
			     sizeof(POLICY_FILE_ENV)))
			continue;
		if (!strncmp(*envp, "LD_PRELOAD=", 11)) {
			memcpy(preload, "LD_PRELOAD=", 11);
			if (!strip_preload(*envp + 11, preload + 11,
					   EXEC_PRELOAD_MAX - 11))
				continue;
			slots[n++] = preload;
			continue;
		}
		slots[n++] = *envp;
	}
	slots[n] = NULL;
	return slots;
}
