/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/policy.h"
#include "oldkernel.h"
#include "testlib.h"

static const struct config {
	const char *name;
	bool preload;
	bool oldkernel;
} configs[] = {
	{ "libc", false, false },
	{ "preload", true, false },
	{ "preload-oldkernel", true, true },
	{ "libc-oldkernel", false, true },
};

#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))

static const struct config *current = &configs[0];

bool tl_valgrind(void)
{
	return getenv("TL_VALGRIND") != NULL;
}

bool tl_preloaded(void)
{
	return current->preload;
}

bool tl_oldkernel(void)
{
	return current->oldkernel;
}

const char *tl_config_name(void)
{
	return current->name;
}

void tl_close_from(int lowfd)
{
	int fd;

	/* And stdin, stdout, stderr open, whatever the harness left. */
	for (fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 &&
		    open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			abort();

	if (syscall(SYS_close_range, lowfd, ~0u, 0) == 0)
		return;
	for (fd = lowfd; fd < 1024; fd++)
		close(fd);
}

/* Is name in the comma-separated list in env (or is there no list)? */
static bool wanted(const char *name, const char *env)
{
	const char *list = getenv(env);
	size_t len = strlen(name);
	const char *p;

	if (!list || !*list)
		return true;
	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',') && (!p[len] || p[len] == ','))
			return true;
	return false;
}

/* LD_PRELOAD for the library that the variable lib_var names. */
void tl_set_preload_of(const char *lib_var)
{
	const char *lib = getenv(lib_var);
	const char *san = getenv("CLOEXEC_SAN_LIB");
	char value[4096];

	if (!lib) {
		fprintf(stderr, "testlib: %s is not set\n", lib_var);
		exit(99);
	}
	/* A sanitized library needs the sanitizer runtime loaded first. */
	snprintf(value, sizeof(value), "%s%s%s", san && *san ? san : "",
		 san && *san ? " " : "", lib);
	setenv("LD_PRELOAD", value, 1);
}

void tl_set_preload(bool on)
{
	if (on)
		tl_set_preload_of("CLOEXEC_LIB");
	else
		unsetenv("LD_PRELOAD");
}

/* The tests a suite registered with tl_add(), for the driver. */
static struct {
	const char *name, *env;
} tests[128];
static size_t ntests;

void tl_add_env(Suite *s, const TTest *test, int n, const char *env)
{
	TCase *tc = tcase_create(test->name);

	tcase_add_loop_test(tc, test, 0, n);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	if (ntests < sizeof(tests) / sizeof(tests[0])) {
		tests[ntests].name = test->name;
		tests[ntests++].env = env;
	}
}

void tl_add_loop(Suite *s, const TTest *test, int n)
{
	tl_add_env(s, test, n, NULL);
}

void tl_add_test(Suite *s, const TTest *test)
{
	tl_add_loop(s, test, 1);
}

