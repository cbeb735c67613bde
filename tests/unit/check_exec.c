/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The numbers the new program is told (exec.c, rule 2), read from argv
 * and the environment: which fds are chosen, with which reason, and what
 * is never chosen.  On inheritable pipes of this process (the core is
 * linked directly: nothing is forced, so nothing is cleared either), with
 * one bystander fd marked as forced: where none is, the rules have nothing
 * to clear and do not run.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"
#include "core/exec.h"
#include "core/fdtable.h"
#include "core/load.h"
#include "core/shell.h"

static int a, b; /* two inheritable fds, well above 2 */
static int bystander = -1;

static void setup(void)
{
	int p[2];

	bystander = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(bystander, 0);
	fdtable_note_new(bystander, FDT_FORCED | FDT_HERE);

	ck_assert_int_eq(pipe(p), 0);
	a = fcntl(p[0], F_DUPFD, 40);
	b = fcntl(p[1], F_DUPFD, 41);
	close(p[0]);
	close(p[1]);
}

static void teardown(void)
{
	close(a);
	close(b);
	fdtable_forget(bystander);
	close(bystander);
}

/* "fd:reason;" for each fd chosen, in order, for a spawn of path. */
static const char *chosen_for(const char *path, char **argv, char **envp)
{
	static char out[HANDOFF_KEPT_MAX * (12 + HANDOFF_WHY_MAX)];
	struct handoff_kept k;
	size_t len = 0;
	unsigned i;

	exec_prepare(argv, envp, path, HANDOFF_AS_SPAWNER, policy_word(), &k);
	out[0] = '\0';
	for (i = 0; i < k.n; i++)
		len += snprintf(out + len, sizeof(out) - len, "%d:%s;",
				k.fd[i].fd, k.fd[i].reason);
	ck_assert_uint_lt(len, sizeof(out));
	exec_undo(&k);
	return out;
}

static const char *chosen(char **argv, char **envp)
{
	return chosen_for("/bin/true", argv, envp);
}

static char *next_buf(void)
{
	static char buf[32][128];
	static int n;

	return buf[n++ % 32];
}

/* A macro, so that the compiler checks each format against its numbers. */
#define fmt(...)                                                              \
	({                                                                    \
		char *s_ = next_buf();                                        \
		snprintf(s_, 128, __VA_ARGS__);                               \
		s_;                                                           \
	})

START_TEST(options_ending_in_fd)
{
	char *argv1[] = { "dpkg", "--status-fd", fmt("%d", a), "-i", NULL };
	char *argv2[] = { "dpkg", fmt("--status-fd=%d", a), NULL };
	char *argv3[] = { "Xvfb", "-displayfd", fmt("%d", a), NULL };
	char *argv4[] = { "x", fmt("--pass-fds=%d,%d", a, b), NULL };
	char *none[] = { NULL };
	char both[128];

	snprintf(both, sizeof(both),
		 "%d:named as --pass-fds=%d;%d:named as --pass-fds=%d;", a, a,
		 b, b);
	ck_assert_str_eq(chosen(argv1, none),
			 fmt("%d:named as --status-fd %d;", a, a));
	ck_assert_str_eq(chosen(argv2, none),
			 fmt("%d:named as --status-fd=%d;", a, a));
	ck_assert_str_eq(chosen(argv3, none),
			 fmt("%d:named as -displayfd %d;", a, a));
	ck_assert_str_eq(chosen(argv4, none), both);
}
END_TEST

/* A reason shows at most 30 bytes of the option that named the fd. */
START_TEST(long_option_names)
{
	char *none[] = { NULL };
	int len[] = { 29, 30, 31, 64 };
	char option[80];
	size_t i;

	for (i = 0; i < sizeof(len) / sizeof(*len); i++) {
		/* --aaa...-fd=N, len[i] bytes before the '='. */
		memset(option, 'a', sizeof(option));
		memcpy(option, "--", 2);
		memcpy(option + len[i] - 3, "-fd", 4);
		char *argv[] = { "x", fmt("%s=%d", option, a), NULL };

		ck_assert_str_eq(chosen(argv, none),
				 fmt("%d:named as %.30s=%d;", a, option, a));
	}
}
END_TEST

START_TEST(other_argument_forms)
{
	char *argv1[] = { "gpg", fmt("-&%d", a), NULL };
	char *argv2[] = { "cat", fmt("/dev/fd/%d", a), NULL };
	char *argv3[] = { "x", fmt("--log=/proc/self/fd/%d", a), NULL };
	char *argv4[] = { "openssl", "-pass", fmt("fd:%d", a), NULL };
	char *argv5[] = { "qemu", "-add-fd", fmt("fd=%d,set=1", a), NULL };
	char *none[] = { NULL };

	ck_assert_str_eq(chosen(argv1, none), fmt("%d:named as -&%d;", a, a));
	ck_assert_str_eq(chosen(argv2, none),
			 fmt("%d:named as /dev/fd/%d;", a, a));
	ck_assert_str_eq(chosen(argv3, none),
			 fmt("%d:named as /proc/self/fd/%d;", a, a));
	ck_assert_str_eq(chosen(argv4, none), fmt("%d:named as fd:%d;", a, a));
	ck_assert_str_eq(chosen(argv5, none), fmt("%d:named as fd=%d;", a, a));
}
END_TEST

