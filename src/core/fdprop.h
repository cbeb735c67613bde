/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading and setting the two fd properties with raw system calls: errno
 * stays as the caller left it, and nothing here can re-enter a wrapper.
 */
#ifndef CLOEXEC_FDPROP_H
#define CLOEXEC_FDPROP_H

#include <fcntl.h>
#include <sys/ioctl.h>

#include "flags.h"
#include "sys.h"

/* Those of the properties in which that fd has: one call for each. */
static inline unsigned fd_get_props(int fd, unsigned which)
{
	unsigned props = 0;

	if ((which & FDP_CLOEXEC) && (sys_fcntl(fd, F_GETFD, 0) & FD_CLOEXEC))
		props |= FDP_CLOEXEC;
	if ((which & FDP_NONBLOCK) &&
	    (sys_fcntl(fd, F_GETFL, 0) & O_NONBLOCK))
		props |= FDP_NONBLOCK;
	return props;
}

/*
 * fcntl(F_SETFD) rather than ioctl(FIOCLEX): the ioctl fails on O_PATH fds.
 * FIONBIO sets O_NONBLOCK in one call where F_GETFL + F_SETFL take two.
 */
static inline void fd_set_props(int fd, unsigned props)
{
	int on = 1;

	if (props & FDP_CLOEXEC)
		sys_fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (props & FDP_NONBLOCK)
		sys_ioctl(fd, FIONBIO, &on);
}

static inline void fd_clear_cloexec(int fd)
{
	sys_fcntl(fd, F_SETFD, 0);
}

#endif /* CLOEXEC_FDPROP_H */
