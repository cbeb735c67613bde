/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <signal.h>
#include <stdint.h>

#include "export.h"
#include "peek.h"
#include "sys.h"

/* The smallest page of any architecture: a step that never skips one. */
#define PEEK_STEP 4096u

/* The kernel's sigset_t, which rt_sigprocmask copies from the address. */
#define KERNEL_SIGSET_SIZE (_NSIG / 8)

/*
 * Readable pages already asked about: the strings of an exec's argv and
 * envp mostly lie on the few pages of the stack's top.
 */
struct peek_seen {
	uintptr_t page[4];
	unsigned next;
};

CHILD_PATH static bool page_readable(uintptr_t addr, struct peek_seen *seen)
{
	uintptr_t page = addr & ~(uintptr_t)(PEEK_STEP - 1);
	unsigned i;
	long ret;

	/* The first page is never mapped, and to the kernel it is "no set". */
	if (!page)
		return false;
	for (i = 0; seen && i < 4; i++)
		if (seen->page[i] == page)
			return true;
	/*
	 * The set is read at addr, or a little before where that would cross
	 * into the next page: never outside the page, and under valgrind,
	 * which checks the read, never below the stack pointer.
	 */
	if (addr > page + PEEK_STEP - KERNEL_SIGSET_SIZE)
		addr = page + PEEK_STEP - KERNEL_SIGSET_SIZE;
	ret = sys_call(SYS_rt_sigprocmask, -1, addr, 0, KERNEL_SIGSET_SIZE, 0);
	if (ret == -EFAULT)
		return false;
	if (seen)
		seen->page[seen->next++ % 4] = page;
	return true;
}

CHILD_PATH static bool bytes_readable(const void *p, size_t n,
				      struct peek_seen *seen)
{
	uintptr_t a = (uintptr_t)p, end = a + n;

	if (!n)
		return true;
	if (end < a)
		return false;
	/* From p, then each next page's start up to the end. */
	for (; a < end; a = (a | (PEEK_STEP - 1)) + 1)
		if (!page_readable(a, seen))
			return false;
	return true;
}

/* Where s ends: its NUL, or NULL where a page up to it is unreadable. */
CHILD_PATH static const char *string_end(const char *s, struct peek_seen *seen)
{
	uintptr_t a = (uintptr_t)s;
	const char *nul;
	size_t left;

	for (;;) {
		if (!page_readable(a, seen))
			return NULL;
		left = PEEK_STEP - (a & (PEEK_STEP - 1));
		/*
		 * A loop, not libc's memchr: a fork child that called it would
		 * map its page of libc for the call (export.h, CHILD_PATH),
		 * and the strings read are one or two a vector.
		 */
		for (nul = (const char *)a; nul < (const char *)a + left; nul++)
			if (!*nul)
				return nul;
		a += left;
	}
}

CHILD_PATH bool peek_bytes(const void *p, size_t n)
{
	return bytes_readable(p, n, NULL);
}

CHILD_PATH bool peek_string(const char *s)
{
	return string_end(s, NULL) != NULL;
}

CHILD_PATH static uintptr_t page_of(uintptr_t a)
{
	return a & ~(uintptr_t)(PEEK_STEP - 1);
}

/* Whether a slot at w has a byte on a page that the slot before it has not. */
CHILD_PATH static bool slot_enters_page(char *const *w)
{
	return ((uintptr_t)w + sizeof(*w) - 1) % PEEK_STEP < sizeof(*w);
}

/*
 * The slots first, up to the NULL, noting the lowest string and the
 * highest; then the highest string's end.  Every string starts at or
 * below that NUL and so ends there at the latest: where each page from
 * the lowest string's up to it can be read, every string can.  An exec's
 * strings lie together, as the kernel laid them out on the stack or as
 * a program allocated them, on no more pages than there are strings;
 * strings farther apart, or a page between them that cannot be read,
 * are asked about one by one.
 */
CHILD_PATH bool peek_strings(char *const *v)
{
	struct peek_seen seen = { { 0 }, 0 };
	uintptr_t lo = UINTPTR_MAX, hi = 0, s;
	char *const *w;

	if (!v)
		return true;
	if (!bytes_readable(v, sizeof(*v), &seen))
		return false;
	for (w = v; (s = (uintptr_t)*w);) {
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
		w++;
		if (slot_enters_page(w) &&
		    !bytes_readable(w, sizeof(*w), &seen))
			return false;
	}
	/* No string: no number of pages is fewer than none. */
	if ((page_of(hi) - page_of(lo)) / PEEK_STEP < (size_t)(w - v) &&
	    bytes_readable((const void *)lo, hi - lo, &seen))
		return string_end((const char *)hi, &seen) != NULL;
	for (w = v; *w; w++)
		if (!string_end(*w, &seen))
			return false;
	return true;
}