/* The edges of the argument forms: case, what follows, what is missing. */
START_TEST(argument_edges)
{
	char *none[] = { NULL };
	char *upper[] = { "openssl", "-pass", fmt("FD:%d", a), NULL };
	char *fds[] = { "x", "--pass-fds", fmt("%d,%d", a, b), NULL };
	char *short_fd[] = { "x", "-FD", fmt("%d", a), NULL };
	char *not_names[][4] = {
		{ "openssl", "-pass", fmt("fd:%dx", a), NULL },
		{ "gpg", fmt("-&%dx", a), NULL },
		{ "x", fmt("%d", a), "--status-fd", NULL },
		{ "x", "-d", fmt("%d", a), NULL },
		{ "x", "--pass-fds", fmt("%d,%d,", a, b), NULL },
		{ "x", "--pass-fds", fmt("%d,,%d", a, b), NULL },
		{ "x", fmt("--pass-fds=%d,%dx", a, b), NULL },
		/* A number no fd can be, in a list: no list of fds. */
		{ "x", fmt("--pass-fds=%lld,%d", 4294967296LL, a), NULL },
		/* No number at all after the prefix. */
		{ "openssl", "-pass", "fd:x", NULL },
		{ "gpg", "-&x", NULL },
		{ "cat", "/dev/fd/x", NULL },
		/* 0-2 are the program's own already: never chosen. */
		{ "x", "--status-fd", "2", NULL },
		/* A row's option with more after it, or with no value. */
		{ "dbus-daemon", fmt("--print-address%d", a), NULL },
		{ "dbus-daemon", "--print-address", NULL },
		/* After --, dbus-daemon's arguments are not its options. */
		{ "dbus-daemon", "--", fmt("--print-pid=%d", a), NULL },
	};
	size_t i;

	ck_assert_str_eq(chosen(upper, none), fmt("%d:named as fd:%d;", a, a));
	ck_assert_str_eq(
		chosen(fds, none),
		fmt("%d:named as --pass-fds %d;%d:named as --pass-fds %d;", a,
		    a, b, b));
	ck_assert_str_eq(chosen(short_fd, none),
			 fmt("%d:named as -FD %d;", a, a));
	for (i = 0; i < sizeof(not_names) / sizeof(*not_names); i++)
		ck_assert_msg(!strcmp(chosen(not_names[i], none), ""),
			      "%s %s %s: chosen", not_names[i][0],
			      not_names[i][1],
			      not_names[i][2] ? not_names[i][2] : "");
}
END_TEST

/* At most HANDOFF_KEPT_MAX fds are kept, the first named. */
START_TEST(kept_fds_are_bounded)
{
	enum { N = HANDOFF_KEPT_MAX + 2 };
	char *none[] = { NULL };
	char list[N * 8], *argv[] = { "x", "--pass-fds", list, NULL };
	const char *got, *p;
	int fds[N], i, n;
	size_t len = 0;

	for (i = 0; i < N; i++) {
		fds[i] = fcntl(a, F_DUPFD, 100 + i);
		ck_assert_int_eq(fds[i], 100 + i);
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d",
					i ? "," : "", fds[i]);
	}
	got = chosen(argv, none);
	for (n = 0, p = got; (p = strchr(p, ';')); p++)
		n++;
	ck_assert_int_eq(n, HANDOFF_KEPT_MAX);
	ck_assert(!strncmp(got, "100:", 4));
	ck_assert_ptr_null(strstr(got, fmt("%d:", 100 + HANDOFF_KEPT_MAX)));
	for (i = 0; i < N; i++)
		close(fds[i]);
}
END_TEST

