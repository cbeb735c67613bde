/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec enable / disable: the library's entry in /etc/ld.so.preload.
 *
 * The file is glibc's loader's: entries separated by blanks, newlines or
 * ':', '#' to the end of a line a comment.  An entry names this library
 * if its last path component is the soname, whatever its form (absolute,
 * bare soname, $LIB); disable removes those and nothing else, as the
 * Debian prerm does (debian/libcloexec0.prerm, the same rule in sed).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "preload.h"

#define PRELOAD_FILE "/etc/ld.so.preload"
#define FILE_MAX (64 * 1024)

/* A file that could not be read or written, and why. */
static int fail_errno(const char *what, const char *path)
{
	fprintf(stderr, "cloexec: %s %s: %s\n", what, path, strerror(errno));
	return PRELOAD_EXIT_FAILED;
}

static int fail(const char *what, const char *arg)
{
	fprintf(stderr, "cloexec: %s%s%s\n", what, arg ? " " : "",
		arg ? arg : "");
	return PRELOAD_EXIT_FAILED;
}

/* Does this entry name the library (last component the soname)? */
static bool names_library(const char *entry, size_t len, const char *soname)
{
	size_t slen = strlen(soname);

	return len >= slen && !memcmp(entry + len - slen, soname, slen) &&
	       (len == slen || entry[len - slen - 1] == '/');
}

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ':';
}

/*
 * The file without the entries that name the library: a line that had
 * only such entries goes, a line with others keeps them (and its comment).
 * Returns how many entries were taken out.
 */
static int remove_entries(const char *in, char *out, const char *soname,
			  const char *keep)
{
	int removed = 0;

	*out = '\0';
	while (*in) {
		const char *eol = strchrnul(in, '\n');
		const char *hash = memchr(in, '#', eol - in);
		const char *end = hash ? hash : eol, *s = in;
		char line[4096];
		size_t n = 0;
		int here = 0, others = 0;

		while (s < end) {
			const char *e;

			while (s < end && is_sep(*s))
				s++;
			for (e = s; e < end && !is_sep(*e); e++)
				;
			if (e == s)
				break;
			if (names_library(s, e - s, soname) &&
			    !(keep && strlen(keep) == (size_t)(e - s) &&
			      !memcmp(s, keep, e - s))) {
				here++;
			} else if (n + (e - s) + 2 < sizeof(line)) {
				if (others++)
					line[n++] = ' ';
				memcpy(line + n, s, e - s);
				n += e - s;
			}
			s = e;
		}
		if (!here) {
			strncat(out, in, eol - in);
		} else {
			removed += here;
			if (hash) {
				if (n)
					line[n++] = ' ';
				memcpy(line + n, hash, eol - hash);
				n += eol - hash;
			}
			strncat(out, line, n);
		}
		if (here && !n) {
			in = *eol ? eol + 1 : eol;
			continue;
		}
		if (*eol)
			strcat(out, "\n");
		in = *eol ? eol + 1 : eol;
	}
	return removed;
}

/* Does the file already have exactly this entry? */
static bool has_entry(const char *text, const char *entry)
{
	size_t len = strlen(entry);
	const char *s = text;

	while ((s = strstr(s, entry))) {
		const char *line = s, *hash;

		while (line > text && line[-1] != '\n')
			line--;
		hash = memchr(line, '#', s - line);
		if (!hash && (s == text || is_sep(s[-1]) || s[-1] == '\n') &&
		    (!s[len] || is_sep(s[len]) || s[len] == '\n' ||
		     s[len] == '#'))
			return true;
		s += len;
	}
	return false;
}

static int read_file(const char *path, char *buf, size_t size, bool *exists)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	*exists = fd >= 0;
	buf[0] = '\0';
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	if (len == size - 1) {
		errno = EFBIG;
		return -1;
	}
	buf[len] = '\0';
	return 0;
}

