/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which filesystem a file lies on comes from the fdinfo of the fd that
 * will be stat'ed (its mnt_id) and the process's /proc/PID/mountinfo
 * (read once per mount namespace): neither asks the filesystem anything.
 * The filesystems in local_fs answer a stat from the kernel's own memory
 * or a local disk; a stat of any other (fuse.*, nfs, cifs, 9p, overlay
 * over any of them, one not known here) runs in a child that is killed
 * when it takes too long: FUSE and NFS wait for their servers killably.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdfs.h"
#include "mem.h"

/* How long a filesystem that may hang is given to answer a stat. */
#define STAT_TIMEOUT_MS 1000

/* Filesystems whose stat the kernel answers without a server. */
static const char *const local_fs[] = {
	"ext2",	  "ext3",     "ext4",	 "xfs",		"btrfs",
	"f2fs",	  "vfat",     "exfat",	 "squashfs",	"iso9660",
	"tmpfs",  "devtmpfs", "ramfs",	 "hugetlbfs",	"proc",
	"sysfs",  "devpts",   "mqueue",	 "cgroup",	"cgroup2",
	"bpf",	  "tracefs",  "debugfs", "securityfs",	"configfs",
	"pstore", "efivarfs", "nsfs",	 "binfmt_misc",
};

struct mount {
	int id;
	bool local;
};

struct mount_ns {
	char ns[64];
	struct mount *v;
	size_t n;
};

struct fd_fs {
	struct mount_ns *ns;
	size_t nns;
	/* mounts that did not answer once: not asked again */
	int *slow;
	size_t nslow;
	/* children killed while they waited: reaped at the end */
	pid_t *stuck;
	size_t nstuck;
};

static void *append(void *v, size_t n, size_t size)
{
	v = realloc(v, (n + 1) * size);
	if (!v) {
		fputs("cloexec: out of memory\n", stderr);
		exit(125);
	}
	return v;
}

static bool is_local_fs(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(local_fs) / sizeof(*local_fs); i++)
		if (!strcmp(type, local_fs[i]))
			return true;
	return false;
}

/*
 * "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw": the
 * mount id first, the type after the " - ".  Whole lines, however long:
 * the process names its mount points, and a piece of a long one could
 * begin with another mount's id and end with " - tmpfs" (a FUSE mount
 * taken for local would be stat'ed here, and could stop the scan).
 */
static void load_mounts(struct mount_ns *m, int pid)
{
	char path[64], *line = NULL, *dash, type[64];
	size_t size = 0;
	FILE *f;
	int id;

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &size, f) >= 0) {
		dash = strstr(line, " - ");
		if (sscanf(line, "%d", &id) != 1 || !dash ||
		    sscanf(dash + 3, "%63s", type) != 1)
			continue;
		m->v = append(m->v, m->n, sizeof(*m->v));
		m->v[m->n++] = (struct mount){ id, is_local_fs(type) };
	}
	free(line);
	fclose(f);
}

static struct mount_ns *mounts_of(struct fd_fs *fs, int pid)
{
	char path[64], ns[64];
	struct mount_ns *m;
	ssize_t n;
	size_t i;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	n = readlink(path, ns, sizeof(ns) - 1);
	ns[n > 0 ? n : 0] = '\0';
	for (i = 0; n > 0 && i < fs->nns; i++)
		if (!strcmp(fs->ns[i].ns, ns))
			return &fs->ns[i];
	fs->ns = append(fs->ns, fs->nns, sizeof(*fs->ns));
	m = &fs->ns[fs->nns++];
	*m = (struct mount_ns){ .n = 0 };
	snprintf(m->ns, sizeof(m->ns), "%s", ns);
	load_mounts(m, pid);
	return m;
}

static bool mount_is_local(struct fd_fs *fs, int pid, int mnt_id)
{
	struct mount_ns *m = mounts_of(fs, pid);
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->v[i].id == mnt_id)
			return m->v[i].local;
	return false;
}

/* fstat in a child: its answer, or ETIMEDOUT and the child killed. */
static int stat_in_child(struct fd_fs *fs, int fd, struct stat *st)
{
	struct pollfd pfd = { .events = POLLIN };
	struct {
		int err;
		struct stat st;
	} answer;
	int p[2], ready, status;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		answer.err = fstat(fd, &answer.st) ? errno : 0;
		_exit(write(p[1], &answer, sizeof(answer)) != sizeof(answer));
	}
	close(p[1]);
	pfd.fd = p[0];
	do
		ready = poll(&pfd, 1, STAT_TIMEOUT_MS);
	while (ready < 0 && errno == EINTR);
	n = ready > 0 ? read(p[0], &answer, sizeof(answer)) : 0;
	close(p[0]);
	if (n != (ssize_t)sizeof(answer)) {
		kill(pid, SIGKILL);
		if (waitpid(pid, &status, WNOHANG) != pid) {
			fs->stuck = append(fs->stuck, fs->nstuck,
					   sizeof(*fs->stuck));
			fs->stuck[fs->nstuck++] = pid;
		}
		errno = ETIMEDOUT;
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (answer.err) {
		errno = answer.err;
		return -1;
	}
	*st = answer.st;
	return 0;
}

int fdfs_fstat(struct fd_fs *fs, int pid, int fd, int mnt_id, struct stat *st)
{
	size_t i;

	if (mnt_id >= 0 && mount_is_local(fs, pid, mnt_id))
		return fstat(fd, st);
	for (i = 0; mnt_id >= 0 && i < fs->nslow; i++)
		if (fs->slow[i] == mnt_id) {
			errno = ETIMEDOUT;
			return -1;
		}
	if (!stat_in_child(fs, fd, st))
		return 0;
	if (errno == ETIMEDOUT && mnt_id >= 0) {
		fs->slow = append(fs->slow, fs->nslow, sizeof(*fs->slow));
		fs->slow[fs->nslow++] = mnt_id;
		errno = ETIMEDOUT;
	}
	return -1;
}

struct fd_fs *fdfs_new(void)
{
	return mem_zalloc(1, sizeof(struct fd_fs));
}

void fdfs_free(struct fd_fs *fs)
{
	size_t i;

	/* a child still waiting on its server is left to init */
	for (i = 0; i < fs->nstuck; i++)
		waitpid(fs->stuck[i], NULL, WNOHANG);
	for (i = 0; i < fs->nns; i++)
		free(fs->ns[i].v);
	free(fs->ns);
	free(fs->slow);
	free(fs->stuck);
	free(fs);
}