START_TEST(what_is_not_a_name)
{
	/* A value that is not a number, an option not ending in fd. */
	char *argv1[] = { "x", "--status-fd", "abc", fmt("%d", a), NULL };
	char *argv2[] = { "x", "--count", fmt("%d", a), NULL };
	char *argv3[] = { "x", fmt("--status-fd=%dx", a), NULL };
	char *argv4[] = { "x", fmt("%d", a), NULL };
	/* Near misses of openssl's fd:N, gpg's -&N and /dev/fd/N. */
	char *argv5[] = { "openssl", "-pass", fmt("fd;%d", a), NULL };
	char *argv6[] = { "openssl", "-pass", fmt("pass:fd:%d", a), NULL };
	char *argv7[] = { "gpg", fmt("-%d", a), NULL };
	char *argv8[] = { "cat", fmt("/dev/fdx/%d", a), NULL };
	/* Numbers past an int's range, and a long's, that would wrap to a. */
	char *argv9[] = { "x", fmt("--status-fd=%lld", 4294967296LL + a),
			  NULL };
	char *argv10[] = { "x", fmt("--status-fd=1844674407370955%d", 1616 + a),
			   NULL };
	/* An option's name that ends in f alone; fd: and -& with a tail. */
	char *argv11[] = { "x", fmt("--buff=%d", a), NULL };
	char *argv12[] = { "openssl", "-pass", fmt("fd:%dx", a), NULL };
	char *argv13[] = { "gpg", fmt("-&%dx", a), NULL };
	char *none[] = { NULL };
	char *env1[] = { fmt("COUNT=%d", a), NULL };
	char *env2[] = { fmt("HAPROXY_PIDS=%d", a), NULL };
	char *env3[] = { fmt("LISTEN_FDS=%d", a), NULL };
	/* Names no row has: a request's header, a locale, anyone's. */
	char *env4[] = { fmt("HTTP_X_FD=%d", a), fmt("LC_FD=%d", a),
			 fmt("SOME_FD=%d", a), fmt("X_FDS=%d,%d", a, b), NULL };
	/* A row's name is the whole name, unless the row says prefix. */
	char *env5[] = { fmt("NGINX_OLD=%d", a), fmt("GUNICORN_FDS=%d", b),
			 NULL };

	ck_assert_str_eq(chosen(argv1, none), "");
	ck_assert_str_eq(chosen(argv2, none), "");
	ck_assert_str_eq(chosen(argv3, none), "");
	ck_assert_str_eq(chosen(argv4, none), "");
	ck_assert_str_eq(chosen(argv5, none), "");
	ck_assert_str_eq(chosen(argv6, none), "");
	ck_assert_str_eq(chosen(argv7, none), "");
	ck_assert_str_eq(chosen(argv8, none), "");
	ck_assert_str_eq(chosen(argv9, none), "");
	ck_assert_str_eq(chosen(argv10, none), "");
	ck_assert_str_eq(chosen(argv11, none), "");
	ck_assert_str_eq(chosen(argv12, none), "");
	ck_assert_str_eq(chosen(argv13, none), "");
	ck_assert_str_eq(chosen(none, env1), "");
	ck_assert_str_eq(chosen(none, env2), "");
	ck_assert_str_eq(chosen(none, env3), "");
	ck_assert_str_eq(chosen(none, env4), "");
	ck_assert_str_eq(chosen(none, env5), "");
}
END_TEST

/*
 * systemd's LISTEN_FDS for this process (LISTEN_PID its own): fds 3 on,
 * here as many as reach a and b.  Where a name comes twice, the first
 * counts, as getenv (and so sd_listen_fds) finds it; a later one is no
 * second say.
 */
START_TEST(listen_fds_first_wins)
{
	char *none[] = { NULL };
	char *count = fmt("LISTEN_FDS=%d", b - 2);
	char *pid = fmt("LISTEN_PID=%d", (int)getpid());
	const char *why = "socket activation (LISTEN_FDS)";
	char *counted_then_none[] = { count, pid, "LISTEN_FDS=0", NULL };
	char *mine_then_init[] = { count, pid, "LISTEN_PID=1", NULL };
	char *init_then_mine[] = { count, "LISTEN_PID=1", pid, NULL };
	/* Values that are not what systemd writes: nothing at all. */
	char *malformed[][3] = {
		{ fmt("LISTEN_FDS=%dx", b - 2), pid, NULL },
		{ "LISTEN_FDS=0", pid, NULL },
		{ "LISTEN_FDS=", pid, NULL },
		{ count, NULL },
		{ count, fmt("LISTEN_PID=%dx", (int)getpid()), NULL },
		{ count, fmt("LISTEN_PID= %d", (int)getpid()), NULL },
	};
	const char *got;
	size_t i;

	got = chosen(none, counted_then_none);
	ck_assert_msg(strstr(got, fmt("%d:%s;", a, why)) &&
			      strstr(got, fmt("%d:%s;", b, why)),
		      "LISTEN_FDS twice: %s", got);
	got = chosen(none, mine_then_init);
	ck_assert_msg(strstr(got, fmt("%d:%s;", a, why)),
		      "LISTEN_PID twice, its own first: %s", got);
	ck_assert_str_eq(chosen(none, init_then_mine), "");
	for (i = 0; i < sizeof(malformed) / sizeof(*malformed); i++)
		ck_assert_msg(!strcmp(chosen(none, malformed[i]), ""),
			      "%s %s: chosen", malformed[i][0],
			      malformed[i][1] ? malformed[i][1] : "");
}
END_TEST

/*
 * execve takes a NULL argv or envp (Linux reads each as empty): the
 * rules read the other as ever, and never the NULL.
 */
START_TEST(null_argv_or_environment)
{
	char *argv[] = { "dpkg", "--status-fd", fmt("%d", a), NULL };
	char *env[] = { fmt("LISTEN_FDS=%d", b - 2),
			fmt("LISTEN_PID=%d", (int)getpid()), NULL };
	char *empty[] = { NULL };
	const char *got;

	ck_assert_str_eq(chosen(argv, NULL),
			 fmt("%d:named as --status-fd %d;", a, a));
	/* socat by its path: a program with rows, then no argv to read. */
	got = chosen_for("/usr/bin/socat", NULL, env);
	ck_assert_msg(strstr(got, fmt("%d:socket activation (LISTEN_FDS);", b)),
		      "a NULL argv: %s", got);
	got = chosen_for("/usr/bin/socat", empty, env);
	ck_assert_msg(strstr(got, fmt("%d:socket activation (LISTEN_FDS);", b)),
		      "an empty argv: %s", got);
	ck_assert_str_eq(chosen_for("/usr/bin/socat", NULL, NULL), "");
}
END_TEST

/*
 * More sockets than a kept list holds: the first HANDOFF_KEPT_MAX
 * numbers from 3 are looked at, and none after, however few of those
 * are open.
 */
