/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library is built with -fvisibility=hidden; only the interposed libc
 * names and the public cloexec_* API are marked for export, and the version
 * script (libcloexec.map) agrees.
 */
#ifndef CLOEXEC_EXPORT_H
#define CLOEXEC_EXPORT_H

#define CLOEXEC_EXPORT __attribute__((visibility("default")))

/*
 * syscall() takes six arguments whatever the number, and clone() three
 * after arg whatever its flags, as libc's own do in assembly: reading the
 * va_args reads past what a caller with fewer passed, which is the
 * caller's stack, readable but not an argument.  That is the contract, so
 * AddressSanitizer is told not to check those reads.
 */
#if defined(__SANITIZE_ADDRESS__)
#define READS_UNPASSED_ARGS __attribute__((no_sanitize_address))
#else
#define READS_UNPASSED_ARGS
#endif

/*
 * Variables that every process start reads or writes, zero at first.  In
 * .bss each would cost a page fault or two on a page of its own (a read
 * maps the zero page, the first write then faults again); in .data they
 * share the page that the dynamic loader writes anyway (the GOT, and the
 * data that relocations fill in), so the start touches no other.
 */
#define STARTUP_DATA __attribute__((section(".data.cloexec_startup")))

#endif /* CLOEXEC_EXPORT_H */
