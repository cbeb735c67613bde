/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel ABI values that older C library headers may lack.  configure says
 * which declarations exist; the values are the kernel's, which never change
 * once released.
 */
#ifndef CLOEXEC_COMPAT_H
#define CLOEXEC_COMPAT_H

#include "config.h"

#include <fcntl.h>
#include <sys/socket.h>

#if !HAVE_DECL_O_CLOEXEC
#define O_CLOEXEC 02000000
#endif

#if !HAVE_DECL_SOCK_CLOEXEC
#define SOCK_CLOEXEC O_CLOEXEC
#endif

#if !HAVE_DECL_SOCK_NONBLOCK
#define SOCK_NONBLOCK O_NONBLOCK
#endif

/*
 * glibc declares the address argument of accept() and friends as a
 * transparent union under _GNU_SOURCE; a definition must use the same type,
 * and the raw path needs the pointer inside it.
 */
#if HAVE_SOCKADDR_TRANSPARENT_UNION
typedef __SOCKADDR_ARG sockaddr_arg;
#define SOCKADDR_PTR(arg) ((arg).__sockaddr__)
#else
typedef struct sockaddr *sockaddr_arg;
#define SOCKADDR_PTR(arg) (arg)
#endif

#if !HAVE_DECL_ACCEPT4
int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);
#endif

#endif /* CLOEXEC_COMPAT_H */
