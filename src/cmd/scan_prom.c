/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec --scan --format=prometheus: the scan as node_exporter's textfile
 * collector reads it, one gauge per fact, so that a fleet's hosts are
 * watched where their other metrics are.  The collector reads every
 * *.prom file of its directory at each scrape: a file is replaced whole
 * (written beside it under a name without .prom, then renamed), never
 * seen half written.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan_prom.h"

#define PREFIX "cloexec_scan_"

/* The inheritable fds of one risk and one class (scan.c's kinds). */
struct fd_count {
	const char *risk;
	char kind[32];
	size_t n;
};

/* An executable: its processes with and without the library, its fds. */
struct exe_count {
	char *exe;
	size_t with_lib, without_lib, *fds;
};

struct scan_prom {
	const char *path;
	const char *const *risks;
	size_t nrisks;
	struct fd_count *fds;
	size_t nfds, fds_cap;
	struct exe_count *exes;
	size_t nexes, exes_cap;
	bool oom;
};

struct scan_prom *scan_prom_new(const char *path, const char *const *risks,
				size_t nrisks)
{
	struct scan_prom *m = calloc(1, sizeof(*m));

	if (m)
		*m = (struct scan_prom){ .path = path,
					 .risks = risks,
					 .nrisks = nrisks };
	return m;
}

/* Room for one more of n elements of size in *v; false if out of memory. */
static bool grow(void *v, size_t *cap, size_t n, size_t size)
{
	void **p = v, *bigger;

	if (n < *cap)
		return true;
	bigger = realloc(*p, (*cap ? 2 * *cap : 16) * size);
	if (!bigger)
		return false;
	*p = bigger;
	*cap = *cap ? 2 * *cap : 16;
	return true;
}

static size_t risk_index(const struct scan_prom *m, const char *risk)
{
	size_t i;

	for (i = 0; i < m->nrisks && strcmp(m->risks[i], risk); i++)
		;
	return i;
}

/* exe's row, made if it is new; NULL if out of memory. */
static struct exe_count *exe_row(struct scan_prom *m, const char *exe)
{
	struct exe_count *e;
	size_t i;

	for (i = 0; i < m->nexes; i++)
		if (!strcmp(m->exes[i].exe, exe))
			return &m->exes[i];
	if (!grow(&m->exes, &m->exes_cap, m->nexes, sizeof(*m->exes)))
		return NULL;
	e = &m->exes[m->nexes];
	*e = (struct exe_count){ .exe = strdup(exe),
				 .fds = calloc(m->nrisks, sizeof(*e->fds)) };
	if (!e->exe || !e->fds) {
		free(e->exe);
		free(e->fds);
		return NULL;
	}
	m->nexes++;
	return e;
}

void scan_prom_fd(struct scan_prom *m, const char *exe, const char *risk,
		  const char *kind)
{
	struct exe_count *e;
	size_t i, r = risk_index(m, risk);

	if (r == m->nrisks)
		return; /* the risks are the scan's own names: never */
	for (i = 0; i < m->nfds; i++)
		if (m->fds[i].risk == m->risks[r] &&
		    !strcmp(m->fds[i].kind, kind))
			break;
	if (i == m->nfds) {
		if (!grow(&m->fds, &m->fds_cap, m->nfds, sizeof(*m->fds))) {
			m->oom = true;
			return;
		}
		m->fds[m->nfds] = (struct fd_count){ .risk = m->risks[r] };
		snprintf(m->fds[m->nfds++].kind, sizeof(m->fds->kind), "%s",
			 kind);
	}
	m->fds[i].n++;
	/* A process without an executable (a kernel thread) has no row. */
	if (!*exe)
		return;
	e = exe_row(m, exe);
	if (e)
		e->fds[r]++;
	else
		m->oom = true;
}

void scan_prom_process(struct scan_prom *m, const char *exe, bool library)
{
	struct exe_count *e;

	if (!*exe)
		return;
	e = exe_row(m, exe);
	if (!e)
		m->oom = true;
	else if (library)
		e->with_lib++;
	else
		e->without_lib++;
}

/*
 * A label value: backslash, double quote and newline escaped as the
 * format asks; bytes outside printable ASCII as '?', so that a path in
 * another encoding cannot make the file invalid UTF-8.
 */
static void label(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '\\' || c == '"')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else
			putc(c < 0x20 || c >= 0x7f ? '?' : c, out);
	}
	putc('"', out);
}

static void heading(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP " PREFIX "%s %s\n# TYPE " PREFIX "%s gauge\n",
		name, help, name);
}

static int by_exe(const void *a, const void *b)
{
	return strcmp(((const struct exe_count *)a)->exe,
		      ((const struct exe_count *)b)->exe);
}

