/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec --scan: the fds of running processes that the next program they
 * exec would inherit, read from /proc.  It changes nothing and needs the
 * library nowhere; a process it may not read is counted and named.
 *
 * An fd is inheritable when O_CLOEXEC is clear in the "flags:" line of
 * /proc/PID/fdinfo/N (the kernel reports close-on-exec there, in octal);
 * the same read names its mount and inode, which is all there is to learn
 * of a socket or a pipe.  Sockets are named by looking their inode up in
 * their network namespace's tables (socktab.c: sock_diag).
 *
 * Other processes choose what is read here, so nothing of theirs may stall
 * or spoof the scan: no call that waits on a file's filesystem is made
 * where that filesystem could be a server that never answers (fdfs.c),
 * on the very file whose mount said so (an O_PATH fd of the scan's own:
 * describe_file), no text another user can shape is parsed (socktab.c),
 * and every name (executable, argv, file, socket path, user, comm) is
 * printed escaped (escape.c; --json escapes its own way).
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "escape.h"
#include "fdfs.h"
#include "mem.h"
#include "scan.h"
#include "scan_prom.h"
#include "socktab.h"

enum risk { RISK_LOW, RISK_MEDIUM, RISK_HIGH, RISK_COUNT };

static const char *const risk_names[RISK_COUNT] = { "low", "medium", "high" };

struct fd_info {
	int fd;
	enum risk risk;
	const char *kind;
	/*
	 * The link text, allocated: a host may hold 100,000 fds.  NULL for a
	 * socket or a pipe known by its inode: "socket:[INO]" when printed.
	 */
	char *target;
	unsigned long ino;
	int mnt_id;
	bool writable, mode_unknown;
	const struct sock_info *sock;
};

struct proc_info {
	int pid;
	char exe[PATH_MAX], argv[128], user[64];
	bool library;
	struct fd_info *fds;
	size_t nfds;
	enum risk worst;
};

struct scan {
	bool json;
	struct scan_prom *prom; /* --format=prometheus: every process read */
	struct sock_tables *socks;
	struct fd_fs *fs;
	/* this process's /proc/self/fdinfo and /proc/self/fd */
	int selfinfo, selffd;
	/* the mounts of every socket and every pipe (fdinfo's mnt_id) */
	int sockfs, pipefs;
	struct proc_info *procs;
	size_t nprocs, cap, scanned, counts[RISK_COUNT];
	char unreadable[1024];
	size_t nunreadable;
	bool unreadable_cut; /* a process counted there is not named */
};

/* The whole of a small /proc file, NUL-terminated; -1 with errno. */
static ssize_t read_proc(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return len;
}

/*
 * What /proc/PID/fdinfo/N says of an fd: its flags (O_CLOEXEC, the access
 * mode, in octal), the mount its file lies on, and its inode (0 where the
 * kernel does not say).  One read: the three come first.  dirfd is the
 * process's fdinfo directory, name the fd's number.
 */
struct fdinfo {
	unsigned long flags, ino;
	int mnt_id;
};

/* The decimal (base 10) or octal (8) number after "key:\t" in a line. */
static bool fdinfo_field(const char *line, const char *key, size_t len,
			 unsigned base, unsigned long *v)
{
	const char *p = line + len;

	if (memcmp(line, key, len) || (*p != '\t' && *p != ' '))
		return false;
	while (*p == '\t' || *p == ' ')
		p++;
	if (*p < '0' || *p > (base == 8 ? '7' : '9'))
		return false;
	for (*v = 0; *p >= '0' && *p <= (base == 8 ? '7' : '9'); p++)
		*v = *v * base + (unsigned long)(*p - '0');
	return true;
}

/*
 * The scan opens one fdinfo per fd, and closes them many at a time: one
 * close_range for each run of consecutive numbers among them (the kernel
 * gives the lowest free number, so they mostly are one run, broken only
 * where a number was taken before), one system call fewer per fd of
 * 100,000.
 */
#define PENDING_MAX 256

struct pending {
	int fd[PENDING_MAX];
	int n;
};

