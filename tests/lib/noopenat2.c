/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * noopenat2 PROGRAM [ARG]...: PROGRAM on a kernel without openat2 (before
 * 5.6), as far as it can tell: a seccomp filter answers openat2 with
 * ENOSYS, for it and its children (preload.test: the fallback of
 * `cloexec enable --root`).  Exits 77 where no filter can be installed.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#if HAVE_KERNEL_TEST_HEADERS && (defined(__x86_64__) || defined(__i386__))
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#if defined(__x86_64__)
#define NOOPENAT2_ARCH AUDIT_ARCH_X86_64
#else
#define NOOPENAT2_ARCH AUDIT_ARCH_I386
#endif

static int install(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NOOPENAT2_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	       prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}
#else
static int install(void)
{
	errno = ENOSYS;
	return -1;
}
#endif

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: noopenat2 PROGRAM [ARG]...\n", stderr);
		return 2;
	}
	if (install()) {
		perror("noopenat2: cannot install the filter");
		return 77;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
