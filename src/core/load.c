/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy of this process (load.h): its layers loaded once, settled
 * for this program, and the hot word published.
 */
#include "config.h"

#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "compat.h"
#include "export.h"
#include "layers.h"
#include "load.h"
#include "pid.h"
#include "str.h"
#include "sys.h"
#include "thread.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct policy loaded ZERO_DATA;
/*
 * 0: not loaded yet; -1: loaded; any other value: being loaded, by a
 * thread of the process with that pid.
 */
static atomic_long load_state STARTUP_DATA;

/* /proc/self/exe, when /proc is there. */
static const char *own_exe(char *buf, size_t size)
{
	long n = sys_call(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", buf,
			  size - 1, 0);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

extern char *program_invocation_short_name;

static const char *base_name(const char *path)
{
	return path ? str_file_name(path) : NULL;
}

/*
 * The name argv[0] gives the program.  A multi-call binary is the applet
 * it runs: argv[0], or after "busybox", argv[1] (read from
 * /proc/self/cmdline, only there).
 */
static const char *program_name(const char *ran, char *buf, size_t size)
{
	const char *name = program_invocation_short_name, *arg1;
	long fd, n = 0, got;

	if (!ran || !str_eq(ran, "busybox") || !name || !str_eq(name, "busybox"))
		return name;
	fd = sys_openat(AT_FDCWD, "/proc/self/cmdline", O_RDONLY | O_CLOEXEC,
			0);
	if (fd < 0)
		return name;
	while (n < (long)size - 1 &&
	       (got = sys_call(SYS_read, fd, buf + n, size - 1 - n, 0, 0)) > 0)
		n += got;
	sys_close(fd);
	buf[n > 0 ? n : 0] = '\0';
	arg1 = memchr(buf, '\0', (size_t)n);
	if (!arg1 || arg1 + 1 >= buf + n)
		return name;
	return base_name(arg1 + 1);
}

/* Does an exempt= item name a path, which only the executable answers? */
static bool names_a_path(const struct policy *p)
{
	const struct policy_list *lists[] = { &p->exempt_list,
					      &p->unexempt_list };
	unsigned i, l;

	for (l = 0; l < COUNT(lists); l++)
		for (i = 0; i < lists[l]->n; i++)
			if (memchr(p->text + lists[l]->item[i].off, '/',
				   lists[l]->item[i].len))
				return true;
	return false;
}

/*
 * Settle the loaded policy for this program.  Its names are the ones it
 * was run by, which the process has already: argv[0]'s and that of the
 * path execve() was given (AT_EXECFN: "-bash" is bash).  Its executable's
 * real path, a system call, is read only where an exempt= path needs it,
 * and in a secure-execution process, where argv and the path are the
 * caller's choice and the executable's own file name is the only name.
 */
static void settle_loaded(void)
{
	bool secure = getauxval(AT_SECURE) != 0;
	char exe_buf[512], applet[256];
	const char *exe = NULL, *ran;

	if (secure || names_a_path(&loaded))
		exe = own_exe(exe_buf, sizeof(exe_buf));
	if (secure) {
		policy_settle(&loaded, exe, base_name(exe), NULL);
		return;
	}
	ran = base_name((const char *)getauxval(AT_EXECFN));
	policy_settle(&loaded, exe, program_name(ran, applet, sizeof(applet)),
		      ran);
}

/*
 * Load it, once.  The first thread here parses into the static policy and
 * publishes the word; the others of its process wait the few microseconds
 * that takes.  Two callers do not wait, and get the default policy's word
 * for their call, publishing nothing:
 *
 * - a signal handler on the loading thread, which would wait for itself;
 * - a thread of another process (policy.h says how one gets here), where
 *   the loader's stores may never arrive.
 */
uint32_t policy_load(void)
{
	struct cloexec_thread *self = thread_self();
	struct diag errs = { .len = 0 };
	long pid = pid_own();
	long expected = 0;
	uint32_t word;

	if (!atomic_compare_exchange_strong(&load_state, &expected, pid)) {
		/*
		 * The pid a loader stored is the one it last asked for: in a
		 * copy the library did not see, its parent's.  Only the
		 * system's answer says whether the loader is in this process.
		 */
		if (self->loading_policy ||
		    (expected != -1 &&
		     expected != pid_raw()))
			return POLICY_LOADED | FD_CLASS_DEFAULT;
		while (!(word = atomic_load_explicit(&policy_hot,
						      memory_order_acquire)))
			sched_yield();
		return word;
	}
	self->loading_policy = 1;
	policy_default(&loaded);
	layers_load(&loaded, &errs);
	settle_loaded();
	word = policy_word_of(&loaded);
	if (getauxval(AT_SECURE))
		word |= POLICY_SECURE;
#ifdef CLOEXEC_TEST_SWITCHES
	{
		const char *text = secure_env(POLICY_TEST_NO_LOCK_ENV);

		if (text && !strcmp(text, "1"))
			word |= POLICY_NO_LOCK;
		if (secure_env(POLICY_TEST_WINDOW_ENV))
			word |= POLICY_TEST_WINDOW;
	}
#endif
	atomic_store_explicit(&policy_hot, word, memory_order_release);
	atomic_store(&load_state, -1);
	self->loading_policy = 0;
	diag_flush(&errs, 2);
	layers_report_files();
	return word;
}

#ifdef CLOEXEC_TEST_SWITCHES
/* "W,R": a byte to W, then one from R; raw calls, errno untouched. */
void load_test_window(void)
{
	const char *text = secure_env(POLICY_TEST_WINDOW_ENV);
	int w = 0, r = 0;
	char byte = 'w';

	for (; text && *text >= '0' && *text <= '9' && w < 100000; text++)
		w = w * 10 + (*text - '0');
	if (!text || *text++ != ',')
		return;
	for (; *text >= '0' && *text <= '9' && r < 100000; text++)
		r = r * 10 + (*text - '0');
	if (*text || w < 3 || r < 3)
		return;
	if (sys_call(SYS_write, w, &byte, 1, 0, 0) == 1)
		sys_call(SYS_read, r, &byte, 1, 0, 0);
}
#else
void load_test_window(void)
{
}
#endif

CHILD_PATH const struct policy *load_policy_get(void)
{
	policy_word();
	return &loaded;
}

bool load_keeps_fd(int fd)
{
	const struct policy *p = load_policy_get();
	unsigned i;

	for (i = 0; i < p->nkeep; i++)
		if (fd >= p->keep[i].lo && fd <= p->keep[i].hi)
			return true;
	return false;
}

static bool list_match(const struct policy *p, const struct policy_list *l,
		       const char *s)
{
	unsigned i;

	for (i = 0; i < l->n; i++)
		if (policy_glob(p->text + l->item[i].off, l->item[i].len, s))
			return true;
	return false;
}

bool load_keeps_path(const char *path)
{
	const struct policy *p = load_policy_get();

	return path && list_match(p, &p->keep_path, path);
}
