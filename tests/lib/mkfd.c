/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mkfd: create fds by name and say what they got, for the shell tests of
 * the policy and the command.
 *
 *	mkfd [-e] [close:N]... CALL...
 *
 * close:N closes fd N first (to see the std-fd rule); dup2:N is dup2 of
 * a /dev/null onto N (dup2 alone: of fd 2 onto 50; sysdup2: the same onto
 * 51 by syscall(SYS_dup2)), dup2:self of one onto itself, which changes
 * nothing and returns it.  For each CALL, one line per fd it made:
 * "CALL FD cloexec=0|1 nonblock=0|1".  Exit status 0, or 1 if a call
 * failed (with the error on stderr).  With -e, a call that succeeds and
 * changes errno says so: "CALL changed errno to N".
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* errno right after the last call, before anything else could set it. */
static int call_errno;

static void show(const char *call, int fd)
{
	printf("%s %d cloexec=%d nonblock=%d\n", call, fd,
	       !!(fcntl(fd, F_GETFD) & FD_CLOEXEC),
	       !!(fcntl(fd, F_GETFL) & O_NONBLOCK));
}

/* Move a helper fd out of the way of the numbers under test. */
static int high(int fd)
{
	int moved = fcntl(fd, F_DUPFD_CLOEXEC, 100);

	close(fd);
	return moved;
}

/* A connection waiting on a loopback listener; returns the listener. */
static int pending_connection(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int l = high(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
	int c = high(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(l, 1) || getsockname(l, (struct sockaddr *)&a, &len) ||
	    connect(c, (struct sockaddr *)&a, sizeof(a))) {
		perror("mkfd: loopback connection");
		exit(2);
	}
	return l;
}

/*
 * An fd received in an SCM_RIGHTS message (a copy of /dev/null), by
 * recvmsg, or by recvmmsg where many.
 */
static int received_fd(bool many)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	char byte = 'x';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control.buf,
			      .msg_controllen = sizeof(control.buf) };
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
	struct mmsghdr vec;
	bool got;
	int sv[2], null = open("/dev/null", O_RDONLY | O_CLOEXEC), fd = -1;

	if (null < 0 ||
	    socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0) {
		perror("mkfd: socketpair");
		exit(2);
	}
	sv[0] = high(sv[0]);
	sv[1] = high(sv[1]);
	memset(control.buf, 0, sizeof(control.buf));
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &null, sizeof(int));
	if (sendmsg(sv[0], &msg, 0) != 1) {
		perror("mkfd: sendmsg");
		exit(2);
	}
	close(null);
	msg.msg_controllen = sizeof(control.buf);
	if (many) {
		vec.msg_hdr = msg;
		got = recvmmsg(sv[1], &vec, 1, 0, NULL) == 1 &&
		      vec.msg_len == 1;
		msg = vec.msg_hdr;
	} else {
		got = recvmsg(sv[1], &msg, 0) == 1;
	}
	if (got && (cmsg = CMSG_FIRSTHDR(&msg)) &&
	    cmsg->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	close(sv[0]);
	close(sv[1]);
	return fd;
}

static int make(const char *call)
{
	int fd = -1, sv[2];

	if (!strcmp(call, "socket")) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
	} else if (!strcmp(call, "socketpair")) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
			show(call, sv[0]);
			fd = sv[1];
		}
	} else if (!strcmp(call, "accept")) {
		fd = accept(pending_connection(), NULL, NULL);
	} else if (!strcmp(call, "accept4")) {
		fd = accept4(pending_connection(), NULL, NULL, 0);
	} else if (!strcmp(call, "open")) {
		fd = open("/dev/null", O_RDONLY);
	} else if (!strcmp(call, "openat")) {
		fd = openat(AT_FDCWD, "/dev/null", O_RDONLY);
	} else if (!strcmp(call, "fopen")) {
		FILE *f = fopen("/dev/null", "r");

		fd = f ? fileno(f) : -1;
	} else if (!strcmp(call, "recvmsg")) {
		fd = received_fd(false);
	} else if (!strcmp(call, "recvmmsg")) {
		fd = received_fd(true);
	} else if (!strcmp(call, "tmpfile")) {
		FILE *f = tmpfile();

		fd = f ? fileno(f) : -1;
	} else if (!strcmp(call, "pipe")) {
		if (pipe(sv) == 0) {
			show(call, sv[0]);
			fd = sv[1];
		}
	} else if (!strcmp(call, "dup")) {
		fd = dup(2);
	} else if (!strcmp(call, "dup2")) {
		fd = dup2(2, 50);
	} else if (!strcmp(call, "dup2:self")) {
		int null = open("/dev/null", O_WRONLY);

		fd = null < 0 ? -1 : dup2(null, null);
	} else if (!strcmp(call, "sysdup2")) {
		/* The system call, through the library's syscall(). */
#ifdef SYS_dup2
		fd = (int)syscall(SYS_dup2, 2, 51);
#else
		fd = dup2(2, 51); /* none on this architecture (arm64) */
#endif
	} else if (!strncmp(call, "dup2:", 5)) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		fd = null < 0 ? -1 : dup2(null, atoi(call + 5));
		if (null >= 0 && null != fd)
			close(null);
	} else if (!strcmp(call, "epoll_create")) {
		fd = epoll_create(1);
	} else if (!strcmp(call, "epoll_create1")) {
		/* Flagged: what a 2008 kernel refuses (ENOSYS). */
		fd = epoll_create1(EPOLL_CLOEXEC);
	} else {
		fprintf(stderr, "mkfd: unknown call %s\n", call);
		exit(2);
	}
	call_errno = errno;
	if (fd < 0) {
		perror(call);
		return 1;
	}
	show(call, fd);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, failed = 0, err;
	bool check_errno = argc > 1 && !strcmp(argv[1], "-e");

	for (i += check_errno; i < argc; i++) {
		if (!strncmp(argv[i], "close:", 6)) {
			close(atoi(argv[i] + 6));
			continue;
		}
		errno = 4242;
		err = make(argv[i]);
		if (check_errno && !err && call_errno != 4242)
			printf("%s changed errno to %d\n", argv[i], call_errno);
		failed |= err;
	}
	return failed;
}
