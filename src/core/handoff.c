/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "creds.h"
#include "export.h"
#include "fdtable.h"
#include "handoff.h"
#include "load.h"
#include "pid.h"
#include "shell.h"
#include "str.h"
#include "sys.h"

/*
 * What a fork child runs before its exec stays in this library (export.h,
 * CHILD_PATH): str.h's string helpers rather than libc's, and no loop
 * that GCC would turn into a call of libc's memcpy or strlen.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-loop-distribute-patterns")
#endif

CHILD_PATH static const char *str_find(const char *s, const char *needle,
				       size_t len)
{
	for (; *s; s++)
		if (str_starts(s, needle, len))
			return s;
	return NULL;
}

/*
 * The variables the rules read, found in one pass over the environment
 * (the first of each, as getenv finds it): an exec pays for each
 * variable once, however many rules there are.
 */
struct env_facts {
	const char *listen_fds, *listen_pid, *makeflags;
	bool cgi; /* GATEWAY_INTERFACE: a CGI program */
};

/* The value of e if it is NAME=value, else NULL. */
CHILD_PATH static const char *value_of(const char *e, const char *name,
				       size_t len)
{
	return str_starts(e, name, len) && e[len] == '=' ? e + len + 1 : NULL;
}

#define VALUE_OF(e, name) value_of(e, name, sizeof(name) - 1)

CHILD_PATH static void env_facts(char *const envp[], struct env_facts *f)
{
	const char *e, *v;

	*f = (struct env_facts){ NULL, NULL, NULL, false };
	for (; envp && (e = *envp); envp++) {
		switch (e[0]) {
		case 'L':
			if ((v = VALUE_OF(e, "LISTEN_FDS")) && !f->listen_fds)
				f->listen_fds = v;
			else if ((v = VALUE_OF(e, "LISTEN_PID")) &&
				 !f->listen_pid)
				f->listen_pid = v;
			break;
		case 'M':
			if ((v = VALUE_OF(e, "MAKEFLAGS")) && !f->makeflags)
				f->makeflags = v;
			break;
		case 'G':
			f->cgi |= VALUE_OF(e, "GATEWAY_INTERFACE") != NULL;
			break;
		}
	}
}

CHILD_PATH static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The number that starts s (-1 if none), and in *end where it stops:
 * whatever follows is the caller's to judge.
 */
CHILD_PATH static int parse_fd_prefix(const char *s, const char **end)
{
	long n = 0;

	if (!is_digit(*s))
		return -1;
	while (is_digit(*s) && n < 1000000000)
		n = n * 10 + (*s++ - '0');
	*end = s;
	return (int)n;
}

/* A reason, built without stdio: "named as " "--status-fd" " 16". */
struct why {
	char buf[EXEC_WHY_MAX];
	size_t len;
};

CHILD_PATH static void why_put(struct why *w, const char *s, size_t n)
{
	for (; n && *s && w->len < sizeof(w->buf) - 1; n--)
		w->buf[w->len++] = *s++;
	w->buf[w->len] = '\0';
}

CHILD_PATH static void why_num(struct why *w, int n)
{
	char tmp[12];
	int i = 0;

	do
		tmp[i++] = (char)('0' + n % 10);
	while (n /= 10);
	while (i && w->len < sizeof(w->buf) - 1)
		w->buf[w->len++] = tmp[--i];
	w->buf[w->len] = '\0';
}

const char *exec_kept_why(const struct exec_kept *k, int fd)
{
	unsigned i, bits, own;

	for (i = 0; k && i < k->n; i++)
		if (k->fd[i].fd == fd)
			return k->fd[i].why;
	/* In audit mode nothing is forced: the bits but that one. */
	own = k ? k->own & ~FDT_FORCED : 0;
	bits = k ? fdtable_get(fd) : 0;
	if (own && (bits & (own | FDT_DELIBERATE)) == own)
		return "made by this process, handed to its next image";
	/* Made through a wrapper in this image: forced, or left as it was. */
	if (k && k->shell && (bits & (FDT_FORCED | FDT_KEEP)) &&
	    !(bits & (FDT_INHERITED | FDT_DELIBERATE)))
		return "made by a shell (/etc/shells), for its commands";
	return NULL;
}

/*
 * The audit's one word for a reason of exec_kept_why (line.h), from
 * the words the rules below start their reasons with.
 */
