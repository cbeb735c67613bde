/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/probe.h"
#include "oldkernel.h"
#include "testlib.h"

static int count_open_fds(void)
{
	return tl_open_fds(0, 256);
}

START_TEST(this_kernel_has_everything)
{
	int before = count_open_fds();
	enum cap c;

	errno = 1234;
	ck_assert(cap_native(CAP_BUILTIN));
	ck_assert(!cap_native(CAP_NEVER));
	for (c = CAP_NEVER + 1; c < CAP_COUNT; c++) {
		ck_assert_int_eq(atomic_load(&cap_cache[c]), CAP_UNKNOWN);
		ck_assert_int_eq(cap_probe(c), CAP_NATIVE);
		ck_assert_int_eq(atomic_load(&cap_cache[c]), CAP_NATIVE);
		ck_assert(cap_native(c));
	}
	ck_assert_int_eq(errno, 1234);
	ck_assert_int_eq(count_open_fds(), before);
	ck_assert(!cap_fallback_seen());
}
END_TEST

START_TEST(old_kernel_is_recognised)
{
	int before;

	if (!oldkernel_supported() || tl_valgrind())
		return;
	ck_assert_int_eq(oldkernel_install(), 0);
	before = count_open_fds();
	errno = 99;
	ck_assert_int_eq(cap_probe(CAP_SOCK_FLAGS), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_ACCEPT4),
			 OLDKERNEL_ACCEPT4_ERRNO == ENOSYS ? CAP_ABSENT
							   : CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_O_CLOEXEC), CAP_IGNORES);
	ck_assert_int_eq(cap_probe(CAP_F_DUPFD_CLOEXEC), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_PIPE2), CAP_ABSENT);
	ck_assert_int_eq(cap_probe(CAP_DUP3), CAP_ABSENT);
	ck_assert_int_eq(cap_probe(CAP_EPOLL_CREATE1), CAP_ABSENT);
	ck_assert_int_eq(cap_probe(CAP_INOTIFY_INIT1), CAP_ABSENT);
	ck_assert_int_eq(cap_probe(CAP_EVENTFD_FLAGS), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_SIGNALFD_FLAGS), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_TIMERFD_FLAGS), CAP_REJECTS);
	ck_assert_int_eq(cap_probe(CAP_CMSG_CLOEXEC), CAP_IGNORES);
	ck_assert(cap_native(CAP_BUILTIN));
	ck_assert(!cap_native(CAP_SOCK_FLAGS));
	ck_assert(cap_fallback_seen());
	ck_assert_int_eq(errno, 99);
	ck_assert_int_eq(count_open_fds(), before);
}
END_TEST

/* Out of fds, the probe cannot tell: it asks again next time. */
START_TEST(inconclusive_answers_are_not_cached)
{
	struct rlimit rl = { 8, 8 };
	int fd;

	if (tl_valgrind())
		return;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		;
	ck_assert_int_eq(cap_probe(CAP_SOCK_FLAGS), CAP_UNKNOWN);
	ck_assert_int_eq(atomic_load(&cap_cache[CAP_SOCK_FLAGS]), CAP_UNKNOWN);
	close(7);
	ck_assert_int_eq(cap_probe(CAP_SOCK_FLAGS), CAP_NATIVE);
}
END_TEST

/*
 * The vDSO cap_kernel_version() reads, where a test sets one: the core's
 * calls of getauxval() are linked to this one (glibc's own is
 * __getauxval).
 */
static const void *fake_vdso;

unsigned long __getauxval(unsigned long type);

unsigned long getauxval(unsigned long type)
{
	if (type == AT_SYSINFO_EHDR && fake_vdso)
		return (unsigned long)fake_vdso;
	return __getauxval(type);
}

/* A note of namesz 4 or 6 and a 4-byte-aligned desc, as the kernel's. */
static char *put_note(char *p, const char *name, unsigned type,
		      const void *desc, unsigned descsz)
{
	ElfW(Nhdr) n = { .n_namesz = (unsigned)strlen(name) + 1,
			 .n_descsz = descsz,
			 .n_type = type };

	memcpy(p, &n, sizeof(n));
	p += sizeof(n);
	memcpy(p, name, n.n_namesz);
	p += (n.n_namesz + 3) & ~3u;
	memcpy(p, desc, descsz);
	return p + ((descsz + 3) & ~3u);
}

/*
 * Linux's version note after others: a build ID of 20 bytes (the size
 * GNU ld writes), and a "Linux" note of another type; each one is
 * stepped over by its own padded size.
 */
START_TEST(the_version_note_is_found_after_others)
{
	static union {
		ElfW(Ehdr) eh;
		char bytes[512];
	} image;
	ElfW(Phdr) ph = { .p_type = PT_NOTE };
	char build_id[20], *notes, *end;
	unsigned version = CAP_KERNEL_VERSION(6, 1, 42), other = 7;

	memset(build_id, 0x5a, sizeof(build_id));
	memcpy(image.eh.e_ident, ELFMAG, SELFMAG);
	image.eh.e_phoff = sizeof(image.eh);
	image.eh.e_phnum = 1;
	notes = image.bytes + sizeof(image.eh) + sizeof(ph);
	end = put_note(notes, "GNU", NT_GNU_BUILD_ID, build_id,
		       sizeof(build_id));
	end = put_note(end, "Linux", 0x100, &other, sizeof(other));
	end = put_note(end, "Linux", 0, &version, sizeof(version));
	ph.p_offset = (size_t)(notes - image.bytes);
	ph.p_filesz = (size_t)(end - notes);
	memcpy(image.bytes + sizeof(image.eh), &ph, sizeof(ph));
	fake_vdso = image.bytes;
	ck_assert_uint_eq(cap_kernel_version(), version);
	/* Cut inside the version note: no version. */
	ph.p_filesz -= 2;
	memcpy(image.bytes + sizeof(image.eh), &ph, sizeof(ph));
	ck_assert_uint_eq(cap_kernel_version(), 0);
	fake_vdso = NULL;
}
END_TEST

/* The two capabilities that are no probe of the kernel, asked directly. */
START_TEST(fixed_answers)
{
	ck_assert_int_eq(cap_probe(CAP_BUILTIN), CAP_NATIVE);
	ck_assert_int_eq(cap_probe(CAP_NEVER), CAP_ABSENT);
	ck_assert(cap_fallback_seen());
}
END_TEST

int main(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("probe");

	tcase_add_test(tc, this_kernel_has_everything);
	tcase_add_test(tc, old_kernel_is_recognised);
	tcase_add_test(tc, inconclusive_answers_are_not_cached);
	tcase_add_test(tc, fixed_answers);
	tcase_add_test(tc, the_version_note_is_found_after_others);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
