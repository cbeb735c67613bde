/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fdbench: what one fd-creating call costs, as a legacy program makes it.
 *
 * The program makes plain calls; whether libcloexec is under it is up to
 * bench/run.sh (LD_PRELOAD), and so is the kernel (--oldkernel installs
 * the test suite's emulated 2008 kernel first).  --fcntl-after makes each
 * new fd close-on-exec by hand, the way a program without the flags would.
 *
 *	fdbench [--oldkernel] [--fcntl-after] [--iters N] ops [OP...]
 *	fdbench [--oldkernel] spawn STARTME
 *	fdbench bigfork MIB
 *	fdbench memory NFDS
 *	fdbench start LIB EMPTYLIB ROUNDS PROG [ARG...]
 *
 * Results are "name value" lines on stdout, for bench/run.sh to collect.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fdmsg.h"
#include "oldkernel.h"

extern char **environ;

/* One measured batch: long enough to hide the clock, short enough for the
 * socket buffers that the accept and recvmsg rows fill beforehand. */
#define BATCH 64

static bool fcntl_after;
static char file_path[] = "/tmp/fdbench.XXXXXX";
static int spare_fd = -1;
static int listen_fd = -1;
static int msg_pair[2] = { -1, -1 };
static struct sockaddr_un listen_addr;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A new fd, made close-on-exec by hand when that is what is measured. */
static inline int made(int fd)
{
	if (fd < 0)
		die("fdbench: create");
	if (fcntl_after && fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		die("fdbench: fcntl");
	return fd;
}

static void op_socket(void)
{
	close(made(socket(AF_UNIX, SOCK_STREAM, 0)));
}

static void op_socketpair(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		die("fdbench: socketpair");
	close(made(sv[0]));
	close(made(sv[1]));
}

static void op_pipe(void)
{
	int p[2];

	if (pipe(p) < 0)
		die("fdbench: pipe");
	close(made(p[0]));
	close(made(p[1]));
}

static void op_open(void)
{
	close(made(open(file_path, O_RDONLY)));
}

static void op_fopen(void)
{
	FILE *f = fopen(file_path, "r");

	if (!f)
		die("fdbench: fopen");
	made(fileno(f));
	fclose(f);
}

static void op_dup(void)
{
	close(made(dup(spare_fd)));
}

static void op_epoll(void)
{
	close(made(epoll_create1(0)));
}

/* The clients connect before the batch: only accept and close are timed. */
static int clients[BATCH];

static void connect_clients(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		clients[i] = socket(AF_UNIX, SOCK_STREAM, 0);
		if (clients[i] < 0 ||
		    connect(clients[i], (struct sockaddr *)&listen_addr,
			    sizeof(listen_addr)) < 0)
			die("fdbench: connect");
	}
}

static void close_clients(int n)
{
	int i;

	for (i = 0; i < n; i++)
		close(clients[i]);
}

static void op_accept(void)
{
	close(made(accept(listen_fd, NULL, NULL)));
}

/* One message with one fd (the spare) per iteration, sent beforehand. */
static void send_fds(int n)
{
	struct tl_fd_msg m;
	int i;

	tl_fd_msg_init(&m);
	tl_fd_msg_put(&m, spare_fd);
	for (i = 0; i < n; i++)
		if (sendmsg(msg_pair[0], &m.msg, 0) != 1)
			die("fdbench: sendmsg");
}

static void op_recvmsg(void)
{
	struct tl_fd_msg m;
	int fd;

	tl_fd_msg_init(&m);
	if (recvmsg(msg_pair[1], &m.msg, 0) != 1 || !CMSG_FIRSTHDR(&m.msg))
		die("fdbench: recvmsg");
	memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&m.msg)), sizeof(int));
	close(made(fd));
}

struct op {
	const char *name;
	void (*run)(void);
	void (*before)(int n); /* untimed, before each batch */
	void (*after)(int n);  /* untimed, after it */
};

static const struct op ops[] = {
	{ "socket", op_socket, NULL, NULL },
	{ "socketpair", op_socketpair, NULL, NULL },
	{ "pipe", op_pipe, NULL, NULL },
	{ "open", op_open, NULL, NULL },
	{ "fopen", op_fopen, NULL, NULL },
	{ "dup", op_dup, NULL, NULL },
	{ "epoll_create1", op_epoll, NULL, NULL },
	{ "accept", op_accept, connect_clients, close_clients },
	{ "recvmsg", op_recvmsg, send_fds, NULL },
};

