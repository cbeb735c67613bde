/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program whose only work is an exec: what it runs before the kernel's
 * execve is the cost of exec itself, start-up included (callgrind with
 * --dump-before=execve, in bench/run.sh).
 */
#include <unistd.h>

int main(void)
{
	execl("/bin/true", "true", (char *)NULL);
	return 127;
}
