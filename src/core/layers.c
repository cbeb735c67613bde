/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading the policy's layers (layers.h).  This runs in every process that
 * loads the library, most of them with no file at all: there, the one
 * open that fails is the whole cost, and it is made once, at start
 * (policy_configured), with nothing before it.  No stdio, no allocation,
 * no opendir: raw system calls into stack buffers.
 */
#include "config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include "compat.h"
#include "export.h"
#include "layers.h"
#include "str.h"
#include "sys.h"

#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0400000
#endif

/*
 * No symbolic links: the library's own files are opened as they are.
 * O_NONBLOCK: a FIFO put there must not hang every program that starts.
 */
#define FILE_FLAGS (O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
#define DIR_FLAGS (O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY)

const char *layers_file_path(void)
{
	const char *path = secure_env(POLICY_FILE_ENV);

	return path && *path ? path : POLICY_FILE_DEFAULT;
}

const char *layers_env_text(void)
{
	return secure_env(POLICY_ENV);
}

/*
 * What the probe at start found, handed to the load so that it does not
 * open the same paths again: an fd, -errno, or one of these.  Whoever
 * comes second (the probe, if another thread loaded first) closes.
 */
#define SLOT_UNPROBED (-100000L)
#define SLOT_TAKEN (-100001L)
static _Atomic long probed_file = SLOT_UNPROBED;
static _Atomic long probed_dir = SLOT_UNPROBED;

static void probe_put(_Atomic long *slot, long v)
{
	long old = SLOT_UNPROBED;

	if (!atomic_compare_exchange_strong(slot, &old, v) && v >= 0)
		sys_close((int)v);
}

/*
 * The drop-ins are read where the file is there, if only empty: in an
 * image that has neither, every process pays one failed open, not two
 * (doc/benchmarks.md).  Any other failure of the file's open is reported,
 * and the drop-ins are still read.
 */
static long open_dropins(long file, const char *dirpath)
{
	if (file == -ENOENT)
		return -ENOENT;
	return sys_openat(AT_FDCWD, dirpath, DIR_FLAGS, 0);
}

/*
 * The probe's result if it was for this path, else a fresh open; a NULL
 * path is one not to open (open_dropins()).
 */
static long take(_Atomic long *slot, const char *path, int flags,
		 bool is_default)
{
	long v = atomic_exchange(slot, SLOT_TAKEN);

	if (v != SLOT_UNPROBED && v != SLOT_TAKEN) {
		if (is_default && path)
			return v;
		if (v >= 0)
			sys_close((int)v);
	}
	if (!path)
		return -ENOENT;
	return sys_openat(AT_FDCWD, path, flags, 0);
}

/*
 * Does the variable start with "NAME="?  Not strncmp: the first call of a
 * libc function binds it, some 700 instructions a process start.
 */
CHILD_PATH static bool is_variable(const char *var, const char *name_eq)
{
	while (*name_eq && *var == *name_eq)
		var++, name_eq++;
	return !*name_eq;
}

/* Does the environment name a policy or a policy file? */
CHILD_PATH static bool env_names_policy(void)
{
	extern char **environ;
	char **e;

	/* Both names start "CLOEXEC_": most variables fail on a byte. */
	for (e = environ; e && *e; e++)
		if ((*e)[0] == 'C' && (*e)[1] == 'L' &&
		    (is_variable(*e, POLICY_ENV "=") ||
		     is_variable(*e, POLICY_FILE_ENV "=")))
			return true;
	return false;
}

/*
 * What policy_configured() found of the file at start: 1 none, -1 one, 0
 * not asked.  The load reads what was opened then (take), so an exec
 * before any load may go by it too (policy_defaults_stand).
 */
static signed char file_absent STARTUP_DATA;

bool policy_configured(void)
{
	long file, dir;

	if (env_names_policy() || atomic_load(&policy_hot))
		return true;
	/* Open, not stat: where they exist, the load reads these fds. */
	file = sys_openat(AT_FDCWD, POLICY_FILE_DEFAULT, FILE_FLAGS, 0);
	dir = open_dropins(file, POLICY_DIR_DEFAULT);
	probe_put(&probed_file, file);
	probe_put(&probed_dir, dir);
	file_absent = file == -ENOENT ? 1 : -1;
	return file != -ENOENT;
}