const char *exec_why_word(const char *reason)
{
	/* Characters, not pointers: no relocation at load (policy.c). */
	static const struct {
		char prefix[24], word[12];
	} words[] = {
		{ "socket activation", "listen_fds" },
		{ "make's jobserver", "jobserver" },
		{ "named as /dev/fd/", "dev_fd" },
		{ "named as /proc/self/fd/", "dev_fd" },
		{ "named in ", "env" },
		{ "named as ", "argv" },
		{ "made by this process", "own_image" },
		{ "made by a shell", "shell" },
		{ "holds a lock", "lock" },
	};
	size_t i;

	for (i = 0; reason && i < sizeof(words) / sizeof(words[0]); i++)
		if (!strncmp(reason, words[i].prefix, strlen(words[i].prefix)))
			return words[i].word;
	return reason ? "rule" : NULL;
}

/*
 * A flag the library forced may be cleared only under the credentials
 * the fd was made with: a change that the wrappers saw has made every
 * earlier forced flag the program's (creds.h); one they did not see is
 * caught here, once per exec, and then no forced flag is cleared.
 */
CHILD_PATH bool handoff_may_clear_forced(struct exec_kept *k)
{
	if (!k->creds)
		k->creds = creds_unchanged() ? 1 : -1;
	return k->creds > 0;
}

/*
 * fd is named to the new program (the reason: what, then the number if
 * number_shown is one).  It is passed on if it is inheritable
 * already, or if its flag is one the library forced; a flag the program
 * set itself stays.  The first reason found is the one kept.
 */
CHILD_PATH static void choose(struct exec_kept *k, int fd, const char *what,
			      size_t what_len, int number_shown)
{
	struct why w = { .len = 0 };
	long flags;
	unsigned i;

	if (fd < 3 || k->n == EXEC_KEPT_MAX)
		return;
	for (i = 0; i < k->n; i++)
		if (k->fd[i].fd == fd)
			return;
	flags = sys_fcntl(fd, F_GETFD, 0);
	if (flags < 0 ||
	    ((flags & FD_CLOEXEC) &&
	     (!(fdtable_get(fd) & FDT_FORCED) || !handoff_may_clear_forced(k))))
		return;
	why_put(&w, what, what_len);
	if (number_shown >= 0)
		why_num(&w, number_shown);
	k->fd[k->n].fd = fd;
	k->fd[k->n].cleared = false;
	str_copy(k->fd[k->n].why, w.buf, w.len + 1);
	k->n++;
}

/*
 * systemd's socket activation: fds 3 .. 3 + LISTEN_FDS - 1, for the
 * process LISTEN_PID names, which is this one when the activator forked
 * and set it before exec.  A stale pair inherited by some other process
 * names another pid and is left alone.
 */
CHILD_PATH static void keep_listen_fds(const struct env_facts *env,
				       struct exec_kept *k)
{
	const char *fds = env->listen_fds;
	const char *pid = env->listen_pid;
	const char *end;
	long self = sys_call(SYS_getpid, 0, 0, 0, 0, 0);
	int n, i;

	if (!fds || (n = parse_fd_prefix(fds, &end)) <= 0 || *end || !pid)
		return;
	if (parse_fd_prefix(pid, &end) != self || *end)
		return;
	for (i = 0; i < n && i < EXEC_KEPT_MAX; i++)
		choose(k, 3 + i, "socket activation (LISTEN_FDS)", 31, -1);
}

