/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the library does: the built-in defaults, then the policy file and
 * its drop-ins, then the CLOEXEC_POLICY environment variable, each on top
 * of the one before (same grammar; see layers.h, policy.c and
 * libcloexec(7)).
 *
 * The wrappers need one answer on their fast path: does the policy force
 * close-on-exec on this class of fd, and is there anything more to do
 * (keep lists, reports)?  That is one atomic word, filled in lazily on the
 * first call (load.h) and never changed after.  The rest (lists, paths) is
 * read at exec time and by the few calls that need it, after the word says
 * the policy is loaded.
 */
#ifndef CLOEXEC_POLICY_H
#define CLOEXEC_POLICY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

#define POLICY_ENV "CLOEXEC_POLICY"
/* Where the policy file is, if not the default (ignored when setuid). */
#define POLICY_FILE_ENV "CLOEXEC_CONFIG"
/* SYSCONFDIR: configure's, by way of make (Makefile.am). */
#include "paths.h"
#define POLICY_FILE_DEFAULT SYSCONFDIR "/libcloexec.conf"
/*
 * Test-only: creators skip the fork lock, so the race tests can fail.
 * Read only by the test build (CLOEXEC_TEST_SWITCHES: tests/local.mk),
 * never by the library that is installed.
 */
#define POLICY_TEST_NO_LOCK_ENV "LIBCLOEXEC_TEST_NO_FORK_LOCK"
/*
 * Test-only, likewise: "W,R", two fd numbers.  On the fallback path, after
 * the plain call and before the flag is set, the creator writes a byte to
 * W and waits for one from R: a test (tests/it/it_window.c) holds it in
 * the window, forks from another thread meanwhile and sees that the fork
 * waits, or, for an open in flight (fdreq.h), that the child sweeps.  Read
 * at each pause, so a test sets it once it has its fds; it must be in the
 * environment (even empty) when the policy is loaded.
 */
#define POLICY_TEST_WINDOW_ENV "LIBCLOEXEC_TEST_WINDOW"

enum fd_class {
	FD_CLASS_SOCKET,
	FD_CLASS_ACCEPT,
	FD_CLASS_PIPE,
	FD_CLASS_FILE,
	FD_CLASS_STDIO,
	FD_CLASS_DUP,
	FD_CLASS_DUP2,
	FD_CLASS_EVENT,
	FD_CLASS_PTY,
	FD_CLASS_MESSAGE,
	FD_CLASS_COUNT
};

#define FD_CLASS_ALL ((1u << FD_CLASS_COUNT) - 1)
/*
 * dup2/dup3 onto a number the program chose keep dup2's meaning unless
 * asked: that is how a program places an fd for a child.
 */
#define FD_CLASS_DEFAULT (FD_CLASS_ALL & ~(1u << FD_CLASS_DUP2))

enum policy_mode {
	POLICY_ENFORCE,
	POLICY_AUDIT,
	POLICY_OFF,
};

enum policy_scope {
	SCOPE_TREE,
	SCOPE_PROCESS,
};

/* The single-valued items, whose source --show-policy names. */
enum policy_from {
	POLICY_FROM_MODE,
	POLICY_FROM_CLASSES,
	POLICY_FROM_SCOPE,
	POLICY_FROM_REPORT,
	POLICY_FROM_SWEEP,
	POLICY_FROM_LOG,
	POLICY_FROM_EXEMPT, /* the last exempt=none or exempt=default */
	POLICY_FROM_COUNT
};

/* A list of comma-separated items, as offsets into the policy's text. */
#define POLICY_LIST_MAX 32
struct policy_list {
	unsigned n;
	struct {
		unsigned short off, len;
	} item[POLICY_LIST_MAX];
};

#define POLICY_TEXT_MAX 8192
#define POLICY_FILE_MAX 2048 /* bytes of the policy file read */
#define POLICY_KEEP_MAX 16

struct policy {
	enum policy_mode mode;
	enum policy_scope scope;
	unsigned classes;
	bool report; /* audit lines at exec, also when enforcing */
	bool sweep;  /* the exec-time sweep */
	bool exempt; /* this program is in the exempt list */
	/*
	 * The defaults stand for this program (no exempt=none, and no
	 * exempt=-item names it): a shell /etc/shells registers hands its
	 * fds to its commands (exec.c, shell.h).
	 */
	bool shell_rule;
	unsigned nkeep;
	struct {
		int lo, hi;
		unsigned short off; /* in text */
	} keep[POLICY_KEEP_MAX];
	struct policy_list keep_path, exempt_list, unexempt_list;
	int log_off, log_len; /* log=PATH, or -1 */
	bool exempt_set;      /* exempt=none given: no defaults */
	/* Offset + 1 in text of the item that last set each; 0: default. */
	unsigned short from[POLICY_FROM_COUNT];
	/* The text the lists point into: a copy, so setenv cannot move it. */
	size_t text_len;
	char text[POLICY_TEXT_MAX];
};

/* The hot word: class bits that are enforced, plus these. */
#define POLICY_LOADED (1u << 31)
#define POLICY_NO_LOCK (1u << 30)
#define POLICY_REPORT (1u << 29)
#define POLICY_SWEEP (1u << 28)
/* keep= or keep-path= given: creators check their fd against them. */
#define POLICY_KEEPS (1u << 27)
#define POLICY_SCOPE_PROCESS (1u << 26)
/* The test build was given POLICY_TEST_WINDOW_ENV: the fallback pauses. */
#define POLICY_TEST_WINDOW (1u << 25)
/* AT_SECURE: a setuid or setgid process, or one with file capabilities. */
#define POLICY_SECURE (1u << 24)

extern _Atomic uint32_t policy_hot __attribute__((visibility("hidden")));

void policy_default(struct policy *p) __attribute__((visibility("hidden")));
/*
 * Apply a policy string on top of *p (text is copied into p).  Each bad
 * token adds one line to *errs naming it and where it came from; the rest
 * still applies.  Returns the number of bad tokens.
 */
int policy_parse(struct policy *p, const char *text, const char *source,
		 struct diag *errs) __attribute__((visibility("hidden")));
/*
 * Settle what depends on the program: the exempt list.  A name item
 * matches either of the names it goes by (name, ran; NULL: none); a path
 * item, its executable's path (NULL: unknown, matches none).
 */
void policy_settle(struct policy *p, const char *exe, const char *name,
		   const char *ran) __attribute__((visibility("hidden")));
uint32_t policy_word_of(const struct policy *p)
	__attribute__((visibility("hidden")));
/* The i-th program exempt by default, NULL past the last. */
const char *policy_default_exempt(unsigned i)
	__attribute__((visibility("hidden")));
const char *fd_class_name(enum fd_class c)
	__attribute__((visibility("hidden")));
/*
 * A shell-style pattern: '*', '?', '[...]' (no '/' special casing), in
 * time (pattern length) x (length of s) at most, with no allocation.  A
 * pattern longer than POLICY_PATTERN_MAX (refused when parsed) or an s
 * longer than POLICY_SUBJECT_MAX matches nothing: the fd is not kept,
 * the program not exempt (libcloexec(7)).
 */
#define POLICY_PATTERN_MAX 256
#define POLICY_SUBJECT_MAX 4096
bool policy_glob(const char *pattern, size_t len, const char *s)
	__attribute__((visibility("hidden")));

#endif /* CLOEXEC_POLICY_H */
