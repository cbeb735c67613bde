/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <limits.h>
#include <sys/stat.h>

#include "creds.h"
#include "export.h"
#include "fdtable.h"
#include "handoff.h"
#include "image.h"
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
	bool rows; /* a variable may be a row of handoff.def's */
};

/* The initials of the variables above: most variables have none. */
#define FACT_INITIALS \
	((1u << ('L' & 31)) | (1u << ('M' & 31)) | (1u << ('G' & 31)))

/*
 * The first letters of the names of handoff.def's variables, as bits
 * (and their first two, below): most variables start with neither, and
 * are not compared with any row.
 */
static const uint32_t row_initials = 0
#define HANDOFF_ENV(name, form, example) | (1u << ((name)[0] & 31))
#include "handoff.def"
#undef HANDOFF_ENV
	;
#define ENV_INITIALS (FACT_INITIALS | row_initials)

/*
 * The first two letters of the rows' names, as bits of a hash (a row's
 * name has two letters at least).
 */
#define PAIR_BIT(a, b) ((((a)&31) * 3 + ((b)&31)) & 63)
#define HANDOFF_ENV(name, form, example) \
	_Static_assert(sizeof(name) > 2, "a row's name has two letters");
#include "handoff.def"
#undef HANDOFF_ENV
static const uint64_t row_pairs = 0
#define HANDOFF_ENV(name, form, example) \
	| (1ull << PAIR_BIT((name)[0], (name)[1]))
#include "handoff.def"
#undef HANDOFF_ENV
	;

CHILD_PATH static bool may_be_row(const char *e)
{
	return (row_initials & (1u << (e[0] & 31))) &&
	       (row_pairs & (1ull << PAIR_BIT(e[0], e[1])));
}

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
	uint32_t initial;

	*f = (struct env_facts){ NULL, NULL, NULL, false, false };
	for (; envp && (e = *envp); envp++) {
		initial = 1u << (e[0] & 31);
		/* Most variables start as no fact and no row does. */
		if (__builtin_expect(!(initial & ENV_INITIALS), 1))
			continue;
		if (may_be_row(e))
			f->rows = true;
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
			if (VALUE_OF(e, "GATEWAY_INTERFACE"))
				f->cgi = true;
			break;
		}
	}
}

CHILD_PATH static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The number that starts s (-1 if none, or past an int's range: no fd,
 * and not the one it would wrap to), and in *end where it stops, s
 * itself where no digit starts it: whatever follows is the caller's to
 * judge.
 */
CHILD_PATH static int parse_fd_prefix(const char *s, const char **end)
{
	long long n = 0;

	*end = s;
	if (!is_digit(*s))
		return -1;
	while (is_digit(*s) && n <= INT_MAX)
		n = n * 10 + (*s++ - '0');
	*end = s;
	return n > INT_MAX ? -1 : (int)n;
}

/* A reason, built without stdio: "named as " "--status-fd" " 16". */
struct reason {
	char buf[HANDOFF_WHY_MAX];
	size_t len;
};

CHILD_PATH static void reason_put(struct reason *r, const char *s, size_t n)
{
	for (; n && *s && r->len < sizeof(r->buf) - 1; n--)
		r->buf[r->len++] = *s++;
	r->buf[r->len] = '\0';
}

CHILD_PATH static void reason_num(struct reason *r, int n)
{
	char tmp[12];
	int i = 0;

	do
		tmp[i++] = (char)('0' + n % 10);
	while (n /= 10);
	while (i && r->len < sizeof(r->buf) - 1)
		r->buf[r->len++] = tmp[--i];
	r->buf[r->len] = '\0';
}

enum why handoff_kept_why(const struct handoff_kept *k, int fd,
			  const char **reason)
{
	unsigned i, bits, own;

	for (i = 0; k && i < k->n; i++) {
		if (k->fd[i].fd == fd) {
			*reason = k->fd[i].reason;
			return (enum why)k->fd[i].why;
		}
	}
	/* In audit mode nothing is forced: the bits but that one. */
	own = k ? k->own & ~FDT_FORCED : 0;
	bits = k ? fdtable_get(fd) : 0;
	if (own && (bits & (own | FDT_DELIBERATE)) == own) {
		*reason = why_text(WHY_OWN_IMAGE);
		return WHY_OWN_IMAGE;
	}
	/* Made through a wrapper in this image: forced, or left as it was. */
	if (k && k->shell && (bits & (FDT_FORCED | FDT_KEEP)) &&
	    !(bits & (FDT_INHERITED | FDT_DELIBERATE))) {
		*reason = why_text(WHY_SHELL);
		return WHY_SHELL;
	}
	*reason = NULL;
	return WHY_NONE;
}

