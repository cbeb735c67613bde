/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Locks held through an fd: flock, lockf, and fcntl's lock commands (from
 * dup.c).  A program that takes a lock and then becomes another program
 * means that program to hold it (setlock, chpst -l, a launcher of a
 * daemon): the table records the lock and who took it, and the lock rule
 * (handoff.c) hands such an fd to the lock's next holder.
 */
#include "config.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "core/compat.h"
#include "core/export.h"
#include "core/fdtable.h"
#include "core/real.h"
#include "core/sys.h"

void lock_note_fcntl(int fd, int cmd, const void *arg)
	__attribute__((visibility("hidden")));

/* After fcntl(fd, cmd, arg) returned 0: a lock taken or dropped? */
void lock_note_fcntl(int fd, int cmd, const void *arg)
{
	unsigned held;

	switch (cmd) {
	case F_SETLK:
	case F_SETLKW:
#if defined(F_SETLK64) && F_SETLK64 != F_SETLK
	case F_SETLK64:
	case F_SETLKW64:
#endif
		held = FDT_LOCK_OWN;
		break;
#ifdef F_OFD_SETLK
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		held = FDT_LOCK_OWN | FDT_LOCK_FILE;
		break;
#endif
	default:
		return;
	}
	/* l_type comes first in struct flock and in struct flock64. */
	fdtable_note_lock(
		fd, ((const struct flock *)arg)->l_type == F_UNLCK ? 0 : held);
}

static int raw_flock(int fd, int op)
{
	return (int)sys_result(sys_call(SYS_flock, fd, op, 0, 0, 0));
}

REAL_SLOT(flock, raw_flock);

CLOEXEC_EXPORT int flock(int fd, int op)
{
	int ret = REAL(flock)(fd, op);

	if (ret == 0)
		fdtable_note_lock(
			fd, op & LOCK_UN ? 0 : FDT_LOCK_OWN | FDT_LOCK_FILE);
	return ret;
}

/* lockf is fcntl's lock on a range from the offset: F_TEST takes none. */
static void lockf_note(int fd, int cmd)
{
	if (cmd == F_LOCK || cmd == F_TLOCK)
		fdtable_note_lock(fd, FDT_LOCK_OWN);
	else if (cmd == F_ULOCK)
		fdtable_note_lock(fd, 0);
}

static int raw_lockf(int fd, int cmd, off_t len)
{
	struct flock fl = {
		.l_type = cmd == F_ULOCK ? F_UNLCK : F_WRLCK,
		.l_whence = SEEK_CUR,
		.l_len = len,
	};

	if (cmd == F_TEST)
		return 0;
	return (int)sys_result(
		sys_fcntl(fd, cmd == F_LOCK ? F_SETLKW : F_SETLK, (long)&fl));
}

REAL_SLOT(lockf, raw_lockf);

CLOEXEC_EXPORT int lockf(int fd, int cmd, off_t len)
{
	int ret = REAL(lockf)(fd, cmd, len);

	if (ret == 0)
		lockf_note(fd, cmd);
	return ret;
}

#if HAVE_LOCKF64
static int raw_lockf64(int fd, int cmd, off64_t len)
{
	return raw_lockf(fd, cmd, (off_t)len);
}

REAL_SLOT(lockf64, raw_lockf64);

CLOEXEC_EXPORT int lockf64(int fd, int cmd, off64_t len)
{
	int ret = REAL(lockf64)(fd, cmd, len);

	if (ret == 0)
		lockf_note(fd, cmd);
	return ret;
}
#endif
