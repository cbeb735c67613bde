/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mode of a file another process holds open, without letting its
 * filesystem stall the scan (cloexec --scan).  A stat asks the file's
 * filesystem: a FUSE server that never answers, or a hung NFS server,
 * would hold the scan in uninterruptible sleep.  So only a filesystem that
 * answers from the kernel is asked here; any other one is asked by a
 * child, given a second, and killed.  The scan holds the file itself (an
 * O_PATH fd of its own), whose mount decides, and which is stat'ed: the
 * process cannot put another file in its place in between.
 */
#ifndef CLOEXEC_CMD_FDFS_H
#define CLOEXEC_CMD_FDFS_H

#include <sys/stat.h>

struct fd_fs;

struct fd_fs *fdfs_new(void);
void fdfs_free(struct fd_fs *fs);

/*
 * fstat() of fd, this process's, on the mount mnt_id (its own fdinfo's
 * "mnt_id:", -1 if unknown) of pid's mount namespace.  0, or -1 with
 * errno: ETIMEDOUT when its filesystem did not answer in time (or did
 * not, once before, on the same mount).
 */
int fdfs_fstat(struct fd_fs *fs, int pid, int fd, int mnt_id, struct stat *st);

#endif
