/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec --scan: the fds of running processes that the next program they
 * exec would inherit, read from /proc.  It changes nothing and needs the
 * library nowhere; a process it may not read is counted and named.
 *
 * An fd is inheritable when O_CLOEXEC is clear in the "flags:" line of
 * /proc/PID/fdinfo/N (the kernel reports close-on-exec there, in octal).
 * Sockets are named by looking their inode up in the tables of /proc/PID/net/, which
 * shows the tables of that process's network namespace.
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
#include <sys/stat.h>
#include <unistd.h>

#include "scan.h"
#include "scan_prom.h"

enum risk { RISK_LOW, RISK_MEDIUM, RISK_HIGH, RISK_COUNT };

static const char *const risk_names[RISK_COUNT] = { "low", "medium", "high" };

/* A socket as the tables in /proc/PID/net/ describe it. */
struct sock_info {
	unsigned long inode;
	const char *family, *type;
	char local[64], peer[64];
	bool listening, connected;
};

struct sock_table {
	struct sock_info *v;
	size_t n, cap;
	char netns[64];
};

struct fd_info {
	int fd;
	enum risk risk;
	const char *kind;
	char target[PATH_MAX];
	bool writable;
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
	struct sock_table socks;
	struct proc_info *procs;
	size_t nprocs, cap, scanned, counts[RISK_COUNT];
	char unreadable[1024];
	size_t nunreadable;
};

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 16;
	v = realloc(v, *cap * size);
	if (!v) {
		fputs("cloexec: out of memory\n", stderr);
		exit(125);
	}
	return v;
}

/* The whole of a small /proc file, NUL-terminated; -1 with errno. */
static ssize_t read_proc(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (len < size - 1 &&
	       (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return len;
}

static void format_inet(char *out, size_t size, const char *hex, bool v6)
{
	unsigned char a[16];
	unsigned port = 0;
	size_t i, len, nbytes = v6 ? 16 : 4;
	const char *colon = strchr(hex, ':');

	if (!colon || (size_t)(colon - hex) != 2 * nbytes) {
		snprintf(out, size, "?");
		return;
	}
	/* The kernel prints each 32-bit word in host byte order. */
	for (i = 0; i < nbytes; i++) {
		unsigned b;
		size_t word = i / 4, in_word = i % 4;

		sscanf(hex + 8 * word + 2 * (3 - in_word), "%2x", &b);
		a[i] = b;
	}
	sscanf(colon + 1, "%x", &port);
	if (!v6) {
		snprintf(out, size, "%u.%u.%u.%u:%u", a[0], a[1], a[2], a[3],
			 port);
		return;
	}
	len = 0;
	out[len++] = '[';
	for (i = 0; i < 16 && len + 6 < size; i += 2)
		len += snprintf(out + len, size - len, "%s%x", i ? ":" : "",
				a[i] << 8 | a[i + 1]);
	snprintf(out + len, size - len, "]:%u", port);
}

/* /proc/PID/net/NAME, past its heading line; NULL if it cannot be read. */
static FILE *open_net_table(int pid, const char *name, char *line, int size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/net/%s", pid, name);
	f = fopen(path, "re");
	if (f && !fgets(line, size, f)) {
		fclose(f);
		return NULL;
	}
	return f;
}

/* TCP and UDP, v4 and v6: "sl local rem st ... uid timeout inode". */
static void load_inet(struct sock_table *t, int pid, const char *name,
		      const char *type, bool v6)
{
	char line[512];
	FILE *f = open_net_table(pid, name, line, sizeof(line));

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char local[64], rem[64];
		unsigned st;
		unsigned long inode;
		struct sock_info *s;

		if (sscanf(line, "%*d: %63s %63s %x %*s %*s %*s %*s %*s %lu",
			   local, rem, &st, &inode) != 4)
			continue;
		t->v = grow(t->v, &t->cap, t->n, sizeof(*t->v));
		s = &t->v[t->n++];
		*s = (struct sock_info){ .inode = inode, .type = type,
					 .family = v6 ? "inet6" : "inet" };
		format_inet(s->local, sizeof(s->local), local, v6);
		/* TCP_LISTEN is 10; TCP_ESTABLISHED, and a connected UDP, 1. */
		s->listening = !strcmp(type, "stream") && st == 10;
		s->connected = st == 1;
		if (s->connected)
			format_inet(s->peer, sizeof(s->peer), rem, v6);
	}
	fclose(f);
}

/* "Num RefCount Protocol Flags Type St Inode [Path]". */
static void load_unix(struct sock_table *t, int pid)
{
	static const char *const types[] = { "?", "stream", "dgram", "raw",
					     "rdm", "seqpacket" };
	char line[PATH_MAX + 128];
	FILE *f = open_net_table(pid, "unix", line, sizeof(line));

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long flags, inode;
		unsigned type, st;
		int end = 0;
		struct sock_info *s;

		if (sscanf(line, "%*s %*s %*s %lx %x %x %lu%n", &flags, &type,
			   &st, &inode, &end) != 4)
			continue;
		t->v = grow(t->v, &t->cap, t->n, sizeof(*t->v));
		s = &t->v[t->n++];
		*s = (struct sock_info){ .inode = inode, .family = "unix",
					 .type = type < 6 ? types[type] : "?" };
		line[strcspn(line, "\n")] = '\0';
		while (line[end] == ' ')
			end++;
		snprintf(s->local, sizeof(s->local), "%s", line + end);
		/* __SO_ACCEPTCON: the socket listens.  SS_CONNECTED is 3. */
		s->listening = flags & 0x10000;
		s->connected = st == 3;
	}
	fclose(f);
}

