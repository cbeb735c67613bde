#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# What recvmsg's +Ir row would be for the least an interposer must do:
# a preload of its own (not the library) whose recvmsg makes the flagged
# call, hides the flag again and notes each fd received in a table, and
# whose close forgets the number: libc's functions found by dlsym at
# start, no policy, no lock, no fallback; the message of one fd noted
# first, as the library does, any other walked with glibc's CMSG_NXTHDR.
# The table is a global, so that the compiler keeps its stores (a static
# that nothing reads loses them, and with them the whole walk).  Then
# the same with the duties the library has and that floor has not, each
# a test or a register a call: libc's function found at its first call
# (a pointer tested), the policy (a word tested), the caller's own
# MSG_CMSG_CLOEXEC (its fds are the program's: the slow path), and a
# socket that refuses the flag asked again (its fd and flags kept
# across the call).  Instructions per call as `make bench` counts them
# (callgrind on bench/fdbench's measured batch, 3200 calls less 640,
# over 2560), for libc, those two floors and the library.
#
#   sh bench/recvfloor.sh [--raw]   (from the build directory, after make bench)
#
# With --raw, for make bench's raw.txt: "floor 0 CONFIG recvmsg +IR" for
# the floor and the floor with duties, IR what each adds to libc's.
set -eu
raw=${1-}
b=${top_builddir:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/floor.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>
#define HIDDEN __attribute__((visibility("hidden")))
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static int (*real_close)(int);
unsigned char marks[1024] HIDDEN;
#ifdef DUTIES
unsigned policy_forces HIDDEN = 1;
#endif
__attribute__((constructor)) static void init(void)
{
	real_recvmsg = (ssize_t(*)(int, struct msghdr *, int))dlsym(RTLD_NEXT, "recvmsg");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
}
static __attribute__((noinline)) ssize_t walk(struct msghdr *m, ssize_t r)
{
	struct cmsghdr *c;
	int *p;

	for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			for (p = (int *)CMSG_DATA(c);
			     (char *)(p + 1) <= (char *)c + c->cmsg_len; p++)
				if ((unsigned)*p < sizeof(marks))
					marks[*p] = 1;
	return r;
}
ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	struct cmsghdr *c;
	ssize_t r;

#ifdef DUTIES
	if (!real_recvmsg || !policy_forces || (flags & MSG_CMSG_CLOEXEC))
		return walk(m, real_recvmsg(fd, m, flags));
#endif
	r = real_recvmsg(fd, m, flags | MSG_CMSG_CLOEXEC);
	if (r < 0) {
#ifdef DUTIES
		if (errno == EINVAL)
			return real_recvmsg(fd, m, flags);
#endif
		return r;
	}
	m->msg_flags &= ~MSG_CMSG_CLOEXEC;
	c = m->msg_control;
	if (m->msg_controllen - CMSG_LEN(sizeof(int)) >
	    CMSG_SPACE(sizeof(int)) - CMSG_LEN(sizeof(int)))
		return m->msg_controllen < sizeof(*c) ? r : walk(m, r);
	if (!c || c->cmsg_len != CMSG_LEN(sizeof(int)) ||
	    c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    (unsigned)*(int *)CMSG_DATA(c) >= sizeof(marks))
		return walk(m, r);
	marks[*(int *)CMSG_DATA(c)] = 1;
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
${CC:-cc} -O2 -fPIC -shared -DDUTIES -o "$tmp/libduties.so" "$tmp/floor.c" -ldl
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
duties=$(per_call "$tmp/libduties.so")
if [ "$raw" = --raw ]; then
	echo "floor 0 bare recvmsg $((floor - libc))"
	echo "floor 0 duties recvmsg $((duties - libc))"
	exit 0
fi
lib=$(per_call "$b/src/.libs/libcloexec.so.0")
echo "recvmsg and its close, Ir per call: libc $libc, the floor $floor" \
	"(+$((floor - libc))), with the library's duties $duties" \
	"(+$((duties - libc))), the library $lib (+$((lib - libc)))"
