/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Seed 009 (flag parameters: NONBLOCK in socket and socketpair), ported to
 * the final ABI: SOCK_NONBLOCK from <sys/socket.h> (O_NONBLOCK, not the
 * draft's 0x20000000), accept4() for paccept(), and a kernel-chosen port.
 */
#include "config.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "seedcheck.h"
#include "testlib.h"

static pthread_barrier_t b;
static in_port_t port;

static void *tf(void *arg)
{
	struct sockaddr_in sin;
	int s;

	(void)arg;
	pthread_barrier_wait(&b);
	s = socket(AF_INET, SOCK_STREAM, 0);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = port;
	connect(s, (const struct sockaddr *)&sin, sizeof(sin));
	close(s);
	pthread_barrier_wait(&b);
	pthread_barrier_wait(&b);
	s = socket(AF_INET, SOCK_STREAM, 0);
	sin.sin_port = port;
	connect(s, (const struct sockaddr *)&sin, sizeof(sin));
	close(s);
	pthread_barrier_wait(&b);
	return NULL;
}

/* Bind to a kernel-chosen loopback port and publish it for tf(). */
static int listen_any(void)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int reuse = 1;
	int s = socket(AF_INET, SOCK_STREAM, 0);

	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof(reuse));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = 0;
	bind(s, (struct sockaddr *)&sin, sizeof(sin));
	getsockname(s, (struct sockaddr *)&sin, &len);
	port = sin.sin_port;
	listen(s, SOMAXCONN);
	return s;
}

static int seed(void)
{
	int fl, s, s2;
	pthread_t th;

	if (seed_check(&seed_nonblock, "socket", "SOCK_NONBLOCK",
		       SOCK_NONBLOCK, seed_make_socket) ||
	    seed_check(&seed_nonblock, "socketpair", "SOCK_NONBLOCK",
		       SOCK_NONBLOCK, seed_make_socketpair))
		return 1;
	pthread_barrier_init(&b, NULL, 2);
	if (pthread_create(&th, NULL, tf, NULL) != 0) {
		puts("pthread_create failed");
		return 1;
	}
	s = listen_any();
	pthread_barrier_wait(&b);
	s2 = accept4(s, NULL, 0, 0);
	if (s2 < 0) {
		puts("accept4(0) failed");
		return 1;
	}
	fl = fcntl(s2, F_GETFL);
	if (fl & O_NONBLOCK) {
		puts("accept4(0) set non-blocking mode");
		return 1;
	}
	close(s2);
	close(s);
	pthread_barrier_wait(&b);
	s = listen_any();
	pthread_barrier_wait(&b);
	s2 = accept4(s, NULL, 0, SOCK_NONBLOCK);
	if (s2 < 0) {
		puts("accept4(SOCK_NONBLOCK) failed");
		return 1;
	}
	fl = fcntl(s2, F_GETFL);
	if ((fl & O_NONBLOCK) == 0) {
		puts("accept4(SOCK_NONBLOCK) does not set non-blocking mode");
		return 1;
	}
	close(s2);
	close(s);
	pthread_barrier_wait(&b);
	pthread_join(th, NULL);
	puts("OK");
	return 0;
}

int main(int argc, char **argv)
{
	setenv("TL_CONFIGS", "libc,preload,preload-oldkernel", 0);
	return tl_main_plain(argc, argv, seed);
}
