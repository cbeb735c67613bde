/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stdio and temporary files: fopen, freopen, popen, tmpfile, and the
 * mkstemp family, each with its 64-bit name.
 *
 * Their fds come from libc-internal opens that no wrapper sees, so each
 * is wrapped itself.  fopen/freopen/popen get the "e" mode flag (without
 * it, popen even clears FD_CLOEXEC on its end of the pipe); mkstemp and
 * friends become the mkostemp family with O_CLOEXEC; tmpfile is done
 * again, as glibc does it, with O_CLOEXEC.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/exec.h"
#include "core/export.h"
#include "core/forklock.h"
#include "core/real.h"
#include "core/str.h"
#include "core/sys.h"
#include "specs.h"
#include "stream.h"
#include "symvers.h"

extern char **environ;

/*
 * fopen() may come first while an allocator starts up inside dlsym(): its
 * raw twin opens with the system call and lets fdopen() make the FILE.
 */
static FILE *raw_fopen(const char *path, const char *mode)
{
	static const struct {
		char c;
		int set, clear;
	} modes[] = {
		{ 'r', O_RDONLY, 0 },
		{ 'w', O_WRONLY | O_CREAT | O_TRUNC, 0 },
		{ 'a', O_WRONLY | O_CREAT | O_APPEND, 0 },
		{ '+', O_RDWR, O_WRONLY },
		{ 'x', O_EXCL, 0 },
		{ 'e', O_CLOEXEC, 0 },
	};
	size_t i, j, n = 1 + strcspn(mode + (*mode != 0), ",");
	int flags = 0;
	long fd;
	FILE *f;

	for (i = 0; i < n; i++)
		for (j = 0; j < sizeof(modes) / sizeof(modes[0]); j++)
			if (mode[i] == modes[j].c)
				flags = (flags & ~modes[j].clear) | modes[j].set;
	fd = sys_result(sys_openat(AT_FDCWD, path, flags, 0666));
	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f)
		sys_close(fd);
	return f;
}

/* The rest have no system call to stand in for them. */
static FILE *no_file(void)
{
	errno = ENOSYS;
	return NULL;
}

static FILE *no_freopen(const char *path, const char *mode, FILE *f)
{
	return no_file();
}

static FILE *no_popen(const char *command, const char *mode)
{
	return no_file();
}

static FILE *no_tmpfile(void)
{
	return no_file();
}

static int no_mkstemp(char *tmpl)
{
	return fdreq_fail(ENOSYS);
}

static int no_mkostemp(char *tmpl, int flags)
{
	return fdreq_fail(ENOSYS);
}

static int no_mkstemps(char *tmpl, int suffixlen)
{
	return fdreq_fail(ENOSYS);
}

static int no_mkostemps(char *tmpl, int suffixlen, int flags)
{
	return fdreq_fail(ENOSYS);
}

/*
 * open() here makes only tmpfile's file, which is its creator's alone:
 * mode 0600, whatever the call says.
 */
static int raw_open_private(const char *path, int flags, ...)
{
	return sys_result(sys_openat(AT_FDCWD, path, flags, 0600));
}

REAL_SLOT(fopen, raw_fopen);
REAL_SLOT(fopen64, raw_fopen);
REAL_SLOT(freopen, no_freopen);
REAL_SLOT(freopen64, no_freopen);
REAL_SLOT(popen, no_popen);
REAL_SLOT(tmpfile, no_tmpfile);
REAL_SLOT(tmpfile64, no_tmpfile);
REAL_SLOT(mkstemp, no_mkstemp);
REAL_SLOT(mkstemp64, no_mkstemp);
REAL_SLOT(mkostemp, no_mkostemp);
REAL_SLOT(mkostemp64, no_mkostemp);
REAL_SLOT(mkstemps, no_mkstemps);
REAL_SLOT(mkstemps64, no_mkstemps);
REAL_SLOT(mkostemps, no_mkostemps);
REAL_SLOT(mkostemps64, no_mkostemps);
REAL_SLOT(open, raw_open_private);

/*
 * The mode's modifiers: the characters after the first, up to a ",ccs="
 * part.  glibc reads at most six of them.  Modes are a few characters:
 * plain loops, cheaper than the string functions' set-up.
 */
static size_t mode_modifiers_end(const char *mode)
{
	size_t i = 0;

	if (mode[0])
		for (i = 1; mode[i] && mode[i] != ','; i++)
			;
	return i;
}

/* end: mode_modifiers_end(mode), found once by the caller. */
static int mode_wants_cloexec(const char *mode, size_t end)
{
	size_t i;

	for (i = 0; i < end; i++)
		if (mode[i] == 'e')
			return O_CLOEXEC;
	return 0;
}

#define MODE_MAX 64

