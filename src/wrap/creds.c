/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The calls that change a process's credentials: the set*id family,
 * setgroups and capset.  Each is passed through, then reported
 * (core/creds.h): from then on, no flag the library forced before may be
 * cleared by an inheritance rule.  A privilege drop followed by an exec
 * in place hands on only what the program itself left inheritable.
 *
 * Reported whatever the call returned: a failed call changed nothing,
 * and forgetting is the safe side (setfsuid says nothing of success).
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <unistd.h>
#include <sys/fsuid.h>

#include "core/creds.h"
#include "core/export.h"
#include "core/real.h"
#include "core/sys.h"

/* 32-bit x86 and arm: the 16-bit calls kept the plain names. */
#ifdef SYS_setuid32
#define ID_CALL(name) SYS_##name##32
#else
#define ID_CALL(name) SYS_##name
#endif

/*
 * WRAP_CRED(type, name, (params), (args), raw system call): the raw twin
 * serves only while dlsym() is being resolved (core/real.h); it changes
 * the calling thread alone, as the system call does.
 */
#define WRAP_CRED(type, name, params, args, nr, ...)                \
	static type raw_##name params                               \
	{                                                           \
		return (type)sys_result(sys_call(nr, __VA_ARGS__)); \
	}                                                           \
	REAL_SLOT(name, raw_##name);                                \
	CLOEXEC_EXPORT type name params                             \
	{                                                           \
		int saved;                                          \
		type ret = REAL(name) args;                         \
                                                                    \
		saved = errno;                                      \
		creds_changed();                                    \
		errno = saved;                                      \
		return ret;                                         \
	}

WRAP_CRED(int, setuid, (uid_t u), (u), ID_CALL(setuid), u, 0, 0, 0, 0)
WRAP_CRED(int, setgid, (gid_t g), (g), ID_CALL(setgid), g, 0, 0, 0, 0)
WRAP_CRED(int, seteuid, (uid_t u), (u), ID_CALL(setresuid), -1, u, -1, 0, 0)
WRAP_CRED(int, setegid, (gid_t g), (g), ID_CALL(setresgid), -1, g, -1, 0, 0)
WRAP_CRED(int, setreuid, (uid_t r, uid_t e), (r, e), ID_CALL(setreuid), r, e, 0,
	  0, 0)
WRAP_CRED(int, setregid, (gid_t r, gid_t e), (r, e), ID_CALL(setregid), r, e, 0,
	  0, 0)
WRAP_CRED(int, setresuid, (uid_t r, uid_t e, uid_t s), (r, e, s),
	  ID_CALL(setresuid), r, e, s, 0, 0)
WRAP_CRED(int, setresgid, (gid_t r, gid_t e, gid_t s), (r, e, s),
	  ID_CALL(setresgid), r, e, s, 0, 0)
WRAP_CRED(int, setgroups, (size_t n, const gid_t *list), (n, list),
	  ID_CALL(setgroups), n, list, 0, 0, 0)
WRAP_CRED(int, setfsuid, (uid_t u), (u), ID_CALL(setfsuid), u, 0, 0, 0, 0)
WRAP_CRED(int, setfsgid, (gid_t g), (g), ID_CALL(setfsgid), g, 0, 0, 0, 0)

#if HAVE_CAPSET
/* Declared by libcap's header, which the build does not need. */
int capset(void *header, const void *data);
WRAP_CRED(int, capset, (void *header, const void *data), (header, data),
	  SYS_capset, header, data, 0, 0, 0)
#endif