static void print_metrics(FILE *out, struct scan_prom *m, size_t nread,
			  size_t unreadable)
{
	size_t i, r, total[2] = { 0, 0 };

	heading(out, "fds",
		"Inheritable fds above 2 of the processes read, by risk and "
		"class.");
	for (i = 0; i < m->nfds; i++)
		fprintf(out, PREFIX "fds{risk=\"%s\",class=\"%s\"} %zu\n",
			m->fds[i].risk, m->fds[i].kind, m->fds[i].n);
	heading(out, "risk_fds",
		"Inheritable fds above 2 of the processes read, by risk.");
	for (r = 0; r < m->nrisks; r++) {
		size_t n = 0;

		for (i = 0; i < m->nfds; i++)
			n += m->fds[i].risk == m->risks[r] ? m->fds[i].n : 0;
		fprintf(out, PREFIX "risk_fds{risk=\"%s\"} %zu\n", m->risks[r],
			n);
	}
	if (m->nexes)
		qsort(m->exes, m->nexes, sizeof(*m->exes), by_exe);
	heading(out, "exe_fds",
		"Inheritable fds above 2 of the processes of an executable, "
		"by risk.");
	for (i = 0; i < m->nexes; i++)
		for (r = 0; r < m->nrisks; r++) {
			if (!m->exes[i].fds[r])
				continue;
			fputs(PREFIX "exe_fds{exe=", out);
			label(out, m->exes[i].exe);
			fprintf(out, ",risk=\"%s\"} %zu\n", m->risks[r],
				m->exes[i].fds[r]);
		}
	heading(out, "exe_processes",
		"Processes of an executable, by whether libcloexec is loaded "
		"in them.");
	for (i = 0; i < m->nexes; i++) {
		const struct exe_count *e = &m->exes[i];
		size_t n[2] = { e->without_lib, e->with_lib };
		int lib;

		for (lib = 0; lib < 2; lib++) {
			total[lib] += n[lib];
			if (!n[lib])
				continue;
			fputs(PREFIX "exe_processes{exe=", out);
			label(out, e->exe);
			fprintf(out, ",library=\"%s\"} %zu\n",
				lib ? "loaded" : "not_loaded", n[lib]);
		}
	}
	heading(out, "processes",
		"Processes read that run an executable (no kernel threads), "
		"by whether libcloexec is loaded in them.");
	fprintf(out, PREFIX "processes{library=\"loaded\"} %zu\n", total[1]);
	fprintf(out, PREFIX "processes{library=\"not_loaded\"} %zu\n",
		total[0]);
	heading(out, "processes_read",
		"Processes whose fds the scan could read, kernel threads "
		"included.");
	fprintf(out, PREFIX "processes_read %zu\n", nread);
	heading(out, "processes_unreadable",
		"Processes whose fds the scan could not read.");
	fprintf(out, PREFIX "processes_unreadable %zu\n", unreadable);
}

static void free_metrics(struct scan_prom *m)
{
	size_t i;

	for (i = 0; i < m->nexes; i++) {
		free(m->exes[i].exe);
		free(m->exes[i].fds);
	}
	free(m->exes);
	free(m->fds);
	free(m);
}

/* The metrics into a new file beside m->path, renamed over it. */
static int write_file(struct scan_prom *m, size_t nread, size_t unreadable)
{
	size_t len = strlen(m->path);
	char *tmp = malloc(len + sizeof(".XXXXXX"));
	FILE *out = NULL;
	int fd, err;

	if (!tmp) {
		errno = ENOMEM;
		goto fail;
	}
	memcpy(tmp, m->path, len);
	memcpy(tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto fail;
	/* The collector runs as another user: the file is for all to read. */
	if (fchmod(fd, 0644) || !(out = fdopen(fd, "w"))) {
		err = errno;
		close(fd);
		errno = err;
		goto fail_unlink;
	}
	print_metrics(out, m, nread, unreadable);
	if (fflush(out) || ferror(out) || fsync(fileno(out))) {
		err = errno;
		fclose(out);
		errno = err;
		goto fail_unlink;
	}
	if (fclose(out) || rename(tmp, m->path))
		goto fail_unlink;
	free(tmp);
	return 0;
fail_unlink:
	err = errno;
	unlink(tmp);
	errno = err;
fail:
	fprintf(stderr, "cloexec: --output %s: %s\n", m->path, strerror(errno));
	free(tmp);
	return 125;
}

int scan_prom_write(struct scan_prom *m, size_t nread, size_t unreadable)
{
	int status = 0;

	if (m->oom) {
		fputs("cloexec: out of memory\n", stderr);
		status = 125;
	} else if (m->path) {
		status = write_file(m, nread, unreadable);
	} else {
		print_metrics(stdout, m, nread, unreadable);
		if (fflush(stdout)) {
			perror("cloexec: stdout");
			status = 125;
		}
	}
	free_metrics(m);
	return status;
}
