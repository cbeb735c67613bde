/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stuckfs: a FUSE filesystem whose one file, "stuck", can be opened,
 * read (empty) and closed, but whose attributes are never answered: a
 * stat() of it waits for ever, as on a server that hangs
 * (tests/cmd/scan.test).  Its other file, "broken", opens and reads
 * as "stuck" does, but a stat of it fails at once with EIO, as on a
 * server that answers with an error (tests/cmd/scanfs.test).
 * Everything else is answered at once, and no answer is cached, so each
 * stat asks.
 *
 *	stuckfs MOUNTPOINT	(in the foreground; unmount it to stop it)
 *
 * Run by root, it lets every user in (allow_other): a scan made as
 * another user is answered as root's is.
 */
#define FUSE_USE_VERSION 34
#include <errno.h>
#include <fuse_lowlevel.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STUCK_INO 2
#define BROKEN_INO 3

static void stuck_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_mode = ino == FUSE_ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0644;
	st->st_nlink = ino == FUSE_ROOT_ID ? 2 : 1;
}

static void stuck_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e = { .ino = STUCK_INO };

	if (parent == FUSE_ROOT_ID && !strcmp(name, "broken"))
		e.ino = BROKEN_INO;
	else if (parent != FUSE_ROOT_ID || strcmp(name, "stuck")) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	stuck_attr(e.ino, &e.attr);
	fuse_reply_entry(req, &e);
}

/*
 * The root answers; "broken" fails; "stuck" never answers: its request
 * stays pending.
 */
static void stuck_getattr(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct stat st;

	if (ino == BROKEN_INO) {
		fuse_reply_err(req, EIO);
		return;
	}
	if (ino != FUSE_ROOT_ID)
		return;
	stuck_attr(ino, &st);
	fuse_reply_attr(req, &st, 0);
}

static void stuck_open(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	fuse_reply_open(req, fi);
}

static void stuck_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	fuse_reply_buf(req, NULL, 0);
}

static void stuck_ok(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	fuse_reply_err(req, 0);
}

static const struct fuse_lowlevel_ops ops = {
	.lookup = stuck_lookup,
	.getattr = stuck_getattr,
	.open = stuck_open,
	.read = stuck_read,
	.flush = stuck_ok,
	.release = stuck_ok,
};

int main(int argc, char **argv)
{
	char *args[] = { argv[0], "-o", "fsname=stuckfs", "-o", "allow_other",
			 NULL };
	struct fuse_args fargs = FUSE_ARGS_INIT(geteuid() ? 3 : 5, args);
	struct fuse_session *se;
	int ret;

	if (argc != 2) {
		fputs("usage: stuckfs MOUNTPOINT\n", stderr);
		return 2;
	}
	se = fuse_session_new(&fargs, &ops, sizeof(ops), NULL);
	if (!se || fuse_session_mount(se, argv[1]))
		return 1;
	puts("mounted");
	fflush(stdout);
	ret = fuse_session_loop(se);
	fuse_session_unmount(se);
	fuse_session_destroy(se);
	return ret ? 1 : 0;
}
