/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The next definition of a name after this library, as dlsym(RTLD_NEXT)
 * finds it, read from the objects' own tables (next.c).
 */
#ifndef CLOEXEC_NEXT_H
#define CLOEXEC_NEXT_H

#include <stdbool.h>

/*
 * name's next definition (of version, if not ""), as dlsym and dlvsym
 * find it; *sure false: ask dlsym, this look-up cannot tell.  Touches
 * neither errno nor libc.
 */
void *real_next(const char *name, const char *version, bool *sure)
	__attribute__((visibility("hidden"), cold));

#endif /* CLOEXEC_NEXT_H */
