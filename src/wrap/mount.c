/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mount API's fd-creating calls (Linux 5.2, glibc 2.36): open_tree,
 * fsopen, fsmount and fspick.  Each came with its close-on-exec flag, so the
 * native path is the only one: on a kernel without the call, the real
 * function's ENOSYS is the answer, as it is without the library.  A C
 * library without them (musl 1.2.3) builds none of these; syscall() still
 * takes their numbers (syscall.c).
 */
#include "config.h"

/* Before compat.h, whose spellings of the flags give way to libc's. */
#include <sys/mount.h>

#include "core/export.h"
#include "core/real.h"
#include "core/sys.h"
#include "specs.h"

/*
 * The headers of a kernel before 5.2 lack the numbers; they are the same
 * on every architecture sys.h knows (asm-generic's table, from 5.1 on).
 */
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#ifndef SYS_fsmount
#define SYS_fsmount 432
#endif
#ifndef SYS_fspick
#define SYS_fspick 433
#endif

#if HAVE_OPEN_TREE
static int raw_open_tree(int dirfd, const char *path, unsigned flags)
{
	return sys_result(sys_call(SYS_open_tree, dirfd, path, flags, 0, 0));
}

REAL_SLOT(open_tree, raw_open_tree);

/* A path, as open's: keep-path= applies. */
CLOEXEC_EXPORT int open_tree(int dirfd, const char *path, unsigned flags)
{
	struct fdreq rq;

	fdreq_begin_open(&rq, &spec_open_tree, (int)flags, dirfd, path);
	return fdreq_end(&rq, REAL(open_tree)(dirfd, path,
					      (unsigned)fdreq_flags(&rq)));
}
#endif

#if HAVE_FSOPEN
static int raw_fsopen(const char *fs_name, unsigned flags)
{
	return sys_result(sys_call(SYS_fsopen, fs_name, flags, 0, 0, 0));
}

REAL_SLOT(fsopen, raw_fsopen);

CLOEXEC_EXPORT int fsopen(const char *fs_name, unsigned flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_fsopen, (int)flags, -1);
	return fdreq_end(&rq,
			 REAL(fsopen)(fs_name, (unsigned)fdreq_flags(&rq)));
}
#endif

#if HAVE_FSMOUNT
static int raw_fsmount(int fs_fd, unsigned flags, unsigned attr_flags)
{
	return sys_result(
		sys_call(SYS_fsmount, fs_fd, flags, attr_flags, 0, 0));
}

REAL_SLOT(fsmount, raw_fsmount);

CLOEXEC_EXPORT int fsmount(int fs_fd, unsigned flags, unsigned attr_flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_fsmount, (int)flags, -1);
	return fdreq_end(&rq, REAL(fsmount)(fs_fd, (unsigned)fdreq_flags(&rq),
					    attr_flags));
}
#endif

#if HAVE_FSPICK
static int raw_fspick(int dirfd, const char *path, unsigned flags)
{
	return sys_result(sys_call(SYS_fspick, dirfd, path, flags, 0, 0));
}

REAL_SLOT(fspick, raw_fspick);

/* The context of a mounted filesystem, not a file: no keep-path=. */
CLOEXEC_EXPORT int fspick(int dirfd, const char *path, unsigned flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_fspick, (int)flags, -1);
	return fdreq_end(&rq, REAL(fspick)(dirfd, path,
					   (unsigned)fdreq_flags(&rq)));
}
#endif
