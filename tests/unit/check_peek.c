/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * peek: what a read would crash on is unreadable, everything else is
 * readable, and nothing of the process changes (the signal mask, errno).
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/peek.h"
#include "testlib.h"

/*
 * A vector whose slots straddle a page's edge is misaligned, and is read
 * through a misaligned char **: the kernel takes one and x86 and arm64
 * read it, but UndefinedBehaviorSanitizer stops there.  The sanitizer
 * build (AddressSanitizer with it, which says so) leaves those cases out.
 */
#ifdef __SANITIZE_ADDRESS__
#define MISALIGNED_VECTORS false
#else
#define MISALIGNED_VECTORS true
#endif

/* Two pages: the first readable, the second not (PROT_NONE). */
static char *two_pages(size_t *page)
{
	char *p;

	*page = (size_t)sysconf(_SC_PAGESIZE);
	p = mmap(NULL, 2 * *page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_int_eq(mprotect(p + *page, *page, PROT_NONE), 0);
	return p;
}

/* (valgrind answers rt_sigprocmask itself, and not with EFAULT.) */
START_TEST(bad_pointers_are_unreadable)
{
	static volatile uintptr_t low = 8, kernel = ~(uintptr_t)0 - 4095;
	size_t page;
	char *p;

	if (tl_valgrind())
		return;
	p = two_pages(&page);

	ck_assert(!peek_bytes(NULL, 1));
	ck_assert(!peek_bytes((void *)low, 1));
	ck_assert(!peek_bytes((void *)kernel, 1));
	ck_assert(!peek_bytes(p + page, 1));
	ck_assert(!peek_bytes(p + page - 1, 2));
	ck_assert(!peek_bytes(p, (size_t)-1));
	ck_assert(!peek_string(NULL));
	ck_assert(!peek_string((void *)low));
	ck_assert(!peek_string(p + page));
	/* A string whose NUL would be on the page after. */
	memset(p, 'x', page);
	ck_assert(!peek_string(p + page - 10));
	ck_assert(!peek_strings((void *)low));
	ck_assert(!peek_strings((char *[]){ "a", (char *)low, NULL }));
	ck_assert(!peek_strings((char *[]){ (char *)1, NULL }));
	/* Before a good string, below its NUL, on no page of it. */
	ck_assert(!peek_strings((char *[]){ (char *)low, "a", NULL }));
	ck_assert(!peek_strings((char **)(p + page)));
}
END_TEST

/*
 * peek_strings asks nothing for a slot or a string on the page the one
 * before was found on: each must still be stopped where it leaves it.
 */
START_TEST(vectors_stop_at_the_page_they_leave)
{
	size_t page;
	char *p, *s;

	if (tl_valgrind())
		return;
	p = two_pages(&page);
	memset(p, 'x', page);
	p[1] = '\0';
	p[page - 18] = '\0';
	ck_assert(peek_strings((char *[]){ p + page - 20, p, NULL }));
	/* The second string on the first's page, its NUL beyond it. */
	ck_assert(!peek_strings((char *[]){ p + page - 20, p + page - 10,
					    NULL }));
	/* Slots that run into the unreadable page, aligned or not. */
	s = p;
	memcpy(p + page - 16, &s, sizeof(s));
	memcpy(p + page - 8, &s, sizeof(s));
	ck_assert(!peek_strings((char **)(p + page - 16)));
	if (MISALIGNED_VECTORS) {
		memcpy(p + page - 12, &s, sizeof(s));
		memcpy(p + page - 4, &s, 4);
		ck_assert(!peek_strings((char **)(p + page - 12)));
	}
	/* And a vector that ends on its page is whole. */
	memcpy(p + page - 16, &s, sizeof(s));
	memset(p + page - 8, 0, 8);
	ck_assert(peek_strings((char **)(p + page - 16)));
}
END_TEST

START_TEST(good_pointers_are_readable)
{
	char stack[] = "on the stack";
	char *argv[] = { stack, "static", NULL };
	size_t page;
	char *p = two_pages(&page);
	sigset_t before, after;

	sigemptyset(&before);
	sigaddset(&before, SIGUSR1);
	sigprocmask(SIG_SETMASK, &before, NULL);
	errno = 4242;
	ck_assert(peek_bytes(stack, sizeof(stack)));
	ck_assert(peek_bytes(NULL, 0));
	ck_assert(peek_bytes(p, page));
	ck_assert(peek_string(stack));
	ck_assert(peek_string(""));
	/* The NUL at the very end of the last readable page. */
	memset(p, 'x', page);
	p[page - 1] = '\0';
	ck_assert(peek_string(p));
	ck_assert(peek_strings(argv));
	ck_assert(peek_strings(NULL));
	ck_assert(peek_strings((char *[]){ NULL }));
	ck_assert_int_eq(errno, 4242);
	sigprocmask(SIG_SETMASK, NULL, &after);
	ck_assert(sigismember(&after, SIGUSR1));
	ck_assert(!sigismember(&after, SIGUSR2));
}
END_TEST

/*
 * Two pages, the first readable, the second not, the first at an address
 * whose 4 KiB bit is clear: a page_of() that kept that bit, or a length
 * within the page one too long, would read the second.
 */
static char *edge_pages(size_t *page, char **map)
{
	char *q;

	*page = (size_t)sysconf(_SC_PAGESIZE);
	*map = mmap(NULL, 3 * *page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(*map, MAP_FAILED);
	q = ((uintptr_t)*map & 4096) ? *map + *page : *map;
	ck_assert_int_eq(mprotect(q + *page, *page, PROT_NONE), 0);
	memset(q, 'x', *page);
	q[0] = '\0';
	return q;
}

START_TEST(strings_and_slots_at_the_edge)
{
	size_t page;
	char *map, *q, *s;

	if (tl_valgrind())
		return;
	q = edge_pages(&page, &map);
	/* The next string on the page after the first's, unreadable. */
	ck_assert(!peek_strings((char *[]){ q, q + page, NULL }));
	/* The next string on the first's page, its NUL beyond it. */
	ck_assert(!peek_strings((char *[]){ q, q + page - 9, NULL }));
	/* A slot one byte over the edge. */
	s = q;
	if (MISALIGNED_VECTORS) {
		memcpy(q + page - 15, &s, sizeof(s));
		ck_assert(!peek_strings((char **)(q + page - 15)));
	}
	munmap(map, 3 * page);
}
END_TEST

/*
 * The highest string's NUL ends every string at or below it, where each
 * page from the lowest string's up to that NUL can be read: only then.
 * Three pages, the middle one unreadable; on the first and the last a NUL
 * at offset 1, and no other.
 */
START_TEST(strings_end_at_the_highest_strings_nul)
{
	size_t page;
	char *p, *last;

	if (tl_valgrind())
		return;
	page = (size_t)sysconf(_SC_PAGESIZE);
	p = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	last = p + 2 * page;
	memset(p, 'x', page);
	memset(last, 'x', page);
	p[1] = '\0';
	last[1] = '\0';
	ck_assert_int_eq(mprotect(p + page, page, PROT_NONE), 0);

	/* Below the highest string's NUL, on readable pages: ends there. */
	ck_assert(peek_strings((char *[]){ p, p + 1, NULL }));
	ck_assert(peek_strings((char *[]){ last, last, NULL }));
	/* Above a lower string's NUL: its own is on no readable page. */
	ck_assert(!peek_strings((char *[]){ p + page - 10, p, NULL }));
	/* Below a NUL beyond the page that cannot be read. */
	ck_assert(!peek_strings((char *[]){ p + page - 10, last, NULL }));
	ck_assert(!peek_strings((char *[]){ p + page - 10, last, last, NULL }));
	/* On that page, below a good string. */
	ck_assert(!peek_strings((char *[]){ p + page + 5, last, NULL }));
	/* Good strings with that page between them, each asked about alone. */
	ck_assert(peek_strings((char *[]){ p, p, last, NULL }));
	munmap(p, 3 * page);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("peek");
	TCase *tc = tcase_create("peek");

	tcase_add_test(tc, bad_pointers_are_unreadable);
	tcase_add_test(tc, good_pointers_are_readable);
	tcase_add_test(tc, vectors_stop_at_the_page_they_leave);
	tcase_add_test(tc, strings_and_slots_at_the_edge);
	tcase_add_test(tc, strings_end_at_the_highest_strings_nul);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
