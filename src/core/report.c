/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "exec.h"
#include "fdtable.h"
#include "policy.h"
#include "report.h"
#include "sys.h"

/* A line being built: fixed size, no allocation. */
struct line {
	char buf[2048];
	size_t len;
};

static void put(struct line *l, const char *s, size_t n)
{
	if (n > sizeof(l->buf) - 2 - l->len)
		n = sizeof(l->buf) - 2 - l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static void puts_raw(struct line *l, const char *s)
{
	put(l, s, strlen(s));
}

/* A JSON string, escaped; null for NULL. */
static void put_string(struct line *l, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	char esc[6] = "\\u00";

	if (!s) {
		puts_raw(l, "null");
		return;
	}
	put(l, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			put(l, "\\", 1);
			put(l, s, 1);
		} else if (c < 0x20) {
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			put(l, esc, 6);
		} else {
			put(l, s, 1);
		}
	}
	put(l, "\"", 1);
}

static void put_field(struct line *l, const char *name, const char *value)
{
	put(l, ",\"", 2);
	puts_raw(l, name);
	put(l, "\":", 2);
	put_string(l, value);
}

static void put_number(struct line *l, const char *name, long long n)
{
	char num[24];

	snprintf(num, sizeof(num), "%lld", n);
	put(l, ",\"", 2);
	puts_raw(l, name);
	put(l, "\":", 2);
	puts_raw(l, num);
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

static void put_socket(struct line *l, int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss), optlen = sizeof(int);
	char buf[160];
	int family = 0, type = 0;

	getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &family, &optlen);
	optlen = sizeof(int);
	getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &optlen);
	put_field(l, "family", family_name(family));
	put_field(l, "socktype", socktype_name(type));
	memset(&ss, 0, sizeof(ss));
	if (!getsockname(fd, (struct sockaddr *)&ss, &len))
		put_field(l, "local", address(&ss, len, buf, sizeof(buf)));
	len = sizeof(ss);
	memset(&ss, 0, sizeof(ss));
	if (!getpeername(fd, (struct sockaddr *)&ss, &len))
		put_field(l, "peer", address(&ss, len, buf, sizeof(buf)));
}

static void put_origin(struct line *l, int fd)
{
	struct fd_origin o;
	Dl_info info;
	char buf[256];

	if (!fdtable_origin(fd, &o)) {
		put_field(l, "created_by", fdtable_get(fd) & FDT_INHERITED
						   ? "inherited"
						   : NULL);
		return;
	}
	put_field(l, "created_by", o.call);
	snprintf(buf, sizeof(buf), "%p", o.caller);
	put_field(l, "caller", buf);
	if (dladdr(o.caller, &info)) {
		if (info.dli_sname)
			snprintf(buf, sizeof(buf), "%s+%#lx", info.dli_sname,
				 (unsigned long)((char *)o.caller -
						 (char *)info.dli_saddr));
		put_field(l, "caller_symbol", info.dli_sname ? buf : NULL);
		put_field(l, "caller_object", info.dli_fname);
		/* For addr2line, when there is no symbol to name. */
		snprintf(buf, sizeof(buf), "%#lx",
			 (unsigned long)((char *)o.caller -
					 (char *)info.dli_fbase));
		put_field(l, "caller_offset", buf);
	}
}

struct report {
	const struct exec_kept *kept;
	const char *program, *path, *argv0;
	int out;
	pid_t pid;
};

static int report_fd(int fd, void *ctx)
{
	const struct report *r = ctx;
	long flags = sys_fcntl(fd, F_GETFD, 0);
	char link[32], target[512];
	const char *kind, *why = exec_kept_why(r->kept, fd);
	struct line l;
	long n;

	if (flags < 0 || (flags & FD_CLOEXEC) || fd == r->out)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = sys_call(SYS_readlinkat, AT_FDCWD, link, target,
		     sizeof(target) - 1, 0);
	target[n > 0 ? n : 0] = '\0';
	if (!strncmp(target, "socket:", 7))
		kind = "socket";
	else if (!strncmp(target, "pipe:", 5))
		kind = "pipe";
	else if (!strncmp(target, "anon_inode:", 11))
		kind = "anon";
	else if (target[0] == '/')
		kind = "file";
	else
		kind = "other";

	l.len = 0;
	puts_raw(&l, "{\"libcloexec\":1,\"event\":\"inherit\"");
	put_number(&l, "pid", r->pid);
	put_field(&l, "program", r->program);
	put_field(&l, "exec", r->path);
	put_field(&l, "argv0", r->argv0);
	put_number(&l, "fd", fd);
	put_field(&l, "kind", kind);
	put_field(&l, "target", target);
	if (kind[0] == 's' && kind[1] == 'o')
		put_socket(&l, fd);
	put_origin(&l, fd);
	puts_raw(&l, why || fdtable_get(fd) & (FDT_DELIBERATE | FDT_INHERITED)
			     ? ",\"deliberate\":true"
			     : ",\"deliberate\":false");
	put_field(&l, "reason", why);
	put(&l, "}\n", 2);
	sys_write(r->out, l.buf, l.len);
	return 1;
}

void report_inherited(const char *path, char *const argv[],
		      const struct exec_kept *kept)
{
	const struct policy *p = policy_get();
	char program[512], log[512];
	struct report r = {
		.kept = kept,
		.path = path,
		.argv0 = argv && argv[0] ? argv[0] : NULL,
		.out = 2,
		.pid = (pid_t)sys_call(SYS_getpid, 0, 0, 0, 0, 0),
	};
	long n = sys_call(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", program,
			  sizeof(program) - 1, 0);

	program[n > 0 ? n : 0] = '\0';
	r.program = program;
	if (p->log_off >= 0 && (size_t)p->log_len < sizeof(log)) {
		memcpy(log, p->text + p->log_off, p->log_len);
		log[p->log_len] = '\0';
		r.out = (int)sys_openat(AT_FDCWD, log,
					O_WRONLY | O_APPEND | O_CREAT |
						O_CLOEXEC,
					0600);
		if (r.out < 0)
			r.out = 2;
	}
	fdtable_for_each(report_fd, &r);
	if (r.out != 2)
		sys_close(r.out);
}