/*
 * A flag the library forced may be cleared only under the credentials
 * the fd was made with: a change that the wrappers saw has made every
 * earlier forced flag the program's (creds.h); one they did not see is
 * caught here, once per exec, and then no forced flag is cleared.
 */
CHILD_PATH bool handoff_may_clear_forced(struct handoff_kept *k)
{
	if (!k->creds)
		k->creds = creds_unchanged() ? 1 : -1;
	return k->creds > 0;
}

/*
 * fd is named to the new program, by the rule of row why (its text, then
 * detail, then the number if number_shown is one).  It is passed on if it
 * is inheritable already, or if its flag is one the library forced; a
 * flag the program set itself stays.  The first reason found is the one
 * kept.
 */
CHILD_PATH static void choose(struct handoff_kept *k, int fd, enum why why,
			      const char *detail, size_t detail_len,
			      int number_shown)
{
	struct reason r = { .len = 0 };
	const char *text = why_text(why);
	long flags;
	unsigned i;

	if (fd < 3 || k->n == HANDOFF_KEPT_MAX)
		return;
	for (i = 0; i < k->n; i++)
		if (k->fd[i].fd == fd)
			return;
	flags = sys_fcntl(fd, F_GETFD, 0);
	if (flags < 0 ||
	    ((flags & FD_CLOEXEC) &&
	     (!(fdtable_get(fd) & FDT_FORCED) || !handoff_may_clear_forced(k))))
		return;
	reason_put(&r, text, str_len(text));
	reason_put(&r, detail, detail_len);
	if (number_shown >= 0)
		reason_num(&r, number_shown);
	k->fd[k->n].fd = fd;
	k->fd[k->n].cleared = false;
	k->fd[k->n].why = (uint8_t)why;
	str_copy(k->fd[k->n].reason, r.buf, r.len + 1);
	k->n++;
}

/*
 * systemd's socket activation: fds 3 .. 3 + LISTEN_FDS - 1, for the
 * process LISTEN_PID names, which is this one when the activator forked
 * and set it before exec.  A stale pair inherited by some other process
 * names another pid and is left alone.
 */
CHILD_PATH static void keep_listen_fds(const struct env_facts *env,
				       struct handoff_kept *k)
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
	for (i = 0; i < n && i < HANDOFF_KEPT_MAX; i++)
		choose(k, 3 + i, WHY_LISTEN_FDS, "", 0, -1);
}

CHILD_PATH static bool is_pipe(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* The value of a MAKEFLAGS word that names the jobserver, else NULL. */
CHILD_PATH static const char *jobserver_value(const char *word)
{
	if (!str_starts(word, "--jobserver-", 12))
		return NULL;
	word += 12;
	if (str_starts(word, "auth=", 5))
		return word + 5;
	return str_starts(word, "fds=", 4) ? word + 4 : NULL;
}

/*
 * make's jobserver: the last --jobserver-auth=R,W (or -fds) among the
 * words of MAKEFLAGS (a space in a word is escaped with '\'), up to the
 * word "--": the command line's variables follow it, and a value of one
 * is no option.  MAKEFLAGS reaches every descendant of make, long after
 * the numbers stop meaning anything: the pair counts only while it is a
 * pair of pipes this process was given, which it then passes on.  (make
 * itself clears the flag on its own jobserver pipe before a recursive
 * recipe.)
 */
CHILD_PATH static void keep_jobserver(const struct env_facts *env,
				      struct handoff_kept *k)
{
	const char *p = env->makeflags, *v, *end;
	int r = -1, w = -1;

	while (p) {
		while (*p == ' ')
			p++;
		if (!*p ||
		    (p[0] == '-' && p[1] == '-' && (!p[2] || p[2] == ' ')))
			break;
		if ((v = jobserver_value(p))) {
			r = parse_fd_prefix(v, &end);
			/* W is its own R's: without ",W" this one has none. */
			w = parse_fd_prefix(*end == ',' ? end + 1 : "", &end);
		}
		for (; *p && *p != ' '; p++)
			if (*p == '\\' && p[1])
				p++;
	}
	if (r < 3 || w < 3 || !is_pipe(r) || !is_pipe(w) ||
	    !(fdtable_get(r) & fdtable_get(w) & FDT_INHERITED))
		return;
	choose(k, r, WHY_JOBSERVER, "", 0, -1);
	choose(k, w, WHY_JOBSERVER, "", 0, -1);
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
CHILD_PATH static void choose_list(struct handoff_kept *k, const char *list,
				   enum why why, const char *what,
				   size_t what_len)
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
		choose(k, fd, why, what, what_len, fd);
		if (!*end)
			return;
	}
}

