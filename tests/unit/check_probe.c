/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/probe.h"
#include "oldkernel.h"
#include "testlib.h"

static int count_open_fds(void)
{
	int fd, n = 0;

	for (fd = 0; fd < 256; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

START_TEST(this_kernel_has_everything)
{
	int before = count_open_fds();
	enum cap c;

	errno = 1234;
	ck_assert(cap_native(CAP_BUILTIN));
	ck_assert(!cap_native(CAP_NEVER));
	for (c = CAP_NEVER + 1; c < CAP_COUNT; c++) {
		ck_assert_int_eq(atomic_load(&cap_cache[c]), CAP_UNKNOWN);
		ck_assert_int_eq(cap_probe(c), CAP_NATIVE);
		ck_assert_int_eq(atomic_load(&cap_cache[c]), CAP_NATIVE);
		ck_assert(cap_native(c));
	}
	ck_assert_int_eq(errno, 1234);
	ck_assert_int_eq(count_open_fds(), before);
	ck_assert(!cap_fallback_seen());
}
END_TEST

START_TEST(old_kernel_is_recognised)
{
	int before;

	if (!oldkernel_supported() || tl_valgrind())
		return;
	ck_assert_int_eq(oldkernel_install(), 0);
	before = count_open_fds();
	errno = 99;
	ck_assert_int_eq(cap_probe(CAP_SOCK_FLAGS), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_ACCEPT4),
			 OLDKERNEL_ACCEPT4_ERRNO == ENOSYS ? CAP_ABSENT
							   : CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_O_CLOEXEC), CAP_IGNORES);
	ck_assert_int_eq(cap_probe(CAP_F_DUPFD_CLOEXEC), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_PIPE2), CAP_ABSENT);
	ck_assert_int_eq(cap_probe(CAP_DUP3), CAP_ABSENT);
	ck_assert_int_eq(cap_probe(CAP_EPOLL_CREATE1), CAP_ABSENT);
	ck_assert_int_eq(cap_probe(CAP_INOTIFY_INIT1), CAP_ABSENT);
	ck_assert_int_eq(cap_probe(CAP_EVENTFD_FLAGS), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_SIGNALFD_FLAGS), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_TIMERFD_FLAGS), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_CMSG_CLOEXEC), CAP_IGNORES);
	ck_assert(cap_native(CAP_BUILTIN));
	ck_assert(!cap_native(CAP_SOCK_FLAGS));
	ck_assert(cap_fallback_seen());
	ck_assert_int_eq(errno, 99);
	ck_assert_int_eq(count_open_fds(), before);
}
END_TEST

/* Out of fds, the probe cannot tell: it asks again next time. */
START_TEST(inconclusive_answers_are_not_cached)
{
	struct rlimit rl = { 8, 8 };
	int fd;

	if (tl_valgrind())
		return;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		;
	ck_assert_int_eq(cap_probe(CAP_SOCK_FLAGS), CAP_UNKNOWN);
	ck_assert_int_eq(atomic_load(&cap_cache[CAP_SOCK_FLAGS]), CAP_UNKNOWN);
	close(7);
	ck_assert_int_eq(cap_probe(CAP_SOCK_FLAGS), CAP_NATIVE);
}
END_TEST

/* The two capabilities that are no probe of the kernel, asked directly. */
START_TEST(fixed_answers)
{
	ck_assert_int_eq(cap_probe(CAP_BUILTIN), CAP_NATIVE);
	ck_assert_int_eq(cap_probe(CAP_NEVER), CAP_ABSENT);
	ck_assert(cap_fallback_seen());
}
END_TEST

int main(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("probe");

	tcase_add_test(tc, this_kernel_has_everything);
	tcase_add_test(tc, old_kernel_is_recognised);
	tcase_add_test(tc, inconclusive_answers_are_not_cached);
	tcase_add_test(tc, fixed_answers);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
