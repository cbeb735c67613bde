/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "compat.h"
#include "handoff.h"
#include "fdtable.h"
#include "load.h"
#include "report.h"
#include "sys.h"

/*
 * Each string's share of a line, quotes included.  With the names, the
 * numbers and the punctuation (about 400 bytes) they fit in a line, so a
 * line is never cut: only a value is.  An address is at most 159 bytes
 * (socket_fields' buffers).
 */
enum {
	CAP_PATH = 512, /* program, exec, target, caller_object */
	CAP_NAME = 128, /* argv0, which argv has too */
	CAP_ARGV = 384, /* all of argv, brackets and commas included */
	CAP_WORD = 32, /* time, kind, family, socktype, created_by, why... */
	CAP_ADDRESS = 160,
	CAP_SYMBOL = 256,
	CAP_REASON = 128,
	CAP_ALL = 4 * CAP_PATH + CAP_NAME + CAP_ARGV + 9 * CAP_WORD +
		  2 * CAP_ADDRESS + CAP_SYMBOL + CAP_REASON,
};
_Static_assert(CAP_ALL + 512 <= REPORT_LINE_MAX, "a line holds every field");

/* A line being built: the caller's buffer, no allocation. */
struct line {
	char *buf;
	size_t len, size;
	bool cut; /* a value was shortened */
	bool overflow; /* cannot happen (CAP_ALL): then no line at all */
};

