/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the integration tests share.
 *
 * Each integration test is one Check suite run in four configurations, by
 * the same binary re-executing itself:
 *
 *   libc               no library, this kernel: what libc does
 *   preload            library preloaded, this kernel: the native path
 *   preload-oldkernel  library preloaded, emulated 2008 kernel: fallback
 *   libc-oldkernel     no library, emulated kernel: proves the emulation
 *
 * A test asks tl_preloaded() and tl_oldkernel() for what to expect.
 */
#ifndef TESTS_TESTLIB_H
#define TESTS_TESTLIB_H

#include <check.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <sys/socket.h>

#include "fdmsg.h"

/*
 * Under valgrind (make check-valgrind sets TL_VALGRIND), which has no
 * seccomp and keeps fds of its own below RLIMIT_NOFILE: tests of those
 * skip themselves.
 */
bool tl_valgrind(void);

bool tl_preloaded(void);
bool tl_oldkernel(void);
const char *tl_config_name(void);

/*
 * Run the suite's tests in every configuration, each test in a process of
 * its own (the same binary re-executed, told what to run by the
 * environment).  Returns the exit status for main().  TL_CONFIGS and
 * TL_TESTS (comma-separated names) restrict what runs.
 */
int tl_main(int argc, char **argv, Suite *(*make_suite)(void));

/*
 * Add a test to the suite: tl_add(suite, test_name); a loop test runs
 * _i from 0 to n - 1 in one process.
 */
void tl_add_test(Suite *s, const TTest *test);
void tl_add_loop(Suite *s, const TTest *test, int n);
/* The same, with env ("NAME=value") set in the test's process. */
void tl_add_env(Suite *s, const TTest *test, int n, const char *env);
#define tl_add(s, test) tl_add_test((s), (test))

/*
 * For plain programs (the seed tests): run fn() in every configuration.
 * They test the kernel's semantics, where a plain call does not set the
 * flag, so the preloaded configurations run with CLOEXEC_POLICY=off: the
 * library only decodes and emulates what the program asks for.
 */
int tl_main_plain(int argc, char **argv, int (*fn)(void));

/* Run one suite in this process's configuration; the exit status. */
int tl_run(Suite *s);

/* Set LD_PRELOAD for programs started from now on: the library, or none. */
void tl_set_preload(bool on);

/*
 * The same, for the library the variable names: CLOEXEC_LIB, or the test
 * build, CLOEXEC_TEST_LIB (with the sanitizer runtime first, if any).
 */
void tl_set_preload_of(const char *lib_var);

/* The fd's close-on-exec and non-blocking flags. */
bool tl_cloexec(int fd);
bool tl_nonblock(int fd);
/*
 * How many fds in [from, to) are open: a leak above a closed fd leaves the
 * lowest free number where it was, and only a count sees it.
 */
int tl_open_fds(int from, int to);

/*
 * Would a program exec'd now see this open file?  Runs fdreport and looks
 * for the same device and inode, at any fd number.  -1 on error.
 */
int tl_child_sees(int fd);

/* The fds (>= 3) an exec'd child gets, with /proc link targets. */
struct tl_inherited {
	int fd;
	char target[64];
};
int tl_child_fds(struct tl_inherited *out, int max);

/* A TCP listener on 127.0.0.1, any port; *addr gets its address. */
int tl_listener(struct sockaddr_in *addr);
int tl_connect(const struct sockaddr_in *addr);

/* Send fd over the socket s: one byte, with fd in an SCM_RIGHTS message. */
void tl_send_fd(int s, int fd);
/* A socket with a copy of /dev/null waiting in such a message. */
int tl_sent_fd_socket(void);
/* The fd an SCM_RIGHTS message carried, or -1. */
int tl_received_fd(struct msghdr *msg);
/* recvmsg() of one such message: the fd, or -1 with errno. */
int tl_recv_fd(int s, int flags);

/* libc's own definition of a wrapped name, bypassing any preload. */
void *tl_libc(const char *name);

/* Close every fd from lowfd up: leftovers of whoever started the test. */
void tl_close_from(int lowfd);

/*
 * A race test's main.  Each phase runs in this program again (argv), with
 * RACE_PHASE set to "lock on" or "lock off" and the test-only switch that
 * turns the fork lock off set both times.  The installed library ignores
 * it: phase(on_seconds, false) must find no leak (exit 0).  The test
 * build of the library (CLOEXEC_TEST_LIB) honours it: phase(off_seconds,
 * true), looking until its first leak, must find one (exit 1), or the
 * test is blind.  leaked and blind are the FAIL lines.
 */
int tl_race_main(char **argv, int (*phase)(double seconds, bool until_leak),
		 double on_seconds, double off_seconds, const char *leaked,
		 const char *blind);

#define tl_errno_is(call, err)                                                \
	do {                                                                   \
		errno = 0;                                                     \
		ck_assert_int_eq((call), -1);                                  \
		ck_assert_msg(errno == (err), "errno %d (%s), expected %s",    \
			      errno, strerror(errno), #err);                   \
	} while (0)

#endif /* TESTS_TESTLIB_H */
