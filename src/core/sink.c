/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <errno.h>
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
#include "load.h"
#include "sink.h"
#include "sockdiag.h"
#include "sys.h"

/* authpriv.info: the lines name a setuid program's files and peers. */
#define SYSLOG_PRIORITY "<86>"

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
int sink_named_log(const char **why)
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
 * Is the abstract name bound, now, to the socket cloexec made (its inode,
 * and its cookie, in CLOEXEC_AUDIT_SOCKET)?  Asked after connecting:
 * cloexec binds its name first and never again, so if the name is its
 * socket's now, it was when we connected, and our datagrams go to that
 * socket or nowhere.  Once cloexec has exited, anyone may bind the name;
 * lines, which name files and peers, must not go to whoever did.  The
 * kernel is asked by sock_diag, in binary (sockdiag.h): the socket of
 * that inode and cookie, which no other socket ever has, and its name.
 * Where it cannot say (no netlink here), no: the lines are lost, and
 * said so.
 */
static bool name_is_cloexecs(const char *name, size_t len,
			     unsigned long long ino, bool has_cookie,
			     unsigned long long cookie)
{
	uint32_t c[2] = { (uint32_t)cookie, (uint32_t)(cookie >> 32) };

	return ino <= 0xffffffffULL &&
	       sockdiag_unix_bound((uint32_t)ino, has_cookie ? c : NULL, name,
				   len);
}

static int audit_socket(struct report *r)
{
	const char *name, *token, *v;
	unsigned long long ino = 0, cookie = 0;
	bool has_cookie = false;
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
	 * NAME:TOKEN:INODE:COOKIE, or NAME:TOKEN:INODE (a cloexec that could
	 * not learn its socket's cookie); a bare NAME is an older cloexec's,
	 * which wants no token and whose socket cannot be told from another.
	 */
	token = strchr(name, ':');
	n = token ? (size_t)(token - name) : strlen(name);
	if (n + 1 >= sizeof(sa.sun_path))
		return -1;
	if (token) {
		v = token + 1 + REPORT_AUDIT_TOKEN_LEN;
		if (strnlen(token + 1, REPORT_AUDIT_TOKEN_LEN + 1) <=
			    REPORT_AUDIT_TOKEN_LEN ||
		    *v++ != ':')
			return -1;
		has_cookie = strchr(v, ':') != NULL;
		if (!parse_number(&v, has_cookie ? ':' : '\0', &ino) ||
		    (has_cookie && !parse_number(&v, '\0', &cookie)))
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
	    (token && !name_is_cloexecs(name, n, ino, has_cookie, cookie))) {
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
void sink_put_head(struct line *l, const struct report *r, const char *event)
{
	line_put_head_fields(l, event, r->time, r->pid, r->ppid, r->uid,
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

	sink_put_head(&l, r, "lost");
	line_put_field(&l, "exec", r->path, CAP_PATH);
	line_put_key(&l, "lost");
	line_put_decimal(&l, r->lost);
	line_put_field(&l, "reason", r->named_why, CAP_REASON);
	line_put(&l, "}\n", 2);
	if (!l.overflow && send_line(r, buf, l.len))
		return;
	if (getauxval(AT_SECURE) || plain_stderr() < 0)
		return;
	l.len = 0;
	line_put_raw(&l, "libcloexec: audit: ");
	line_put_decimal(&l, r->lost);
	line_put_raw(&l, " line(s) lost: ");
	line_put_raw(&l, r->named_why ? r->named_why : "?");
	line_put(&l, "\n", 1);
	if (!l.overflow)
		sys_write(2, buf, l.len);
}

static void choose_sink(struct report *r)
{
	const struct policy *p = load_policy_get();
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

	line_syslog_time(stamp);
	line_put_raw(&h, SYSLOG_PRIORITY);
	line_put_raw(&h, stamp);
	line_put_raw(&h, " libcloexec[");
	line_put_decimal(&h, r->pid);
	line_put_raw(&h, "]: ");
	memcpy(line - h.len, head, h.len);
	iov.iov_base = line - h.len;
	iov.iov_len = h.len + len - 1;
	n = sys_sendmsg(r->out, &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
	return n >= 0 || n == -EAGAIN || n == -ENOBUFS;
}

void sink_deliver(struct report *r, char *line, size_t len)
{
	if (!r->chosen)
		choose_sink(r);
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

void sink_end_and_deliver(struct report *r, struct line *l)
{
	if (line_end(l))
		sink_deliver(r, l->buf, l->len);
}

/* A report's end: what it opened closed, what it lost said. */
void sink_done(struct report *r)
{
	if (r->out > 2 && r->out != r->named)
		sys_close(r->out);
	if (r->lost)
		send_lost(r);
	if (r->sock >= 0)
		sys_close(r->sock);
}