/* Replace the file whole (a temporary file renamed over it), or remove it. */
static int write_file(const char *path, const char *text)
{
	char tmp[PATH_MAX];
	size_t len = strlen(text), i;
	int fd;

	for (i = 0; i < len && strchr(" \t\n", text[i]); i++)
		;
	if (i == len)
		return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
	/* a truncated name would be some other file */
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.cloexec-new", path) >=
	    sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/*
	 * --root may name a tree that someone else can write to (an image
	 * being built): a link planted at the temporary name must not make
	 * root write through it.  A file of ours left by a crash goes first.
	 */
	if (unlink(tmp) && errno != ENOENT)
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len || fsync(fd) ||
	    fchmod(fd, 0644) || close(fd) || rename(tmp, path)) {
		int err = errno;

		unlink(tmp);
		errno = err;
		return -1;
	}
	return 0;
}

/*
 * Run argv with LD_PRELOAD=preload (and the trace variable if asked);
 * its output in out.  The exit status, or -1.
 */
static int run_with(const char *preload, bool trace, char *const argv[],
		    char *out, size_t size)
{
	int p[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		setenv("LD_PRELOAD", preload, 1);
		if (trace)
			setenv("LD_TRACE_LOADED_OBJECTS", "1", 1);
		else
			unsetenv("LD_TRACE_LOADED_OBJECTS");
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while (len < size - 1 &&
	       (n = read(p[0], out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The trivial program: this command, asked for its version. */
static char self[PATH_MAX];

static char *const *trivial(void)
{
	static char version[] = "--version";
	static char *argv[] = { self, version, NULL };

	return argv;
}

/*
 * The $LIB form of lib (under root), if the loader expands it back to the
 * same file: "/usr/$LIB/libcloexec.so.0" for /usr/lib/x86_64-linux-gnu.
 * glibc's loader does; others do not, and then this finds nothing.
 */
static bool lib_form(const char *root, const char *lib, char *form, size_t size)
{
	char dir[PATH_MAX], want[PATH_MAX], got[PATH_MAX], out[4096];
	char try[PATH_MAX], *slash, *real;
	const char *base = strrchr(lib, '/') + 1;
	int k;

	snprintf(try, sizeof(try), "%s%s", root, lib);
	real = realpath(try, want);
	if (!real)
		return false;
	snprintf(dir, sizeof(dir), "%.*s", (int)(base - 1 - lib), lib);
	/* $LIB is "lib/x86_64-linux-gnu" on Debian, "lib64" elsewhere */
	for (k = 1; k <= 2; k++) {
		char prefix[PATH_MAX], *arrow, *end;
		int i;

		snprintf(prefix, sizeof(prefix), "%s", dir);
		for (i = 0; i < k; i++) {
			slash = strrchr(prefix, '/');
			if (!slash)
				break;
			*slash = '\0';
		}
		if (i < k)
			break;
		if ((size_t)snprintf(form, size, "%s/$LIB/%s", prefix, base) >=
			    size ||
		    (size_t)snprintf(try, sizeof(try), "%s%s", root, form) >=
			    sizeof(try))
			continue;
		if (run_with(try, true, trivial(), out, sizeof(out)) != 0)
			continue;
		arrow = strstr(out, " => ");
		if (!arrow)
			continue;
		arrow += 4;
		end = strstr(arrow, " (");
		if (!end)
			continue;
		*end = '\0';
		if (realpath(arrow, got) && !strcmp(got, want))
			return true;
	}
	return false;
}

struct args {
	const char *root, *lib;
};

static int parse(int argc, char **argv, struct args *a)
{
	static const struct option options[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "library", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+L:", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			a->root = optarg;
			break;
		case 'L':
			a->lib = optarg;
			break;
		default:
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "cloexec: %s: unexpected '%s'\n", argv[0],
			argv[optind]);
		return -1;
	}
	/* "/" and "" both mean the running system */
	if (!strcmp(a->root, "/"))
		a->root = "";
	return 0;
}

int preload_enable(int argc, char **argv, const char *lib)
{
	struct args a = { .root = "", .lib = lib };
	static char text[FILE_MAX], rest[FILE_MAX];
	char path[PATH_MAX], form[PATH_MAX], try[PATH_MAX], out[4096];
	const char *soname, *entry;
	bool exists, lib_ok;
	int removed;
	ssize_t n;

	if (parse(argc, argv, &a))
		return PRELOAD_EXIT_USAGE;
#ifndef __GLIBC__
	/*
	 * musl's loader never reads the file (doc/musl.md), and it loads a
	 * broken LD_PRELOAD entry's program without a word: an entry written
	 * here would look enabled and protect nothing.
	 */
	fprintf(stderr,
		"cloexec: not enabled: this build's C library never reads "
		"%s%s; set LD_PRELOAD=%s in the image's environment instead\n",
		a.root, PRELOAD_FILE, a.lib);
	return PRELOAD_EXIT_FAILED;
#endif
	if (a.lib[0] != '/')
		return fail("the library path must be absolute:", a.lib);
	soname = strrchr(a.lib, '/') + 1;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return fail("cannot find this command's own path", NULL);
	self[n] = '\0';
	snprintf(try, sizeof(try), "%s%s", a.root, a.lib);
	if (access(try, R_OK))
		return fail("cannot find the library", try);
	lib_ok = lib_form(a.root, a.lib, form, sizeof(form));
	entry = lib_ok ? form : a.lib;
	/* Loaded into a program here first: a broken entry breaks them all. */
	snprintf(try, sizeof(try), "%s%s", a.root, entry);
	if (run_with(try, false, trivial(), out, sizeof(out)) != 0 ||
	    strncmp(out, "cloexec (", 9) ||
	    strchr(out, '\n') != strrchr(out, '\n')) {
		fprintf(stderr,
			"cloexec: not enabled: a program run with %s does not "
			"start cleanly:\n%s",
			try, out);
		return PRELOAD_EXIT_FAILED;
	}
	snprintf(path, sizeof(path), "%s" PRELOAD_FILE, a.root);
	if (read_file(path, text, sizeof(text), &exists))
		return fail_errno("cannot read", path);
	removed = remove_entries(text, rest, soname, entry);
	if (has_entry(rest, entry) && !removed) {
		printf("cloexec: already enabled: %s names %s\n", path, entry);
		return 0;
	}
	if (!has_entry(rest, entry)) {
		size_t len = strlen(rest);

		if (len && rest[len - 1] != '\n')
			strcat(rest, "\n");
		if (strlen(rest) + strlen(entry) + 2 > sizeof(rest))
			return fail("too long:", path);
		strcat(rest, entry);
		strcat(rest, "\n");
	}
	if (write_file(path, rest))
		return fail_errno("cannot write", path);
	printf("cloexec: enabled: %s names %s", path, entry);
	if (lib_ok)
		printf(" (the $LIB form: the loader expands $LIB to each "
		       "program's own library directory, so 32- and 64-bit "
		       "programs each get their own build)\n");
	else
		printf(" (an absolute path: the loader here does not expand "
		       "$LIB to this library's directory)\n");
	if (removed)
		printf("cloexec: replaced %d other entr%s naming %s\n", removed,
		       removed == 1 ? "y" : "ies", soname);
	return 0;
}

int preload_disable(int argc, char **argv, const char *soname)
{
	struct args a = { .root = "", .lib = soname };
	static char text[FILE_MAX], rest[FILE_MAX];
	char path[PATH_MAX];
	bool exists;
	int removed;

	if (parse(argc, argv, &a))
		return PRELOAD_EXIT_USAGE;
	snprintf(path, sizeof(path), "%s" PRELOAD_FILE, a.root);
	if (read_file(path, text, sizeof(text), &exists))
		return fail_errno("cannot read", path);
	removed = remove_entries(text, rest, soname, NULL);
	if (!removed) {
		printf("cloexec: not enabled: %s does not name %s\n", path,
		       soname);
		return 0;
	}
	if (write_file(path, rest))
		return fail_errno("cannot write", path);
	printf("cloexec: disabled: %d entr%s naming %s taken out of %s%s\n",
	       removed, removed == 1 ? "y" : "ies", soname, path,
	       access(path, F_OK) ? " (file removed: nothing else was in it)" :
				    "");
	return 0;
}