START_TEST(listen_fds_beyond_the_bound)
{
	char *none[] = { NULL };
	char *env[] = { fmt("LISTEN_FDS=%d", HANDOFF_KEPT_MAX + 10),
			fmt("LISTEN_PID=%d", (int)getpid()), NULL };
	const char *why = "socket activation (LISTEN_FDS)";
	int last = 3 + HANDOFF_KEPT_MAX - 1, past = last + 1;
	const char *got;

	ck_assert_int_eq(fcntl(a, F_DUPFD, last), last);
	ck_assert_int_eq(fcntl(a, F_DUPFD, past), past);
	got = chosen(none, env);
	ck_assert_msg(strstr(got, fmt("%d:%s;", last, why)), "%d not in %s",
		      last, got);
	ck_assert_msg(!strstr(got, fmt("%d:", past)), "%d in %s", past, got);
	close(last);
	close(past);
}
END_TEST

/*
 * make's jobserver: the last --jobserver-auth=R,W (or -fds) among
 * MAKEFLAGS' words, up to the word "--", in the first MAKEFLAGS (as
 * getenv finds it), of a pair of pipes this process was given.
 */
START_TEST(make_jobserver)
{
	char *none[] = { NULL };
	const char *js = "make's jobserver (MAKEFLAGS)";
	const char *pair = fmt("%d:%s;%d:%s;", a, js, b, js);
	char *kept[][3] = {
		{ fmt("MAKEFLAGS= -j2 --jobserver-auth=%d,%d", a, b), NULL },
		{ fmt("MAKEFLAGS=s -j2 --jobserver-fds=%d,%d", a, b), NULL },
		{ fmt("MAKEFLAGS=--jobserver-auth=%d,%d --", a, b), NULL },
		{ fmt("MAKEFLAGS= --x --jobserver-auth=%d,%d -- V=1", a, b),
		  NULL },
		{ fmt("MAKEFLAGS= -Ia\\\\ --jobserver-auth=%d,%d", a, b),
		  NULL },
		{ fmt("MAKEFLAGS= --jobserver-fds=9,9 --jobserver-auth=%d,%d",
		      a, b),
		  NULL },
		{ fmt("MAKEFLAGS= --jobserver-auth=%d,%d", a, b),
		  "MAKEFLAGS=", NULL },
	};
	char *not_kept[][3] = {
		/*
		 * After "--", the command line's variables: a value, and one
		 * named --jobserver-auth (`make -- --jobserver-auth=R,W=x`).
		 */
		{ fmt("MAKEFLAGS= -j2 -- V=--jobserver-auth=%d,%d", a, b),
		  NULL },
		{ fmt("MAKEFLAGS= -j2 -- --jobserver-auth=%d,%d=x", a, b),
		  NULL },
		/* Part of another option's word, its space escaped. */
		{ fmt("MAKEFLAGS= -Ia\\ --jobserver-auth=%d,%d", a, b), NULL },
		{ fmt("MAKEFLAGS= x--jobserver-auth=%d,%d", a, b), NULL },
		/* The last one wins, and its W is its own R's. */
		{ fmt("MAKEFLAGS= --jobserver-auth=%d,%d --jobserver-fds=9,9",
		      a, b),
		  NULL },
		{ fmt("MAKEFLAGS= --jobserver-auth=%d,%d --jobserver-auth=%d",
		      a, b, a),
		  NULL },
		{ fmt("MAKEFLAGS= --jobserver-auth=%d;%d", a, b), NULL },
		{ fmt("MAKEFLAGS= --jobserver-auth=fifo:/tmp/GMfifo%d", a),
		  NULL },
		{ fmt("MAKEFLAGS= --jobserver-other=%d,%d", a, b), NULL },
		{ fmt("MAKEFLAGS= --jobserverXauth=%d,%d", a, b), NULL },
		{ fmt("MAKEFLAGS= --jobserver-authX%d,%d", a, b), NULL },
		{ fmt("MAKEFLAGS= --jobserver-fdsX%d,%d", a, b), NULL },
		/* The second MAKEFLAGS, which no getenv finds. */
		{ "MAKEFLAGS=", fmt("MAKEFLAGS= --jobserver-auth=%d,%d", a, b),
		  NULL },
		{ fmt("MAKEFLAGSX= --jobserver-auth=%d,%d", a, b), NULL },
	};
	/*
	 * A last backslash escapes nothing: the word ends with the string,
	 * and what lies past its NUL (here an option) is not read.
	 */
	static char past_nul[64];
	char *trailing[] = { past_nul, NULL };
	size_t i;

	/*
	 * A pair that is not two pipes given to this process: a file for
	 * W, a pipe of its own for W, or 0-2.
	 */
	int file = open("/dev/null", O_RDONLY), own = fcntl(b, F_DUPFD, 62);
	char *not_a_pair[][2] = {
		{ fmt("MAKEFLAGS= --jobserver-auth=%d,%d", a, 61), NULL },
		{ fmt("MAKEFLAGS= --jobserver-auth=%d,%d", a, own), NULL },
		{ fmt("MAKEFLAGS= --jobserver-auth=%d,%d", 1, b), NULL },
		{ fmt("MAKEFLAGS= --jobserver-auth=%d,%d", a, 2), NULL },
	};

	ck_assert_int_eq(dup2(file, 61), 61);
	close(file);
	ck_assert_int_eq(own, 62);
	snprintf(past_nul, sizeof(past_nul),
		 "MAKEFLAGS= -Ia\\%c --jobserver-auth=%d,%d", '\0', a, b);
	/* A pair this process made is no jobserver it was given. */
	ck_assert_str_eq(chosen(none, kept[0]), "");
	fdtable_note_new(a, FDT_INHERITED);
	fdtable_note_new(b, FDT_INHERITED);
	for (i = 0; i < sizeof(kept) / sizeof(*kept); i++)
		ck_assert_msg(!strcmp(chosen(none, kept[i]), pair),
			      "%s: not kept", kept[i][0]);
	ck_assert_str_eq(chosen(none, trailing), "");
	for (i = 0; i < sizeof(not_kept) / sizeof(*not_kept); i++)
		ck_assert_msg(!strcmp(chosen(none, not_kept[i]), ""),
			      "%s %s: kept", not_kept[i][0],
			      not_kept[i][1] ? not_kept[i][1] : "");
	fdtable_note_new(61, FDT_INHERITED);
	for (i = 0; i < sizeof(not_a_pair) / sizeof(*not_a_pair); i++)
		ck_assert_msg(!strcmp(chosen(none, not_a_pair[i]), ""),
			      "%s: kept", not_a_pair[i][0]);
	fdtable_forget(61);
	close(61);
	close(own);
	fdtable_forget(a);
	fdtable_forget(b);
}
END_TEST