static void put(struct line *l, const char *s, size_t n)
{
	if (n > l->size - l->len) {
		l->overflow = true;
		return;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static void put_raw(struct line *l, const char *s)
{
	put(l, s, strlen(s));
}

/*
 * The length of the UTF-8 sequence at s, or 0 where it is not one (a
 * stray continuation byte, an overlong form, a surrogate, past U+10FFFF,
 * or cut short by the end of the string).
 */
static size_t utf8_length(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : s[0] < 0xf5 ? 4 : 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/*
 * A JSON string of at most cap bytes, quotes included; null for NULL.
 * UTF-8 is copied; a control byte, DEL or a byte that is not part of
 * UTF-8 becomes \u00XX.  A long value stops before the first character
 * or escape that would not fit, so no escape is ever cut in two.
 */
static void put_string(struct line *l, const char *str, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t end = l->len + cap - 1; /* the closing quote's place */
	char esc[6] = { '\\', 'u', '0', '0' };

	if (!s) {
		put(l, "null", 4);
		return;
	}
	put(l, "\"", 1);
	while (*s) {
		size_t n = utf8_length(s);
		const char *out = (const char *)s;
		size_t out_len = n;

		if (n == 0 || (n == 1 && (*s < 0x20 || *s == 0x7f))) {
			esc[4] = hex[*s >> 4];
			esc[5] = hex[*s & 15];
			out = esc;
			out_len = 6;
			n = 1;
		} else if (*s == '"' || *s == '\\') {
			esc[1] = (char)*s;
			out = esc;
			out_len = 2;
		}
		if (l->len + out_len > end) {
			l->cut = true;
			break;
		}
		put(l, out, out_len);
		esc[1] = 'u';
		s += n;
	}
	put(l, "\"", 1);
}

/* Decimal, without stdio. */
static void put_decimal(struct line *l, long long n)
{
	char tmp[24];
	unsigned long long u = (unsigned long long)n;
	size_t i = sizeof(tmp);

	if (n < 0)
		u = -u;
	do
		tmp[--i] = (char)('0' + u % 10);
	while (u /= 10);
	if (n < 0)
		tmp[--i] = '-';
	put(l, tmp + i, sizeof(tmp) - i);
}

static void put_key(struct line *l, const char *name)
{
	put(l, ",\"", 2);
	put_raw(l, name);
	put(l, "\":", 2);
}

static void put_field(struct line *l, const char *name, const char *value,
		      size_t cap)
{
	put_key(l, name);
	put_string(l, value, cap);
}

/*
 * argv as an array of strings, in at most cap bytes: what does not fit
 * is left out (the line then says "truncated"), so that a long command
 * line costs no other field its room.
 */
static void put_argv(struct line *l, char *const argv[], size_t cap)
{
	size_t end = l->len + cap - 1; /* the closing bracket's place */
	size_t i;

	put(l, "[", 1);
	for (i = 0; argv[i]; i++) {
		/* A comma, two quotes and a byte: else nothing of it. */
		if (l->len + 4 > end) {
			l->cut = true;
			break;
		}
		if (i)
			put(l, ",", 1);
		put_string(l, argv[i], end - l->len);
	}
	put(l, "]", 1);
}

/*
 * The head every line shares, whatever its event: the mark, the schema,
 * the event, when, and who (pid, ppid, uid, the program's path).
 */
static void put_head_fields(struct line *l, const char *event,
			    const char *time, long long pid, long long ppid,
			    long long uid, const char *program)
{
	put_raw(l, "{\"libcloexec\":1");
	put_key(l, "schema");
	put_decimal(l, REPORT_SCHEMA);
	put_field(l, "event", event, CAP_WORD);
	put_field(l, "time", time, CAP_WORD);
	put_key(l, "pid");
	put_decimal(l, pid);
	put_key(l, "ppid");
	put_decimal(l, ppid);
	put_key(l, "uid");
	put_decimal(l, uid);
	put_field(l, "program", program, CAP_PATH);
}

size_t report_format(const struct report_record *r, char *buf, size_t size)
{
	struct line l = { .buf = buf, .size = size };

	put_head_fields(&l, "inherit", r->time, r->pid, r->ppid, r->uid,
			r->program);
	put_field(&l, "exec", r->exec, CAP_PATH);
	put_field(&l, "argv0", r->argv0, CAP_NAME);
	if (r->argv) {
		put_key(&l, "argv");
		put_argv(&l, r->argv, CAP_ARGV);
	}
	put_key(&l, "fd");
	put_decimal(&l, r->fd);
	put_field(&l, "kind", r->kind, CAP_WORD);
	put_field(&l, "target", r->target, CAP_PATH);
	if (r->family)
		put_field(&l, "family", r->family, CAP_WORD);
	if (r->socktype)
		put_field(&l, "socktype", r->socktype, CAP_WORD);
	if (r->local)
		put_field(&l, "local", r->local, CAP_ADDRESS);
	if (r->peer)
		put_field(&l, "peer", r->peer, CAP_ADDRESS);
	put_field(&l, "created_by", r->created_by, CAP_WORD);
	if (r->caller) {
		put_field(&l, "caller", r->caller, CAP_WORD);
		if (r->caller_object) {
			put_field(&l, "caller_symbol", r->caller_symbol,
				  CAP_SYMBOL);
			put_field(&l, "caller_object", r->caller_object,
				  CAP_PATH);
			put_field(&l, "caller_offset", r->caller_offset,
				  CAP_WORD);
		}
	}
	put_raw(&l, r->deliberate ? ",\"deliberate\":true"
				  : ",\"deliberate\":false");
	put_field(&l, "why", r->why, CAP_WORD);
	put_field(&l, "reason", r->reason, CAP_REASON);
	if (l.cut)
		put_raw(&l, ",\"truncated\":true");
	put(&l, "}\n", 2);
	return l.overflow ? 0 : l.len;
}

/* An address as a person reads it: 1.2.3.4:80, [::1]:80, /path, @abstract. */
static const char *address(const struct sockaddr_storage *ss, socklen_t len,
			   char *buf, size_t size)
{
	const struct sockaddr_in *in = (const void *)ss;
	const struct sockaddr_in6 *in6 = (const void *)ss;
	const struct sockaddr_un *un = (const void *)ss;
	char ip[INET6_ADDRSTRLEN];
	size_t n;

	switch (ss->ss_family) {
	case AF_INET:
		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof(ip));
		snprintf(buf, size, "%s:%u", ip, ntohs(in->sin_port));
		return buf;
	case AF_INET6:
		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof(ip));
		snprintf(buf, size, "[%s]:%u", ip, ntohs(in6->sin6_port));
		return buf;
	case AF_UNIX:
		n = len > offsetof(struct sockaddr_un, sun_path)
			    ? len - offsetof(struct sockaddr_un, sun_path)
			    : 0;
		if (!n)
			return "";
		if (un->sun_path[0])
			return strncpy(buf, un->sun_path, size - 1);
		snprintf(buf, size, "@%.*s", (int)n - 1, un->sun_path + 1);
		return buf;
	}
	return NULL;
}

static const char *family_name(int family)
{
	switch (family) {
	case AF_INET:
		return "inet";
	case AF_INET6:
		return "inet6";
	case AF_UNIX:
		return "unix";
	case AF_NETLINK:
		return "netlink";
	case AF_PACKET:
		return "packet";
	}
	return "other";
}

static const char *socktype_name(int type)
{
	switch (type) {
	case SOCK_STREAM:
		return "stream";
	case SOCK_DGRAM:
		return "dgram";
	case SOCK_SEQPACKET:
		return "seqpacket";
	case SOCK_RAW:
		return "raw";
	}
	return "other";
}

/* The socket's fields; local and peer go into the two buffers. */
static void socket_fields(struct report_record *rec, int fd, char local[160],
			  char peer[160])
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss), optlen = sizeof(int);
	int family = 0, type = 0;

	getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &family, &optlen);
	optlen = sizeof(int);
	getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &optlen);
	rec->family = family_name(family);
	rec->socktype = socktype_name(type);
	memset(&ss, 0, sizeof(ss));
	/* An address of a family not spelled out here is "". */
	if (!getsockname(fd, (struct sockaddr *)&ss, &len))
		rec->local = address(&ss, len, local, 160) ?: "";
	len = sizeof(ss);
	memset(&ss, 0, sizeof(ss));
	if (!getpeername(fd, (struct sockaddr *)&ss, &len))
		rec->peer = address(&ss, len, peer, 160) ?: "";
}

struct origin_text {
	char caller[32], symbol[256], offset[32], object[512];
};