/*
 * "r+" becomes "re+": right after the first character, so that the
 * ",ccs=" part stays last.  NULL when the mode has no room for it: the
 * caller then marks the fd afterwards, under the fork lock.
 */
static const char *mode_with_e(const char *mode, size_t end,
			       char buf[MODE_MAX])
{
	size_t len = end + str_len(mode + end);

	if (!len || end - 1 >= 6 || len + 2 > MODE_MAX)
		return NULL;
	buf[0] = mode[0];
	buf[1] = 'e';
	str_copy(buf + 2, mode + 1, len);
	return buf;
}

/*
 * The path for a stdio call that opens file (NULL for popen, or for
 * freopen of the same file): natively, the mode with "e"; if the mode
 * cannot take one, the fallback after all.  buf NULL: a libio older than
 * "e" (fopen@GLIBC_2.0 ignores it, popen@GLIBC_2.0 says EINVAL), always
 * the fallback.
 */
WRAPPER_HELPER enum fdreq_path stdio_begin(const char *call, struct fdreq *rq,
					   const struct fd_spec *spec,
					   const char *file, const char **mode,
					   char buf[MODE_MAX], void *caller)
{
	size_t end = mode_modifiers_end(*mode);
	int flags = buf ? mode_wants_cloexec(*mode, end) : 0;
	enum fdreq_path path;
	const char *with_e = NULL;

	path = fdreq_start_open_unrefused(rq, spec, flags, AT_FDCWD, file, call,
					  caller);
	if (path != FDREQ_NATIVE || flags)
		return path;
	if (buf)
		with_e = mode_with_e(*mode, end, buf);
	if (with_e) {
		*mode = with_e;
		return path;
	}
	return fdreq_fall_back_open(rq, spec, file);
}

static FILE *stdio_end(struct fdreq *rq, FILE *f)
{
	if (f)
		fdreq_end(rq, stream_fd(f));
	else
		fdreq_done(rq);
	return f;
}

/* knows_e: the version of libio knows the "e" mode flag. */
static __attribute__((noinline)) FILE *
fopen_slow(const char *call, FILE *(*real)(const char *, const char *),
	   const char *path, const char *mode, bool knows_e, void *caller)
{
	char buf[MODE_MAX];
	struct fdreq rq;

	stdio_begin(call, &rq, &spec_stdio, path, &mode, knows_e ? buf : NULL,
		    caller);
	return stdio_end(&rq, real(path, mode));
}

/*
 * mode_with_e()'s work for the usual modes, in one pass, into buf (8
 * bytes): "r" is "re", "rb+" is "reb+".  False for one with an "e"
 * already, a ",ccs=" part, or more than five modifiers, which buf has no
 * room for with the "e": the general path's.  The commonest, a letter
 * alone, is one store.
 */
WRAPPER_HELPER bool fopen_fast_mode(const char *mode, char buf[8])
{
	size_t i;

	if (__builtin_expect(mode[0] && !mode[1], 1)) {
		buf[0] = mode[0];
		buf[1] = 'e';
		buf[2] = '\0';
		return true;
	}
	if (!mode[0])
		return false;
	buf[0] = mode[0];
	buf[1] = 'e';
	for (i = 1; i < 6 && mode[i]; i++) {
		if (mode[i] == 'e' || mode[i] == ',')
			return false;
		buf[i + 1] = mode[i];
	}
	if (mode[i])
		return false;
	buf[i + 1] = '\0';
	return true;
}

/* fdreq_fast_end()'s rest, for a FILE. */
static __attribute__((noinline, cold)) FILE *fopen_noted(FILE *f)
{
	if (f)
		fdreq_fast_rest(stream_fd(f), FDT_FORCED_MARK);
	return f;
}

/*
 * The fast path (fdreq.h), where the function is resolved and the mode
 * takes an "e"; the rest apart, with its look-up of the real function, so
 * that the fast path keeps nothing but the mode across its call.
 */
#define FOPEN_EXPORT(sym)                                                    \
	static __attribute__((noinline)) FILE *sym##_general(                \
		const char *path, const char *mode, void *caller)            \
	{                                                                    \
		return fopen_slow(#sym, REAL(sym), path, mode, true,         \
				  caller);                                   \
	}                                                                    \
	CLOEXEC_EXPORT FILE *sym(const char *path, const char *mode)         \
	{                                                                    \
		FILE *(*ready)(const char *, const char *) = REAL_READY(sym); \
		char buf[8];                                                 \
		FILE *f;                                                     \
                                                                             \
		if (!ready || !fdreq_fast(&spec_stdio, 0) ||                 \
		    !fopen_fast_mode(mode, buf))                             \
			return sym##_general(path, mode,                     \
					     __builtin_return_address(0));   \
		f = ready(path, buf);                                        \
		if (__builtin_expect(f != NULL, 1) &&                        \
		    fdreq_fast_noted(&spec_stdio, stream_fd(f)))             \
			return f;                                            \
		return fopen_noted(f);                                       \
	}