START_TEST(environment_handovers)
{
	char *none[] = { NULL };
	char *nginx[] = { fmt("NGINX=%d;%d;", a, b), NULL };
	char *fpm[] = { fmt("FPM_SOCKETS=/run/a.sock=%d,127.0.0.1:9000=%d", a,
			    b),
			NULL };
	char *starter[] = { fmt("SERVER_STARTER_PORT=0.0.0.0:80=%d;8080=%d", a,
				b),
			    NULL };
	char *haproxy[] = { fmt("HAPROXY_PROCESSES=|type=worker;fd=%d;pid=%d",
				a, b),
			    NULL };
	char *named[] = { fmt("EINHORN_FDS=%d %d", a, b), NULL };
	char *one[] = { fmt("UWSGI_EMPEROR_FD=%d", a), NULL };
	/* An entry without '=' is no variable; the one after it is. */
	char *bare[] = { "NGINX", fmt("NGINX=%d;", a), NULL };
	/* A row's prefix with a long name after it: the reason is cut. */
	const char *name = "HAPROXY_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
	char *cut[] = { fmt("%s=fd=%d", name, a), NULL };

	ck_assert_str_eq(chosen(none, nginx),
			 fmt("%d:named in NGINX;%d:named in NGINX;", a, b));
	ck_assert_str_eq(
		chosen(none, fpm),
		fmt("%d:named in FPM_SOCKETS;%d:named in FPM_SOCKETS;", a, b));
	ck_assert_str_eq(chosen(none, starter),
			 fmt("%d:named in SERVER_STARTER_PORT;"
			     "%d:named in SERVER_STARTER_PORT;",
			     a, b));
	/* Its pid= is not an fd, though here it is one's number. */
	ck_assert_str_eq(chosen(none, haproxy),
			 fmt("%d:named in HAPROXY_PROCESSES;", a));
	ck_assert_str_eq(
		chosen(none, named),
		fmt("%d:named in EINHORN_FDS;%d:named in EINHORN_FDS;", a, b));
	ck_assert_str_eq(chosen(none, one),
			 fmt("%d:named in UWSGI_EMPEROR_FD;", a));
	ck_assert_str_eq(chosen(none, bare), fmt("%d:named in NGINX;", a));
	ck_assert_int_eq(HANDOFF_WHY_MAX, 48);
	ck_assert_str_eq(chosen(none, cut),
			 fmt("%d:named in %.38s;", a, name));
}
END_TEST

/*
 * Every variable row of handoff.def, by its own example, with 5 and 6 made
 * a and b: each names what its example names, and its own name alone.
 */
static const char *const env_examples[] = {
#define HANDOFF_ENV(name, form, example) example,
#include "core/handoff.def"
#undef HANDOFF_ENV
};

/* example with each number 5 made a and 6 made b, and what it names. */
static void example_env(const char *example, char *env, size_t size,
			char *want, size_t want_size)
{
	size_t name_len = strcspn(example, "="), n = 0, w = 0;
	const char *p = example;
	int fd;

	while (*p && n < size - 16) {
		if ((*p == '5' || *p == '6') && (p == example || p[-1] < '0' ||
						   p[-1] > '9') &&
		    (p[1] < '0' || p[1] > '9') && p > example + name_len) {
			fd = *p == '5' ? a : b;
			n += (size_t)snprintf(env + n, size - n, "%d", fd);
			w += (size_t)snprintf(want + w, want_size - w,
					      "%d:named in %.*s;", fd,
					      (int)name_len, example);
			p++;
			continue;
		}
		env[n++] = *p++;
	}
	env[n] = '\0';
}