/*
 * The number after prefix (len bytes, at p), if one follows it; where to
 * look on.
 */
CHILD_PATH static const char *choose_after(struct handoff_kept *k,
					   const char *p, enum why why,
					   const char *prefix, size_t len)
{
	const char *end;
	int fd = parse_fd_prefix(p + len, &end);

	if (fd >= 0)
		choose(k, fd, why, prefix, len, fd);
	return p + len - 1;
}

/*
 * In arg, each /dev/fd/N and /proc/self/fd/N, and fd=N at its start or
 * after a comma (each N that ends there or at a character not a digit):
 * one pass over it.
 */
CHILD_PATH static void choose_in(struct handoff_kept *k, const char *arg)
{
	const char *p;

	for (p = arg; *p; p++) {
		if (*p == '/' && str_starts(p, "/dev/fd/", 8))
			p = choose_after(k, p, WHY_DEV_FD, "/dev/fd/", 8);
		else if (*p == '/' && str_starts(p, "/proc/self/fd/", 14))
			p = choose_after(k, p, WHY_DEV_FD, "/proc/self/fd/",
					 14);
		else if (*p == 'f' && (p == arg || p[-1] == ',') &&
			 str_starts(p, "fd=", 3))
			p = choose_after(k, p, WHY_ARGV, "fd=", 3);
	}
}

/* The argument's first len bytes (at most 30), then sep, into what. */
CHILD_PATH static size_t named_as(char what[HANDOFF_WHY_MAX], const char *arg,
				  size_t len, char sep)
{
	if (len > 30)
		len = 30;
	str_copy(what, arg, len);
	what[len] = sep;
	return len + 1;
}

CHILD_PATH static bool starts_nocase(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if ((*s | 0x20) != (*prefix | 0x20))
			return false;
	return true;
}

/*
 * Numbers the arguments name as fds: /dev/fd/N and /proc/self/fd/N
 * anywhere in an argument, --name-fd N, --name-fd=N and -namefd N (the
 * name ends in "fd" or "fds", the value is N or N,M,...), gpg's -&N,
 * openssl's fd:N, qemu's fd=N in a comma-separated list.
 */
CHILD_PATH static void keep_named_args(char *const argv[],
				       struct handoff_kept *k)
{
	const char *arg, *name, *eq, *end;
	char what[HANDOFF_WHY_MAX];
	size_t len;
	int fd;