CHILD_PATH static bool is_pipe(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

/*
 * make's jobserver: the last --jobserver-auth=R,W (or -fds) wins.
 * MAKEFLAGS reaches every descendant of make, long after the numbers stop
 * meaning anything: the pair counts only while it is a pair of pipes this
 * process was given, which it then passes on.  (make itself clears the
 * flag on its own jobserver pipe before a recursive recipe.)
 */
CHILD_PATH static void keep_jobserver(const struct env_facts *env,
				      struct exec_kept *k)
{
	static const char options[][20] = { "--jobserver-auth=",
					    "--jobserver-fds=" };
	const char *flags = env->makeflags, *p, *end;
	int r = -1, w = -1, i;

	for (i = 0; flags && i < 2; i++) {
		for (p = flags;
		     (p = str_find(p, options[i], str_len(options[i])));
		     p = end) {
			p += str_len(options[i]);
			end = p;
			r = parse_fd_prefix(p, &end);
			if (r >= 0 && *end == ',')
				w = parse_fd_prefix(end + 1, &end);
		}
	}
	if (r < 3 || w < 3 || !is_pipe(r) || !is_pipe(w) ||
	    !(fdtable_get(r) & fdtable_get(w) & FDT_INHERITED))
		return;
	choose(k, r, "make's jobserver (MAKEFLAGS)", 28, -1);
	choose(k, w, "make's jobserver (MAKEFLAGS)", 28, -1);
}

/* "fd" or "fds" ends the option's name, in either case. */
CHILD_PATH static bool names_fd(const char *name, size_t len)
{
	if (len >= 3 && (name[len - 1] | 0x20) == 's')
		len--;
	return len >= 2 && (name[len - 2] | 0x20) == 'f' &&
	       (name[len - 1] | 0x20) == 'd';
}

/* "N" or "N,M,...": each number chosen; anything else, nothing. */
CHILD_PATH static void choose_list(struct exec_kept *k, const char *list,
				   const char *what, size_t what_len)
{
	const char *p, *end;
	int fd;

	/* All of it numbers, or it is not a list of fds. */
	for (p = list; parse_fd_prefix(p, &end) >= 0 && *end == ',';
	     p = end + 1)
		;
	if (parse_fd_prefix(p, &end) < 0 || *end)
		return;
	for (p = list;; p = end + 1) {
		fd = parse_fd_prefix(p, &end);
		choose(k, fd, what, what_len, fd);
		if (!*end)
			return;
	}
}

/* In arg, each PREFIXN that ends there or at a character not a digit. */
/*
 * The number after prefix (len bytes, at p), if one follows it; where to
 * look on.
 */
CHILD_PATH static const char *choose_after(struct exec_kept *k, const char *p,
					   const char *prefix, size_t len)
{
	const char *end;
	int fd = parse_fd_prefix(p + len, &end);

	if (fd >= 0) {
		char what[EXEC_WHY_MAX] = "named as ";

		str_copy(what + 9, prefix, len);
		choose(k, fd, what, 9 + len, fd);
	}
	return p + len - 1;
}

/*
 * In arg, each /dev/fd/N and /proc/self/fd/N, and fd=N at its start or
 * after a comma (each N that ends there or at a character not a digit):
 * one pass over it.
 */
CHILD_PATH static void choose_in(struct exec_kept *k, const char *arg)
{
	const char *p;

	for (p = arg; *p; p++) {
		if (*p == '/' && str_starts(p, "/dev/fd/", 8))
			p = choose_after(k, p, "/dev/fd/", 8);
		else if (*p == '/' && str_starts(p, "/proc/self/fd/", 14))
			p = choose_after(k, p, "/proc/self/fd/", 14);
		else if (*p == 'f' && (p == arg || p[-1] == ',') &&
			 str_starts(p, "fd=", 3))
			p = choose_after(k, p, "fd=", 3);
	}
}

/* "named as " then the argument's first len bytes, then sep. */
CHILD_PATH static size_t named_as(char what[EXEC_WHY_MAX], const char *arg,
				  size_t len, char sep)
{
	if (len > 30)
		len = 30;
	str_copy(what, "named as ", 9);
	str_copy(what + 9, arg, len);
	what[9 + len] = sep;
	return 10 + len;
}

enum handoff_form { HO_NEXT, HO_VALUE, HO_PREFIX, HO_BARE };

/* The rows of handoff.def, as characters: no relocation at load. */
static const struct handoff {
	char program[16], option[20];
	uint8_t form;
} handoffs[] = {
#define HANDOFF(program, option, form, example) { program, option, form },
#include "handoff.def"
#undef HANDOFF
};

CHILD_PATH static const char *file_name(const char *path)
{
	const char *name = path;

	for (; path && *path; path++)
		if (*path == '/')
			name = path + 1;
	return name;
}

CHILD_PATH static bool starts_nocase(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if ((*s | 0x20) != (*prefix | 0x20))
			return false;
	return true;
}

/* The first letters of the rows' programs, as bits (as row_initials). */
static const uint32_t program_initials = 0
#define HANDOFF(program, option, form, example) | (1u << ((program)[0] & 31))
#include "handoff.def"
#undef HANDOFF
	;

static bool may_be_row(const char *name)
{
	return name && (program_initials & (1u << (name[0] & 31)));
}

/* The rows for the new program, on each argument. */
CHILD_PATH static void keep_handoffs(char *const argv[], const char *path,
				     struct exec_kept *k)
{
	const char *names[2] = { file_name(path), argv ? file_name(argv[0]) : 0 };
	const char *arg, *end;
	char what[EXEC_WHY_MAX];
	size_t i, len, n;
	int fd;

	if (!may_be_row(names[0]) && !may_be_row(names[1]))
		return;
	for (i = 0; i < sizeof(handoffs) / sizeof(*handoffs); i++) {
		const struct handoff *h = &handoffs[i];

		if ((!names[0] || !str_eq(names[0], h->program)) &&
		    (!names[1] || !str_eq(names[1], h->program)))
			continue;
		len = str_len(h->option);
		for (n = 1; argv && argv[0] && argv[n]; n++) {
			arg = argv[n];
			switch (h->form) {
			case HO_BARE:
				fd = parse_fd_prefix(arg, &end);
				if (fd >= 0 && !*end)
					choose(k, fd, "named as the address ",
					       21, fd);
				break;
			case HO_PREFIX:
				if (!starts_nocase(arg, h->option))
					break;
				fd = parse_fd_prefix(arg + len, &end);
				if (fd >= 0)
					choose(k, fd, what,
					       named_as(what, arg, len, ' '),
					       fd);
				break;
			default:
				if (!str_starts(arg, h->option, len))
					break;
				if (!arg[len] && argv[n + 1])
					choose_list(k, argv[n + 1], what,
						    named_as(what, arg, len,
							     ' '));
				else if (arg[len] == '=' && h->form == HO_VALUE)
					choose_list(k, arg + len + 1, what,
						    named_as(what, arg, len,
							     '='));
			}
		}
	}
}

/*
 * Numbers the arguments name as fds: /dev/fd/N and /proc/self/fd/N
 * anywhere in an argument, --name-fd N, --name-fd=N and -namefd N (the
 * name ends in "fd" or "fds", the value is N or N,M,...), gpg's -&N,
 * openssl's fd:N, qemu's fd=N in a comma-separated list.
 */
CHILD_PATH static void keep_named_args(char *const argv[], struct exec_kept *k)
{
	const char *arg, *name, *eq, *end;
	char what[EXEC_WHY_MAX];
	size_t len;
	int fd;

	for (; argv && *argv; argv++) {
		arg = *argv;
		choose_in(k, arg);
		if (starts_nocase(arg, "fd:") &&
		    (fd = parse_fd_prefix(arg + 3, &end)) >= 0 && !*end)
			choose(k, fd, "named as fd:", 12, fd);
		if (arg[0] != '-')
			continue;
		if (arg[1] == '&' &&
		    (fd = parse_fd_prefix(arg + 2, &end)) >= 0 && !*end) {
			choose(k, fd, "named as -&", 11, fd);
			continue;
		}
		for (name = arg; *name == '-'; name++)
			;
		eq = str_chr(name, '=');
		len = eq ? (size_t)(eq - name) : str_len(name);
		if (!names_fd(name, len))
			continue;
		len += (size_t)(name - arg);
		if (eq)
			choose_list(k, eq + 1, what,
				    named_as(what, arg, len, '='));
		else if (argv[1])
			choose_list(k, argv[1], what,
				    named_as(what, arg, len, ' '));
	}
}

CHILD_PATH static bool starts(const char *s, const char *prefix)
{
	return str_starts(s, prefix, str_len(prefix));
}

enum handoff_env_form { HO_ITEMS, HO_FD_ITEMS };

static const struct handoff_env {
	char name[24];
	uint8_t form;
} handoff_envs[] = {
#define HANDOFF_ENV(name, form, example) { name, form },
#include "handoff.def"
#undef HANDOFF_ENV
};

/*
 * The first letters of the rows' names, as bits: most variables start
 * with none of them, and are not compared with any row.
 */
static const uint32_t row_initials = 0
#define HANDOFF_ENV(name, form, example) | (1u << ((name)[0] & 31))
#include "handoff.def"
#undef HANDOFF_ENV
	;

/* e's row, if its name is one: "NAME=" whole, or a prefix "NAME_". */
CHILD_PATH static const struct handoff_env *env_row(const char *e,
						    const char *eq)
{
	size_t i, len;

	if (!(row_initials & (1u << (e[0] & 31))))
		return NULL;
	for (i = 0; i < sizeof(handoff_envs) / sizeof(*handoff_envs); i++) {
		if (e[0] != handoff_envs[i].name[0])
			continue;
		len = str_len(handoff_envs[i].name);
		if (str_starts(e, handoff_envs[i].name, len) &&
		    (handoff_envs[i].name[len - 1] == '_' || e + len == eq))
			return &handoff_envs[i];
	}
	return NULL;
}

/*
 * Numbers the environment names as fds: the rows of handoff.def, and a
 * variable named for them (its name has "FD" in it: UWSGI_EMPEROR_FD,
 * EINHORN_FDS, GUNICORN_FD), whose items are read as HO_ITEMS.  LISTEN_*
 * has its own rule, with the pid.  With untrusted set (a CGI program),
 * no HTTP_* variable: their names are the request's header names.
 */
CHILD_PATH static void keep_named_env(char *const envp[], bool untrusted,
				      struct exec_kept *k)
{
	const struct handoff_env *row;
	const char *e, *eq, *p, *item, *end;
	bool named;
	int fd;

	for (; envp && *envp; envp++) {
		e = *envp;
		/* The name only: a value is read where its name asks. */
		named = false;
		for (eq = e; *eq && *eq != '='; eq++)
			named |= eq[0] == 'F' && eq[1] == 'D';
		if (!*eq || (e[0] == 'L' && starts(e, "LISTEN_")) ||
		    (untrusted && starts(e, "HTTP_")))
			continue;
		row = env_row(e, eq);
		if (!named && !row)
			continue;
		for (p = eq + 1; *p;) {
			item = p;
			while (*p && !str_chr(",;|: \t\n", *p))
				p++;
			end = p;
			if (*p)
				p++;
			if (row && row->form == HO_FD_ITEMS) {
				if (!starts(item, "fd="))
					continue;
				item += 3;
			} else {
				const char *q;

				for (q = item; q < end; q++)
					if (*q == '=')
						item = q + 1;
			}
			fd = parse_fd_prefix(item, &item);
			if (fd >= 0 && item == end) {
				struct why w = { .len = 0 };

				why_put(&w, "named in ", 9);
				why_put(&w, e, (size_t)(eq - e));
				choose(k, fd, w.buf, w.len, -1);
			}
		}
	}
}

/* The lock rule: an fd through which the program holds a lock. */
CHILD_PATH static void keep_locked(int fd, void *ctx)
{
	choose(ctx, fd, "holds a lock", 12, -1);
}

/*
 * Rule 1 is for a process that execs in place what it made itself.  The
 * image's own process hands on all it made; a fork child the library saw
 * (whose table lost what its parent made: fdtable_forget_here) the copies
 * it made between its fork and its exec: dup()s of a pipe end or a socket
 * for the program it execs.  Not what else it made there, which may be
 * its own plumbing (socat's child makes a socketpair for its messages
 * before it execs).  Not a child that shares this memory (vfork,
 * posix_spawn) or that no fork handler saw (a raw clone): its pid is not
 * one the library keeps.  Not in a setuid process: what it execs may be
 * its caller's choice, and what it opened is not the caller's to have.
 * The bits the handed-on fds have, or 0.
 */
CHILD_PATH static uint8_t own_marks(enum exec_as as, bool secure)
{
	long pid;

	if (as != EXEC_AS_SELF || secure)
		return 0;
	pid = pid_raw();
	if (pid == pid_image())
		return FDT_FORCED | FDT_HERE;
	return pid == pid_own() ? FDT_FORCED | FDT_HERE | FDT_COPY : 0;
}

/*
 * The shell rule: in a shell, every fd it left without the flag is for
 * its commands (exec 3<file; cmd 3>lock).  Asked only where a flag the
 * library forced is there to clear, or for the audit: it reads
 * /etc/shells, once an image.
 */
CHILD_PATH static bool is_shell(enum exec_as as, bool secure, bool reporting,
				bool forced)
{
	if (secure || !policy_get()->shell_rule)
		return false;
	return (reporting || forced) && shell_image(as != EXEC_AS_VFORK_CHILD);
}

CHILD_PATH void handoff_choose(char *const argv[], char *const envp[],
			       const char *path, enum exec_as as,
			       bool reporting, bool forced, struct exec_kept *k)
{
	struct env_facts env;

	k->own = own_marks(as, k->secure);
	k->shell = is_shell(as, k->secure, reporting, forced);
	if (!k->secure) {
		env_facts(envp, &env);
		keep_listen_fds(&env, k);
		keep_jobserver(&env, k);
		/* A CGI program's arguments are the request's query string. */
		if (!env.cgi) {
			keep_named_args(argv, k);
			keep_handoffs(argv, path, k);
		}
		keep_named_env(envp, env.cgi, k);
		fdtable_for_each_with_any(
			as == EXEC_AS_SELF ? FDT_LOCK_FILE | FDT_LOCK_PROC :
					     FDT_LOCK_FILE,
			keep_locked, k);
	}
}
