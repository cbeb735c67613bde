/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library checked by its bytes: its ELF header against this command's
 * own, its dynamic section (soname, the C library it needs) and its
 * dynamic symbols (the library's exports).  A file of the tree may have
 * been planted by whoever else can write to it: nothing here trusts an
 * offset or a size before checking it against the file.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/lib-names.h>
#endif

#include "elfcheck.h"

/* Far above the library's size; a bound on what a planted file makes us read. */
#define LIBRARY_MAX (64 << 20)

/*
 * Names the library exports (src/entrypoints.def has them all): its own
 * version call and the creators and exec calls any build wraps.
 */
static const char *const expected_exports[] = {
	"cloexec_version", "open", "pipe2", "socket", "execve", "posix_spawn",
};

struct image {
	const unsigned char *bytes;
	size_t size;
};

__attribute__((format(printf, 3, 4))) static int
say(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

static bool in_image(const struct image *im, uint64_t off, uint64_t len)
{
	return off <= im->size && len <= im->size - off;
}

/* The NUL-terminated string at off in a string table section, or NULL. */
static const char *string_at(const struct image *im, const ElfW(Shdr) * strtab,
			     uint64_t off)
{
	const char *s;

	if (strtab->sh_type != SHT_STRTAB || off >= strtab->sh_size ||
	    !in_image(im, strtab->sh_offset, strtab->sh_size))
		return NULL;
	s = (const char *)im->bytes + strtab->sh_offset + off;
	return memchr(s, '\0', strtab->sh_size - off) ? s : NULL;
}

static int read_all(int fd, struct image *im, char *why, size_t size)
{
	struct stat st;
	unsigned char *buf;
	size_t len = 0;
	ssize_t n;

	if (fstat(fd, &st))
		return say(why, size, "cannot stat it: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return say(why, size, "not a regular file");
	if (st.st_size < (off_t)sizeof(ElfW(Ehdr)) || st.st_size > LIBRARY_MAX)
		return say(why, size, "not a shared library (%lld bytes)",
			   (long long)st.st_size);
	buf = malloc(st.st_size);
	if (!buf)
		return say(why, size, "out of memory");
	while (len < (size_t)st.st_size &&
	       (n = pread(fd, buf + len, st.st_size - len, len)) > 0)
		len += n;
	im->bytes = buf;
	im->size = len;
	return 0;
}

/* This command's own ELF header: what a library loaded into it must match. */
static int own_header(ElfW(Ehdr) * own)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, own, sizeof(*own), 0);
	close(fd);
	return n == (ssize_t)sizeof(*own) ? 0 : -1;
}

static int check_header(const struct image *im, char *why, size_t size)
{
	const ElfW(Ehdr) *eh = (const void *)im->bytes;
	ElfW(Ehdr) own;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return say(why, size, "not an ELF file");
	if (own_header(&own))
		return say(why, size,
			   "cannot read this command's own ELF "
			   "header in /proc/self/exe");
	if (eh->e_ident[EI_CLASS] != own.e_ident[EI_CLASS] ||
	    eh->e_ident[EI_DATA] != own.e_ident[EI_DATA] ||
	    eh->e_machine != own.e_machine)
		return say(why, size,
			   "an ELF file for another machine (class %d, byte "
			   "order %d, machine %d; this command's: %d, %d, %d)",
			   eh->e_ident[EI_CLASS], eh->e_ident[EI_DATA],
			   eh->e_machine, own.e_ident[EI_CLASS],
			   own.e_ident[EI_DATA], own.e_machine);
	if (eh->e_type != ET_DYN)
		return say(why, size, "not a shared object (ELF type %d)",
			   eh->e_type);
	if (eh->e_shentsize != sizeof(ElfW(Shdr)) || !eh->e_shnum ||
	    eh->e_shoff % sizeof(ElfW(Addr)) ||
	    !in_image(im, eh->e_shoff, (uint64_t)eh->e_shnum * eh->e_shentsize))
		return say(why, size,
			   "its section headers are missing or "
			   "out of the file");
	return 0;
}

/* The section that sh_link names, or NULL. */
static const ElfW(Shdr) * linked(const struct image *im, const ElfW(Shdr) * sh)
{
	const ElfW(Ehdr) *eh = (const void *)im->bytes;

	if (sh->sh_link >= eh->e_shnum)
		return NULL;
	return (const ElfW(Shdr) *)(im->bytes + eh->e_shoff) + sh->sh_link;
}

static int check_dynamic(const struct image *im, const ElfW(Shdr) * sh,
			 const char *soname, char *why, size_t size)
{
	const ElfW(Shdr) *strtab = linked(im, sh);
	const ElfW(Dyn) * d;
	const char *name, *got = NULL;
	bool needs_libc = false;
	size_t i, n;

	if (!strtab || sh->sh_offset % sizeof(ElfW(Addr)) ||
	    !in_image(im, sh->sh_offset, sh->sh_size))
		return say(why, size, "its dynamic section is out of the file");
	d = (const void *)(im->bytes + sh->sh_offset);
	n = sh->sh_size / sizeof(*d);
	for (i = 0; i < n && d[i].d_tag != DT_NULL; i++) {
		if (d[i].d_tag != DT_SONAME && d[i].d_tag != DT_NEEDED)
			continue;
		name = string_at(im, strtab, d[i].d_un.d_val);
		if (!name)
			return say(why, size,
				   "a name of its dynamic section "
				   "is out of the file");
		if (d[i].d_tag == DT_SONAME)
			got = name;
#ifdef LIBC_SO
		else if (!strcmp(name, LIBC_SO))
			needs_libc = true;
#else
		else if (!strncmp(name, "libc.", 5))
			needs_libc = true;
#endif
	}
	if (!got || strcmp(got, soname))
		return say(why, size, "its soname is %s, not %s",
			   got ? got : "missing", soname);
	if (!needs_libc)
		return say(why, size,
			   "it is not built for this command's C "
			   "library (no NEEDED entry for it)");
	return 0;
}

static bool exports(const struct image *im, const ElfW(Shdr) * sh,
		    const char *want)
{
	const ElfW(Shdr) *strtab = linked(im, sh);
	const ElfW(Sym) * sym;
	size_t i, n;

	if (!strtab || sh->sh_entsize != sizeof(*sym) ||
	    sh->sh_offset % sizeof(ElfW(Addr)) ||
	    !in_image(im, sh->sh_offset, sh->sh_size))
		return false;
	sym = (const void *)(im->bytes + sh->sh_offset);
	n = sh->sh_size / sizeof(*sym);
	for (i = 0; i < n; i++) {
		const char *name = string_at(im, strtab, sym[i].st_name);
		int bind = ELF64_ST_BIND(sym[i].st_info);

		if (name && !strcmp(name, want) &&
		    sym[i].st_shndx != SHN_UNDEF &&
		    ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC &&
		    (bind == STB_GLOBAL || bind == STB_WEAK))
			return true;
	}
	return false;
}

static int check_sections(const struct image *im, const char *soname, char *why,
			  size_t size)
{
	const ElfW(Ehdr) *eh = (const void *)im->bytes;
	const ElfW(Shdr) *sh = (const void *)(im->bytes + eh->e_shoff);
	const ElfW(Shdr) *dynamic = NULL, *dynsym = NULL;
	size_t i;

	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type == SHT_DYNAMIC)
			dynamic = &sh[i];
		else if (sh[i].sh_type == SHT_DYNSYM)
			dynsym = &sh[i];
	}
	if (!dynamic || !dynsym)
		return say(why, size, "it has no dynamic %s",
			   dynamic ? "symbols" : "section");
	if (check_dynamic(im, dynamic, soname, why, size))
		return -1;
	for (i = 0; i < sizeof(expected_exports) / sizeof(*expected_exports);
	     i++)
		if (!exports(im, dynsym, expected_exports[i]))
			return say(why, size, "it does not export %s",
				   expected_exports[i]);
	return 0;
}

int elf_check_library(int fd, const char *soname, char *why, size_t size)
{
	struct image im = { 0 };
	int ret;

	if (read_all(fd, &im, why, size))
		return -1;
	ret = check_header(&im, why, size);
	if (!ret)
		ret = check_sections(&im, soname, why, size);
	free((void *)im.bytes);
	return ret;
}
