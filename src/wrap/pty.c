/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Terminals: posix_openpt, getpt, openpty, forkpty.
 *
 * glibc's openpty() opens the master and the slave through internal
 * aliases, both inheritable, so it is done again here with the flag on
 * both, atomically: the master with O_CLOEXEC, the slave with
 * ioctl(TIOCGPTPEER) (Linux 4.13) or, before that, open() of its name.
 * forkpty() is that openpty(), fork() and login_tty(), as in glibc.
 */
#include "config.h"

#include <limits.h>
#include <pty.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <utmp.h>

#include "core/export.h"
#include "core/real.h"
#include "core/shell.h"
#include "core/sys.h"
#include "specs.h"
#include "symvers.h"

static int raw_posix_openpt(int flags)
{
	return sys_result(sys_openat(AT_FDCWD, "/dev/ptmx", flags, 0));
}

static __attribute__((unused)) int raw_getpt(void)
{
	return raw_posix_openpt(O_RDWR | O_NOCTTY);
}

static int no_openpty(int *master, int *slave, char *name,
		       const struct termios *termp,
		       const struct winsize *winp)
{
	return fdreq_fail(ENOSYS);
}

/* open() here opens a terminal that exists: it never creates, no mode. */
static int raw_open_existing(const char *path, int flags, ...)
{
	return sys_result(sys_openat(AT_FDCWD, path, flags, 0));
}

REAL_SLOT(posix_openpt, raw_posix_openpt);
#if HAVE_GETPT
REAL_SLOT(getpt, raw_getpt);
#endif
REAL_SLOT(openpty, no_openpty);
REAL_SLOT(open, raw_open_existing);

/*
 * A process that makes a terminal runs sessions on it (tmux, screen,
 * script): not a shell, whatever /etc/shells lists (shell.h).
 */
static int terminal_made(int fd)
{
	if (fd >= 0)
		shell_note_terminal();
	return fd;
}

CLOEXEC_EXPORT int posix_openpt(int flags)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_pty, flags, -1);
	return terminal_made(
		fdreq_end(&rq, REAL(posix_openpt)(fdreq_flags(&rq))));
}

/* glibc only. */
#if HAVE_GETPT
CLOEXEC_EXPORT int getpt(void)
{
	struct fdreq rq;

	if (fdreq_begin(&rq, &spec_pty, 0, -1) == FDREQ_NATIVE)
		return terminal_made(
			fdreq_end(&rq, REAL(posix_openpt)(O_RDWR | O_NOCTTY |
							  fdreq_flags(&rq))));
	return terminal_made(fdreq_end(&rq, REAL(getpt)()));
}
#endif

/* The slave of an unlocked master, opened with flags (O_CLOEXEC or 0). */
static int open_slave(int master, int flags, char *name, size_t size)
{
	int fd = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | flags);

	if (fd >= 0)
		return fd;
	if (ptsname_r(master, name, size))
		return -1;
	return REAL(open)(name, O_RDWR | O_NOCTTY | flags);
}

static int openpty_with(int flags, int *amaster, int *aslave, char *name,
			const struct termios *termp,
			const struct winsize *winp)
{
	char buf[PATH_MAX] = "";
	int master, slave, err;

	master = REAL(posix_openpt)(O_RDWR | O_NOCTTY | flags);
	if (master < 0)
		return -1;
	if (grantpt(master) || unlockpt(master))
		goto fail_master;
	slave = open_slave(master, flags, buf, sizeof(buf));
	if (slave < 0)
		goto fail_master;
	/*
	 * As glibc's: the terminal's settings are set, but their failure (a
	 * bad winsize pointer is TIOCSWINSZ's EFAULT) is not the call's; its
	 * errno stays, as glibc's does.
	 */
	if (termp)
		tcsetattr(slave, TCSAFLUSH, termp);
	if (winp)
		ioctl(slave, TIOCSWINSZ, winp);
	if (name) {
		if (!*buf && ptsname_r(master, buf, sizeof(buf)))
			goto fail_slave;
		strcpy(name, buf);
	}
	*amaster = master;
	*aslave = slave;
	return 0;

fail_slave:
	err = errno;
	close(slave);
	errno = err;
fail_master:
	err = errno;
	close(master);
	errno = err;
	return -1;
}

WRAPPER_HELPER int openpty_impl(const char *call, __typeof__(&openpty) real,
				int *amaster, int *aslave, char *name,
				const struct termios *termp,
				const struct winsize *winp)
{
	struct fdreq rq;
	int ret;

	if (fdreq_begin_as(&rq, &spec_pty, 0, -1, call) == FDREQ_NATIVE)
		ret = openpty_with(fdreq_flags(&rq), amaster, aslave, name,
				   termp, winp);
	else
		ret = real(amaster, aslave, name, termp, winp);
	if (ret == 0) {
		fdreq_mark(&rq, *amaster);
		fdreq_mark(&rq, *aslave);
		terminal_made(*amaster);
	}
	fdreq_done(&rq);
	return ret;
}

CLOEXEC_EXPORT int openpty(int *amaster, int *aslave, char *name,
			   const struct termios *termp,
			   const struct winsize *winp)
{
	return openpty_impl(__func__, REAL(openpty), amaster, aslave, name,
			    termp, winp);
}

WRAPPER_HELPER pid_t forkpty_impl(const char *call, int *amaster, char *name,
				  const struct termios *termp,
				  const struct winsize *winp)
{
	int master, slave;
	pid_t pid;

	if (openpty_impl(call, REAL(openpty), &master, &slave, name, termp,
			 winp))
		return -1;
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(master);
		close(slave);
		errno = err;
		return -1;
	}
	if (pid == 0) {
		close(master);
		if (login_tty(slave))
			_exit(1);
		return 0;
	}
	*amaster = master;
	close(slave);
	return pid;
}

CLOEXEC_EXPORT pid_t forkpty(int *amaster, char *name,
			     const struct termios *termp,
			     const struct winsize *winp)
{
	return forkpty_impl(__func__, amaster, name, termp, winp);
}

/*
 * openpty@GLIBC_2.0 and forkpty@GLIBC_2.0 (the first version of each
 * architecture): libutil's, which programs linked before glibc 2.34 are
 * bound to; libc keeps them since.  forkpty is done again here: its
 * older version is the same body.
 */
#define OPENPTY_COMPAT(sym, tag, ver)                                          \
	REAL_SLOT_VERSION(sym, tag, ver, no_openpty);                         \
	COMPAT_EXPORT(sym, tag, ver) int sym##_##tag(                          \
		int *amaster, int *aslave, char *name,                         \
		const struct termios *termp, const struct winsize *winp)       \
	{                                                                      \
		return openpty_impl(#sym, REAL_VERSION(sym, tag), amaster,     \
				    aslave, name, termp, winp);                \
	}
#define FORKPTY_COMPAT(sym, tag, ver)                                          \
	COMPAT_EXPORT(sym, tag, ver) pid_t sym##_##tag(                        \
		int *amaster, char *name, const struct termios *termp,         \
		const struct winsize *winp)                                    \
	{                                                                      \
		return forkpty_impl(#sym, amaster, name, termp, winp);         \
	}
#ifdef COMPAT_openpty
COMPAT_openpty(OPENPTY_COMPAT)
#endif
#ifdef COMPAT_forkpty
COMPAT_forkpty(FORKPTY_COMPAT)
#endif