static void close_run(int lo, int hi)
{
	int fd;

	if (syscall(SYS_close_range, lo, hi, 0))
		for (fd = lo; fd <= hi; fd++)
			close(fd);
}

static void close_pending(struct pending *pc)
{
	int i, lo;

	for (i = 0, lo = 0; i < pc->n; i++)
		if (i + 1 == pc->n || pc->fd[i + 1] != pc->fd[i] + 1) {
			close_run(pc->fd[lo], pc->fd[i]);
			lo = i + 1;
		}
	pc->n = 0;
}

/* fd, just opened, closed now or with the others (pc NULL: now). */
static void close_later(struct pending *pc, int fd)
{
	if (!pc) {
		close(fd);
		return;
	}
	pc->fd[pc->n++] = fd;
	if (pc->n == PENDING_MAX)
		close_pending(pc);
}

static bool read_fdinfo_at(int dirfd, const char *name, struct fdinfo *fi,
			   struct pending *pc)
{
	char buf[256], *line, *eol;
	unsigned long v;
	bool flags = false;
	ssize_t n;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	/* Those waiting to be closed may be what the fd limit is full of. */
	if (fd < 0 && errno == EMFILE && pc && pc->n) {
		close_pending(pc);
		fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close_later(pc, fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	fi->mnt_id = -1;
	fi->ino = 0;
	for (line = buf; *line; line = eol + 1) {
		eol = strchr(line, '\n');
		if (!eol)
			break;
		if (fdinfo_field(line, "flags:", 6, 8, &v)) {
			fi->flags = v;
			flags = true;
		} else if (fdinfo_field(line, "mnt_id:", 7, 10, &v)) {
			fi->mnt_id = v <= INT_MAX ? (int)v : -1;
		} else if (fdinfo_field(line, "ino:", 4, 10, &v)) {
			fi->ino = v;
		}
	}
	return flags;
}

static bool read_fdinfo(int dirfd, const char *name, struct fdinfo *fi)
{
	return read_fdinfo_at(dirfd, name, fi, NULL);
}

/* The mount an fd of this process lies on (fdinfo), -2 if unknown. */
static int own_mount(struct scan *sc, int fd)
{
	char name[16];
	struct fdinfo fi;

	snprintf(name, sizeof(name), "%d", fd);
	return sc->selfinfo >= 0 && read_fdinfo(sc->selfinfo, name, &fi) &&
			       fi.mnt_id >= 0 ?
		       fi.mnt_id :
		       -2;
}

/*
 * The risk classes of cloexec(1): what a program that inherits the fd
 * could do with it that it could not do otherwise.
 */
static void classify_file(struct scan *sc, struct fd_info *f, int pid, int obj,
			  int mnt_id)
{
	struct stat st;
	bool private = false;

	if (!strcmp(f->target, "/dev/null")) {
		f->kind = "device";
		f->risk = RISK_LOW;
		return;
	}
	f->kind = "file";
	if (!fdfs_fstat(sc->fs, pid, obj, mnt_id, &st)) {
		private = !(st.st_mode & S_IROTH);
		if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
			f->kind = "device";
		else if (S_ISDIR(st.st_mode))
			f->kind = "directory";
	} else if (errno == ETIMEDOUT) {
		/* who may read it is unknown: as if no one else may */
		f->mode_unknown = true;
		private = true;
	}
	if (f->writable || private || !strncmp(f->target, "/etc/", 5))
		f->risk = RISK_HIGH;
	else
		f->risk = RISK_MEDIUM;
}

/*
 * A file: what is decided (its path, its mount) and what is stat'ed are
 * one object, the one the fd number holds when it is opened here
 * (O_PATH, through /proc/PID/fd/N: nothing asked of its filesystem), and
 * asked of that fd of ours: the process may dup2 another file onto the
 * number at any time, one on a FUSE server that never answers among them.
 * The number's flags are read again while it holds another file than
 * this (a few times: one that keeps changing is shown as it was last).
 * False to leave the fd out.
 */
static bool describe_file(struct scan *sc, struct fd_info *f, int pid,
			  int fddir, const char *name, struct fdinfo *fi,
			  int infodir)
{
	char own[16], target[PATH_MAX];
	struct fdinfo mine;
	ssize_t n;
	int obj, tries;

	for (tries = 0;; tries++) {
		obj = openat(fddir, name, O_PATH | O_CLOEXEC);
		if (obj < 0)
			return false;
		snprintf(own, sizeof(own), "%d", obj);
		if (sc->selfinfo < 0 ||
		    !read_fdinfo(sc->selfinfo, own, &mine) ||
		    (n = readlinkat(sc->selffd, own, target,
				    sizeof(target) - 1)) < 0) {
			close(obj);
			return false;
		}
		if (!fi->ino || mine.ino == fi->ino || tries == 3)
			break;
		close(obj);
		if (!read_fdinfo(infodir, name, fi))
			return false;
	}
	target[n] = '\0';
	if (fi->flags & O_CLOEXEC) {
		close(obj);
		return false;
	}
	f->writable = (fi->flags & O_ACCMODE) != O_RDONLY;
	f->mnt_id = mine.mnt_id;
	f->target = mem_strdup(target);
	classify_file(sc, f, pid, obj, mine.mnt_id);
	close(obj);
	return true;
}

/*
 * What the fd is: a socket or a pipe by its mount (fdinfo says, with its
 * inode: no more to read), anything else by its link.  False to leave it
 * out (it went away meanwhile).
 */
static bool describe(struct scan *sc, struct fd_info *f, int pid, int fddir,
		     const char *name, struct fdinfo *fi, int infodir)
{
	char target[PATH_MAX];
	unsigned long inode;
	ssize_t n;

	f->writable = (fi->flags & O_ACCMODE) != O_RDONLY;
	f->mnt_id = fi->mnt_id;
	if (fi->ino && fi->mnt_id == sc->sockfs) {
		f->ino = fi->ino;
		f->kind = "socket";
	} else if (fi->ino && fi->mnt_id == sc->pipefs) {
		f->ino = fi->ino;
		f->kind = "pipe";
	} else {
		n = readlinkat(fddir, name, target, sizeof(target) - 1);
		if (n < 0)
			return false;
		target[n] = '\0';
		if (target[0] == '/')
			return describe_file(sc, f, pid, fddir, name, fi,
					     infodir);
		if (sscanf(target, "socket:[%lu]", &inode) == 1) {
			f->ino = inode;
			f->kind = "socket";
		} else if (sscanf(target, "pipe:[%lu]", &inode) == 1) {
			f->ino = inode;
			f->kind = "pipe";
		} else {
			f->target = mem_strdup(target);
			f->kind = strncmp(target, "anon_inode:", 11) ?
					  "other" :
					  "anon_inode";
		}
	}
	if (!strcmp(f->kind, "socket")) {
		f->sock = socktab_find(sc->socks, pid, f->ino);
		f->risk =
			f->sock && f->sock->listening ? RISK_HIGH : RISK_MEDIUM;
	} else if (!strcmp(f->kind, "other")) {
		f->risk = RISK_MEDIUM;
	} else {
		f->risk = RISK_LOW;
	}
	return true;
}

/* The link text of an fd: its own, or its kind's and its inode's. */
static const char *target_of(const struct fd_info *f, char *buf, size_t size)
{
	if (f->target)
		return f->target;
	snprintf(buf, size, "%s:[%lu]", f->kind, f->ino);
	return buf;
}

static void describe_process(struct proc_info *p)
{
	char path[64], buf[4096];
	ssize_t n;
	size_t i, len;
	const char *uid;
	struct passwd *pw;
	FILE *maps;

	snprintf(path, sizeof(path), "/proc/%d/exe", p->pid);
	n = readlink(path, p->exe, sizeof(p->exe) - 1);
	p->exe[n > 0 ? n : 0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/cmdline", p->pid);
	n = read_proc(path, buf, sizeof(buf));
	len = n > 0 ? (size_t)n : 0;
	while (len && buf[len - 1] == '\0')
		len--;
	for (i = 0; i < len; i++)
		if (buf[i] == '\0' || !isprint((unsigned char)buf[i]))
			buf[i] = buf[i] ? '?' : ' ';
	if (len >= sizeof(p->argv)) {
		len = sizeof(p->argv) - 4;
		memcpy(buf + len, "...", 3);
		len += 3;
	}
	buf[len] = '\0';
	memcpy(p->argv, buf, len + 1);
	snprintf(path, sizeof(path), "/proc/%d/status", p->pid);
	strcpy(p->user, "?");
	if (read_proc(path, buf, sizeof(buf)) >= 0 &&
	    (uid = strstr(buf, "\nUid:"))) {
		unsigned long id = strtoul(uid + 5, NULL, 10);

		pw = getpwuid(id);
		if (pw)
			snprintf(p->user, sizeof(p->user), "%s", pw->pw_name);
		else
			snprintf(p->user, sizeof(p->user), "%lu", id);
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", p->pid);
	maps = fopen(path, "re");
	if (maps) {
		while (fgets(buf, sizeof(buf), maps))
			if (strstr(buf, "/libcloexec.so"))
				p->library = true;
		fclose(maps);
	}
}

static void note_unreadable(struct scan *sc, int pid)
{
	char path[64], comm[32], safe[4 * sizeof(comm)];
	size_t len = strlen(sc->unreadable);

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_proc(path, comm, sizeof(comm)) < 0)
		strcpy(comm, "?");
	comm[strcspn(comm, "\n")] = '\0';
	/* the process chose its comm: printed escaped, as every name */
	escape_into(safe, sizeof(safe), comm);
	sc->nunreadable++;
	if (len + 96 < sizeof(sc->unreadable))
		snprintf(sc->unreadable + len, sizeof(sc->unreadable) - len,
			 "%s%d (%s)", len ? ", " : "", pid, safe);
	else
		sc->unreadable_cut = true;
}

/*
 * Returns false when the process is gone: it is then no part of the scan.
 * Its fds are listed by /proc/PID/fdinfo, each one's flags read there
 * first; only an inheritable one is looked at further.  One the scan
 * could not look at for want of an fd of its own (its limit) makes the
 * process one not wholly readable, named so in the summary: never clean.
 */
static bool scan_process(struct scan *sc, int pid)
{
	char path[32];
	struct proc_info p = { .pid = pid };
	struct pending pc = { .n = 0 };
	struct dirent *d;
	size_t cap = 0;
	int infodir, fddir;
	bool out_of_fds = false;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo", pid);
	infodir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (infodir < 0) {
		if (errno == ENOENT || errno == ESRCH)
			return false;
		note_unreadable(sc, pid);
		return true;
	}
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	fddir = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	dir = fddir < 0 ? NULL : fdopendir(infodir);
	if (!dir) {
		out_of_fds = errno == EMFILE || errno == ENFILE;
		close(infodir);
		if (fddir >= 0)
			close(fddir);
		if (out_of_fds)
			note_unreadable(sc, pid);
		return out_of_fds;
	}
	sc->scanned++;
	while ((d = readdir(dir))) {
		struct fd_info f = { .fd = atoi(d->d_name) };
		struct fdinfo fi;

		if (d->d_name[0] == '.' || f.fd <= 2)
			continue;
		errno = 0;
		if (!read_fdinfo_at(infodir, d->d_name, &fi, &pc) ||
		    (!(fi.flags & O_CLOEXEC) &&
		     !describe(sc, &f, pid, fddir, d->d_name, &fi, infodir))) {
			out_of_fds |= errno == EMFILE || errno == ENFILE;
			continue;
		}
		if (fi.flags & O_CLOEXEC)
			continue;
		p.fds = mem_grow(p.fds, &cap, p.nfds, sizeof(*p.fds));
		p.fds[p.nfds++] = f;
	}
	close_pending(&pc);
	closedir(dir);
	close(fddir);
	/* What the scan's own fd limit kept it from reading is not clean. */
	if (out_of_fds)
		note_unreadable(sc, pid);
	if (!p.nfds && !sc->prom)
		return true;
	describe_process(&p);
	if (sc->prom) {
		size_t i;

		for (i = 0; i < p.nfds; i++)
			scan_prom_fd(sc->prom, p.exe, risk_names[p.fds[i].risk],
				     p.fds[i].kind);
		scan_prom_process(sc->prom, p.exe, p.library);
		if (!p.nfds)
			return true;
	}
	sc->procs =
		mem_grow(sc->procs, &sc->cap, sc->nprocs, sizeof(*sc->procs));
	sc->procs[sc->nprocs++] = p;
	return true;
}

static int by_risk_then_fd(const void *a, const void *b)
{
	const struct fd_info *x = a, *y = b;

	if (x->risk != y->risk)
		return y->risk - x->risk;
	return x->fd - y->fd;
}

static int by_worst_then_pid(const void *a, const void *b)
{
	const struct proc_info *x = a, *y = b;

	if (x->worst != y->worst)
		return y->worst - x->worst;
	return x->pid - y->pid;
}

static void json_string(const char *name, const char *s)
{
	printf(",\"%s\":\"", name);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void print_json(const struct proc_info *p, const struct fd_info *f)
{
	char buf[64];

	printf("{\"pid\":%d", p->pid);
	json_string("user", p->user);
	json_string("exe", p->exe);
	json_string("argv", p->argv);
	printf(",\"library\":%s,\"fd\":%d", p->library ? "true" : "false",
	       f->fd);
	json_string("kind", f->kind);
	json_string("risk", risk_names[f->risk]);
	json_string("target", target_of(f, buf, sizeof(buf)));
	if (f->sock) {
		json_string("family", f->sock->family);
		json_string("socktype", f->sock->type);
		json_string("local", f->sock->local);
		if (f->sock->connected && f->sock->peer[0])
			json_string("peer", f->sock->peer);
		printf(",\"listening\":%s",
		       f->sock->listening ? "true" : "false");
	} else if (strcmp(f->kind, "socket")) {
		printf(",\"writable\":%s", f->writable ? "true" : "false");
	}
	if (f->mode_unknown)
		printf(",\"mode_unknown\":true");
	puts("}");
}

static void print_fd(const struct fd_info *f)
{
	char buf[64];

	printf("  %-6s fd %-3d %-9s ", risk_names[f->risk], f->fd, f->kind);
	if (!f->sock) {
		fputs_escaped(target_of(f, buf, sizeof(buf)), stdout);
		printf("%s%s\n", f->writable ? " (open for writing)" : "",
		       f->mode_unknown ? " (its filesystem did not answer: "
					 "who may read it is unknown)" :
					 "");
		return;
	}
	printf("%s %s ", f->sock->family, f->sock->type);
	fputs_escaped(f->sock->local, stdout);
	if (f->sock->listening)
		printf(" listening");
	else if (f->sock->peer[0])
		printf(" -> %s", f->sock->peer);
	putchar('\n');
}

/* Every name here is the process's own choice: none printed raw. */
static void print_process(const struct proc_info *p)
{
	size_t i;

	printf("pid %d ", p->pid);
	fputs_escaped(p->exe[0] ? p->exe : "?", stdout);
	fputs(" (user ", stdout);
	fputs_escaped(p->user, stdout);
	fputs("): ", stdout);
	fputs_escaped(p->argv, stdout);
	putchar('\n');
	printf("  library %s\n",
	       p->library ? "loaded: new fds there get close-on-exec" :
			    "not loaded");
	for (i = 0; i < p->nfds; i++)
		print_fd(&p->fds[i]);
}

static bool parse_pid(const char *s, int *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT_MAX)
		return false;
	*pid = v;
	return true;
}

int scan_parse_level(const char *s)
{
	int r;

	if (!strcmp(s, "never"))
		return RISK_COUNT;
	for (r = 0; r < RISK_COUNT; r++)
		if (!strcmp(s, risk_names[r]))
			return r;
	return -1;
}

int scan_run(char **pids, enum scan_format format, const char *output,
	     int fail_on, int found_status)
{
	bool json = format != SCAN_TEXT;
	struct scan sc = { .json = json,
			   .socks = socktab_new(),
			   .fs = fdfs_new() };
	int self = getpid(), pid, status = 0, probe[2];
	size_t i, j, total = 0;

	sc.selfinfo =
		open("/proc/self/fdinfo", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	sc.selffd = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* Every socket lies on one mount, every pipe on another. */
	probe[0] = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	sc.sockfs = probe[0] < 0 ? -2 : own_mount(&sc, probe[0]);
	if (probe[0] >= 0)
		close(probe[0]);
	sc.pipefs = -2;
	if (!pipe2(probe, O_CLOEXEC)) {
		sc.pipefs = own_mount(&sc, probe[0]);
		close(probe[0]);
		close(probe[1]);
	}

	if (format == SCAN_PROMETHEUS &&
	    !(sc.prom = scan_prom_new(output, risk_names, RISK_COUNT))) {
		fputs("cloexec: out of memory\n", stderr);
		return 125;
	}

	if (*pids) {
		for (; *pids; pids++) {
			if (!parse_pid(*pids, &pid)) {
				fprintf(stderr, "cloexec: not a pid: '%s'\n",
					*pids);
				return 125;
			}
			if (!scan_process(&sc, pid))
				fprintf(stderr,
					"cloexec: pid %d: no such process\n",
					pid);
		}
	} else {
		DIR *proc = opendir("/proc");
		struct dirent *d;

		if (!proc) {
			perror("cloexec: /proc");
			return 125;
		}
		while ((d = readdir(proc)))
			if (parse_pid(d->d_name, &pid) && pid != self)
				scan_process(&sc, pid);
		closedir(proc);
	}
	for (i = 0; i < sc.nprocs; i++) {
		struct proc_info *p = &sc.procs[i];

		qsort(p->fds, p->nfds, sizeof(*p->fds), by_risk_then_fd);
		p->worst = p->fds[0].risk;
		for (j = 0; j < p->nfds; j++)
			sc.counts[p->fds[j].risk]++;
		total += p->nfds;
		if ((int)p->worst >= fail_on)
			status = found_status;
	}
	/* qsort's array may not be NULL, even for no elements. */
	if (sc.nprocs)
		qsort(sc.procs, sc.nprocs, sizeof(*sc.procs),
		      by_worst_then_pid);
	for (i = 0; i < sc.nprocs; i++) {
		for (j = 0; j < sc.procs[i].nfds; j++)
			if (format == SCAN_JSON)
				print_json(&sc.procs[i], &sc.procs[i].fds[j]);
		if (!json)
			print_process(&sc.procs[i]);
		for (j = 0; j < sc.procs[i].nfds; j++)
			free(sc.procs[i].fds[j].target);
		free(sc.procs[i].fds);
	}
	free(sc.procs);
	socktab_free(sc.socks);
	fdfs_free(sc.fs);
	if (sc.selfinfo >= 0)
		close(sc.selfinfo);
	if (sc.selffd >= 0)
		close(sc.selffd);
	fprintf(json ? stderr : stdout,
		"cloexec --scan: %zu inheritable fds above 2 in %zu of %zu "
		"processes read (%zu high, %zu medium, %zu low)",
		total, sc.nprocs, sc.scanned, sc.counts[RISK_HIGH],
		sc.counts[RISK_MEDIUM], sc.counts[RISK_LOW]);
	if (sc.nunreadable)
		fprintf(json ? stderr : stdout, "; %zu not readable: %s%s",
			sc.nunreadable, sc.unreadable,
			sc.unreadable_cut ? ", ..." : "");
	fputs("\n", json ? stderr : stdout);
	if (sc.prom) {
		int written =
			scan_prom_write(sc.prom, sc.scanned, sc.nunreadable);

		return written ? written : status;
	}
	return status;
}
