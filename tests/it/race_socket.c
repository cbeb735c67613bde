/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The race the fork lock exists for, on the emulated 2008 kernel where
 * every socket is created plain and marked afterwards: creator threads
 * make sockets as fast as they can while the main thread forks and execs
 * fdreport, which lists every fd it inherited.  Any socket in that list
 * leaked through the window between creation and fcntl.
 *
 * Run twice: with the lock, no child may see a socket in a bounded run;
 * with the lock switched off by the test-only switch, children must see
 * some, which shows the test can fail.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/policy.h"
#include "oldkernel.h"
#include "testlib.h"

#define CREATORS 3

static atomic_int stop;

static void *create(void *arg)
{
	int pair = (int)(long)arg % 2, sv[2], s;

	while (!atomic_load(&stop)) {
		if (pair) {
			if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) {
				close(sv[0]);
				close(sv[1]);
			}
		} else if ((s = socket(AF_UNIX, SOCK_DGRAM, 0)) >= 0) {
			close(s);
		}
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * One phase, in its own process: fork and exec for up to `seconds`, or
 * until the first leak when looking for one.  Prints the counts.
 */
static int phase(double seconds, bool until_leak)
{
	struct tl_inherited fds[64];
	pthread_t th[CREATORS];
	int forks = 0, leaks = 0, i, n;
	double end;

	if (oldkernel_install())
		return 99;
	for (i = 0; i < CREATORS; i++)
		pthread_create(&th[i], NULL, create, (void *)(long)i);
	end = now() + seconds;
	while (now() < end && !(until_leak && leaks)) {
		n = tl_child_fds(fds, 64);
		if (n < 0) {
			fputs("race: fdreport failed\n", stderr);
			return 99;
		}
		forks++;
		for (i = 0; i < n; i++)
			leaks += !strncmp(fds[i].target, "socket:", 7);
	}
	atomic_store(&stop, 1);
	for (i = 0; i < CREATORS; i++)
		pthread_join(th[i], NULL);
	printf("race: %s: %d forks, %d sockets leaked\n", getenv("RACE_PHASE"),
	       forks, leaks);
	return leaks ? 1 : 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	tl_close_from(3);
	return tl_race_main(
		argv, phase, 3.0, 20.0, "sockets leaked with the lock on",
		"no leak found with the lock off: the test is blind");
}