START_TEST(every_environment_row)
{
	char env[256], want[256], *none[] = { NULL }, *envp[] = { env, NULL };
	size_t i;

	for (i = 0; i < sizeof(env_examples) / sizeof(*env_examples); i++) {
		example_env(env_examples[i], env, sizeof(env), want,
			    sizeof(want));
		ck_assert_msg(strchr(want, ';'), "%s names nothing",
			      env_examples[i]);
		ck_assert_str_eq(chosen(none, envp), want);
	}
}
END_TEST

/*
 * A variable of no bytes (the kernel takes one) at a page's last byte,
 * the next page unreadable: the rules read nothing past its NUL, where a
 * name would have its second letter.
 */
START_TEST(an_empty_variable_at_a_page_end)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *p, *none[] = { NULL }, *envp[] = { NULL, NULL };

	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_int_eq(mprotect(p + page, page, PROT_NONE), 0);
	p[page - 1] = '\0';
	envp[0] = p + page - 1;
	ck_assert_str_eq(chosen(none, envp), "");
	munmap(p, 2 * page);
}
END_TEST

/* A flag the program set itself is never the library's to clear. */
START_TEST(own_flag_is_never_chosen)
{
	char *argv[] = { "dpkg", "--status-fd", fmt("%d", a), NULL };
	char *none[] = { NULL };

	ck_assert_int_eq(fcntl(a, F_SETFD, FD_CLOEXEC), 0);
	ck_assert_str_eq(chosen(argv, none), "");
	ck_assert_int_eq(fcntl(a, F_GETFD), FD_CLOEXEC);
}
END_TEST

/*
 * With no flag the library forced, no rule runs: the rules only ever
 * clear such a flag, and there is no audit to tell (a shell's commands,
 * most often; the exec path's cost then does not grow with argv or env).
 */
START_TEST(nothing_forced_nothing_read)
{
	char *argv[] = { "dpkg", "--status-fd", fmt("%d", a), NULL };
	char *none[] = { NULL };

	ck_assert_str_eq(chosen(argv, none),
			 fmt("%d:named as --status-fd %d;", a, a));
	fdtable_forget(bystander);
	ck_assert_str_eq(chosen(argv, none), "");
}
END_TEST

