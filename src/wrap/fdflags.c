/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program that makes an fd inheritable itself, after it was created,
 * means it: ioctl(FIONCLEX) here and fcntl(F_SETFD) in dup.c record the
 * fd as kept, so that the exec-time sweep and the fork child's sweep leave
 * it alone.  FIOCLEX forgets that again.
 */
#include "config.h"

#include <stdarg.h>
#include <sys/ioctl.h>

#include "core/compat.h"
#include "core/export.h"
#include "core/fdtable.h"
#include "core/real.h"
#include "core/sys.h"

static int raw_ioctl(int fd, IOCTL_REQUEST_TYPE req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return sys_result(sys_ioctl(fd, (unsigned long)req, arg));
}

REAL_SLOT(ioctl, raw_ioctl);
#if HAVE___IOCTL_TIME64
REAL_SLOT(__ioctl_time64, raw_ioctl);
#endif

void fdflags_note(int fd, bool cloexec) __attribute__((visibility("hidden")));

/* After the program set or cleared FD_CLOEXEC on fd itself. */
void fdflags_note(int fd, bool cloexec)
{
	if (fd < 3)
		return;
	if (cloexec)
		fdtable_note_own_flag(fd);
	else
		fdtable_set_deliberate(fd);
}

static int ioctl_with(int (*real)(int, IOCTL_REQUEST_TYPE, ...), int fd,
		      IOCTL_REQUEST_TYPE req, void *arg)
{
	int ret = real(fd, req, arg);

	if (ret == 0 && ((unsigned long)req == FIONCLEX ||
			 (unsigned long)req == FIOCLEX))
		fdflags_note(fd, (unsigned long)req == FIOCLEX);
	return ret;
}

CLOEXEC_EXPORT int ioctl(int fd, IOCTL_REQUEST_TYPE req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return ioctl_with(REAL(ioctl), fd, req, arg);
}

#if HAVE___IOCTL_TIME64
/* ioctl under _TIME_BITS=64 on 32-bit glibc. */
CLOEXEC_EXPORT int __ioctl_time64(int fd, IOCTL_REQUEST_TYPE req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return ioctl_with(REAL(__ioctl_time64), fd, req, arg);
}
#endif