FOPEN_EXPORT(fopen)
FOPEN_EXPORT(fopen64)

/*
 * fopen@GLIBC_2.0 (i386 and other old ABIs): the FILE of glibc 2.0's libio,
 * which a program bound to it lays out and passes back to fclose@GLIBC_2.0.
 * Its fopen makes it; the default one would not.  It knows no "e": the fd
 * is marked after, under the fork lock.
 */
#define FOPEN_COMPAT(sym, tag, ver)                                         \
	REAL_SLOT_VERSION(sym, tag, ver, raw_fopen);                        \
	COMPAT_EXPORT(sym, tag, ver)                                        \
	FILE *sym##_##tag(const char *path, const char *mode)               \
	{                                                                   \
		return fopen_slow(#sym, REAL_VERSION(sym, tag), path, mode, \
				  false, __builtin_return_address(0));      \
	}
#ifdef COMPAT_fopen
COMPAT_fopen(FOPEN_COMPAT)
#endif
#ifdef COMPAT_fopen64
COMPAT_fopen64(FOPEN_COMPAT)
#endif

/*
 * freopen("/dev/null", "r", stdin), the daemon's idiom, lands on 0:
 * fdreq_mark() leaves a forced flag off there.
 */
CLOEXEC_EXPORT FILE *freopen(const char *path, const char *mode, FILE *f)
{
	char buf[MODE_MAX];
	struct fdreq rq;
	FILE *ret;

	stdio_begin(__func__, &rq, &spec_stdio, path, &mode, buf,
		    __builtin_return_address(0));
	ret = REAL(freopen)(path, mode, f);
	return stdio_end(&rq, ret);
}

CLOEXEC_EXPORT FILE *freopen64(const char *path, const char *mode, FILE *f)
{
	char buf[MODE_MAX];
	struct fdreq rq;
	FILE *ret;

	stdio_begin(__func__, &rq, &spec_stdio, path, &mode, buf,
		    __builtin_return_address(0));
	ret = REAL(freopen64)(path, mode, f);
	return stdio_end(&rq, ret);
}

/*
 * popen starts a program: the spawn side of the fork lock, as posix_spawn
 * (spawn.c).  Its pipe comes from pipe2(O_CLOEXEC) inside libc, and "e"
 * keeps the flag on this process's end.
 */
WRAPPER_HELPER FILE *popen_with(const char *call,
				FILE *(*real)(const char *, const char *),
				const char *command, const char *mode,
				bool knows_e)
{
	char buf[MODE_MAX];
	struct handoff_kept kept;
	struct fdreq rq;
	FILE *f;

	char *argv[] = { "sh", "-c", (char *)command, NULL };

	stdio_begin(call, &rq, &spec_popen, NULL, &mode, knows_e ? buf : NULL,
		    __builtin_return_address(0));
	forklock_enter(FORKLOCK_SPAWN);
	exec_prepare(argv, environ, "/bin/sh", HANDOFF_AS_SPAWNER,
		     policy_word(), &kept);
	f = real(command, mode);
	exec_undo(&kept);
	forklock_exit();
	return stdio_end(&rq, f);
}

CLOEXEC_EXPORT FILE *popen(const char *command, const char *mode)
{
	return popen_with(__func__, REAL(popen), command, mode, true);
}

/* popen@GLIBC_2.0: glibc 2.0's FILE and no "e", as fopen@GLIBC_2.0. */
#define POPEN_COMPAT(sym, tag, ver)                                            \
	REAL_SLOT_VERSION(sym, tag, ver, no_popen);                            \
	COMPAT_EXPORT(sym, tag, ver) FILE *sym##_##tag(const char *command,    \
						       const char *mode)       \
	{                                                                      \
		return popen_with(#sym, REAL_VERSION(sym, tag), command,       \
				  mode, false);                                \
	}
#ifdef COMPAT_popen
COMPAT_popen(POPEN_COMPAT)
#endif

/*
 * glibc's tmpfile(), with O_CLOEXEC: an unnamed O_TMPFILE in P_tmpdir, or
 * else a named one unlinked at once.
 */
static FILE *tmpfile_cloexec(FILE *(*fdopen_fn)(int, const char *))
{
	char name[] = P_tmpdir "/tmpfXXXXXX";
	int saved_errno = errno;
	FILE *f;
	int fd, err;

	fd = REAL(open)(P_tmpdir, O_RDWR | O_TMPFILE | O_EXCL | O_CLOEXEC,
			0600);
	if (fd < 0) {
		fd = REAL(mkostemp)(name, O_CLOEXEC);
		if (fd < 0)
			return NULL;
		unlink(name);
	}
	f = fdopen_fn(fd, "w+b");
	if (!f) {
		err = errno;
		close(fd);
		errno = err;
		return NULL;
	}
	errno = saved_errno;
	return f;
}

