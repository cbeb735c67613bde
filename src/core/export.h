/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library is built with -fvisibility=hidden; only the interposed libc
 * names and the public cloexec_* API are marked for export, and the version
 * script (libcloexec.map) agrees.
 */
#ifndef CLOEXEC_EXPORT_H
#define CLOEXEC_EXPORT_H

#define CLOEXEC_EXPORT __attribute__((visibility("default")))

#endif /* CLOEXEC_EXPORT_H */