static void setup(void)
{
	int fd = mkstemp(file_path);

	if (fd < 0)
		die("fdbench: mkstemp");
	close(fd);
	/* Plain calls: the emulated old kernel refuses the flags. */
	spare_fd = open("/dev/null", O_RDONLY);
	listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (spare_fd < 0 || listen_fd < 0)
		die("fdbench: setup");
	/* An abstract address: nothing to clean up in the file system. */
	listen_addr.sun_family = AF_UNIX;
	snprintf(listen_addr.sun_path + 1, sizeof(listen_addr.sun_path) - 1,
		 "fdbench.%d", (int)getpid());
	if (bind(listen_fd, (struct sockaddr *)&listen_addr,
		 sizeof(listen_addr)) < 0 ||
	    listen(listen_fd, 2 * BATCH) < 0)
		die("fdbench: listen");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, msg_pair) < 0)
		die("fdbench: socketpair");
}

/*
 * The timed part: a function of its own, so that callgrind can count
 * exactly it (--toggle-collect=measured_batch).
 */
__attribute__((noinline)) void measured_batch(const struct op *op, int n);
__attribute__((noinline)) void measured_batch(const struct op *op, int n)
{
	int i;

	for (i = 0; i < n; i++)
		op->run();
}

static long long run_batches(const struct op *op, long iters)
{
	long long spent = 0;
	long done;

	for (done = 0; done < iters; done += BATCH) {
		int n = iters - done < BATCH ? (int)(iters - done) : BATCH;
		long long t0;

		if (op->before)
			op->before(n);
		t0 = now_ns();
		measured_batch(op, n);
		spent += now_ns() - t0;
		if (op->after)
			op->after(n);
	}
	return spent;
}

/* Each op for about 40 ms, after a warm-up that resolves and probes. */
static int bench_ops(long iters, char **names)
{
	size_t i;

	setup();
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		const struct op *op = &ops[i];
		long n = iters;
		char **name;
		bool wanted = !*names;

		for (name = names; *name; name++)
			wanted |= !strcmp(*name, op->name);
		if (!wanted)
			continue;
		run_batches(op, BATCH);
		if (!n) {
			long long t = run_batches(op, 16 * BATCH);

			n = (long)(40000000LL * 16 * BATCH / (t ? t : 1));
			n = n < BATCH ? BATCH : n;
		}
		printf("%s %.1f\n", op->name,
		       (double)run_batches(op, n) / (double)n);
	}
	unlink(file_path);
	return 0;
}

/*
 * Fork and spawn while the program is idle, and while two threads create
 * fds as fast as they can: the latency of each, and the creators' rate.
 */
static atomic_int creators_stop;
static atomic_long creations;

static void *create_forever(void *unused)
{
	long n = 0;

	(void)unused;
	while (!atomic_load_explicit(&creators_stop, memory_order_relaxed)) {
		op_socket();
		n++;
	}
	atomic_fetch_add(&creations, n);
	return NULL;
}

static long long fork_once(void)
{
	long long t0 = now_ns();
	pid_t pid = fork();
	int status;

	if (pid < 0)
		die("fdbench: fork");
	if (pid == 0)
		_exit(0);
	waitpid(pid, &status, 0);
	return now_ns() - t0;
}

static char *startme;