/* The socket tables of pid's network namespace, read once per namespace. */
static void load_sockets(struct sock_table *t, int pid)
{
	char path[64], netns[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	n = readlink(path, netns, sizeof(netns) - 1);
	netns[n > 0 ? n : 0] = '\0';
	if (t->n && n > 0 && !strcmp(netns, t->netns))
		return;
	t->n = 0;
	snprintf(t->netns, sizeof(t->netns), "%s", netns);
	load_inet(t, pid, "tcp", "stream", false);
	load_inet(t, pid, "tcp6", "stream", true);
	load_inet(t, pid, "udp", "dgram", false);
	load_inet(t, pid, "udp6", "dgram", true);
	load_unix(t, pid);
}

static const struct sock_info *find_socket(const struct sock_table *t,
					   unsigned long inode)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].inode == inode)
			return &t->v[i];
	return NULL;
}

/*
 * The risk classes of cloexec(1): what a program that inherits the fd
 * could do with it that it could not do otherwise.
 */
static void classify_file(struct fd_info *f, int pid)
{
	char path[64];
	struct stat st;
	bool private;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, f->fd);
	private = stat(path, &st) == 0 && !(st.st_mode & S_IROTH);
	if (!strcmp(f->target, "/dev/null")) {
		f->kind = "device";
		f->risk = RISK_LOW;
		return;
	}
	f->kind = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device" :
	       S_ISDIR(st.st_mode)			     ? "directory" :
								 "file";
	if (f->writable || private || !strncmp(f->target, "/etc/", 5))
		f->risk = RISK_HIGH;
	else
		f->risk = RISK_MEDIUM;
}

static void classify(struct scan *sc, struct fd_info *f, int pid)
{
	unsigned long inode;

	if (sscanf(f->target, "socket:[%lu]", &inode) == 1) {
		load_sockets(&sc->socks, pid);
		f->kind = "socket";
		f->sock = find_socket(&sc->socks, inode);
		f->risk = f->sock && f->sock->listening ? RISK_HIGH :
			  RISK_MEDIUM;
	} else if (!strncmp(f->target, "pipe:", 5)) {
		f->kind = "pipe";
		f->risk = RISK_LOW;
	} else if (!strncmp(f->target, "anon_inode:", 11)) {
		f->kind = "anon_inode";
		f->risk = RISK_LOW;
	} else if (f->target[0] == '/') {
		classify_file(f, pid);
	} else {
		f->kind = "other";
		f->risk = RISK_MEDIUM;
	}
}

