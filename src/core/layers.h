/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Where the policy comes from, lowest layer first: the built-in defaults,
 * the file (SYSCONFDIR/libcloexec.conf), the drop-ins next to it
 * (libcloexec.conf.d/ *.conf, in lexical order), then CLOEXEC_POLICY (to
 * which cloexec(1) appends its options).  Each layer is parsed on top of
 * the ones below: it adds to them or overrides single items, never
 * discards them.  A setuid or setgid process reads the files only.
 */
#ifndef CLOEXEC_LAYERS_H
#define CLOEXEC_LAYERS_H

#include <stddef.h>

#include "diag.h"
#include "policy.h"

#define POLICY_DIR_DEFAULT POLICY_FILE_DEFAULT ".d"
/* Drop-ins read: the first this many in lexical order, names this long. */
#define POLICY_DROPIN_MAX 16
#define POLICY_DROPIN_NAME_MAX 64

/*
 * For cloexec --show-policy: told, before each piece of text is parsed,
 * the offset in p->text where it will lie and where it came from.
 */
struct layer_trace {
	void (*note)(struct layer_trace *t, size_t off, const char *source);
};

/*
 * The file layers: the file at path, then the drop-ins of path ".d".  Bad
 * items go to errs, one line each, naming file:line; returns how many.
 */
int layers_read_files(struct policy *p, const char *path, struct diag *errs,
		      struct layer_trace *trace)
	__attribute__((visibility("hidden")));
/* One file, as a layer; -errno if it cannot be opened. */
int layers_read_file(struct policy *p, const char *path, struct diag *errs,
		     struct layer_trace *trace)
	__attribute__((visibility("hidden")));
/* The policy file's path: CLOEXEC_CONFIG, unless setuid, or the default. */
const char *layers_file_path(void) __attribute__((visibility("hidden")));
/* The environment's text (NULL if none, or setuid). */
const char *layers_env_text(void) __attribute__((visibility("hidden")));

/*
 * Is there a policy other than the defaults to load (the environment names
 * one, or a file or drop-in directory exists)?  A presence check, cheaper
 * than loading: one pass over the environment, then an open of the file
 * and one of the directory, which the load then reads (layers.c).
 */
bool policy_configured(void) __attribute__((visibility("hidden")));
/*
 * Would a load now find the defaults alone: the start found no file, and
 * the environment still names no policy?  Then a process that has made
 * no fd yet may exec without loading one (exec.c): the defaults report
 * nothing, sweep nothing and copy no environment.
 */
bool policy_defaults_stand(void) __attribute__((visibility("hidden")));
/*
 * All layers, for the library's policy_load: file errors are kept for
 * layers_report_files(), the environment's go to env_errs.
 */
void layers_load(struct policy *p, struct diag *env_errs)
	__attribute__((visibility("hidden")));
/*
 * The file errors layers_load found, where an administrator looks: the
 * system log, and stderr if it is a terminal (not in a setuid process).
 */
void layers_report_files(void) __attribute__((visibility("hidden")));

#endif /* CLOEXEC_LAYERS_H */
