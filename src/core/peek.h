/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Can the memory a caller passed be read?  Asked of the kernel, which
 * answers EFAULT where a read would crash: a wrapper that reads an
 * argument libc itself only hands to the kernel (a path for keep-path=,
 * an exec's argv and envp, a message header it would wait for) asks
 * first, so that a bad pointer stays the kernel's EFAULT and never
 * becomes a crash, or a wait, in the library.
 *
 * The question is rt_sigprocmask with an invalid "how": the kernel copies
 * the set from the address (EFAULT) and only then refuses the "how"
 * (EINVAL), changing nothing.  Every sandbox allows the call (libc makes
 * it all the time), it is async-signal-safe, touches no errno, and costs
 * one system call per 4 KiB page asked about.
 */
#ifndef CLOEXEC_PEEK_H
#define CLOEXEC_PEEK_H

#include <stdbool.h>
#include <stddef.h>

/* n bytes from p (true for n 0). */
bool peek_bytes(const void *p, size_t n) __attribute__((visibility("hidden")));
/* A string, up to and with its NUL. */
bool peek_string(const char *s) __attribute__((visibility("hidden")));
/* A NULL-terminated vector of strings, and each string (true for NULL). */
bool peek_strings(char *const *v) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_PEEK_H */
