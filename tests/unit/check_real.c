/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/next.h"
#include "core/real.h"
#include "core/thread.h"
#include "testlib.h"

static int raw_calls;

static pid_t raw_getpid(void)
{
	raw_calls++;
	return -2;
}

int cloexec_no_such_fn(void);

static int raw_missing(void)
{
	return -3;
}

REAL_SLOT(getpid, raw_getpid);
REAL_SLOT(cloexec_no_such_fn, raw_missing);
/* Called by no child before its exec, and by one. */
REAL_SLOT(getppid, NULL);
REAL_SLOT_CHILD(getpgrp, NULL);

START_TEST(resolves_to_libc)
{
	ck_assert_int_eq(REAL(getpid)(), getpid());
	ck_assert_int_eq(raw_calls, 0);
	ck_assert_ptr_nonnull(atomic_load(&real_slot_getpid.addr));
}
END_TEST

/*
 * A fork's prepare handler looks up what children call before their
 * exec, and nothing else: every other name waits for its first call.
 */
START_TEST(a_fork_looks_up_only_what_children_call)
{
	/*
	 * Through volatile pointers: slots of this file whose address went
	 * nowhere else may be taken by the compiler (clang) to keep their
	 * NULL, though the pass over the section writes them.
	 */
	struct real_slot *volatile child = &real_slot_getpgrp;
	struct real_slot *volatile other = &real_slot_getppid;
	void *child_fn, *other_fn;

	real_resolve_for_children();
	child_fn = (void *)atomic_load(&child->addr);
	other_fn = (void *)atomic_load(&other->addr);
	ck_assert_ptr_eq(child_fn, dlsym(RTLD_NEXT, "getpgrp"));
	ck_assert_ptr_null(other_fn);
	real_resolve_all();
	other_fn = (void *)atomic_load(&other->addr);
	ck_assert_ptr_eq(other_fn, dlsym(RTLD_NEXT, "getppid"));
}
END_TEST

/* Re-entered from inside dlsym: the raw twin, and nothing cached. */
START_TEST(inside_dlsym_the_raw_twin_answers)
{
	thread_self()->resolving = 1;
	ck_assert_int_eq(REAL(getpid)(), -2);
	ck_assert_int_eq(raw_calls, 1);
	ck_assert_ptr_null(atomic_load(&real_slot_getpid.addr));
	thread_self()->resolving = 0;
	ck_assert_int_eq(REAL(getpid)(), getpid());
}
END_TEST

START_TEST(missing_symbol_gets_the_raw_twin_for_good)
{
	errno = 321;
	ck_assert_int_eq(REAL(cloexec_no_such_fn)(), -3);
	ck_assert_int_eq(errno, 321);
	ck_assert_ptr_eq(
		(void *)atomic_load(&real_slot_cloexec_no_such_fn
					     .addr),
		(void *)raw_missing);
}
END_TEST

/*
 * The look-up in the objects' own tables (next.c) finds what dlsym and
 * dlvsym find after this program, where it is sure; on glibc, with this
 * program's calls bound lazily, it is sure of libc's names.
 */
static const char *const next_names[] = {
	"open", "close", "fopen", "fclose", "socket", "pipe2", "dup2",
	"execve", "execv", "posix_spawn", "fcntl", "openat", "getpid",
	/* Each with an older version that is another function. */
	"pthread_cond_wait", "pthread_cond_signal", "realpath", "regexec",
	"sched_setaffinity", "nftw", "timer_create", "fmemopen",
	"posix_spawnp",
};

START_TEST(next_finds_what_dlsym_finds)
{
	const char *name = next_names[_i];
	bool sure;
	void *addr = real_next(name, "", &sure);

#if defined(__GLIBC__)
	if (!getenv("LD_BIND_NOW"))
		ck_assert_msg(sure, "%s: the look-up was not sure", name);
#endif
	if (sure)
		ck_assert_ptr_eq(addr, dlsym(RTLD_NEXT, name));
}
END_TEST

START_TEST(next_finds_a_version_as_dlvsym)
{
#if defined(__GLIBC__) && HAVE_DLVSYM
	/* Every version of fopen, the default and the old ones. */
	static const char *const versions[] = {
		"GLIBC_2.0", "GLIBC_2.1", "GLIBC_2.2.5", "GLIBC_2.17",
		"GLIBC_2.18", "GLIBC_2.27", "GLIBC_9.99",
	};
	unsigned i;

	for (i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		bool sure;
		void *addr = real_next("fopen", versions[i], &sure);
		void *want = dlvsym(RTLD_NEXT, "fopen", versions[i]);

		if (!getenv("LD_BIND_NOW"))
			ck_assert_msg(sure || !want, "fopen@%s: not sure",
				      versions[i]);
		if (sure)
			ck_assert_ptr_eq(addr, want);
	}
#endif
}
END_TEST

/* Not sure of a name libc has not: dlsym says (real.c). */
START_TEST(next_leaves_an_absent_name_to_dlsym)
{
	bool sure = true;

	ck_assert_ptr_null(real_next("cloexec_no_such_fn", "", &sure));
	ck_assert(!sure);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("real");
	TCase *tc = tcase_create("real");

	tcase_add_test(tc, resolves_to_libc);
	tcase_add_test(tc, a_fork_looks_up_only_what_children_call);
	tcase_add_test(tc, inside_dlsym_the_raw_twin_answers);
	tcase_add_test(tc, missing_symbol_gets_the_raw_twin_for_good);
	tcase_add_loop_test(tc, next_finds_what_dlsym_finds, 0,
			    sizeof(next_names) / sizeof(next_names[0]));
	tcase_add_test(tc, next_finds_a_version_as_dlvsym);
	tcase_add_test(tc, next_leaves_an_absent_name_to_dlsym);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