CHILD_PATH bool policy_defaults_stand(void)
{
	return file_absent > 0 && !env_names_policy();
}

/* n in decimal, as a string in buf, for "file:line" sources. */
static void format_decimal(char *buf, unsigned n)
{
	char tmp[12];
	int i = 0;

	do
		tmp[i++] = (char)('0' + n % 10);
	while (n /= 10);
	while (i)
		*buf++ = tmp[--i];
	*buf = '\0';
}

#define STRING_OF(x) STRING_OF_(x)
#define STRING_OF_(x) #x

static void cannot_read(struct diag *errs, const char *path, long err)
{
	const char *why;

	switch (-err) {
	case ELOOP:
		why = ": a symbolic link, not followed";
		break;
	case EACCES:
		why = ": permission denied";
		break;
	case ENOTDIR:
		why = ": not a directory";
		break;
	case EISDIR:
		why = ": a directory";
		break;
	default:
		why = "";
	}
	if (!errs->strict)
		diag_puts(errs, "libcloexec: ");
	diag_puts(errs, "cannot read ");
	diag_puts(errs, path);
	diag_puts(errs, why);
	diag_puts(errs, errs->strict ? "\n" : " (skipped)\n");
}

/* An open file, line by line (each its own source, for the messages). */
static int parse_open_file(struct policy *p, long fd, const char *path,
		    struct diag *errs, struct layer_trace *trace)
{
	char buf[POLICY_FILE_MAX + 1], source[256];
	size_t len = 0, plen = strlen(path);
	unsigned line = 0;
	char *s, *eol, *hash;
	int bad = 0;
	long n;

	while (len < sizeof(buf) - 1 &&
	       (n = sys_call(SYS_read, fd, buf + len, sizeof(buf) - 1 - len, 0,
			     0)) > 0)
		len += n;
	/*
	 * A file that does not fit is read up to its last whole line: a line
	 * cut in two could turn a setting into a bad or a different one.
	 */
	if (len == sizeof(buf) - 1 &&
	    sys_call(SYS_read, fd, &buf[len], 1, 0, 0) > 0) {
		while (len > 0 && buf[len - 1] != '\n')
			len--;
		if (!errs->strict)
			diag_puts(errs, "libcloexec: ");
		diag_puts(errs, path);
		diag_puts(errs, ": only its first " STRING_OF(
					POLICY_FILE_MAX) " bytes are read\n");
		bad++;
	}
	sys_close((int)fd);
	buf[len] = '\0';
	if (plen > sizeof(source) - 16)
		plen = sizeof(source) - 16;
	memcpy(source, path, plen);
	for (s = buf; *s; s = eol) {
		eol = strchr(s, '\n');
		if (eol)
			*eol++ = '\0';
		else
			eol = s + strlen(s);
		hash = strchr(s, '#');
		if (hash)
			*hash = '\0';
		source[plen] = ':';
		format_decimal(source + plen + 1, ++line);
		if (trace)
			trace->note(trace, p->text_len, source);
		bad += policy_parse(p, s, source, errs);
	}
	return bad;
}

int layers_read_file(struct policy *p, const char *path, struct diag *errs,
		     struct layer_trace *trace)
{
	long fd = sys_openat(AT_FDCWD, path, FILE_FLAGS, 0);

	if (fd < 0)
		return (int)fd;
	return parse_open_file(p, fd, path, errs, trace);
}

struct dropins {
	unsigned n;
	char name[POLICY_DROPIN_MAX][POLICY_DROPIN_NAME_MAX];
};

static bool is_dropin(const char *name, size_t len)
{
	return len > 5 && name[0] != '.' && !strcmp(name + len - 5, ".conf");
}