WRAPPER_HELPER FILE *tmpfile_with(const char *call, FILE *(*real)(void),
				  FILE *(*fdopen_fn)(int, const char *))
{
	struct fdreq rq;

	if (fdreq_begin_as(&rq, &spec_stdio, 0, -1, call) == FDREQ_NATIVE)
		return stdio_end(&rq, tmpfile_cloexec(fdopen_fn));
	return stdio_end(&rq, real());
}

CLOEXEC_EXPORT FILE *tmpfile(void)
{
	return tmpfile_with(__func__, REAL(tmpfile), fdopen);
}

CLOEXEC_EXPORT FILE *tmpfile64(void)
{
	return tmpfile_with(__func__, REAL(tmpfile64), fdopen);
}

/*
 * tmpfile@GLIBC_2.0: glibc 2.0's FILE, as fopen@GLIBC_2.0; done again, its
 * FILE comes from fdopen of the same version (the default one where libc
 * has none).
 */
static __attribute__((unused)) FILE *default_fdopen(int fd,
						     const char *mode)
{
	return fdopen(fd, mode);
}

#define TMPFILE_COMPAT(sym, tag, ver)                                          \
	REAL_SLOT_VERSION(sym, tag, ver, no_tmpfile);                          \
	REAL_SLOT_VERSION(fdopen, sym##_##tag, ver, default_fdopen);           \
	COMPAT_EXPORT(sym, tag, ver) FILE *sym##_##tag(void)                   \
	{                                                                      \
		return tmpfile_with(#sym, REAL_VERSION(sym, tag),              \
				    REAL_VERSION(fdopen, sym##_##tag));        \
	}
#ifdef COMPAT_tmpfile
COMPAT_tmpfile(TMPFILE_COMPAT)
#endif
#ifdef COMPAT_tmpfile64
COMPAT_tmpfile64(TMPFILE_COMPAT)
#endif

CLOEXEC_EXPORT int mkstemp(char *tmpl)
{
	struct fdreq rq;

	if (fdreq_begin(&rq, &spec_stdio, 0, -1) == FDREQ_NATIVE)
		return fdreq_end(&rq, REAL(mkostemp)(tmpl, fdreq_flags(&rq)));
	return fdreq_end(&rq, REAL(mkstemp)(tmpl));
}

CLOEXEC_EXPORT int mkstemp64(char *tmpl)
{
	struct fdreq rq;

	if (fdreq_begin(&rq, &spec_stdio, 0, -1) == FDREQ_NATIVE)
		return fdreq_end(&rq,
				 REAL(mkostemp64)(tmpl, fdreq_flags(&rq)));
	return fdreq_end(&rq, REAL(mkstemp64)(tmpl));
}

CLOEXEC_EXPORT int mkostemp(char *tmpl, int flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_stdio, flags, -1);
	return fdreq_end(&rq, REAL(mkostemp)(tmpl, fdreq_flags(&rq)));
}

CLOEXEC_EXPORT int mkostemp64(char *tmpl, int flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_stdio, flags, -1);
	return fdreq_end(&rq, REAL(mkostemp64)(tmpl, fdreq_flags(&rq)));
}

CLOEXEC_EXPORT int mkstemps(char *tmpl, int suffixlen)
{
	struct fdreq rq;

	if (fdreq_begin(&rq, &spec_stdio, 0, -1) == FDREQ_NATIVE)
		return fdreq_end(&rq, REAL(mkostemps)(tmpl, suffixlen,
						      fdreq_flags(&rq)));
	return fdreq_end(&rq, REAL(mkstemps)(tmpl, suffixlen));
}

CLOEXEC_EXPORT int mkstemps64(char *tmpl, int suffixlen)
{
	struct fdreq rq;

	if (fdreq_begin(&rq, &spec_stdio, 0, -1) == FDREQ_NATIVE)
		return fdreq_end(&rq, REAL(mkostemps64)(tmpl, suffixlen,
							fdreq_flags(&rq)));
	return fdreq_end(&rq, REAL(mkstemps64)(tmpl, suffixlen));
}

CLOEXEC_EXPORT int mkostemps(char *tmpl, int suffixlen, int flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_stdio, flags, -1);
	return fdreq_end(&rq,
			 REAL(mkostemps)(tmpl, suffixlen, fdreq_flags(&rq)));
}

CLOEXEC_EXPORT int mkostemps64(char *tmpl, int suffixlen, int flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_stdio, flags, -1);
	return fdreq_end(&rq, REAL(mkostemps64)(tmpl, suffixlen,
						fdreq_flags(&rq)));
}
