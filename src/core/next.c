/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The next definition of a name, as dlsym(RTLD_NEXT) finds it, without
 * dlsym: some 150 instructions a name and a walk of 200 to 300 an object
 * once, where each dlsym costs some 1,400 (its caller's object found by
 * address, the loader's lock, an error catcher set up, and a look-up in
 * every object of the scope), and its first call binds it.  Each wrapper
 * looks up its real function at its first call, in every process that
 * makes it.
 *
 * RTLD_NEXT searches the global scope, in its order, from the object after
 * the caller's.  For the objects loaded at start, that is the order of the
 * loader's list of objects, which a walk of it from this library's entry
 * reads.  The walk is made once: it records the objects after this library
 * up to libc, each with its tables, and every look-up then reads them
 * without a lock.  Objects loaded at start are never unloaded, and those
 * loaded later come after libc, where every name this library looks up is
 * found (one it is not found for is left to dlsym: real.c).
 *
 * This library's entry in that list is where the loader leaves it for its
 * lazy binding: the second word of the GOT of the PLT (each psABI reserves
 * it for the loader, and glibc's puts the object's link_map there).  Where
 * the library's calls are bound at start (LD_BIND_NOW), there is nothing
 * there, and dlsym does it all.  So it does for what this look-up does not
 * do: objects without a GNU hash table, more objects than it records, an
 * IFUNC, a unique or an absolute symbol.  glibc only (symbol versions,
 * link.h); elsewhere dlsym does it all.
 */
#include "config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "next.h"

#if defined(__GLIBC__)
#include <elf.h>
#include <gnu/lib-names.h>
#include <link.h>

#define NEXT_MAX 16

struct next_object {
	ElfW(Addr) base;
	const uint32_t *gnu_hash;
	const ElfW(Sym) *symtab;
	const char *strtab;
	const ElfW(Half) *versym; /* NULL: no versions */
	const ElfW(Verdef) *verdef;
};

static struct next_object next_objects[NEXT_MAX] STARTUP_DATA;
static unsigned next_count STARTUP_DATA;

enum { NEXT_UNKNOWN, NEXT_WALKING, NEXT_READY, NEXT_UNUSABLE };
static _Atomic int next_state STARTUP_DATA;

/*
 * This object's ELF header, from the linker: at its load address, in an
 * object linked to load anywhere (link.h declares its _DYNAMIC).
 */
extern const char __ehdr_start[] __attribute__((weak, visibility("hidden")));

/*
 * A pointer of a dynamic section: the loader relocates them in place,
 * except where the section is read-only (some architectures).
 */
static ElfW(Addr) dyn_ptr(ElfW(Addr) base, ElfW(Addr) p)
{
	return p < base ? p + base : p;
}