static long long spawn_once(void)
{
	char *argv[] = { startme, NULL };
	long long t0 = now_ns();
	int status;
	pid_t pid;

	if (posix_spawn(&pid, startme, NULL, NULL, argv, environ))
		die("fdbench: posix_spawn");
	waitpid(pid, &status, 0);
	return now_ns() - t0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static long long median_of(long long (*once)(void), int n)
{
	long long t[101];
	int i;

	for (i = 0; i < n; i++)
		t[i] = once();
	qsort(t, n, sizeof(t[0]), cmp_ll);
	return t[n / 2];
}

static void with_creators(int nthreads, bool start, pthread_t *th)
{
	int i;

	if (start) {
		atomic_store(&creators_stop, 0);
		atomic_store(&creations, 0);
		for (i = 0; i < nthreads; i++)
			pthread_create(&th[i], NULL, create_forever, NULL);
		return;
	}
	atomic_store(&creators_stop, 1);
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
}

static int bench_spawn(char *prog)
{
	pthread_t th[2];
	long long t0, forks, spent;

	startme = prog;
	fork_once();
	spawn_once();
	printf("fork_idle %lld\n", median_of(fork_once, 101));
	printf("spawn_idle %lld\n", median_of(spawn_once, 51));

	/* The creators alone, for their rate without a forker. */
	with_creators(2, true, th);
	usleep(300000);
	with_creators(2, false, th);
	printf("create_alone %.0f\n", atomic_load(&creations) / 0.3);

	with_creators(2, true, th);
	printf("fork_busy %lld\n", median_of(fork_once, 101));
	printf("spawn_busy %lld\n", median_of(spawn_once, 51));
	with_creators(2, false, th);

	/* Two creators and a forker for a while: the rate of each. */
	with_creators(2, true, th);
	t0 = now_ns();
	for (forks = 0; (spent = now_ns() - t0) < 300000000LL; forks++)
		fork_once();
	with_creators(2, false, th);
	printf("create_with_fork %.0f\n", atomic_load(&creations) * 1e9 / spent);
	printf("fork_with_create %.0f\n", forks * 1e9 / spent);
	return 0;
}

/* fork in a process with MIB mebibytes resident. */
static int bench_bigfork(long mib)
{
	size_t len = (size_t)mib << 20;
	char *mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (mem == MAP_FAILED)
		die("fdbench: mmap");
	memset(mem, 1, len);
	fork_once();
	printf("bigfork %lld\n", median_of(fork_once, 21));
	return 0;
}

/* The process's private dirty memory, in KiB, from smaps_rollup. */
static long private_dirty_kib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kib = -1;

	if (!f)
		die("fdbench: smaps_rollup");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Private_Dirty: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static int bench_memory(int nfds)
{
	struct rlimit rl = { nfds + 64, nfds + 64 };
	long before;
	int i;

	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		die("fdbench: setrlimit");
	/* The kernel's fd table grows in the kernel, not in this process. */
	before = private_dirty_kib();
	for (i = 0; i < nfds; i++)
		if (open("/dev/null", O_RDONLY) < 0)
			die("fdbench: open");
	printf("dirty_before %ld\n", before);
	printf("dirty_after %ld\n", private_dirty_kib());
	return 0;
}

/*
 * Process start: PROG spawned again and again, alternately as it is, with
 * an empty library preloaded, and with LIB preloaded.  For each, the
 * median wall time, CPU time (user + system, of PROG and the children it
 * waited for) and minor faults, from wait4.
 */
static int bench_start(char *lib, char *empty, int rounds, char **argv)
{
	static const char *const names[] = { "plain", "empty", "lib" };
	static const char *const metrics[] = { "start", "startcpu",
					       "startflt" };
	char pre_lib[4096], pre_empty[4096];
	char *envs[3][2] = { { NULL }, { pre_empty }, { pre_lib } };
	long long *v[3][3];
	int r, k, m, status;
	struct rusage ru;
	pid_t pid;

	snprintf(pre_lib, sizeof(pre_lib), "LD_PRELOAD=%s", lib);
	snprintf(pre_empty, sizeof(pre_empty), "LD_PRELOAD=%s", empty);
	for (k = 0; k < 3; k++)
		for (m = 0; m < 3; m++)
			v[k][m] = calloc(rounds, sizeof(long long));
	for (r = 0; r < rounds; r++)
		for (k = 0; k < 3; k++) {
			long long t0 = now_ns();

			if (posix_spawn(&pid, argv[0], NULL, NULL, argv,
					envs[k]))
				die("fdbench: posix_spawn");
			if (wait4(pid, &status, 0, &ru) < 0)
				die("fdbench: wait4");
			v[k][0][r] = now_ns() - t0;
			v[k][1][r] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
					     1000000LL +
				     ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
			v[k][2][r] = ru.ru_minflt;
		}
	for (k = 0; k < 3; k++)
		for (m = 0; m < 3; m++) {
			qsort(v[k][m], rounds, sizeof(long long), cmp_ll);
			printf("%s %s %lld\n", metrics[m], names[k],
			       v[k][m][rounds / 2]);
			free(v[k][m]);
		}
	return 0;
}

static int usage(void)
{
	fputs("usage: fdbench [--oldkernel] [--fcntl-after] [--iters N] "
	      "ops [OP...]\n"
	      "       fdbench [--oldkernel] spawn STARTME\n"
	      "       fdbench bigfork MIB | memory NFDS\n"
	      "       fdbench start LIB EMPTYLIB ROUNDS PROG [ARG...]\n",
	      stderr);
	return 2;
}

int main(int argc, char **argv)
{
	long iters = 0;
	int i = 1;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--oldkernel")) {
			if (oldkernel_install() < 0)
				return 77;
		} else if (!strcmp(argv[i], "--fcntl-after")) {
			fcntl_after = true;
		} else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
			iters = atol(argv[++i]);
		} else {
			return usage();
		}
	}
	if (i == argc)
		return usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[i], "ops"))
		return bench_ops(iters, argv + i + 1);
	if (!strcmp(argv[i], "spawn") && argc - i == 2)
		return bench_spawn(argv[i + 1]);
	if (!strcmp(argv[i], "bigfork") && argc - i == 2)
		return bench_bigfork(atol(argv[i + 1]));
	if (!strcmp(argv[i], "memory") && argc - i == 2)
		return bench_memory(atoi(argv[i + 1]));
	if (!strcmp(argv[i], "start") && argc - i >= 5)
		return bench_start(argv[i + 1], argv[i + 2], atoi(argv[i + 3]),
				   argv + i + 4);
	return usage();
}