	for (; argv && *argv; argv++) {
		arg = *argv;
		choose_in(k, arg);
		if (starts_nocase(arg, "fd:") &&
		    (fd = parse_fd_prefix(arg + 3, &end)) >= 0 && !*end)
			choose(k, fd, WHY_ARGV, "fd:", 3, fd);
		if (arg[0] != '-')
			continue;
		if (arg[1] == '&' &&
		    (fd = parse_fd_prefix(arg + 2, &end)) >= 0 && !*end) {
			choose(k, fd, WHY_ARGV, "-&", 2, fd);
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
			choose_list(k, eq + 1, WHY_ARGV, what,
				    named_as(what, arg, len, '='));
		else if (argv[1])
			choose_list(k, argv[1], WHY_ARGV, what,
				    named_as(what, arg, len, ' '));
	}
}

/* The rows of handoff.def, as characters: no relocation at load. */
enum handoff_options { HO_EQUALS, HO_SPACED, HO_JOINED };
enum handoff_operands { HO_COMMAND, HO_SOCAT, HO_OTHER };
#define HO_MAYBE (-1)

static const struct handoff_program {
	char program[16];
	uint8_t options, operands;
} handoff_programs[] = {
#define HANDOFF_PROGRAM(program, options, operands)                            \
	{ program, options, operands },
#include "handoff.def"
#undef HANDOFF_PROGRAM
};

static const struct handoff_option {
	char program[16], option[20];
	int8_t values;
	uint8_t fd;
} handoff_options[] = {
#define HANDOFF(program, option, values, fd, example)                          \
	{ program, option, values, fd },
#include "handoff.def"
#undef HANDOFF
};

static const struct handoff_child {
	char program[16], option[12];
} handoff_children[] = {
#define HANDOFF_CHILD(program, option, example) { program, option },
#include "handoff.def"
#undef HANDOFF_CHILD
};

/* The first letters of the rows' programs, as bits. */
static const uint32_t program_initials = 0
#define HANDOFF_PROGRAM(program, options, operands)                            \
	| (1u << ((program)[0] & 31))
#include "handoff.def"
#undef HANDOFF_PROGRAM
	;

/* The row of the program named, or NULL. */
CHILD_PATH static const struct handoff_program *
program_row(const char *name)
{
	size_t i;

	if (!name || !(program_initials & (1u << (name[0] & 31))))
		return NULL;
	for (i = 0; i < sizeof(handoff_programs) / sizeof(*handoff_programs);
	     i++)
		if (str_eq(name, handoff_programs[i].program))
			return &handoff_programs[i];
	return NULL;
}

/*
 * The row of the option arg is, for program p, or NULL; *joined: its
 * value written in arg itself (--option=VALUE, -T5), else NULL.
 */
CHILD_PATH static const struct handoff_option *
option_row(const struct handoff_program *p, const char *arg,
	   const char **joined)
{
	const struct handoff_option *o;
	size_t i, len;

	for (i = 0; i < sizeof(handoff_options) / sizeof(*handoff_options);
	     i++) {
		o = &handoff_options[i];
		if (!str_eq(o->program, p->program))
			continue;
		len = str_len(o->option);
		if (!str_starts(arg, o->option, len))
			continue;
		*joined = NULL;
		if (!arg[len])
			return o;
		if (p->options == HO_EQUALS && arg[len] == '=')
			*joined = arg + len + 1;
		else if (p->options == HO_JOINED)
			*joined = arg + len;
		if (*joined)
			return o;
	}
	return NULL;
}

/*
 * One of socat's addresses, or two joined by "!!": FD:N (then its end or
 * an option's ',') or N alone names fd N.
 */
CHILD_PATH static void choose_socat_address(struct handoff_kept *k,
					    const char *arg)
{
	char what[HANDOFF_WHY_MAX];
	const char *p = arg, *end;
	int fd;

	for (;;) {
		if ((fd = parse_fd_prefix(p, &end)) >= 0 &&
		    (!*end || str_starts(end, "!!", 2)))
			choose(k, fd, WHY_ARGV, "the address ", 12, fd);
		else if (starts_nocase(p, "fd:") &&
			 (fd = parse_fd_prefix(p + 3, &end)) >= 0 &&
			 (!*end || *end == ',' || str_starts(end, "!!", 2)))
			choose(k, fd, WHY_ARGV, what, named_as(what, p, 3, ' '),
			       fd);
		p = str_find(p, "!!", 2);
		if (!p)
			return;
		p += 2;
	}
}

/*
 * The values of option o (values of them; the first, joined, may be in
 * its own argument), at argv[*n] on: the one row o names an fd by is
 * chosen.  *n moves to the last value.
 */
CHILD_PATH static void option_values(struct handoff_kept *k, char *const argv[],
				     size_t *n, const struct handoff_option *o,
				     const char *joined)
{
	char what[HANDOFF_WHY_MAX];
	const char *value;
	int i, values = o->values;

	if (values == HO_MAYBE)
		values = joined || (argv[*n + 1] && argv[*n + 1][0] != '-');
	for (i = 1; i <= values; i++) {
		value = i == 1 && joined ? joined : argv[++*n];
		if (!value)
			return;
		if (i == o->fd)
			choose_list(k, value, WHY_ARGV, what,
				    named_as(what, o->option,
					     str_len(o->option),
					     joined ? '=' : ' '));
	}
}

/*
 * The rows of the new program, on its command line read as it reads it:
 * options first, with the values their rows say they take, up to "--" or
 * the first operand.
 */
CHILD_PATH static void keep_handoffs(char *const argv[], const char *path,
				     struct handoff_kept *k)
{
	const struct handoff_program *p =
		path ? program_row(str_file_name(path)) : NULL;
	const struct handoff_option *o;
	const char *arg, *joined;
	bool options = true;
	size_t n, addresses = 0;

