/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * firstcall [STEP]: the first accept calls of a fresh process, made at
 * once by nine threads, the eight siblings each a little later than the
 * one before (STEP spins).  The first general call of the class opens
 * its fast path before it looks accept4 up; a sibling in between must
 * not take that path with the function still unknown (a NULL call).
 * All find nothing to accept (a listener that does not block).  Exit 0
 * when every call returned EAGAIN.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define SIBLINGS 8

static atomic_int go;
static int listener;
static unsigned long step;

static int accept_once(void)
{
	return accept(listener, NULL, NULL) < 0 && errno == EAGAIN ? 0 : 1;
}

static void *sibling(void *arg)
{
	volatile unsigned long i, lag = step * (unsigned long)arg;

	while (!atomic_load(&go))
		;
	for (i = 0; i < lag; i++)
		;
	return (void *)(long)accept_once();
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	pthread_t t[SIBLINGS];
	int bad = 0;
	void *ret;
	long i;

	step = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (listener < 0 || bind(listener, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(listener, 1)) {
		perror("firstcall: listener");
		return 2;
	}
	for (i = 0; i < SIBLINGS; i++)
		if (pthread_create(&t[i], NULL, sibling, (void *)(i + 1))) {
			perror("firstcall: thread");
			return 2;
		}
	atomic_store(&go, 1);
	bad |= accept_once();
	for (i = 0; i < SIBLINGS; i++)
		bad |= pthread_join(t[i], &ret) || ret;
	return bad;
}