/* The rows of handoff.def hold for their program alone. */
/* socat's address: N or FD:N, alone or on either side of "!!". */
START_TEST(socat_addresses)
{
	char *none[] = { NULL };
	struct {
		char *address;
		const char *chosen;
	} cases[] = {
		{ fmt("FD:%d!!fd:%d", a, b),
		  fmt("%d:named as FD: %d;%d:named as fd: %d;", a, a, b, b) },
		{ fmt("%d!!%d", a, b),
		  fmt("%d:named as the address %d;%d:named as the address %d;",
		      a, a, b, b) },
		{ fmt("SYSTEM:x!!%d", b),
		  fmt("%d:named as the address %d;", b, b) },
		{ fmt("FD:%d,nonblock!!-", a),
		  fmt("%d:named as FD: %d;", a, a) },
		{ fmt("FD:%dx", a), "" },
		{ "FD:x", "" },
		{ fmt("%d,nonblock", a), "" },
		{ fmt("%d!%d", a, b), "" },
		{ fmt("FD:%d!%d", a, b), "" },
		{ fmt("SYSTEM:x!y%d", b), "" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *argv[] = { "socat", cases[i].address, "-", NULL };

		ck_assert_msg(!strcmp(chosen(argv, none), cases[i].chosen),
			      "socat %s -: %s, not %s", cases[i].address,
			      chosen(argv, none), cases[i].chosen);
	}
}
END_TEST

START_TEST(handoff_rows)
{
	char *none[] = { NULL };
	char *dbus[] = { "dbus-daemon", "--print-address", fmt("%d", a),
			 fmt("--print-pid=%d", b), NULL };
	char *bwrap[] = { "/usr/bin/bwrap", "--file", fmt("%d", a), "/x",
			  "--args", fmt("%d", b), NULL };
	char *socat[] = { "socat", "-u", fmt("FD:%d,nonblock", a), fmt("%d", b),
			  NULL };
	char *sleep[] = { "sleep", fmt("%d", a), NULL };
	char *other[] = { "mydaemon", "--print-address", fmt("%d", a), NULL };
	/* Values that are not fds, and arguments that are not the program's. */
	char *timeout[] = { "socat", "-T", fmt("%d", a), "-", "SYSTEM:x",
			    NULL };
	char *joined[] = { "socat", fmt("-T%d", a), "-", "SYSTEM:x", NULL };
	char *third[] = { "socat", "-", "SYSTEM:x", fmt("%d", a), NULL };
	char *dashes[] = { "bwrap", "--", "tool", "--file", fmt("%d", a), "/x",
			   NULL };
	/* After --, even an argument that looks like bwrap's is the command. */
	char *dash_option[] = { "bwrap", "--", "--file", fmt("%d", a), "/x",
				NULL };
	char *command[] = { "bwrap", "--bind", "/", "/", "tool", "--file",
			    fmt("%d", a), "/x", NULL };
	char *value[] = { "bwrap", "--setenv", "--file", fmt("%d", a), "sh",
			  NULL };
	char *maybe[] = { "dbus-daemon", "--print-address", "--session",
			  fmt("%d", a), NULL };
	/* The arguments end before --file's second value: nothing after. */
	char *no_dest[] = { "bwrap", "--file", fmt("%d", a), NULL };

	ck_assert_str_eq(chosen(dbus, none),
			 fmt("%d:named as --print-address %d;"
			     "%d:named as --print-pid=%d;",
			     a, a, b, b));
	ck_assert_str_eq(chosen(bwrap, none),
			 fmt("%d:named as --file %d;%d:named as --args %d;", a,
			     a, b, b));
	ck_assert_str_eq(chosen(socat, none),
			 fmt("%d:named as FD: %d;%d:named as the address %d;",
			     a, a, b, b));
	ck_assert_str_eq(chosen(sleep, none), "");
	ck_assert_str_eq(chosen(other, none), "");
	ck_assert_str_eq(chosen(timeout, none), "");
	ck_assert_str_eq(chosen(joined, none), "");
	ck_assert_str_eq(chosen(third, none), "");
	ck_assert_str_eq(chosen(dashes, none), "");
	ck_assert_str_eq(chosen(dash_option, none), "");
	ck_assert_str_eq(chosen(command, none), "");
	ck_assert_str_eq(chosen(value, none), "");
	ck_assert_str_eq(chosen(maybe, none), "");
	ck_assert_str_eq(chosen(no_dest, none),
			 fmt("%d:named as --file %d;", a, a));
}
END_TEST

/* A CGI program's arguments and HTTP_* names are the request's. */
START_TEST(cgi_takes_no_numbers)
{
	char *argv[] = { "script.cgi", "--x-fd", fmt("%d,%d", a, b), NULL };
	char *none[] = { NULL };
	char *cgi[] = { "GATEWAY_INTERFACE=CGI/1.1", NULL };
	char *header[] = { "GATEWAY_INTERFACE=CGI/1.1", fmt("HTTP_X_FD=%d", a),
			   NULL };
	char *plain[] = { fmt("HTTP_X_FD=%d", a), NULL };

	ck_assert_str_eq(chosen(argv, cgi), "");
	ck_assert_str_eq(chosen(none, header), "");
	ck_assert_str_eq(chosen(argv, none),
			 fmt("%d:named as --x-fd %d;%d:named as --x-fd %d;", a,
			     a, b, b));
	/* Nor where nothing says it is a CGI program. */
	ck_assert_str_eq(chosen(none, plain), "");
}
END_TEST

/*
 * A shell's command text names the fds it duplicates from; the program
 * must be one /etc/shells lists (/bin/sh is).
 */
START_TEST(shell_command_text)
{
	char *none[] = { NULL };
	char *dup_out[] = { "sh", "-c", fmt("cat >&%d", a), NULL };
	char *dup_in[] = { "sh", "-ec", "--", fmt("cat <&%d 2>&1", b), NULL };
	char *rc[] = { "sh", "-c", fmt("cat >[1=%d]", a), NULL };
	char *opens[] = { "sh", "-c", fmt("cat %d>file %d<file", a, b), NULL };
	char *files[] = { "sh", "-c", fmt("cat >%d <&%d", a, b), NULL };
	char *low[] = { "sh", "-c", "cat >&2 <&0", NULL };
	char *script[] = { "sh", "script", fmt(">&%d", a), NULL };

	ck_assert_str_eq(chosen_for("/bin/sh", dup_out, none),
			 fmt("%d:named in the shell's command >&%d;", a, a));
	ck_assert_str_eq(chosen_for("/bin/sh", dup_in, none),
			 fmt("%d:named in the shell's command <&%d;", b, b));
	ck_assert_str_eq(chosen_for("/bin/sh", rc, none),
			 fmt("%d:named in the shell's command 1=%d;", a, a));
	ck_assert_str_eq(chosen_for("/bin/sh", opens, none), "");
	ck_assert_str_eq(chosen_for("/bin/sh", files, none),
			 fmt("%d:named in the shell's command <&%d;", b, b));
	ck_assert_str_eq(chosen_for("/bin/sh", low, none), "");
	ck_assert_str_eq(chosen_for("/bin/sh", script, none), "");
	/* The same text for a program that is not a shell. */
	ck_assert_str_eq(chosen_for("/bin/true", dup_out, none), "");
}
END_TEST

/* rc's >[M=N] and <[M=N] whole, and -c after other options, only. */
START_TEST(shell_text_edges)
{
	char *none[] = { NULL };
	char *rc_in[] = { "sh", "-c", fmt("cat <[0=%d]", a), NULL };
	char *later_c[] = { "sh", "-e", "-x", "-c", fmt("cat >&%d", a), NULL };
	char *not_rc[][4] = {
		{ "sh", "-c", fmt("cat >[=%d]", a), NULL },
		{ "sh", "-c", fmt("cat x[1=%d]", a), NULL },
		{ "sh", "-c", fmt("[1=%d]", a), NULL },
		{ "sh", "-c", fmt("cat >[1=%d", a), NULL },
		{ "sh", "-c", "cat >[1=2]", NULL },
		{ "sh", "-c", fmt("cat =%d", a), NULL },
		{ "sh", "-c", fmt("cat >>1=%d]", a), NULL },
	};
	char *not_text[][5] = {
		{ "sh", "-c", NULL },
		{ "sh", "-", fmt("cat >&%d", a), NULL },
		/* a script's own arguments: the options end at its name */
		{ "sh", "script", "-c", fmt("cat >&%d", a), NULL },
		/* and at --: a script named -c */
		{ "sh", "--", "-c", fmt("cat >&%d", a), NULL },
		/* a long option is no cluster, even one ending in c */
		{ "sh", "--norc", fmt("cat >&%d", a), NULL },
	};
	size_t i;

	ck_assert_str_eq(chosen_for("/bin/sh", rc_in, none),
			 fmt("%d:named in the shell's command 0=%d;", a, a));
	ck_assert_str_eq(chosen_for("/bin/sh", later_c, none),
			 fmt("%d:named in the shell's command >&%d;", a, a));
	for (i = 0; i < sizeof(not_rc) / sizeof(*not_rc); i++)
		ck_assert_msg(
			!strcmp(chosen_for("/bin/sh", not_rc[i], none), ""),
			"sh -c '%s': chosen", not_rc[i][2]);
	for (i = 0; i < sizeof(not_text) / sizeof(*not_text); i++)
		ck_assert_msg(
			!strcmp(chosen_for("/bin/sh", not_text[i], none), ""),
			"sh %s ...: chosen", not_text[i][1]);
}
END_TEST

/*
 * /etc/shells names a file by any name (rc.byron, tmux): each entry that
 * is the file's makes it listed; what is not a shell is told by what it
 * does (shell.h), not by its name.
 */
START_TEST(shells_file)
{
	char dir[] = "/tmp/cloexec-shells.XXXXXX", tmux[64], mysh[64];
	char other[64];
	char list[256];
	struct stat st, proc, sys;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(tmux, sizeof(tmux), "%s/tmux", dir);
	snprintf(mysh, sizeof(mysh), "%s/mysh", dir);
	fd = open(tmux, O_WRONLY | O_CREAT | O_CLOEXEC, 0700);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(link(tmux, mysh), 0);
	ck_assert_int_eq(stat(tmux, &st), 0);
	snprintf(list, sizeof(list), "# shells\n%s\n", tmux);
	ck_assert(shell_listed(list, &st));
	snprintf(list, sizeof(list), "# %s\n%s/other\n", tmux, dir);
	ck_assert(!shell_listed(list, &st));
	snprintf(list, sizeof(list), "# shells\n%s\n  \n%s \n", tmux, mysh);
	ck_assert(shell_listed(list, &st));
	snprintf(list, sizeof(list), "%s\n", "/bin/sh");
	ck_assert(!shell_listed(list, &st));
	/* Blanks and a CR after the path; no newline after the last. */
	snprintf(list, sizeof(list), "/bin/sh\n%s\t \r\n", tmux);
	ck_assert(shell_listed(list, &st));
	snprintf(list, sizeof(list), "/bin/sh\n%s", tmux);
	ck_assert(shell_listed(list, &st));
	/* A file on another device, and an empty line, before it. */
	snprintf(list, sizeof(list), "/dev/null\n\n%s\n", tmux);
	ck_assert(shell_listed(list, &st));
	/* execve(NULL, ...) names no file, let alone a shell. */
	ck_assert(!shell_path(NULL));
	/*
	 * The same inode number on another device is another file: proc's
	 * root and sysfs's are both inode 1 (where /sys is mounted).
	 */
	ck_assert_int_eq(stat("/proc", &proc), 0);
	if (stat("/sys", &sys) == 0 && sys.st_ino == proc.st_ino &&
	    sys.st_dev != proc.st_dev) {
		snprintf(list, sizeof(list), "/proc\n");
		ck_assert(!shell_listed(list, &sys));
	}
	/*
	 * Another file on the same device; a path that is not absolute,
	 * though from here it would name the shell.
	 */
	snprintf(other, sizeof(other), "%s/other", dir);
	fd = open(other, O_WRONLY | O_CREAT | O_CLOEXEC, 0700);
	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(list, sizeof(list), "%s\ntmux\n", other);
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert(!shell_listed(list, &st));
	ck_assert_int_eq(chdir("/"), 0);
	unlink(tmux);
	unlink(mysh);
	unlink(other);
	rmdir(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("exec");
	TCase *tc = tcase_create("named");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, options_ending_in_fd);
	tcase_add_test(tc, long_option_names);
	tcase_add_test(tc, argument_edges);
	tcase_add_test(tc, kept_fds_are_bounded);
	tcase_add_test(tc, other_argument_forms);
	tcase_add_test(tc, what_is_not_a_name);
	tcase_add_test(tc, socat_addresses);
	tcase_add_test(tc, handoff_rows);
	tcase_add_test(tc, cgi_takes_no_numbers);
	tcase_add_test(tc, shell_command_text);
	tcase_add_test(tc, shell_text_edges);
	tcase_add_test(tc, shells_file);
	tcase_add_test(tc, listen_fds_first_wins);
	tcase_add_test(tc, listen_fds_beyond_the_bound);
	tcase_add_test(tc, null_argv_or_environment);
	tcase_add_test(tc, make_jobserver);
	tcase_add_test(tc, environment_handovers);
	tcase_add_test(tc, every_environment_row);
	tcase_add_test(tc, an_empty_variable_at_a_page_end);
	tcase_add_test(tc, own_flag_is_never_chosen);
	tcase_add_test(tc, nothing_forced_nothing_read);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