/*
 * The path of the object that holds a caller: the program's own path for
 * its main executable, which dladdr names by argv[0] (a bare "mawk");
 * else dladdr's name, made absolute (a library preloaded as ./libx.so)
 * with the current directory into t->object.
 */
static const char *object_path(const Dl_info *info, const char *program,
			       struct origin_text *t)
{
	Dl_info main_info;
	void *entry = (void *)getauxval(AT_ENTRY);
	const char *name = info->dli_fname ? info->dli_fname : "";
	size_t n, len;
	long got;

	if (entry && dladdr(entry, &main_info) &&
	    main_info.dli_fbase == info->dli_fbase)
		return program;
	if (name[0] == '/' || !name[0])
		return name;
	got = sys_call(SYS_getcwd, t->object, sizeof(t->object), 0, 0, 0);
	len = strlen(name);
	if (got <= 0 || t->object[0] != '/')
		return name;
	n = strlen(t->object);
	if (n + 1 + len >= sizeof(t->object))
		return name;
	t->object[n] = '/';
	memcpy(t->object + n + 1, name, len + 1);
	return t->object;
}

static void origin_fields(struct report_record *rec, int fd,
			  const char *program, struct origin_text *t)
{
	struct fd_origin o;
	Dl_info info;

	if (!fdtable_origin(fd, &o)) {
		rec->created_by =
			fdtable_get(fd) & FDT_INHERITED ? "inherited" : NULL;
		return;
	}
	rec->created_by = o.call;
	snprintf(t->caller, sizeof(t->caller), "%p", o.caller);
	rec->caller = t->caller;
	if (!dladdr(o.caller, &info))
		return;
	if (info.dli_sname) {
		snprintf(t->symbol, sizeof(t->symbol), "%s+%#lx",
			 info.dli_sname,
			 (unsigned long)((char *)o.caller -
					 (char *)info.dli_saddr));
		rec->caller_symbol = t->symbol;
	}
	rec->caller_object = object_path(&info, program, t);
	/* For addr2line, when there is no symbol to name. */
	snprintf(t->offset, sizeof(t->offset), "%#lx",
		 (unsigned long)((char *)o.caller - (char *)info.dli_fbase));
	rec->caller_offset = t->offset;
}

/*
 * Where the lines of one report go, chosen at its first line: a report
 * with nothing to say opens nothing.
 */
struct report {
	const struct exec_kept *kept;
	const char *program, *path, *argv0;
	char *const *argv;
	long long pid, ppid, uid;
	char time[REPORT_TIME_MAX];
	bool chosen;
	bool secure; /* AT_SECURE: the caller chose argv, env and stdio */
	bool to_syslog;
	bool syslog_only; /* log=syslog: no stderr when nobody listens */
	int out; /* the file, stderr, the syslog socket, or -1: nowhere */
	int named; /* CLOEXEC_AUDIT_FD's log, NAMED_NONE or NAMED_BAD */
	const char *named_why; /* why NAMED_BAD, or why a write failed */
	int sock; /* to CLOEXEC_AUDIT_SOCKET: -1 not yet, -2 cannot */
	/* the tree's token, each datagram's first line; "" where none */
	char token[REPORT_AUDIT_TOKEN_LEN + 2];
	int lost; /* lines neither in the named log nor sent */
};

enum { NAMED_NONE = -1, NAMED_BAD = -2 };

#ifndef SYS_openat2
#define SYS_openat2 437 /* the same number on every architecture */
#endif

/* struct open_how and RESOLVE_NO_SYMLINKS, from <linux/openat2.h>. */
struct log_open_how {
	unsigned long long flags, mode, resolve;
};
#define LOG_RESOLVE_NO_SYMLINKS 0x04

/*
 * log=PATH, for appending, or -1.  Never through a symlink at the end
 * (someone else's /tmp/x.log -> /etc/shadow), never blocking (a FIFO
 * there would hold up every exec), never anything but a regular file.
 * A secure-execution process does more: its caller may own a directory
 * on the way, so no symlink anywhere in the path (openat2, Linux 5.6;
 * before that, no log file at all), no creating the file, and only a
 * root-owned file with one link (not one the caller made or linked).
 */
static int open_log(const char *path, bool secure)
{
	int flags = O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
		    O_CLOEXEC;
	struct log_open_how how = {
		.flags = (unsigned)flags,
		.resolve = LOG_RESOLVE_NO_SYMLINKS,
	};
	struct stat st;
	long fd;

	if (secure)
		fd = sys_call(SYS_openat2, AT_FDCWD, path, &how, sizeof(how),
			      0);
	else
		fd = sys_openat(AT_FDCWD, path, flags | O_CREAT, 0600);
	if (fd < 0)
		return -1;
	if (fstat((int)fd, &st) || !S_ISREG(st.st_mode) ||
	    (secure && (st.st_uid != 0 || st.st_nlink != 1))) {
		sys_close((int)fd);
		return -1;
	}
	return (int)fd;
}

/* stderr, when it is open and not a socket (an inetd client's). */
static int plain_stderr(void)
{
	struct stat st;

	return fstat(2, &st) || S_ISSOCK(st.st_mode) ? -1 : 2;
}

