/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulated old kernel (oldkernel.h) as a preloaded object, for tests
 * whose programs have no test harness of their own: the real programs of
 * a musl build (tests/cmd/legacy.test).
 *
 *	TL_OLDKERNEL=1 LD_PRELOAD="liboldkernel.so libcloexec.so" PROGRAM
 *
 * The first process installs the filter and its supervisor thread before
 * main(), and takes TL_OLDKERNEL out of its environment: its children
 * inherit the filter, whose supervisor, still in that first process, lets
 * their calls through, as with testlib's exec'd children.  A child that
 * installed one of its own and then exec'd would leave a filter without a
 * supervisor behind, and its open(O_CLOEXEC) would fail with ENOSYS.  So
 * the process that installs it must outlive its children, and not exec.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "oldkernel.h"

__attribute__((constructor)) static void oldkernel_preload(void)
{
	if (!getenv("TL_OLDKERNEL"))
		return;
	unsetenv("TL_OLDKERNEL");
	oldkernel_keep_fd_from(1024);
	if (oldkernel_install()) {
		fputs("oldkernel: cannot emulate the old kernel here\n", stderr);
		exit(77);
	}
}
