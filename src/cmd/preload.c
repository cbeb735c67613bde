/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec enable / disable: the library's entry in /etc/ld.so.preload.
 *
 * The file is glibc's loader's: entries separated by blanks, newlines or
 * ':', '#' to the end of a line a comment.  An entry names this library
 * if its last path component is the soname, whatever its form (absolute,
 * bare soname, $LIB); disable removes those and nothing else, as the
 * Debian prerm does (debian/libcloexec0.prerm, the same rule in sed).
 *
 * --root DIR may be a tree that others can write to (an image being
 * built): nothing in it is run (the library is checked by reading it),
 * no link in it is followed out of it (src/cmd/intree.c), and the file is
 * changed under a lock on DIR/etc, which the prerm takes too.
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
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elfcheck.h"
#include "intree.h"
#include "preload.h"

#define PRELOAD_DIR "/etc"
#define PRELOAD_NAME "ld.so.preload"
#define PRELOAD_FILE PRELOAD_DIR "/" PRELOAD_NAME
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
		/* as long as a line can be: every other entry is kept */
		static char line[FILE_MAX];
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

/*
 * The file's directory in the tree, locked against other runs (and the
 * prerm's flock(1)) until closed; the file's text in text.
 */
static int open_locked(const struct tree *t, const char *root, char *text,
		       size_t size)
{
	int dirfd, fd, err;
	size_t len = 0;
	ssize_t n;

	dirfd = tree_openat(t, PRELOAD_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC,
			    0);
	if (dirfd < 0) {
		err = errno;
		fprintf(stderr,
			"cloexec: cannot open %s" PRELOAD_DIR ": %s%s\n", root,
			strerror(err),
			err == ELOOP ? " (a symbolic link on the way: not "
				       "followed, this kernel has no openat2)" :
				       "");
		return -1;
	}
	if (flock(dirfd, LOCK_EX)) {
		fail_errno("cannot lock", root[0] ? root : "/");
		close(dirfd);
		return -1;
	}
	text[0] = '\0';
	fd = openat(dirfd, PRELOAD_NAME,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return dirfd;
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "cloexec: cannot read %s" PRELOAD_FILE ": %s\n",
			root,
			err == ELOOP ? "a symbolic link: not followed (make "
				       "it a file)" :
				       strerror(err));
		close(dirfd);
		return -1;
	}
	while (len < size - 1 && (n = read(fd, text + len, size - 1 - len)) > 0)
		len += n;
	err = n < 0 ? errno : EFBIG;
	close(fd);
	text[len] = '\0';
	if (n < 0 || len == size - 1) {
		errno = err;
		fail_errno("cannot read", root[0] ? root : "/");
		close(dirfd);
		return -1;
	}
	return dirfd;
}

/*
 * What this C library's loader expands $LIB to ("lib/x86_64-linux-gnu"
 * on Debian, "lib64" elsewhere), asked of the loader itself: this command
 * started again with $LIB in a search path that cannot exist, traced,
 * its search path shown.  Only this command runs, never a file of a tree.
 */