static bool log_is(const char *value, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(value, word, len);
}

/*
 * The default: syslog, where the system's logger listens (the first
 * line sent says whether it does); else stderr, unless a socket; in a
 * secure-execution process, syslog or nothing.
 */
static void choose_default(struct report *r)
{
	r->out = (int)sys_socket(AF_UNIX,
				 SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	r->to_syslog = r->out >= 0;
	if (!r->to_syslog)
		r->out = r->secure ? -1 : plain_stderr();
}

/* A decimal number ending at end, advancing *s past it; false if not. */
static bool parse_number(const char **s, char end, unsigned long long *n)
{
	const char *p = *s;

	*n = 0;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (*n > (~0ULL - 9) / 10)
			return false;
		*n = *n * 10 + (unsigned long long)(*p - '0');
	}
	if (*p != end)
		return false;
	*s = p + (end != '\0');
	return true;
}

/*
 * The log that `cloexec --audit` opened once for the whole tree and named
 * in CLOEXEC_AUDIT_FD as "FD:DEV:INO", so that a privilege drop, a
 * private /tmp, a chroot or another mount namespace, where a path would
 * lead elsewhere or be refused, cannot lose a line.  It is the one fd
 * meant to be inherited: never reported, never marked (an fd inherited
 * at start is never swept), never closed here.
 *
 * An fd number in the environment is not trusted as it is:
 * - in a setuid or setgid process (AT_SECURE) the name is not even read
 *   (secure_getenv): its caller chose the environment and the fds, and
 *   could point the lines, which name that program's files and peers,
 *   at a file of the caller's; such a process writes where the policy
 *   file says (syslog by default), as before;
 * - elsewhere the number may have been closed (a daemon's closefrom) and
 *   taken again by an unrelated file, which the lines would corrupt: so
 *   the fd must still be the very file cloexec opened (fstat: the same
 *   device and inode), a regular file, and open for writing in append
 *   mode (whole lines from concurrent writers).
 * NAMED_BAD, with the reason in *why, when it is named but fails one of
 * these: the lines then go by the socket (audit_socket).
 */
static int named_log(const char **why)
{
	const char *v = secure_env(REPORT_AUDIT_FD_ENV);
	unsigned long long fd, dev, ino;
	struct stat st;
	long flags;

	if (!v || !*v)
		return NAMED_NONE;
	if (!parse_number(&v, ':', &fd) || !parse_number(&v, ':', &dev) ||
	    !parse_number(&v, '\0', &ino) || fd > 0x7fffffff) {
		*why = REPORT_AUDIT_FD_ENV " is malformed";
		return NAMED_BAD;
	}
	if (fstat((int)fd, &st)) {
		*why = "the audit log's fd was closed";
		return NAMED_BAD;
	}
	if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_dev != dev ||
	    (unsigned long long)st.st_ino != ino) {
		*why = "the audit log's fd is another file now";
		return NAMED_BAD;
	}
	flags = sys_fcntl((int)fd, F_GETFL, 0);
	if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY ||
	    !(flags & O_APPEND)) {
		*why = "the audit log's fd is not open for appending";
		return NAMED_BAD;
	}
	return (int)fd;
}

/*
 * The abstract socket that CLOEXEC_AUDIT_SOCKET names, on which `cloexec`
 * listens while the program runs, and appends what it receives to the
 * log: the way for a line when the named log's fd is gone (a daemon's
 * closefrom, Python's close_fds) or a write to it failed.  Abstract, so
 * that it needs no fd and no path (a private /tmp or a chroot would hide
 * one), and anyone may send to it after a privilege drop; only another
 * network namespace cannot reach it.  A send waits at most 2 s for room
 * (the queue is short, and cloexec empties it), so that a stopped
 * cloexec cannot hold up an exec for long.  The same getenv rule as
 * named_log.  Returns the connected socket, or -1.
 */
/*
 * Is line a /proc/net/unix row of the socket bound to the abstract name
 * (len bytes), with this inode?  "Num RefCount Protocol Flags Type St
 * Inode Path": the inode the seventh word, the path "@name" the last.
 */
static bool row_is(const char *line, size_t n, const char *name, size_t len,
		   unsigned long long ino)
{
	const char *word = line, *end = line + n;
	unsigned long long got;
	int i;

	if (n < len + 2 || end[-len - 2] != ' ' || end[-len - 1] != '@' ||
	    memcmp(end - len, name, len))
		return false;
	for (i = 0; i < 6; i++) {
		while (word < end && *word != ' ')
			word++;
		while (word < end && *word == ' ')
			word++;
	}
	return parse_number(&word, ' ', &got) && got == ino;
}

/*
 * Is the abstract name bound, now, to the socket cloexec made (its inode
 * in CLOEXEC_AUDIT_SOCKET)?  Asked after connecting: cloexec binds its
 * name first and never again, so if the name is its socket's now, it was
 * when we connected, and our datagrams go to that socket or nowhere.  Once
 * cloexec has exited, anyone may bind the name; lines, which name files
 * and peers, must not go to whoever did.  Without /proc, no: the lines
 * are lost, and said so.
 */
