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
#include <sys/un.h>
#include <unistd.h>

#include "fdtable.h"
#include "handoff.h"
#include "load.h"
#include "report.h"
#include "sink.h"
#include "sys.h"

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
static void socket_fields(struct line_record *rec, int fd, char local[160],
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

static void origin_fields(struct line_record *rec, int fd, const char *program,
			  struct origin_text *t)
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
 * Whether fd is passed on purpose, and why: an inheritance rule first
 * (it names the fd to the new program), then what the fd table knows of
 * it, then the policy's own exceptions, which a team sets to accept an
 * fd it knows of (keep=, keep-path=, exempt=).
 */
static void why(struct line_record *rec, const struct handoff_kept *kept,
		int fd)
{
	unsigned bits = fdtable_get(fd);
	enum why why = handoff_kept_why(kept, fd, &rec->reason);

	if (why == WHY_NONE) {
		if (bits & FDT_INHERITED)
			why = WHY_INHERITED;
		else if ((bits & FDT_DELIBERATE) && rec->created_by &&
			 (!strncmp(rec->created_by, "dup", 3) ||
			  !strncmp(rec->created_by, "fcntl", 5)))
			why = WHY_DUP2;
		else if (bits & FDT_DELIBERATE)
			why = WHY_SET_INHERITABLE;
		else if (load_keeps_fd(fd))
			why = WHY_KEEP;
		else if (load_keeps_path(rec->target))
			why = WHY_KEEP_PATH;
		else if (load_policy_get()->exempt)
			why = WHY_EXEMPT;
		rec->reason = why_text(why);
	}
	rec->why = why_word(why);
	rec->deliberate = why != WHY_NONE;
}

static int report_fd(int fd, void *ctx)
{
	struct report *r = ctx;
	long flags = sys_fcntl(fd, F_GETFD, 0);
	char link[32], target[1024], local[160], peer[160];
	char buf[SYSLOG_HEAD_MAX + REPORT_LINE_MAX];
	struct line_record rec = {
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
	rec.kind = line_kind_of(target);
	if (!strcmp(rec.kind, "socket"))
		socket_fields(&rec, fd, local, peer);
	origin_fields(&rec, fd, r->program, &origin);
	why(&rec, r->kept, fd);
	len = line_format_record(&rec, buf + SYSLOG_HEAD_MAX, REPORT_LINE_MAX);
	if (len)
		sink_deliver(r, buf + SYSLOG_HEAD_MAX, len);
	return 1;
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

	sink_put_head(&l, r, "exec");
	line_put_field(&l, "exec", r->path, CAP_PATH);
	if (r->argv) {
		line_put_key(&l, "argv");
		line_put_argv(&l, r->argv, CAP_ARGV);
	}
	line_put_raw(&l, spawn ? ",\"spawn\":true" : ",\"spawn\":false");
	sink_end_and_deliver(r, &l);
}

/*
 * The caller's errno is left as it was: a spawn (popen, posix_spawn,
 * system) that succeeds must not change it, and the report asks libc
 * things that fail (getpeername of a socket that is not connected).
 */
void report_inherited(const char *path, char *const argv[],
		      const struct handoff_kept *kept, bool spawn)
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
	line_time(r.time);
	r.named = sink_named_log(&r.named_why);
	if (r.named != NAMED_NONE)
		report_exec(&r, spawn);
	fdtable_for_each(report_fd, &r);
	sink_done(&r);
	errno = saved_errno;
}

/* "/proc/self/fd/N", without stdio. */
static void fd_link(char *buf, size_t size, int fd)
{
	struct line l = { .buf = buf, .size = size - 1 };

	line_put_raw(&l, "/proc/self/fd/");
	line_put_decimal(&l, fd);
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
	sink_put_head(&l, r, "received");
	line_put_key(&l, "fd");
	line_put_decimal(&l, fd);
	line_put_field(&l, "kind", line_kind_of(target), CAP_WORD);
	line_put_field(&l, "target", target, CAP_PATH);
	sink_end_and_deliver(r, &l);
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

	r.named = sink_named_log(&r.named_why);
	/* Under cloexec --audit only: a start line per process elsewhere
	 * would flood syslog. */
	if (r.named == NAMED_NONE)
		return;
	n = sys_call(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", program,
		     sizeof(program) - 1, 0);
	program[n > 0 ? n : 0] = '\0';
	r.program = program;
	r.path = program;
	line_time(r.time);
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
	sink_put_head(&l, &r, "start");
	line_put_key(&l, "argv");
	line_put_argv(&l, args, CAP_ARGV);
	sink_end_and_deliver(&r, &l);
	fdtable_for_each(report_received, &r);
	sink_done(&r);
}