static bool lib_expansion(char *out, size_t size)
{
	static const char probe[] = "/dev/null/";
	char *const argv[] = { "cloexec", "--version", NULL };
	char *const envp[] = { "LD_DEBUG=libs",
			       "LD_LIBRARY_PATH=/dev/null/$LIB",
			       "LD_TRACE_LOADED_OBJECTS=1", NULL };
	char buf[16384], *s, *e, *last;
	size_t len = 0;
	int p[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return false;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return false;
	}
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execve("/proc/self/exe", argv, envp);
		_exit(127);
	}
	close(p[1]);
	while (len < sizeof(buf) - 1 &&
	       (n = read(p[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	s = strstr(buf, "search path=/dev/null/");
	if (!s)
		return false;
	s += strlen("search path=");
	e = s + strcspn(s, "\t\n");
	*e = '\0';
	/* the plain expansion comes last, after the hwcaps subdirectories */
	last = strrchr(s, ':');
	last = last ? last + 1 : s;
	if (strncmp(last, probe, strlen(probe)))
		return false;
	last += strlen(probe);
	return snprintf(out, size, "%s", last) < (int)size && *last;
}

/*
 * The $LIB form of lib, where lib lies in the directory the loader
 * expands $LIB to: "/usr/$LIB/libcloexec.so.0" for
 * /usr/lib/x86_64-linux-gnu/libcloexec.so.0 on Debian.
 */
static bool lib_form(const char *lib, char *form, size_t size)
{
	const char *base = strrchr(lib, '/') + 1;
	char expansion[PATH_MAX];
	size_t dirlen = base - 1 - lib, elen;

	if (!lib_expansion(expansion, sizeof(expansion)))
		return false;
	elen = strlen(expansion);
	if (dirlen <= elen || memcmp(lib + dirlen - elen, expansion, elen) ||
	    lib[dirlen - elen - 1] != '/')
		return false;
	return (size_t)snprintf(form, size, "%.*s/$LIB/%s",
				(int)(dirlen - elen - 1), lib, base) < size;
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

/* The new text of the file, with entry in it and no other form of it. */
static int add_entry(const char *text, char *rest, size_t size,
		     const char *soname, const char *entry, int *removed)
{
	size_t len;

	*removed = remove_entries(text, rest, soname, entry);
	if (has_entry(rest, entry))
		return 0;
	len = strlen(rest);
	if (len + strlen(entry) + 3 > size)
		return -1;
	if (len && rest[len - 1] != '\n')
		strcat(rest, "\n");
	strcat(rest, entry);
	strcat(rest, "\n");
	return 0;
}

/* The library, opened in the tree and checked by reading it. */
static int check_library(const struct tree *t, const char *root,
			 const char *lib, const char *soname)
{
	char why[512];
	int fd, ret;

	fd = tree_openat(t, lib, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (fd < 0) {
		fprintf(stderr, "cloexec: cannot find the library %s%s: %s\n",
			root, lib, strerror(errno));
		return -1;
	}
	ret = elf_check_library(fd, soname, why, sizeof(why));
	close(fd);
	if (ret)
		fprintf(stderr,
			"cloexec: not enabled: %s%s is not this "
			"library: %s\n",
			root, lib, why);
	return ret;
}

int preload_enable(int argc, char **argv, const char *lib)
{
	struct args a = { .root = "", .lib = lib };
	static char text[FILE_MAX], rest[FILE_MAX];
	char form[PATH_MAX];
	const char *soname, *entry;
	struct tree t;
	int removed, dirfd, ret = PRELOAD_EXIT_FAILED;
	bool lib_ok;

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
	if (tree_open(&t, a.root))
		return fail_errno("cannot open", a.root);
	/* a broken entry would break every program of the tree */
	if (check_library(&t, a.root, a.lib, soname))
		goto out;
	lib_ok = lib_form(a.lib, form, sizeof(form));
	entry = lib_ok ? form : a.lib;
	dirfd = open_locked(&t, a.root, text, sizeof(text));
	if (dirfd < 0)
		goto out;
	if (add_entry(text, rest, sizeof(rest), soname, entry, &removed)) {
		fprintf(stderr, "cloexec: too long: %s" PRELOAD_FILE "\n",
			a.root);
	} else if (!removed && has_entry(text, entry)) {
		printf("cloexec: already enabled: %s" PRELOAD_FILE
		       " names %s\n",
		       a.root, entry);
		ret = 0;
	} else if (tree_replace(dirfd, PRELOAD_NAME, rest)) {
		fprintf(stderr,
			"cloexec: cannot write %s" PRELOAD_FILE ": %s\n",
			a.root, strerror(errno));
	} else {
		printf("cloexec: enabled: %s" PRELOAD_FILE " names %s", a.root,
		       entry);
		if (lib_ok)
			printf(" (the $LIB form: the loader expands $LIB to "
			       "each program's own library directory, so 32- "
			       "and 64-bit programs each get their own "
			       "build)\n");
		else
			printf(" (an absolute path: the loader here does not "
			       "expand $LIB to this library's directory)\n");
		if (removed)
			printf("cloexec: replaced %d other entr%s naming %s\n",
			       removed, removed == 1 ? "y" : "ies", soname);
		ret = 0;
	}
	close(dirfd);
out:
	tree_close(&t);
	return ret;
}

int preload_disable(int argc, char **argv, const char *soname)
{
	struct args a = { .root = "", .lib = soname };
	static char text[FILE_MAX], rest[FILE_MAX];
	int removed, dirfd, ret = PRELOAD_EXIT_FAILED;
	struct tree t;

	if (parse(argc, argv, &a))
		return PRELOAD_EXIT_USAGE;
	if (tree_open(&t, a.root))
		return fail_errno("cannot open", a.root);
	dirfd = open_locked(&t, a.root, text, sizeof(text));
	if (dirfd < 0)
		goto out;
	removed = remove_entries(text, rest, soname, NULL);
	if (!removed) {
		printf("cloexec: not enabled: %s" PRELOAD_FILE
		       " does not name %s\n",
		       a.root, soname);
		ret = 0;
	} else if (tree_replace(dirfd, PRELOAD_NAME, rest)) {
		fprintf(stderr,
			"cloexec: cannot write %s" PRELOAD_FILE ": %s\n",
			a.root, strerror(errno));
	} else {
		printf("cloexec: disabled: %d entr%s naming %s taken out of "
		       "%s" PRELOAD_FILE "%s\n",
		       removed, removed == 1 ? "y" : "ies", soname, a.root,
		       faccessat(dirfd, PRELOAD_NAME, F_OK,
				 AT_SYMLINK_NOFOLLOW) ?
			       " (file removed: nothing else was in it)" :
			       "");
		ret = 0;
	}
	close(dirfd);
out:
	tree_close(&t);
	return ret;
}