/* Keep the first POLICY_DROPIN_MAX names in lexical order. */
static void dropin_add(struct dropins *d, const char *name, size_t len)
{
	unsigned i = d->n;

	if (d->n == POLICY_DROPIN_MAX &&
	    strcmp(name, d->name[POLICY_DROPIN_MAX - 1]) >= 0)
		return;
	if (d->n < POLICY_DROPIN_MAX)
		d->n++;
	else
		i = POLICY_DROPIN_MAX - 1;
	while (i > 0 && strcmp(name, d->name[i - 1]) < 0) {
		memcpy(d->name[i], d->name[i - 1], POLICY_DROPIN_NAME_MAX);
		i--;
	}
	memcpy(d->name[i], name, len + 1);
}

struct linux_dirent64_head {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* The drop-ins' names, sorted; returns how many were left out. */
static int dropins_list(long dirfd, const char *dir, struct dropins *d,
			struct diag *errs)
{
	char buf[1024] __attribute__((aligned(8)));
	bool too_many = false;
	int skipped = 0;
	long n;

	d->n = 0;
	while ((n = sys_getdents64((int)dirfd, buf, sizeof(buf))) > 0) {
		long at = 0;

		while (at < n) {
			struct linux_dirent64_head *e = (void *)(buf + at);
			size_t len = strlen(e->name);

			at += e->reclen;
			if (!is_dropin(e->name, len))
				continue;
			if (len >= POLICY_DROPIN_NAME_MAX) {
				if (!errs->strict)
					diag_puts(errs, "libcloexec: ");
				diag_puts(errs, dir);
				diag_puts(errs, "/");
				diag_puts(errs, e->name);
				diag_puts(errs, ": name too long (skipped)\n");
				skipped++;
				continue;
			}
			if (d->n == POLICY_DROPIN_MAX)
				too_many = true;
			dropin_add(d, e->name, len);
		}
	}
	if (too_many) {
		if (!errs->strict)
			diag_puts(errs, "libcloexec: ");
		diag_puts(errs, dir);
		diag_puts(errs, ": only the first " STRING_OF(
					POLICY_DROPIN_MAX) " files are read\n");
		skipped++;
	}
	return skipped;
}

static int read_dropins(struct policy *p, long dirfd, const char *dir,
			struct diag *errs, struct layer_trace *trace)
{
	struct dropins d;
	char path[256 + POLICY_DROPIN_NAME_MAX];
	size_t dlen = strlen(dir);
	unsigned i;
	int bad = 0;

	bad += dropins_list(dirfd, dir, &d, errs);
	if (dlen > 255)
		dlen = 255;
	memcpy(path, dir, dlen);
	path[dlen] = '/';
	for (i = 0; i < d.n; i++) {
		long fd = sys_openat((int)dirfd, d.name[i], FILE_FLAGS, 0);

		strcpy(path + dlen + 1, d.name[i]);
		if (fd < 0) {
			cannot_read(errs, path, fd);
			bad++;
			continue;
		}
		bad += parse_open_file(p, fd, path, errs, trace);
	}
	sys_close((int)dirfd);
	return bad;
}

/* The file at path and the drop-ins in path ".d", given their opens. */
static int read_opened(struct policy *p, const char *path, long file, long dir,
		       struct diag *errs, struct layer_trace *trace)
{
	char dirpath[256];
	size_t plen = str_len(path);
	int bad = 0;

	if (file >= 0)
		bad += parse_open_file(p, file, path, errs, trace);
	else if (file != -ENOENT && ++bad)
		cannot_read(errs, path, file);
	if (plen > sizeof(dirpath) - 3)
		plen = sizeof(dirpath) - 3;
	str_copy(dirpath, path, plen);
	str_copy(dirpath + plen, ".d", 3);
	if (dir >= 0)
		bad += read_dropins(p, dir, dirpath, errs, trace);
	else if (dir != -ENOENT && ++bad)
		cannot_read(errs, dirpath, dir);
	return bad;
}

/* The drop-in directory of the file at path: path ".d", cut to fit. */
static void dropin_dir(const char *path, char dirpath[256])
{
	size_t plen = str_len(path);

	if (plen > 256 - 3)
		plen = 256 - 3;
	str_copy(dirpath, path, plen);
	str_copy(dirpath + plen, ".d", 3);
}

int layers_read_files(struct policy *p, const char *path, struct diag *errs,
		      struct layer_trace *trace)
{
	char dirpath[256];
	long file, dir;

