/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program built with _TIME_BITS=64 and _FILE_OFFSET_BITS=64, as 32-bit
 * distributions now build everything: there glibc binds fcntl, ioctl,
 * recvmsg and recvmmsg to __fcntl_time64, __ioctl_time64, __recvmsg64 and
 * __recvmmsg64, and open to open64.  The library must answer to those
 * names as to the others.  (On 64-bit systems the macros change nothing,
 * and this is the plain names once more.)
 */
#define _TIME_BITS 64
#define _FILE_OFFSET_BITS 64
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/sys.h"
#include "testlib.h"

#if defined(__i386__) && !defined(__USE_TIME_BITS64)
#error "this C library has no 64-bit time for 32-bit programs"
#endif

START_TEST(fcntl_dupfd)
{
	int fd = fcntl(0, F_DUPFD, 10);

	ck_assert_int_ge(fd, 10);
	ck_assert(tl_cloexec(fd) == tl_preloaded());
	ck_assert_int_eq(tl_child_sees(fd), !tl_preloaded());
}
END_TEST

START_TEST(open_largefile)
{
	int fd = open("/dev/null", O_RDONLY);

	ck_assert_int_ge(fd, 3);
	ck_assert(tl_cloexec(fd) == tl_preloaded());
	ck_assert_int_eq(tl_child_sees(fd), !tl_preloaded());
}
END_TEST

static int received_fd(struct msghdr *msg)
{
	int fd = tl_received_fd(msg);

	ck_assert_int_ge(fd, 0);
	return fd;
}

/* _i: 0 recvmsg, 1 recvmmsg */
START_TEST(received_fds)
{
	struct tl_fd_msg fm;
	struct mmsghdr m = { 0 };
	int s = tl_sent_fd_socket(), fd;

	tl_fd_msg_init(&fm);
	m.msg_hdr = fm.msg;
	if (_i == 0)
		ck_assert_int_eq(recvmsg(s, &m.msg_hdr, 0), 1);
	else
		ck_assert_int_eq(recvmmsg(s, &m, 1, 0, NULL), 1);
	fd = received_fd(&m.msg_hdr);
	ck_assert(tl_cloexec(fd) == tl_preloaded());
	ck_assert_int_eq(tl_child_sees(fd), !tl_preloaded());
}
END_TEST

/*
 * The sweep marks what no wrapper saw, and spares what the program made
 * inheritable itself: it knows that only if the F_SETFD and the FIONCLEX
 * went through the library, under whatever name the program called.
 */
START_TEST(kept_through_fcntl_and_ioctl)
{
	int unseen, by_fcntl, by_ioctl;

	if (!tl_preloaded())
		return;
	unseen = (int)sys_openat(AT_FDCWD, "/dev/null", O_RDONLY, 0);
	ck_assert_int_ge(unseen, 3);
	by_fcntl = open("/dev/zero", O_RDONLY);
	ck_assert_int_eq(fcntl(by_fcntl, F_SETFD, 0), 0);
	by_ioctl = open("/dev/full", O_RDONLY);
	ck_assert_int_eq(ioctl(by_ioctl, FIONCLEX), 0);
	ck_assert_int_eq(tl_child_sees(unseen), 0);
	ck_assert_int_eq(tl_child_sees(by_fcntl), 1);
	ck_assert_int_eq(tl_child_sees(by_ioctl), 1);
}
END_TEST

static Suite *time64_suite(void)
{
	Suite *s = suite_create("time64");

	tl_add(s, fcntl_dupfd);
	tl_add(s, open_largefile);
	tl_add_loop(s, received_fds, 2);
	tl_add_env(s, kept_through_fcntl_and_ioctl, 1,
		   "CLOEXEC_POLICY=sweep=on");
	return s;
}

int main(int argc, char **argv)
{
	return tl_main(argc, argv, time64_suite);
}