	if (!p && argv && argv[0])
		p = program_row(str_file_name(argv[0]));
	if (!p || !argv || !argv[0])
		return;
	for (n = 1; argv[n]; n++) {
		arg = argv[n];
		if (options && str_eq(arg, "--")) {
			options = false;
			if (p->operands == HO_COMMAND)
				return;
			continue;
		}
		if (options && arg[0] == '-' && arg[1]) {
			if ((o = option_row(p, arg, &joined)))
				option_values(k, argv, &n, o, joined);
			if (!argv[n])
				return;
			continue;
		}
		if (p->operands == HO_COMMAND)
			return;
		if (p->operands == HO_SOCAT) {
			options = false;
			if (addresses++ < 2)
				choose_socat_address(k, arg);
		}
	}
}

/*
 * Whether this image is a program of handoff_children, by its name: 1
 * yes, -1 no, 0 not asked.  The parent asks at its first fork that finds
 * a flag the library forced (handoff_before_fork), and every child after
 * has the answer; a child that finds none asks for itself.
 */
static _Atomic signed char image_is_parent_row STARTUP_DATA;

CHILD_PATH static bool image_named_in_children(char *const *argv)
{
	const char *name;
	size_t i;

	if (!argv || !argv[0])
		return false;
	name = str_file_name(argv[0]);
	for (i = 0; i < sizeof(handoff_children) / sizeof(*handoff_children);
	     i++)
		if (str_eq(name, handoff_children[i].program))
			return true;
	return false;
}

/*
 * The running program's own arguments, where its row says they name fds
 * for its children (socat's address options fdin=N and fdout=N): an exec
 * or spawn of that image's processes, which socat makes to run the
 * program of such an address, with the fd moved to N beforehand (or
 * found there already, the number the kernel chose: then no dup2 says
 * so).  An option follows a ',' (TYPE:PARAMS,OPTION,...) and its number
 * ends the address, meets the next option, or a dual address's "!!";
 * after a ':' it is a parameter (system:fdout=3:y runs that text).
 */
CHILD_PATH static void keep_parent_named(struct handoff_kept *k)
{
	char *const *argv = image_argv(), *const *a;
	const struct handoff_child *c;
	const char *p, *end, *name;
	char what[HANDOFF_WHY_MAX];
	signed char was;
	size_t i, len;
	int fd;

	was = atomic_load_explicit(&image_is_parent_row, memory_order_relaxed);
	if (was < 0 || (!was && !image_named_in_children(argv)))
		return;
	name = str_file_name(argv[0]);
	for (i = 0; i < sizeof(handoff_children) / sizeof(*handoff_children);
	     i++) {
		c = &handoff_children[i];
		if (!str_eq(name, c->program))
			continue;
		len = str_len(c->option);
		for (a = argv + 1; *a; a++) {
			for (p = *a; (p = str_find(p, c->option, len));
			     p += len) {
				if (p == *a || p[-1] != ',')
					continue;
				fd = parse_fd_prefix(p + len, &end);
				if (fd >= 0 &&
				    (!*end || *end == ',' || *end == '!'))
					choose(k, fd, WHY_PARENT_ARGV, what,
					       named_as(what, c->option,
							len - 1, '='),
					       fd);
			}
		}
	}
}

/*
 * A shell's command text (sh -c TEXT, and the -c of an option cluster:
 * -ec, -xc) names each fd it duplicates from: >&N and <&N (rc: >[M=N]).
 * N is where the text expects an open fd, as `cat >&6`; a number the
 * shell opens into (6>file) needs nothing.  The new program must be a
 * file /etc/shells lists, which is asked only once the text names one.
 */
CHILD_PATH static const char *shell_text(char *const argv[])
{
	const char *arg;
	size_t n, len;

	for (n = 1; argv && argv[0] && (arg = argv[n]); n++) {
		if (arg[0] != '-' || arg[1] == '-')
			return NULL;
		len = str_len(arg);
		if (len > 1 && arg[len - 1] == 'c') {
			/* glibc's system() runs sh -c -- TEXT. */
			if (argv[n + 1] && str_eq(argv[n + 1], "--"))
				n++;
			return argv[n + 1];
		}
	}
	return NULL;
}

/*
 * The fd a redirection reads from, if p (in text) is just after one's
 * '&' (>&N, <&N) or '=' (rc's >[M=N], <[M=N]); else -1.
 */
CHILD_PATH static int duplicated(const char *p, const char *text)
{
	const char *q, *end;
	int fd;

	if (p - text >= 2 && p[-1] == '&' && (p[-2] == '>' || p[-2] == '<'))
		return (fd = parse_fd_prefix(p, &end)) >= 3 ? fd : -1;
	if (p[-1] != '=')
		return -1;
	for (q = p - 2; q > text && is_digit(*q); q--)
		;
	if (q == p - 2 || q - text < 1 || *q != '[' ||
	    (q[-1] != '>' && q[-1] != '<'))
		return -1;
	fd = parse_fd_prefix(p, &end);
	return fd >= 3 && *end == ']' ? fd : -1;
}

/* Does text duplicate from any fd above 2? */
CHILD_PATH static bool duplicates_any(const char *text)
{
	const char *p;

	for (p = text; *p; p++)
		if ((*p == '&' || *p == '=') && duplicated(p + 1, text) >= 0)
			return true;
	return false;
}

CHILD_PATH static void keep_shell_named(char *const argv[], const char *path,
					struct handoff_kept *k)
{
	const char *text = shell_text(argv), *p;
	int fd;