static bool name_is_cloexecs(const char *name, size_t len,
			     unsigned long long ino)
{
	char buf[4096];
	size_t have = 0, start;
	long fd, got;
	bool found = false;

	fd = sys_openat(AT_FDCWD, "/proc/net/unix", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	while (!found &&
	       (got = sys_call(SYS_read, fd, buf + have, sizeof(buf) - have, 0,
			       0)) > 0) {
		char *nl;

		have += (size_t)got;
		start = 0;
		while (!found && (nl = memchr(buf + start, '\n', have - start))) {
			found = row_is(buf + start, (size_t)(nl - buf) - start,
				       name, len, ino);
			start = (size_t)(nl - buf) + 1;
		}
		/* a row longer than the buffer is not ours: drop it */
		if (!start)
			have = 0;
		memmove(buf, buf + start, have - start);
		have -= start;
	}
	sys_close((int)fd);
	return found;
}

static int audit_socket(struct report *r)
{
	const char *name, *token, *v;
	unsigned long long ino = 0;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval wait = { 2, 0 };
	socklen_t len;
	size_t n;
	long fd;

	if (r->sock != -1)
		return r->sock < 0 ? -1 : r->sock;
	r->sock = -2;
	name = secure_env(REPORT_AUDIT_SOCKET_ENV);
	if (!name || !*name)
		return -1;
	/*
	 * NAME:TOKEN:INODE; a bare NAME is an older cloexec's, which wants
	 * no token and whose socket cannot be told from another.
	 */
	token = strchr(name, ':');
	n = token ? (size_t)(token - name) : strlen(name);
	if (n + 1 >= sizeof(sa.sun_path))
		return -1;
	if (token) {
		v = token + 1 + REPORT_AUDIT_TOKEN_LEN;
		if (strnlen(token + 1, REPORT_AUDIT_TOKEN_LEN + 1) <=
			    REPORT_AUDIT_TOKEN_LEN ||
		    *v++ != ':' || !parse_number(&v, '\0', &ino))
			return -1;
		memcpy(r->token, token + 1, REPORT_AUDIT_TOKEN_LEN);
		r->token[REPORT_AUDIT_TOKEN_LEN] = '\n';
		r->token[REPORT_AUDIT_TOKEN_LEN + 1] = '\0';
	}
	memcpy(sa.sun_path + 1, name, n);
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
	fd = sys_socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (setsockopt((int)fd, SOL_SOCKET, SO_SNDTIMEO, &wait,
		       sizeof(wait)) ||
	    connect((int)fd, (struct sockaddr *)&sa, len) ||
	    (token && !name_is_cloexecs(name, n, ino))) {
		sys_close((int)fd);
		return -1;
	}
	r->sock = (int)fd;
	return r->sock;
}
/* One datagram: the token's line (proof that it comes from the tree), the line. */

static bool send_line(struct report *r, const char *line, size_t len)
{
	int fd = audit_socket(r);
	size_t token_len = strlen(r->token);
	struct iovec iov[2] = {
		{ .iov_base = r->token, .iov_len = token_len },
		{ .iov_base = (void *)line, .iov_len = len },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };
	long n;

	if (fd < 0)
		return false;
	do
		n = sys_sendmsg(fd, &msg, MSG_NOSIGNAL);
	while (n == -EINTR);
	return n == (long)(token_len + len);
}

/* The head of a line of this process's report. */
static void put_head(struct line *l, const struct report *r, const char *event)
{
	put_head_fields(l, event, r->time, r->pid, r->ppid, r->uid,
			r->program);
}

/*
 * Lines that went nowhere: said, if the socket takes it now, in one line
 * that the summary counts, so that the audit reads as incomplete; else,
 * the last resort, on a stderr that is not a socket (and not in a
 * setuid process), where at least a person sees it.
 */
static void send_lost(struct report *r)
{
	char buf[REPORT_LINE_MAX];
	struct line l = { .buf = buf, .size = sizeof(buf) };

	put_head(&l, r, "lost");
	put_field(&l, "exec", r->path, CAP_PATH);
	put_key(&l, "lost");
	put_decimal(&l, r->lost);
	put_field(&l, "reason", r->named_why, CAP_REASON);
	put(&l, "}\n", 2);
	if (!l.overflow && send_line(r, buf, l.len))
		return;
	if (getauxval(AT_SECURE) || plain_stderr() < 0)
		return;
	l.len = 0;
	put_raw(&l, "libcloexec: audit: ");
	put_decimal(&l, r->lost);
	put_raw(&l, " line(s) lost: ");
	put_raw(&l, r->named_why ? r->named_why : "?");
	put(&l, "\n", 1);
	if (!l.overflow)
		sys_write(2, buf, l.len);
}

static void choose(struct report *r)
{
	const struct policy *p = policy_get();
	const char *value = p->log_off >= 0 ? p->text + p->log_off : "";
	size_t len = p->log_off >= 0 ? (size_t)p->log_len : 0;
	char path[512];

	r->chosen = true;
	r->secure = getauxval(AT_SECURE) != 0;
	r->out = -1;
	/* cloexec's log first: its summary is what the user reads. */
	if (r->named >= 0) {
		r->out = r->named;
		return;
	}
	if (r->named == NAMED_BAD)
		return;
	if (p->log_off < 0) {
		choose_default(r);
	} else if (log_is(value, len, "syslog")) {
		r->out = (int)sys_socket(
			AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		r->to_syslog = r->out >= 0;
		r->syslog_only = true;
	} else if (log_is(value, len, "stderr")) {
		/* Named: even a socket.  Not the caller's, when secure. */
		if (r->secure)
			choose_default(r);
		else
			r->out = 2;
	} else {
		if (len < sizeof(path)) {
			memcpy(path, value, len);
			path[len] = '\0';
			r->out = open_log(path, r->secure);
		}
		if (r->out < 0)
			choose_default(r);
	}
}

/* A UTC time, taken apart without localtime (no locks, no files). */
struct utc {
	long long year, month, day, secs; /* month 0-11, secs of the day */
	long usec;
};

static void utc_now(struct utc *u)
{
	struct timespec ts = { 0, 0 };
	long long days, z, era, doe, yoe, doy, mp;

	clock_gettime(CLOCK_REALTIME, &ts);
	days = (long long)ts.tv_sec / 86400;
	u->secs = (long long)ts.tv_sec % 86400;
	u->usec = ts.tv_nsec / 1000;
	/* Days to a civil date (the proleptic Gregorian calendar). */
	z = days + 719468;
	era = z / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	u->day = doy - (153 * mp + 2) / 5 + 1;
	u->month = mp < 10 ? mp + 2 : mp - 10;
	u->year = yoe + era * 400 + (u->month < 2);
}

/* n as digits decimal digits at out. */
static void digits(char *out, long long n, int width)
{
	while (width--) {
		out[width] = (char)('0' + n % 10);
		n /= 10;
	}
}

/* "hh:mm:ss" at out. */
static void put_clock(char *out, long long secs)
{
	digits(out, secs / 3600, 2);
	out[2] = ':';
	digits(out + 3, secs % 3600 / 60, 2);
	out[5] = ':';
	digits(out + 6, secs % 60, 2);
}

void report_time(char out[REPORT_TIME_MAX])
{
	struct utc u;

	utc_now(&u);
	digits(out, u.year, 4);
	out[4] = '-';
	digits(out + 5, u.month + 1, 2);
	out[7] = '-';
	digits(out + 8, u.day, 2);
	out[10] = 'T';
	put_clock(out + 11, u.secs);
	out[19] = '.';
	digits(out + 20, u.usec, 6);
	out[26] = 'Z';
	out[27] = '\0';
}

/* "Mmm dd hh:mm:ss", RFC 3164's time stamp, in UTC. */
static void syslog_time(char out[16])
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	struct utc u;

	utc_now(&u);
	memcpy(out, months + 3 * u.month, 3);
	out[3] = ' ';
	out[4] = u.day < 10 ? ' ' : (char)('0' + u.day / 10);
	out[5] = (char)('0' + u.day % 10);
	out[6] = ' ';
	put_clock(out + 7, u.secs);
	out[15] = '\0';
}

#define SYSLOG_HEAD_MAX 64
/* authpriv.info: the lines name a setuid program's files and peers. */
#define SYSLOG_PRIORITY "<86>"

/*
 * One datagram per line, to /dev/log, the line without its newline
 * after "<86>Mmm dd hh:mm:ss libcloexec[pid]: ", which the caller left
 * room for in front of it.  Never waits: a logger that is behind loses
 * the line rather than hold up an exec.  False when nobody listens.
 */
static bool send_syslog(const struct report *r, char *line, size_t len)
{
	static const struct sockaddr_un dev_log = { AF_UNIX, "/dev/log" };
	char head[SYSLOG_HEAD_MAX], stamp[16];
	struct line h = { .buf = head, .size = sizeof(head) };
	struct iovec iov;
	struct msghdr msg = {
		.msg_name = (void *)&dev_log,
		.msg_namelen = sizeof(dev_log),
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	long n;

	syslog_time(stamp);
	put_raw(&h, SYSLOG_PRIORITY);
	put_raw(&h, stamp);
	put_raw(&h, " libcloexec[");
	put_decimal(&h, r->pid);
	put_raw(&h, "]: ");
	memcpy(line - h.len, head, h.len);
	iov.iov_base = line - h.len;
	iov.iov_len = h.len + len - 1;
	n = sys_sendmsg(r->out, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
	return n >= 0 || n == -EAGAIN || n == -ENOBUFS;
}

static void deliver(struct report *r, char *line, size_t len)
{
	if (!r->chosen)
		choose(r);
	if (r->to_syslog) {
		if (send_syslog(r, line, len))
			return;
		/* Nobody listens on /dev/log: the default's second choice. */
		sys_close(r->out);
		r->to_syslog = false;
		r->out = r->secure || r->syslog_only ? -1 : plain_stderr();
	}
	/* One write: O_APPEND keeps concurrent writers' lines whole. */
	if (r->out >= 0 && r->out == r->named) {
		long n = sys_write(r->out, line, len);

		if (n == (long)len)
			return;
		if (n == -ENOSPC)
			r->named_why = "the audit log's disk is full";
		else if (n < 0)
			r->named_why = "a write to the audit log failed";
		else
			r->named_why = "a write to the audit log was cut";
		/*
		 * A cut line's rest would make two bad lines: end the cut
		 * one (the summary skips a line that is not whole), and send
		 * all of it again.
		 */
		if (n > 0)
			sys_write(r->out, "\n", 1);
		if (!send_line(r, line, len))
			r->lost++;
	} else if (r->out >= 0) {
		sys_write(r->out, line, len);
	} else if (r->named == NAMED_BAD) {
		if (!send_line(r, line, len))
			r->lost++;
	}
}

/*
 * Whether fd is passed on purpose, and why: an inheritance rule first
 * (it names the fd to the new program), then what the fd table knows of
 * it, then the policy's own exceptions, which a team sets to accept an
 * fd it knows of (keep=, keep-path=, exempt=).
 */
static void why(struct report_record *rec, const struct exec_kept *kept,
		int fd)
{
	unsigned bits = fdtable_get(fd);

	rec->reason = exec_kept_why(kept, fd);
	rec->why = exec_why_word(rec->reason);
	rec->deliberate = true;
	if (rec->reason)
		return;
	if (bits & FDT_INHERITED) {
		rec->why = "inherited";
		rec->reason = "inherited at start";
	} else if ((bits & FDT_DELIBERATE) && rec->created_by &&
		   !strncmp(rec->created_by, "dup", 3)) {
		rec->why = "dup2";
		rec->reason = "dup2'd onto a number the program chose";
	} else if (bits & FDT_DELIBERATE) {
		rec->why = "set_inheritable";
		rec->reason = "made inheritable by the program";
	} else if (policy_keeps_fd(fd)) {
		rec->why = "keep";
		rec->reason = "kept by the policy (keep=)";
	} else if (policy_keeps_path(rec->target)) {
		rec->why = "keep_path";
		rec->reason = "kept by the policy (keep-path=)";
	} else if (policy_get()->exempt) {
		rec->why = "exempt";
		rec->reason = "the program is exempt (exempt=)";
	} else {
		rec->deliberate = false;
	}
}

static const char *kind_of(const char *target)
{
	if (!strncmp(target, "socket:", 7))
		return "socket";
	if (!strncmp(target, "pipe:", 5))
		return "pipe";
	if (!strncmp(target, "anon_inode:", 11))
		return "anon";
	return target[0] == '/' ? "file" : "other";
}

static int report_fd(int fd, void *ctx)
{
	struct report *r = ctx;
	long flags = sys_fcntl(fd, F_GETFD, 0);
	char link[32], target[1024], local[160], peer[160];
	char buf[SYSLOG_HEAD_MAX + REPORT_LINE_MAX];
	struct report_record rec = {
		.time = r->time,
		.pid = r->pid,
		.ppid = r->ppid,
		.uid = r->uid,
		.program = r->program,
		.exec = r->path,
		.argv0 = r->argv0,
		.argv = r->argv,
		.fd = fd,
		.target = target,
	};
	struct origin_text origin;
	size_t len;
	long n;

	if (flags < 0 || (flags & FD_CLOEXEC) || fd == r->out ||
	    fd == r->named)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = sys_call(SYS_readlinkat, AT_FDCWD, link, target,
		     sizeof(target) - 1, 0);
	target[n > 0 ? n : 0] = '\0';
	rec.kind = kind_of(target);
	if (!strcmp(rec.kind, "socket"))
		socket_fields(&rec, fd, local, peer);
	origin_fields(&rec, fd, r->program, &origin);
	why(&rec, r->kept, fd);
	len = report_format(&rec, buf + SYSLOG_HEAD_MAX, REPORT_LINE_MAX);
	if (len)
		deliver(r, buf + SYSLOG_HEAD_MAX, len);
	return 1;
}

static void end_and_deliver(struct report *r, struct line *l)
{
	if (l->cut)
		put_raw(l, ",\"truncated\":true");
	put(l, "}\n", 2);
	if (!l->overflow)
		deliver(r, l->buf, l->len);
}

/*
 * "event":"exec": this process starts a program (itself, or a child with
 * spawn true), whether or not it hands it any fd, so that the summary
 * can tell the programs that never reported (static, setuid, another C
 * library) from those that did.  Only into cloexec's log: elsewhere it
 * would be a syslog line per exec.
 */
static void report_exec(struct report *r, bool spawn)
{
	char buf[SYSLOG_HEAD_MAX + REPORT_LINE_MAX];
	struct line l = { .buf = buf + SYSLOG_HEAD_MAX,
			  .size = REPORT_LINE_MAX };

	put_head(&l, r, "exec");
	put_field(&l, "exec", r->path, CAP_PATH);
	if (r->argv) {
		put_key(&l, "argv");
		put_argv(&l, r->argv, CAP_ARGV);
	}
	put_raw(&l, spawn ? ",\"spawn\":true" : ",\"spawn\":false");
	end_and_deliver(r, &l);
}

/* A report's end: what it opened closed, what it lost said. */
static void report_done(struct report *r)
{
	if (r->out > 2 && r->out != r->named)
		sys_close(r->out);
	if (r->lost)
		send_lost(r);
	if (r->sock >= 0)
		sys_close(r->sock);
}

/*
 * The caller's errno is left as it was: a spawn (popen, posix_spawn,
 * system) that succeeds must not change it, and the report asks libc
 * things that fail (getpeername of a socket that is not connected).
 */
void report_inherited(const char *path, char *const argv[],
		      const struct exec_kept *kept, bool spawn)
{
	int saved_errno = errno;
	char program[1024];
	struct report r = {
		.kept = kept,
		.path = path,
		.argv0 = argv && argv[0] ? argv[0] : NULL,
		.argv = argv,
		.out = -1,
		.sock = -1,
		.pid = sys_call(SYS_getpid, 0, 0, 0, 0, 0),
		.ppid = sys_call(SYS_getppid, 0, 0, 0, 0, 0),
		.uid = sys_call(SYS_getuid, 0, 0, 0, 0, 0),
	};
	long n = sys_call(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", program,
			  sizeof(program) - 1, 0);

	program[n > 0 ? n : 0] = '\0';
	r.program = program;
	report_time(r.time);
	r.named = named_log(&r.named_why);
	if (r.named != NAMED_NONE)
		report_exec(&r, spawn);
	fdtable_for_each(report_fd, &r);
	report_done(&r);
	errno = saved_errno;
}

/* "/proc/self/fd/N", without stdio. */
static void fd_link(char *buf, size_t size, int fd)
{
	struct line l = { .buf = buf, .size = size - 1 };

	put_raw(&l, "/proc/self/fd/");
	put_decimal(&l, fd);
	buf[l.overflow ? 0 : l.len] = '\0';
}

/* "event":"received": an fd the process holds, inheritable, at start. */
static int report_received(int fd, void *ctx)
{
	struct report *r = ctx;
	long flags = sys_fcntl(fd, F_GETFD, 0);
	char link[32], target[1024];
	char buf[SYSLOG_HEAD_MAX + REPORT_LINE_MAX];
	struct line l = { .buf = buf + SYSLOG_HEAD_MAX,
			  .size = REPORT_LINE_MAX };
	long n;

	/* Made here, by a constructor that ran before the library's. */
	if (flags < 0 || (flags & FD_CLOEXEC) || fd == r->named ||
	    (fdtable_get(fd) & FDT_HERE))
		return 0;
	fd_link(link, sizeof(link), fd);
	n = sys_call(SYS_readlinkat, AT_FDCWD, link, target,
		     sizeof(target) - 1, 0);
	target[n > 0 ? n : 0] = '\0';
	put_head(&l, r, "received");
	put_key(&l, "fd");
	put_decimal(&l, fd);
	put_field(&l, "kind", kind_of(target), CAP_WORD);
	put_field(&l, "target", target, CAP_PATH);
	end_and_deliver(r, &l);
	return 1;
}

void report_started(void)
{
	char program[1024], cmdline[2048];
	char *args[64];
	struct report r = {
		.out = -1,
		.sock = -1,
		.pid = sys_call(SYS_getpid, 0, 0, 0, 0, 0),
		.ppid = sys_call(SYS_getppid, 0, 0, 0, 0, 0),
		.uid = sys_call(SYS_getuid, 0, 0, 0, 0, 0),
	};
	char buf[SYSLOG_HEAD_MAX + REPORT_LINE_MAX];
	struct line l = { .buf = buf + SYSLOG_HEAD_MAX,
			  .size = REPORT_LINE_MAX };
	size_t nargs = 0, at = 0;
	long n, fd;

	r.named = named_log(&r.named_why);
	/* Under cloexec --audit only: a start line per process elsewhere
	 * would flood syslog. */
	if (r.named == NAMED_NONE)
		return;
	n = sys_call(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", program,
		     sizeof(program) - 1, 0);
	program[n > 0 ? n : 0] = '\0';
	r.program = program;
	r.path = program;
	report_time(r.time);
	/* argv as the kernel keeps it: NUL-separated, no libc needed. */
	n = 0;
	fd = sys_openat(AT_FDCWD, "/proc/self/cmdline", O_RDONLY | O_CLOEXEC,
			0);
	if (fd >= 0) {
		n = sys_call(SYS_read, fd, cmdline, sizeof(cmdline) - 1, 0, 0);
		sys_close((int)fd);
	}
	cmdline[n > 0 ? n : 0] = '\0';
	while (n > 0 && at < (size_t)n && nargs < 63) {
		args[nargs++] = cmdline + at;
		at += strlen(cmdline + at) + 1;
	}
	args[nargs] = NULL;
	put_head(&l, &r, "start");
	put_key(&l, "argv");
	put_argv(&l, args, CAP_ARGV);
	end_and_deliver(&r, &l);
	fdtable_for_each(report_received, &r);
	report_done(&r);
}
