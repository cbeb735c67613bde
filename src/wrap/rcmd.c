/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The BSD remote-command calls that open sockets inside libc: rresvport,
 * rcmd and rexec, with their _af variants.  No flag can reach those
 * sockets, so they are marked afterwards, always inside the fork lock
 * (spec_rcmd's capability is never native).  rcmd and rexec block on the
 * network while they hold it: forks wait for them.  Programs that still
 * use them are rsh-era tools, and do not fork from other threads.
 */
#include "config.h"

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/export.h"
#include "core/real.h"
#include "specs.h"

#if HAVE_RCMD

static int no_rresvport_af(int *port, sa_family_t af)
{
	return fdreq_fail(ENOSYS);
}

static int no_rresvport(int *port)
{
	return fdreq_fail(ENOSYS);
}

static int no_rcmd_af(char **ahost, unsigned short port, const char *locuser,
		      const char *remuser, const char *cmd, int *fd2p,
		      sa_family_t af)
{
	return fdreq_fail(ENOSYS);
}

static int no_rcmd(char **ahost, unsigned short port, const char *locuser,
		   const char *remuser, const char *cmd, int *fd2p)
{
	return fdreq_fail(ENOSYS);
}

static int no_rexec_af(char **ahost, int port, const char *user,
		       const char *passwd, const char *cmd, int *fd2p,
		       sa_family_t af)
{
	return fdreq_fail(ENOSYS);
}

static int no_rexec(char **ahost, int port, const char *user,
		    const char *passwd, const char *cmd, int *fd2p)
{
	return fdreq_fail(ENOSYS);
}

REAL_SLOT(rresvport, no_rresvport);
REAL_SLOT(rresvport_af, no_rresvport_af);
REAL_SLOT(rcmd, no_rcmd);
REAL_SLOT(rcmd_af, no_rcmd_af);
REAL_SLOT(rexec, no_rexec);
REAL_SLOT(rexec_af, no_rexec_af);

/* The connection and, if asked for, the stderr channel in *fd2p. */
static int rcmd_end(struct fdreq *rq, int fd, int *fd2p)
{
	if (fd >= 0 && fd2p)
		fdreq_mark(rq, *fd2p);
	return fdreq_end(rq, fd);
}

CLOEXEC_EXPORT int rresvport(int *port)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_rcmd, 0, -1);
	return fdreq_end(&rq, REAL(rresvport)(port));
}

CLOEXEC_EXPORT int rresvport_af(int *port, sa_family_t af)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_rcmd, 0, -1);
	return fdreq_end(&rq, REAL(rresvport_af)(port, af));
}

CLOEXEC_EXPORT int rcmd(char **ahost, unsigned short port, const char *locuser,
			const char *remuser, const char *cmd, int *fd2p)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_rcmd, 0, -1);
	return rcmd_end(&rq,
			REAL(rcmd)(ahost, port, locuser, remuser, cmd, fd2p),
			fd2p);
}

CLOEXEC_EXPORT int rcmd_af(char **ahost, unsigned short port,
			   const char *locuser, const char *remuser,
			   const char *cmd, int *fd2p, sa_family_t af)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_rcmd, 0, -1);
	return rcmd_end(&rq,
			REAL(rcmd_af)(ahost, port, locuser, remuser, cmd, fd2p,
				      af),
			fd2p);
}

CLOEXEC_EXPORT int rexec(char **ahost, int port, const char *user,
			 const char *passwd, const char *cmd, int *fd2p)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_rcmd, 0, -1);
	return rcmd_end(&rq, REAL(rexec)(ahost, port, user, passwd, cmd, fd2p),
			fd2p);
}

CLOEXEC_EXPORT int rexec_af(char **ahost, int port, const char *user,
			    const char *passwd, const char *cmd, int *fd2p,
			    sa_family_t af)
{
	struct fdreq rq;

	fdreq_begin(&rq, &spec_rcmd, 0, -1);
	return rcmd_end(&rq,
			REAL(rexec_af)(ahost, port, user, passwd, cmd, fd2p,
				       af),
			fd2p);
}

#endif /* HAVE_RCMD */