	if (!text || !duplicates_any(text) || !shell_path(path))
		return;
	for (p = text + 1; *p; p++)
		if ((fd = duplicated(p, text)) >= 0)
			choose(k, fd, WHY_SHELL_TEXT, p - 2, 2, fd);
}

CHILD_PATH static bool starts(const char *s, const char *prefix)
{
	return str_starts(s, prefix, str_len(prefix));
}

enum handoff_env_form { HO_ITEMS, HO_FD_ITEMS };

static const struct handoff_env {
	char name[24];
	uint8_t len;
	uint8_t form;
} handoff_envs[] = {
#define HANDOFF_ENV(name, form, example) { name, sizeof(name) - 1, form },
#include "handoff.def"
#undef HANDOFF_ENV
};

/* e's row, if its name is one: "NAME=" whole, or a prefix "NAME_". */
CHILD_PATH static const struct handoff_env *env_row(const char *e)
{
	const char *eq;
	size_t i, len;

	if (!may_be_row(e))
		return NULL;
	for (i = 0; i < sizeof(handoff_envs) / sizeof(*handoff_envs); i++) {
		if (e[0] != handoff_envs[i].name[0])
			continue;
		len = handoff_envs[i].len;
		if (!str_starts(e, handoff_envs[i].name, len))
			continue;
		eq = str_chr(e, '=');
		if (eq && (handoff_envs[i].name[len - 1] == '_' ||
			   e + len == eq))
			return &handoff_envs[i];
	}
	return NULL;
}

/*
 * Numbers the environment names as fds: the rows of handoff.def only.  A
 * name no row has names nothing, whatever it looks like (HTTP_X_FD is a
 * request's header).  LISTEN_* has its own rule, with the pid.
 */
CHILD_PATH static void keep_named_env(char *const envp[],
				      struct handoff_kept *k)
{
	const struct handoff_env *row;
	const char *e, *eq, *p, *item, *end, *q;
	int fd;

