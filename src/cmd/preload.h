/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef CLOEXEC_CMD_PRELOAD_H
#define CLOEXEC_CMD_PRELOAD_H

#define PRELOAD_EXIT_FAILED 1
#define PRELOAD_EXIT_USAGE 125

/*
 * cloexec enable [--root DIR] [-L LIB]: LIB (absolute, as seen inside DIR)
 * in DIR/etc/ld.so.preload, in the $LIB form where the loader expands it
 * back to LIB, once; refused unless reading it shows this library (an
 * ELF shared object of this machine, its soname and exports): nothing of
 * DIR is run, and no link in DIR is followed out of it.  argv[0] is
 * "enable".
 */
int preload_enable(int argc, char **argv, const char *lib);
/*
 * cloexec disable [--root DIR]: every entry of DIR/etc/ld.so.preload whose
 * last component is soname taken out, and nothing else.
 */
int preload_disable(int argc, char **argv, const char *soname);

#endif
