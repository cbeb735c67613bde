#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What recvmsg's +Ir row would be for the least an interposer must do:
# a preload of its own (not the library) whose recvmsg makes the flagged
# call, hides the flag again and notes each fd received in a table, and
# whose close forgets the number (libc's functions found by dlsym at
# start, no policy, no lock, no fallback).  Instructions per call as
# `make bench` counts them (callgrind on bench/fdbench's measured batch,
# 3200 calls less 640, over 2560), for libc, that floor and the library.
#
#   sh bench/recvfloor.sh     (from the build directory, after make bench)
set -eu
b=${top_builddir:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/floor.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/socket.h>
#include <unistd.h>
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static int (*real_close)(int);
static unsigned char marks[1024];
__attribute__((constructor)) static void init(void)
{
	real_recvmsg = (ssize_t(*)(int, struct msghdr *, int))dlsym(RTLD_NEXT, "recvmsg");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
}
ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	ssize_t r = real_recvmsg(fd, m, flags | MSG_CMSG_CLOEXEC);
	struct cmsghdr *c;
	int *p;

	if (r < 0)
		return r;
	m->msg_flags &= ~MSG_CMSG_CLOEXEC;
	for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			for (p = (int *)CMSG_DATA(c);
			     (char *)(p + 1) <= (char *)c + c->cmsg_len; p++)
				if ((unsigned)*p < sizeof(marks))
					marks[*p] = 1;
	return r;
}
int close(int fd)
{
	if ((unsigned)fd < sizeof(marks))
		marks[fd] = 0;
	return real_close(fd);
}
C
${CC:-cc} -O2 -fPIC -shared -o "$tmp/libfloor.so" "$tmp/floor.c" -ldl
per_call() { # PRELOAD: Ir per recvmsg and its close
	for n in 640 3200; do
		env LD_PRELOAD="$1" valgrind -q --tool=callgrind \
			--callgrind-out-file="$tmp/cg.$n" \
			--toggle-collect=measured_batch \
			"$b/bench/fdbench" --iters $n ops recvmsg >/dev/null 2>&1
	done
	echo $((($(awk '/^summary:/ { print $2 }' "$tmp/cg.3200") -
		$(awk '/^summary:/ { print $2 }' "$tmp/cg.640")) / 2560))
}
libc=$(per_call "")
floor=$(per_call "$tmp/libfloor.so")
lib=$(per_call "$b/src/.libs/libcloexec.so.0")
echo "recvmsg and its close, Ir per call: libc $libc, the floor $floor" \
	"(+$((floor - libc))), the library $lib (+$((lib - libc)))"
