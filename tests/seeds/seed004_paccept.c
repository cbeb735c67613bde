/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Seed 004 (flag parameters: paccept), ported to the final ABI: paccept()
 * never reached Linux; accept4() did, without the signal mask.  So the
 * flag cases use accept4(), and the signal-mask case uses the library's
 * cloexec_paccept(), which exists only where the library is loaded.
 * The listening port is chosen by the kernel rather than fixed at 57392,
 * so parallel test runs do not collide, and the signal comes after 0.5 s
 * rather than 2 s.
 */
#include "config.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "testlib.h"

typedef int (*paccept_fn)(int, struct sockaddr *, socklen_t *,
			  const sigset_t *, int);

static pthread_barrier_t b;
static in_port_t port;

static void *tf(void *arg)
{
	struct sockaddr_in sin;
	int s;

	pthread_barrier_wait(&b);
	s = socket(AF_INET, SOCK_STREAM, 0);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = port;
	connect(s, (const struct sockaddr *)&sin, sizeof(sin));
	close(s);
	pthread_barrier_wait(&b);
	s = socket(AF_INET, SOCK_STREAM, 0);
	connect(s, (const struct sockaddr *)&sin, sizeof(sin));
	close(s);
	pthread_barrier_wait(&b);
	pthread_barrier_wait(&b);
	usleep(500 * 1000);
	pthread_kill(*(pthread_t *)arg, SIGUSR1);
	return NULL;
}

static void handler(int s)
{
	(void)s;
}

static int seed(void)
{
	paccept_fn paccept = (paccept_fn)dlsym(RTLD_DEFAULT, "cloexec_paccept");
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	struct sigaction sa;
	pthread_t self = pthread_self(), th;
	sigset_t ss;
	int s, s2, coe, reuse = 1;

	pthread_barrier_init(&b, NULL, 2);
	if (pthread_create(&th, NULL, tf, &self) != 0) {
		puts("pthread_create failed");
		return 1;
	}
	s = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof(reuse));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = 0;
	bind(s, (struct sockaddr *)&sin, sizeof(sin));
	getsockname(s, (struct sockaddr *)&sin, &len);
	port = sin.sin_port;
	listen(s, SOMAXCONN);
	pthread_barrier_wait(&b);
	s2 = accept4(s, NULL, 0, 0);
	if (s2 < 0) {
		puts("accept4(0) failed");
		return 1;
	}
	coe = fcntl(s2, F_GETFD);
	if (coe & FD_CLOEXEC) {
		puts("accept4(0) set close-on-exec-flag");
		return 1;
	}
	close(s2);
	pthread_barrier_wait(&b);
	s2 = accept4(s, NULL, 0, SOCK_CLOEXEC);
	if (s2 < 0) {
		puts("accept4(SOCK_CLOEXEC) failed");
		return 1;
	}
	coe = fcntl(s2, F_GETFD);
	if ((coe & FD_CLOEXEC) == 0) {
		puts("accept4(SOCK_CLOEXEC) does not set close-on-exec flag");
		return 1;
	}
	close(s2);
	pthread_barrier_wait(&b);
	sa.sa_handler = handler;
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pthread_sigmask(SIG_SETMASK, NULL, &ss);
	sigaddset(&ss, SIGUSR1);
	pthread_sigmask(SIG_SETMASK, &ss, NULL);
	sigdelset(&ss, SIGUSR1);
	alarm(4);
	pthread_barrier_wait(&b);
	if (!paccept) {
		puts("cloexec_paccept needs libcloexec: signal mask case skipped");
		pthread_join(th, NULL);
		puts("OK");
		return 0;
	}
	errno = 0;
	s2 = paccept(s, NULL, 0, &ss, 0);
	if (s2 != -1 || errno != EINTR) {
		puts("paccept did not fail with EINTR");
		return 1;
	}
	close(s);
	pthread_join(th, NULL);
	puts("OK");
	return 0;
}

int main(int argc, char **argv)
{
	setenv("TL_CONFIGS", "libc,preload,preload-oldkernel", 0);
	return tl_main_plain(argc, argv, seed);
}
