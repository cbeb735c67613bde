/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Credentials, for the inheritance rules: nothing the library forced is
 * handed on across a change of them (doc/inheritance.md).
 *
 * The set*id family, setgroups and capset are wrapped (src/wrap/creds.c)
 * and report each change here, which forgets every forced flag made so
 * far (fdtable_forget_forced).  A change no wrapper saw (a raw system
 * call, libc's own initgroups) is caught at exec for the user and group
 * ids: they are compared with those this image started with (the
 * auxiliary vector) or those the last seen change left.
 */
#ifndef CLOEXEC_CREDS_H
#define CLOEXEC_CREDS_H

#include <stdbool.h>

/* After a call that may have changed this process's credentials. */
void creds_changed(void) __attribute__((visibility("hidden")));
/*
 * At exec: the user and group ids are those the library last knew.  Two
 * system calls; async-signal-safe.
 */
bool creds_unchanged(void) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_CREDS_H */
