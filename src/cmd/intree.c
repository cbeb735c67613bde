/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Paths inside a tree that root changes for an image being built: the
 * tree may hold links planted by whoever else can write to it, and a link
 * followed out of it would make root read or write a file of the host.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "intree.h"

#ifndef SYS_openat2
#define SYS_openat2 437 /* the same number on every architecture */
#endif

/*
 * struct open_how and its RESOLVE_ flags, from <linux/openat2.h>, which
 * another C library's compiler (musl-gcc) may not see.
 */
struct tree_open_how {
	uint64_t flags, mode, resolve;
};
#define TREE_RESOLVE_NO_MAGICLINKS 0x02
#define TREE_RESOLVE_IN_ROOT 0x10

int tree_open(struct tree *t, const char *dir)
{
	t->host = !dir[0] || !strcmp(dir, "/");
	t->rootfd = open(t->host ? "/" : dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return t->rootfd < 0 ? -1 : 0;
}

void tree_close(struct tree *t)
{
	if (t->rootfd >= 0)
		close(t->rootfd);
	t->rootfd = -1;
}

/*
 * Without openat2: one component at a time, none of them followed.  A
 * link on the way shows as ENOTDIR (O_PATH opens the link itself) or, at
 * the end, as ELOOP (O_NOFOLLOW); both are told as ELOOP.
 */
static int open_nofollow(int rootfd, const char *path, int flags, mode_t mode)
{
	char buf[PATH_MAX], *comp, *next;
	int dir, fd, err;
	struct stat st;

	if (strlen(path) >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(buf, path);
	dir = openat(rootfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -1;
	for (comp = buf;; comp = next) {
		while (*comp == '/')
			comp++;
		next = strchr(comp, '/');
		if (next)
			*next++ = '\0';
		if (!strcmp(comp, "..")) {
			close(dir);
			errno = ELOOP;
			return -1;
		}
		while (next && *next == '/')
			next++;
		if (next && !*next)
			next = NULL;
		if (!next)
			break;
		if (!*comp || !strcmp(comp, "."))
			continue;
		fd = openat(dir, comp,
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		err = errno;
		if (fd < 0 && err == ENOTDIR &&
		    !fstatat(dir, comp, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISLNK(st.st_mode))
			err = ELOOP;
		close(dir);
		if (fd < 0) {
			errno = err;
			return -1;
		}
		dir = fd;
	}
	fd = openat(dir, *comp ? comp : ".", flags | O_NOFOLLOW, mode);
	err = errno;
	/* O_DIRECTORY on a link says ENOTDIR: it is a link all the same */
	if (fd < 0 && err == ENOTDIR && *comp &&
	    !fstatat(dir, comp, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
		err = ELOOP;
	close(dir);
	errno = err;
	return fd;
}

int tree_openat(const struct tree *t, const char *path, int flags, mode_t mode)
{
	struct tree_open_how how = {
		.flags = (uint64_t)(unsigned)flags,
		.mode = flags & (O_CREAT | O_TMPFILE) ? mode : 0,
		.resolve = TREE_RESOLVE_IN_ROOT | TREE_RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	while (*path == '/')
		path++;
	if (!*path)
		path = ".";
	fd = syscall(SYS_openat2, t->rootfd, path, &how, sizeof(how));
	if (fd >= 0 || errno != ENOSYS)
		return (int)fd;
	/* nothing lies outside the running system's own "/" */
	if (t->host)
		return openat(t->rootfd, path, flags, mode);
	return open_nofollow(t->rootfd, path, flags, mode);
}

static bool blank(const char *text)
{
	return !text[strspn(text, " \t\n")];
}

/* A name in dir that no one else can have guessed, created by us. */
static int create_temporary(int dirfd, const char *name, char *tmp, size_t size)
{
	int tries, fd;

	for (tries = 0; tries < 16; tries++) {
		unsigned long long r;

		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -1;
		if ((size_t)snprintf(tmp, size, ".%s.cloexec-%016llx", name,
				     r) >= size) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = openat(dirfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0644);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int tree_replace(int dirfd, const char *name, const char *text)
{
	size_t len = strlen(text);
	char tmp[NAME_MAX + 1];
	int fd, err;
	bool ok;

	if (blank(text))
		return unlinkat(dirfd, name, 0) == 0 || errno == ENOENT ? 0 :
									  -1;
	fd = create_temporary(dirfd, name, tmp, sizeof(tmp));
	if (fd < 0)
		return -1;
	/* fchmod: the umask must not make the loader's file unreadable */
	ok = write(fd, text, len) == (ssize_t)len && !fchmod(fd, 0644) &&
	     !fsync(fd);
	err = errno;
	if (close(fd) && ok) {
		ok = false;
		err = errno;
	}
	if (ok && renameat(dirfd, tmp, dirfd, name)) {
		ok = false;
		err = errno;
	}
	if (!ok) {
		unlinkat(dirfd, tmp, 0);
		errno = err;
		return -1;
	}
	fsync(dirfd);
	return 0;
}