/* O_CLOEXEC as fdinfo's octal "flags:" shows it, and the access mode. */
static bool fd_inheritable(int pid, int fd, bool *writable)
{
	char path[64], buf[512], *flags;
	unsigned long value;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", pid, fd);
	if (read_proc(path, buf, sizeof(buf)) < 0)
		return false;
	flags = strstr(buf, "flags:");
	if (!flags || sscanf(flags + 6, "%lo", &value) != 1)
		return false;
	*writable = (value & O_ACCMODE) != O_RDONLY;
	return !(value & O_CLOEXEC);
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
	char path[64], comm[32];
	size_t len = strlen(sc->unreadable);

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_proc(path, comm, sizeof(comm)) < 0)
		strcpy(comm, "?");
	comm[strcspn(comm, "\n")] = '\0';
	sc->nunreadable++;
	if (len + 64 < sizeof(sc->unreadable))
		snprintf(sc->unreadable + len, sizeof(sc->unreadable) - len,
			 "%s%d (%s)", len ? ", " : "", pid, comm);
}

/* Returns false when the process is gone: it is then no part of the scan. */
static bool scan_process(struct scan *sc, int pid)
{
	char path[32];
	struct proc_info p = { .pid = pid };
	struct dirent *d;
	size_t cap = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	if (!dir) {
		if (errno == ENOENT || errno == ESRCH)
			return false;
		note_unreadable(sc, pid);
		return true;
	}
	sc->scanned++;
	while ((d = readdir(dir))) {
		char link[64];
		struct fd_info f = { .fd = atoi(d->d_name) };
		ssize_t n;

		if (d->d_name[0] == '.' || f.fd <= 2 ||
		    !fd_inheritable(pid, f.fd, &f.writable))
			continue;
		snprintf(link, sizeof(link), "%s/%d", path, f.fd);
		n = readlink(link, f.target, sizeof(f.target) - 1);
		if (n < 0)
			continue;
		f.target[n] = '\0';
		classify(sc, &f, pid);
		p.fds = grow(p.fds, &cap, p.nfds, sizeof(*p.fds));
		p.fds[p.nfds++] = f;
	}
	closedir(dir);
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
	sc->procs = grow(sc->procs, &sc->cap, sc->nprocs, sizeof(*sc->procs));
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
	printf("{\"pid\":%d", p->pid);
	json_string("user", p->user);
	json_string("exe", p->exe);
	json_string("argv", p->argv);
	printf(",\"library\":%s,\"fd\":%d", p->library ? "true" : "false",
	       f->fd);
	json_string("kind", f->kind);
	json_string("risk", risk_names[f->risk]);
	json_string("target", f->target);
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
	puts("}");
}

static void print_fd(const struct fd_info *f)
{
	printf("  %-6s fd %-3d %-9s ", risk_names[f->risk], f->fd, f->kind);
	if (!f->sock) {
		printf("%s%s\n", f->target, f->writable ? " (open for writing)" :
							  "");
		return;
	}
	printf("%s %s %s", f->sock->family, f->sock->type, f->sock->local);
	if (f->sock->listening)
		printf(" listening");
	else if (f->sock->peer[0])
		printf(" -> %s", f->sock->peer);
	putchar('\n');
}

static void print_process(const struct proc_info *p)
{
	size_t i;

	printf("pid %d %s (user %s): %s\n", p->pid,
	       p->exe[0] ? p->exe : "?", p->user, p->argv);
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
	struct scan sc = { .json = json };
	int self = getpid(), pid, status = 0;
	size_t i, j, total = 0;

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
		free(sc.procs[i].fds);
	}
	free(sc.procs);
	free(sc.socks.v);
	fprintf(json ? stderr : stdout,
		"cloexec --scan: %zu inheritable fds above 2 in %zu of %zu "
		"processes read (%zu high, %zu medium, %zu low)",
		total, sc.nprocs, sc.scanned, sc.counts[RISK_HIGH],
		sc.counts[RISK_MEDIUM], sc.counts[RISK_LOW]);
	if (sc.nunreadable)
		fprintf(json ? stderr : stdout, "; %zu not readable: %s%s",
			sc.nunreadable, sc.unreadable,
			strlen(sc.unreadable) + 64 >= sizeof(sc.unreadable) ?
				", ..." :
				"");
	fputs("\n", json ? stderr : stdout);
	if (sc.prom) {
		int written =
			scan_prom_write(sc.prom, sc.scanned, sc.nunreadable);

		return written ? written : status;
	}
	return status;
}