	for (; envp && *envp; envp++) {
		e = *envp;
		if (!(row = env_row(e)))
			continue;
		eq = str_chr(e, '=');
		for (p = eq + 1; *p;) {
			item = p;
			while (*p && !str_chr(",;|: \t\n", *p))
				p++;
			end = p;
			if (*p)
				p++;
			if (row->form == HO_FD_ITEMS) {
				if (!starts(item, "fd="))
					continue;
				item += 3;
			} else {
				for (q = item; q < end; q++)
					if (*q == '=')
						item = q + 1;
			}
			fd = parse_fd_prefix(item, &item);
			if (fd >= 0 && item == end)
				choose(k, fd, WHY_ENV, e, (size_t)(eq - e), -1);
		}
	}
}

/* The lock rule: an fd through which a lock is held. */
CHILD_PATH static void keep_locked(int fd, void *ctx)
{
	choose(ctx, fd, WHY_LOCK, "", 0, -1);
}

/*
 * Has the parent that gave this fork child its locks let them go?  It
 * has, when it is gone (its children go to another parent as it exits,
 * before anyone waits for it), or when this child made itself the leader
 * of a session of its own (setsid), which is how a launcher's child
 * becomes a daemon: its parent exits next, and the daemon holds the lock
 * from then on.  A hook, a helper or a shell escape is neither.
 */
CHILD_PATH static bool holder_gone(long pid)
{
	long parent = pid_parent();

	return parent && (sys_call(SYS_getppid, 0, 0, 0, 0, 0) != parent ||
			  sys_call(SYS_getsid, 0, 0, 0, 0, 0) == pid);
}

/*
 * The lock rule: a lock goes to the program that becomes its holder.
 * That is the locking process's own next image (a record lock or a lock
 * of the open file it took itself), and a fork child's, for a lock of
 * the open file its parent took, once the parent has let it go
 * (holder_gone).  Never a spawned program (posix_spawn, system, popen)
 * or a vfork child's: the locker is the one that waits for it.
 */
CHILD_PATH static void keep_locks(enum handoff_as as, struct handoff_kept *k)
{
	long pid;

	if (as != HANDOFF_AS_SELF || (!fdtable_any_marked(FDT_LOCK_FILE) &&
				      !fdtable_any_marked(FDT_LOCK_OWN)))
		return;
	pid = pid_raw();
	if (pid != pid_own())
		return;
	fdtable_for_each_with_any(FDT_LOCK_OWN, keep_locked, k);
	if (pid != pid_image() && holder_gone(pid))
		fdtable_for_each_with_any(FDT_LOCK_FILE, keep_locked, k);
}

/*
 * Rule 1 is for the process the image was started in, which execs in
 * place what it made itself.  Not a fork child: what it made between its
 * fork and its exec is for the program it runs where something says so
 * (0-2, a number it chose with dup2, a number named), and otherwise its
 * own plumbing (socat's child makes a socketpair for its messages; a
 * child's dup() of a log for its own error messages).  Not a child that
 * shares this memory (vfork, posix_spawn) or that no fork handler saw (a
 * raw clone): its pid is not the image's.  Not in a setuid process: what
 * it execs may be its caller's choice, and what it opened is not the
 * caller's to have.  The bits the handed-on fds have, or 0.
 */
CHILD_PATH static uint8_t own_marks(enum handoff_as as, bool secure)
{
	if (as != HANDOFF_AS_SELF || secure)
		return 0;
	return pid_raw() == pid_image() ? FDT_FORCED | FDT_HERE : 0;
}

/*
 * The shell rule: in a shell, every fd it left without the flag is for
 * its commands (exec 3<file; cmd 3>lock).  Asked only where a flag the
 * library forced is there to clear, or for the audit: it reads
 * /etc/shells, once an image.
 */
CHILD_PATH static bool is_shell(enum handoff_as as, bool secure, bool reporting,
				bool forced)
{
	if (secure || !load_policy_get()->shell_rule)
		return false;
	return (reporting || forced) &&
	       shell_image(as != HANDOFF_AS_VFORK_CHILD);
}

void handoff_before_fork(void)
{
	if (load_policy_get()->shell_rule)
		(void)shell_image(true);
	atomic_store_explicit(&image_is_parent_row,
			      image_named_in_children(image_argv()) ? 1 : -1,
			      memory_order_relaxed);
}

CHILD_PATH void handoff_choose(char *const argv[], char *const envp[],
			       const char *path, enum handoff_as as,
			       bool reporting, bool forced,
			       struct handoff_kept *k)
{
	struct env_facts env;

	k->own = own_marks(as, k->secure);
	k->shell = is_shell(as, k->secure, reporting, forced);
	if (k->secure)
		return;
	env_facts(envp, &env);
	keep_listen_fds(&env, k);
	keep_jobserver(&env, k);
	/* A CGI program's arguments are the request's query string. */
	if (!env.cgi) {
		keep_named_args(argv, k);
		keep_handoffs(argv, path, k);
		keep_shell_named(argv, path, k);
	}
	keep_parent_named(k);
	if (env.rows)
		keep_named_env(envp, k);
	keep_locks(as, k);
}
