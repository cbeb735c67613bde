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
 * Start-up data too (export.h): this, the first object linked, is where
 * the linker meets that section first, and so places it first, beside
 * the GOT.
 */
__attribute__((visibility("hidden"))) void *__dso_handle STARTUP_DATA =
	&__dso_handle;
