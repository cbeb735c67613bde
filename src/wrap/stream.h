/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fd of a stream, for the wrappers of fopen and fclose: -1 for one
 * without (a memory stream), errno kept.  glibc's struct FILE is public
 * and its _fileno is -1 where there is no fd (a cookie or memory
 * stream): read there, it costs a load, where fileno_unlocked() is a
 * call into libc, and its first call a lazy bind, in every process.
 */
#ifndef CLOEXEC_STREAM_H
#define CLOEXEC_STREAM_H

#include <errno.h>
#include <stdio.h>

static inline int stream_fd(FILE *f)
{
#ifdef __GLIBC__
	return f ? f->_fileno : -1;
#else
	int saved = errno, fd = f ? fileno_unlocked(f) : -1;

	errno = saved;
	return fd;
#endif
}

#endif /* CLOEXEC_STREAM_H */
