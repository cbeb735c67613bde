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
 * The wrapper of an older version of a libc name, for programs bound to
 * it (symvers.h): defined as sym_tag, exported as sym@ver and under no
 * other name (the version script makes sym_tag itself local).
 * COMPAT_EXPORT(fopen, GLIBC_2_0, "GLIBC_2.0") FILE *fopen_GLIBC_2_0(...)
 */
#define COMPAT_EXPORT(sym, tag, ver)                                           \
	__typeof__(sym) sym##_##tag;                                           \
	__asm__(".symver " #sym "_" #tag ", " #sym "@" ver);                   \
	CLOEXEC_EXPORT

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
 * A pointer argument that libc's header declares nonnull, where libc's own
 * function takes NULL (closedir's EINVAL) or hands it to the kernel (an
 * exec's argv, open's path: EFAULT).  GCC takes the declaration at its
 * word inside the wrapper that bears the name: it drops a test of the
 * parameter against NULL, inlined or not (-fdelete-null-pointer-checks,
 * on at -O2).  An empty asm that may have changed the value leaves it
 * unknown to the optimizer, and costs no instruction.
 */
#define MAY_BE_NULL(p) __asm__("" : "+r"(p))

/*
 * Variables that every process start, or its first fd, reads or writes,
 * zero at first.  Apart, each would cost a page fault or two on a page of
 * its own (a read maps the page, the first write then faults again).  In
 * this section, which the linker places first among the library's data
 * (dso.c), they share the page of the lazily bound GOT entries, which the
 * dynamic loader writes at every start anyway, and the page after it.
 * The fd table's first chunk (4 KiB) is one of them.
 */
#define STARTUP_DATA __attribute__((section("cloexec_startup")))

/*
 * The other variables that are zero at first, as zeros in the file, not
 * in .bss: a .bss longer than the rest of the last data page is mapped by
 * the dynamic loader with one more mmap at every process start, and the
 * tail of that page zeroed.  These pages fault in as .bss pages would,
 * when touched.  The library has no .bss left (startcost.test checks).
 */
#define ZERO_DATA __attribute__((section("cloexec_zero")))

/*
 * Code that a fork child runs between its fork and its exec.  The kernel
 * gives the child no copy of the parent's page table entries for code, so
 * each code page the child runs costs it a page fault, every child again:
 * this code shares a few pages (GCC puts hot functions in .text.hot, which
 * the linker places before the rest of .text).
 */
#define CHILD_PATH __attribute__((hot))

#endif /* CLOEXEC_EXPORT_H */
