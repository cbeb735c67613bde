/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library is linked without the compiler's start files (configure's
 * CLOEXEC_OWN_STARTFILES says why).  Of what they define, libc needs one
 * name: the object's handle, which glibc's pthread_atfork passes so that
 * unloading the object could drop its handlers.  The library is never
 * unloaded (-z nodelete), so the handle only has to be unique: its own
 * address, as crtbeginS.o has it.
 */
#include "config.h"

#include "export.h"

/*
 * Nothing, in the fd table's section (fdtable.c), so that the linker meets
 * it second and places it right after the start-up data: the table's low
 * fds then share a page with the variables a fork child writes.  Above
 * __dso_handle, since GCC writes a file's variables out last first (only
 * the layout depends on it: readelf -S shows it).
 */
__attribute__((used)) static char fdtable_section_order[0]
	__attribute__((section("cloexec_table")));

/*
 * Start-up data too (export.h): this, the first object linked, is where
 * the linker meets that section first, and so places it first, beside
 * the GOT.
 */
__attribute__((visibility("hidden"))) void *__dso_handle STARTUP_DATA =
	&__dso_handle;