/* One test (or a whole plain program) in its own fresh process. */
static int run_in_process(char **argv, const struct config *c,
			  const char *test, const char *env)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/*
		 * A group of its own: Check, timing a test out in a process
		 * that runs it unforked, kills its whole process group, which
		 * would otherwise be make's.
		 */
		setpgid(0, 0);
		setenv("TL_CONFIG", c->name, 1);
		if (test) {
			setenv("CK_RUN_CASE", test, 1);
			setenv("CK_FORK", "no", 1);
		}
		tl_set_preload(c->preload);
		if (env)
			putenv((char *)env);
		execv("/proc/self/exe", argv);
		perror("testlib: re-exec");
		_exit(99);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status))
		printf("# killed by signal %d\n", WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int tl_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

static const struct config *config_named(const char *name)
{
	size_t i;

	for (i = 0; i < NCONFIGS; i++)
		if (!strcmp(configs[i].name, name))
			return &configs[i];
	fprintf(stderr, "testlib: unknown TL_CONFIG %s\n", name);
	exit(99);
}

/*
 * Every wanted configuration; within each, every test in a process of its
 * own (or the plain program once, when there are no tests).  A fresh exec
 * per test keeps the tests apart, and lets the emulated kernel go in before
 * the library has learned anything about the real one.
 */
static int run_configs(char **argv)
{
	int failed = 0, ran = 0, status;
	size_t i, t;

	for (i = 0; i < NCONFIGS; i++) {
		const struct config *c = &configs[i];

		if (!wanted(c->name, "TL_CONFIGS"))
			continue;
		if (c->oldkernel && !oldkernel_supported()) {
			printf("# %s: SKIP (no emulation here)\n", c->name);
			continue;
		}
		if (!ntests) {
			status = run_in_process(argv, c, NULL, NULL);
			printf("%s: %s\n", status ? "FAIL" : "ok", c->name);
			failed |= status != 0;
			ran++;
			continue;
		}
		for (t = 0; t < ntests; t++) {
			if (!wanted(tests[t].name, "TL_TESTS"))
				continue;
			status = run_in_process(argv, c, tests[t].name,
						tests[t].env);
			printf("%s: %s %s\n", status ? "FAIL" : "ok", c->name,
			       tests[t].name);
			failed |= status != 0;
			ran++;
		}
	}
	return failed ? 1 : ran ? 0 : 77;
}

/* In the test's own process: the emulated kernel goes in first. */
static bool enter_config(const char *name)
{
	current = config_named(name);
	alarm(120);
	return !current->oldkernel || oldkernel_install() == 0;
}

int tl_main(int argc, char **argv, Suite *(*make_suite)(void))
{
	const char *name = getenv("TL_CONFIG");
	Suite *s;

	(void)argc;
	/* Whatever started us may have leaked fds: they are not ours. */
	tl_close_from(3);
	if (!name) {
		srunner_free(srunner_create(make_suite()));
		return run_configs(argv);
	}
	if (!enter_config(name))
		return 99;
	s = make_suite();
	return tl_run(s);
}

int tl_main_plain(int argc, char **argv, int (*fn)(void))
{
	const char *name = getenv("TL_CONFIG");

	(void)argc;
	tl_close_from(3);
	if (!name) {
		setenv("CLOEXEC_POLICY", "off", 1);
		return run_configs(argv);
	}
	if (!enter_config(name))
		return 99;
	return fn();
}

bool tl_cloexec(int fd)
{
	int flags = fcntl(fd, F_GETFD);

	ck_assert_int_ge(flags, 0);
	return flags & FD_CLOEXEC;
}

int tl_open_fds(int from, int to)
{
	int fd, n = 0;

	for (fd = from; fd < to; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

bool tl_nonblock(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	ck_assert_int_ge(flags, 0);
	return flags & O_NONBLOCK;
}

/* Run fdreport with its stdout into buf.  Returns bytes read, or -1. */
static ssize_t run_fdreport(char *buf, size_t size)
{
	const char *prog = getenv("FDREPORT");
	ssize_t len = 0, n;
	int p[2], status;
	pid_t pid;

	if (!prog)
		prog = "tests/lib/fdreport";
	if (pipe(p))
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], 1);
		execl(prog, "fdreport", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while ((size_t)len < size - 1 &&
	       (n = read(p[0], buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(p[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return len;
}

int tl_child_sees(int fd)
{
	static char buf[1 << 16];
	unsigned long long dev, ino;
	struct stat st;
	char *line;

	if (fstat(fd, &st) || run_fdreport(buf, sizeof(buf)) < 0)
		return -1;
	for (line = buf; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (sscanf(line, "%*d %llu %llu", &dev, &ino) == 2 &&
		    dev == (unsigned long long)st.st_dev &&
		    ino == (unsigned long long)st.st_ino)
			return 1;
	}
	return 0;
}

int tl_child_fds(struct tl_inherited *out, int max)
{
	static char buf[1 << 16];
	char *line, *next;
	int n = 0;

	if (run_fdreport(buf, sizeof(buf)) < 0)
		return -1;
	for (line = buf; *line && n < max; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (sscanf(line, "%d %*u %*u %63s", &out[n].fd,
			   out[n].target) == 2)
			n++;
	}
	return n;
}

int tl_listener(struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	int one = 1;
	int s = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(s, 0);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(s, (struct sockaddr *)addr, sizeof(*addr)), 0);
	ck_assert_int_eq(listen(s, 64), 0);
	ck_assert_int_eq(getsockname(s, (struct sockaddr *)addr, &len), 0);
	return s;
}

int tl_connect(const struct sockaddr_in *addr)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(
		connect(s, (const struct sockaddr *)addr, sizeof(*addr)), 0);
	return s;
}

void *tl_libc(const char *name)
{
	static void *libc;
	Dl_info info;

	if (!libc) {
		if (!dladdr((void *)getpid, &info))
			return NULL;
		libc = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
		if (!libc)
			return NULL;
	}
	return dlsym(libc, name);
}

void tl_send_fd(int s, int fd)
{
	struct tl_fd_msg m;

	tl_fd_msg_init(&m);
	m.byte = 'x';
	tl_fd_msg_put(&m, fd);
	ck_assert_int_eq(sendmsg(s, &m.msg, 0), 1);
}

int tl_sent_fd_socket(void)
{
	int sv[2], payload = open("/dev/null", O_RDONLY);

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	tl_send_fd(sv[0], payload);
	close(payload);
	close(sv[0]);
	return sv[1];
}

int tl_received_fd(struct msghdr *msg)
{
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(msg);
	int fd;

	if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	return fd;
}

/*
 * The switch is set in both phases: the library that is installed must
 * ignore it (no leak), and the test build honour it (leaks).
 */
static int run_phase(char **argv, bool lock)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setenv("RACE_PHASE", lock ? "lock on" : "lock off", 1);
		setenv(POLICY_TEST_NO_LOCK_ENV, "1", 1);
		tl_set_preload_of(lock ? "CLOEXEC_LIB" : "CLOEXEC_TEST_LIB");
		execv("/proc/self/exe", argv);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

int tl_race_main(char **argv, int (*phase)(double seconds, bool until_leak),
		 double on_seconds, double off_seconds, const char *leaked,
		 const char *blind)
{
	int locked, unlocked;

	const char *name = getenv("RACE_PHASE");

	if (name) {
		bool off = !strcmp(name, "lock off");

		return phase(off ? off_seconds : on_seconds, off);
	}
	if (!oldkernel_supported())
		return 77;
	locked = run_phase(argv, true);
	unlocked = run_phase(argv, false);
	if (locked != 0)
		printf("FAIL: %s\n", leaked);
	if (unlocked != 1)
		printf("FAIL: %s\n", blind);
	return locked == 0 && unlocked == 1 ? 0 : 1;
}

int tl_recv_fd(int s, int flags)
{
	struct tl_fd_msg m;
	int fd;

	tl_fd_msg_init(&m);
	if (recvmsg(s, &m.msg, flags) < 0)
		return -1;
	fd = tl_received_fd(&m.msg);
	ck_assert_int_ge(fd, 0);
	return fd;
}