static bool equal(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* This library's entry in the loader's list (see above), or NULL. */
static const struct link_map *own_map(void)
{
	ElfW(Addr) base = (ElfW(Addr))__ehdr_start;
	const ElfW(Dyn) *d;
	const struct link_map *map;

	if (!base)
		return NULL;
	for (d = _DYNAMIC; d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_PLTGOT)
			break;
	if (d->d_tag != DT_PLTGOT)
		return NULL;
	map = (const void *)((const ElfW(Addr) *)dyn_ptr(base,
							 d->d_un.d_ptr))[1];
	return map && map->l_ld == _DYNAMIC ? map : NULL;
}

/*
 * An object's tables from its dynamic section, and whether it is libc;
 * false: none to read.
 */
static bool read_object(const struct link_map *map, struct next_object *o,
			bool *is_libc)
{
	ElfW(Addr) generic[DT_SONAME + 1] = { 0 }, gnu[3] = { 0 };
	const ElfW(Dyn) *d;
	ElfW(Addr) base = map->l_addr;

	for (d = map->l_ld; d->d_tag != DT_NULL; d++) {
		ElfW(Sxword) tag = d->d_tag;

		if ((ElfW(Xword))tag <= DT_SONAME)
			generic[tag] = d->d_un.d_ptr;
		else if (tag == DT_GNU_HASH)
			gnu[0] = d->d_un.d_ptr;
		else if (tag == DT_VERSYM)
			gnu[1] = d->d_un.d_ptr;
		else if (tag == DT_VERDEF)
			gnu[2] = d->d_un.d_ptr;
	}
	if (!gnu[0] || !generic[DT_SYMTAB] || !generic[DT_STRTAB])
		return false;
	*o = (struct next_object){
		.base = base,
		.gnu_hash = (const void *)dyn_ptr(base, gnu[0]),
		.symtab = (const void *)dyn_ptr(base, generic[DT_SYMTAB]),
		.strtab = (const void *)dyn_ptr(base, generic[DT_STRTAB]),
		.versym = gnu[1] ? (const void *)dyn_ptr(base, gnu[1]) : NULL,
		.verdef = gnu[2] ? (const void *)dyn_ptr(base, gnu[2]) : NULL,
	};
	*is_libc = generic[DT_SONAME] &&
		   equal(o->strtab + generic[DT_SONAME], LIBC_SO);
	return true;
}

/* The walk, once (see above): false where dlsym must do it all. */
static bool walk(void)
{
	const struct link_map *map = own_map();
	bool is_libc = false;
	unsigned n = 0;

	for (map = map ? map->l_next : NULL; map && !is_libc;
	     map = map->l_next)
		if (n == NEXT_MAX ||
		    !read_object(map, &next_objects[n++], &is_libc))
			return false;
	next_count = n;
	return is_libc;
}

static bool objects_ready(void)
{
	int state = atomic_load_explicit(&next_state, memory_order_acquire);
	bool ready;

	if (state != NEXT_UNKNOWN)
		return state == NEXT_READY;
	/* One walker; another thread meanwhile asks dlsym. */
	if (!atomic_compare_exchange_strong(&next_state, &state, NEXT_WALKING))
		return false;
	ready = walk();
	atomic_store_explicit(&next_state, ready ? NEXT_READY : NEXT_UNUSABLE,
			      memory_order_release);
	return ready;
}

/* Does version index ndx of o name version? */
static bool version_is(const struct next_object *o, unsigned ndx,
		       const char *version)
{
	const ElfW(Verdef) *vd = o->verdef;

	while (vd) {
		if (vd->vd_ndx == ndx) {
			const ElfW(Verdaux) *aux =
				(const void *)((const char *)vd + vd->vd_aux);

			return equal(o->strtab + aux->vda_name, version);
		}
		if (!vd->vd_next)
			break;
		vd = (const void *)((const char *)vd + vd->vd_next);
	}
	return false;
}

/*
 * What a symbol of o named name is to the look-up: no match (0), a
 * match (1), or one dlsym must judge (-1).  As glibc's check_match: a
 * definition of an allowed type; without a version asked for (dlsym),
 * an unversioned one or the default version; with one (dlvsym), that
 * version, hidden or not.
 */
static int judge(const struct next_object *o, unsigned i, const char *name,
		 const char *version)
{
	const ElfW(Sym) *s = &o->symtab[i];
	unsigned type = s->st_info & 0xf, bind = s->st_info >> 4;
	unsigned ndx;

	if (s->st_shndx == SHN_UNDEF || !equal(o->strtab + s->st_name, name))
		return 0;
	if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE)
		return type == STT_GNU_IFUNC ? -1 : 0;
	if (bind != STB_GLOBAL && bind != STB_WEAK)
		return bind == STB_GNU_UNIQUE ? -1 : 0;
	if (s->st_shndx == SHN_ABS || !s->st_value)
		return -1;
	if (!o->versym)
		return 1;
	ndx = o->versym[i];
	if (!*version)
		return (ndx & 0x7fff) < 2 || !(ndx & 0x8000);
	return version_is(o, ndx & 0x7fff, version);
}

/* The definition of name in o: 0 none, 1 *addr, -1 dlsym must say. */
static int find_in(const struct next_object *o, const char *name,
		   uint32_t hash, const char *version, void **addr)
{
	const uint32_t *gh = o->gnu_hash;
	uint32_t nbuckets = gh[0], symoffset = gh[1], bloom_size = gh[2];
	uint32_t shift = gh[3];
	const ElfW(Addr) *bloom = (const void *)&gh[4];
	const uint32_t *buckets = (const void *)&bloom[bloom_size];
	const uint32_t *chain = &buckets[nbuckets];
	const unsigned bits = sizeof(ElfW(Addr)) * 8;
	ElfW(Addr) word = bloom[(hash / bits) & (bloom_size - 1)];
	ElfW(Addr) mask = ((ElfW(Addr))1 << (hash % bits)) |
			  ((ElfW(Addr))1 << ((hash >> shift) % bits));
	uint32_t i;

	if (!nbuckets || (word & mask) != mask)
		return 0;
	i = buckets[hash % nbuckets];
	if (i < symoffset)
		return 0;
	for (;; i++) {
		uint32_t h = chain[i - symoffset];

		if ((h | 1) == (hash | 1)) {
			int verdict = judge(o, i, name, version);

			if (verdict) {
				*addr = (void *)(o->base +
						 o->symtab[i].st_value);
				return verdict;
			}
		}
		if (h & 1)
			return 0;
	}
}

void *real_next(const char *name, const char *version, bool *sure)
{
	uint32_t hash = 5381;
	const char *c;
	unsigned i;

	*sure = false;
	if (!objects_ready())
		return NULL;
	for (c = name; *c; c++)
		hash = hash * 33 + (unsigned char)*c;
	for (i = 0; i < next_count; i++) {
		void *addr = NULL;
		int found = find_in(&next_objects[i], name, hash, version,
				    &addr);

		if (found) {
			*sure = found > 0;
			return *sure ? addr : NULL;
		}
	}
	return NULL;
}
#else
void *real_next(const char *name, const char *version, bool *sure)
{
	(void)name, (void)version;
	*sure = false;
	return NULL;
}
#endif
