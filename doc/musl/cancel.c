/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cancel: does a thread cancelled in a blocking call run a cleanup
 * attribute's function, and a pthread_cleanup_push handler?  For
 * doc/musl.md:
 *
 *	musl-gcc -o cancel doc/musl/cancel.c && ./cancel
 *	gcc -fexceptions -o cancel doc/musl/cancel.c && ./cancel
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int attribute_ran, pushed_ran;

static void attribute_cleanup(int *unused)
{
	attribute_ran = 1;
}

static void pushed_cleanup(void *unused)
{
	pushed_ran = 1;
}

static void *blocked(void *arg)
{
	int fds[2], x __attribute__((cleanup(attribute_cleanup))) = 0;
	char c;

	if (pipe(fds))
		return arg;
	pthread_cleanup_push(pushed_cleanup, NULL);
	if (read(fds[0], &c, 1) < 0) /* blocks: a cancellation point */
		x = 1;
	pthread_cleanup_pop(0);
	return arg;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, blocked, NULL);
	usleep(100000);
	pthread_cancel(t);
	pthread_join(t, NULL);
	printf("cleanup attribute ran: %d, pthread_cleanup_push ran: %d\n",
	       attribute_ran, pushed_ran);
	return 0;
}