	dropin_dir(path, dirpath);
	file = sys_openat(AT_FDCWD, path, FILE_FLAGS, 0);
	dir = open_dropins(file, dirpath);
	return read_opened(p, path, file, dir, errs, trace);
}

/*
 * The file errors of this process's load, reported after it; whether
 * there are any is start-up data (export.h), so that a load with none
 * does not read, and fault in, the page of the buffer.
 */
static struct diag file_errs ZERO_DATA;
static bool file_errs_pending STARTUP_DATA;

void layers_load(struct policy *p, struct diag *env_errs)
{
	const char *path = layers_file_path(), *text;
	bool is_default = str_eq(path, POLICY_FILE_DEFAULT);
	char dirpath[256];
	long file, dir;

	dropin_dir(path, dirpath);
	file = take(&probed_file, path, FILE_FLAGS, is_default);
	dir = take(&probed_dir, file == -ENOENT ? NULL : dirpath, DIR_FLAGS,
		   is_default);
	if (read_opened(p, path, file, dir, &file_errs, NULL))
		file_errs_pending = true;
	text = layers_env_text();
	if (text)
		policy_parse(p, text, POLICY_ENV, env_errs);
}

/* Each line to the system log: one datagram, as syslog(3) would send. */
static void to_syslog(const char *lines, size_t len)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX,
				    .sun_path = "/dev/log" };
	char msg[sizeof(file_errs.buf) + 64], pid[12];
	const char *end = lines + len, *eol;
	static const char prefix[] = "libcloexec: ";
	long fd = sys_socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	format_decimal(pid, (unsigned)sys_call(SYS_getpid, 0, 0, 0, 0, 0));
	for (; lines < end; lines = eol + 1) {
		struct iovec iov;
		struct msghdr mh = { .msg_name = &addr,
				     .msg_namelen = sizeof(addr),
				     .msg_iov = &iov,
				     .msg_iovlen = 1 };
		size_t n;

		eol = memchr(lines, '\n', end - lines);
		if (!eol)
			eol = end;
		if ((size_t)(eol - lines) > sizeof(prefix) - 1 &&
		    !memcmp(lines, prefix, sizeof(prefix) - 1))
			lines += sizeof(prefix) - 1;
		/* user.warning, tagged as the C library would tag it */
		n = sizeof("<12>libcloexec[") - 1;
		memcpy(msg, "<12>libcloexec[", n);
		memcpy(msg + n, pid, strlen(pid));
		n += strlen(pid);
		memcpy(msg + n, "]: ", 3);
		n += 3;
		memcpy(msg + n, lines, eol - lines);
		n += eol - lines;
		iov.iov_base = msg;
		iov.iov_len = n;
		sys_sendmsg((int)fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
	}
	sys_close((int)fd);
}

static bool stderr_is_terminal(void)
{
	struct termios t;

	return sys_ioctl(2, TCGETS, &t) == 0;
}

/*
 * A bad file is the administrator's, not the user's: it goes to the
 * system log, and to a terminal where someone may read it, but not into
 * the stderr of every daemon, pipeline and cron job.  Not to a setuid
 * program's terminal either: the caller may not read the file.
 */
void layers_report_files(void)
{
	if (!file_errs_pending)
		return;
	file_errs_pending = false;
	if (!file_errs.len)
		return;
	if (file_errs.buf[file_errs.len - 1] != '\n')
		file_errs.buf[file_errs.len++] = '\n';
	to_syslog(file_errs.buf, file_errs.len);
	if (!getauxval(AT_SECURE) && stderr_is_terminal())
		diag_flush(&file_errs, 2);
	file_errs.len = 0;
}
