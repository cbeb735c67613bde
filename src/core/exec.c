/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include "exec.h"
#include "fdtable.h"
#include "policy.h"
#include "report.h"
#include "sys.h"

/* The value of NAME=value in envp, or NULL. */
static const char *env_value(char *const envp[], const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, len) && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

static int parse_fd(const char *s, const char **end)
{
	long n = 0;

	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9' && n < 1000000000)
		n = n * 10 + (*s++ - '0');
	*end = s;
	return (int)n;
}

static void keep(int fd, bool vfork_child)
{
	if (fd < 3 || sys_fcntl(fd, F_SETFD, 0) < 0)
		return;
	if (!vfork_child)
		fdtable_set_deliberate(fd);
}

/*
 * systemd's socket activation: fds 3 .. 3 + LISTEN_FDS - 1, for the
 * process LISTEN_PID names, which is this one when the activator forked
 * and set it before exec.  A stale pair inherited by some other process
 * names another pid and is left alone.
 */
static void keep_listen_fds(char *const envp[], bool vfork_child)
{
	const char *fds = env_value(envp, "LISTEN_FDS");
	const char *pid = env_value(envp, "LISTEN_PID");
	const char *end;
	long self = sys_call(SYS_getpid, 0, 0, 0, 0, 0);
	int n, i;

	if (!fds || (n = parse_fd(fds, &end)) <= 0 || *end || !pid)
		return;
	if (parse_fd(pid, &end) != self || *end)
		return;
	for (i = 0; i < n && i < 4096; i++)
		keep(3 + i, vfork_child);
}

static bool is_pipe(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

/*
 * make's jobserver: the last --jobserver-auth=R,W (or -fds) wins.
 * MAKEFLAGS reaches every descendant of make, long after the numbers stop
 * meaning anything: the pair counts only while it is a pair of pipes this
 * process was given, which it then passes on.  (make itself clears the
 * flag on its own jobserver pipe before a recursive recipe.)
 */
static void keep_jobserver(char *const envp[], bool vfork_child)
{
	static const char *const options[] = { "--jobserver-auth=",
					       "--jobserver-fds=" };
	const char *flags = env_value(envp, "MAKEFLAGS"), *p, *end;
	int r = -1, w = -1, i;

	for (i = 0; flags && i < 2; i++) {
		for (p = flags; (p = strstr(p, options[i])); p = end) {
			p += strlen(options[i]);
			end = p;
			r = parse_fd(p, &end);
			if (r >= 0 && *end == ',')
				w = parse_fd(end + 1, &end);
		}
	}
	if (r < 3 || w < 3 || !is_pipe(r) || !is_pipe(w) ||
	    !(fdtable_get(r) & fdtable_get(w) & FDT_INHERITED))
		return;
	keep(r, vfork_child);
	keep(w, vfork_child);
}

/* An fd named in the arguments is one the program is meant to open. */
static void keep_named_fds(char *const argv[], bool vfork_child)
{
	static const char *const prefixes[] = { "/dev/fd/",
						"/proc/self/fd/" };
	const char *end;
	int i, fd;

	for (; argv && *argv; argv++)
		for (i = 0; i < 2; i++)
			if (!strncmp(*argv, prefixes[i], strlen(prefixes[i]))) {
				fd = parse_fd(*argv + strlen(prefixes[i]),
					      &end);
				if (fd >= 0 && !*end)
					keep(fd, vfork_child);
			}
}

void exec_prepare(char *const argv[], char *const envp[], const char *path,
		  bool vfork_child)
{
	uint32_t word = policy_word();

	if (word & POLICY_SWEEP)
		fdtable_sweep(word & POLICY_KEEPS);
	keep_listen_fds(envp, vfork_child);
	keep_jobserver(envp, vfork_child);
	keep_named_fds(argv, vfork_child);
	if (word & POLICY_REPORT)
		report_inherited(path, argv);
}

size_t exec_env_slots(char *const envp[])
{
	size_t n = 1;

	while (envp && envp[n - 1])
		n++;
	return n;
}

/* An LD_PRELOAD entry that names this library, by path or by name. */
static bool is_self(const char *entry, size_t n)
{
	static const char name[] = "libcloexec.so";
	const char *base = entry + n;

	while (base > entry && base[-1] != '/')
		base--;
	return (size_t)(entry + n - base) >= sizeof(name) - 1 &&
	       !memcmp(base, name, sizeof(name) - 1);
}

/* LD_PRELOAD=... without this library, into out; false if none is left. */
static bool strip_preload(const char *value, char *out, size_t size)
{
	const char *p = value, *end;
	size_t len = 0, n;

	while (*p) {
		end = p + strcspn(p, ": ");
		n = end - p;
		if (n && !is_self(p, n) && len + n + 2 < size) {
			if (len)
				out[len++] = ':';
			memcpy(out + len, p, n);
			len += n;
		}
		p = *end ? end + 1 : end;
	}
	out[len] = '\0';
	return len > 0;
}

char *const *exec_env(char *const envp[], char **slots, char *preload)
{
	size_t n = 0;

	if (!(policy_word() & POLICY_SCOPE_PROCESS) || !envp)
		return envp;
	for (; *envp; envp++) {
		if (!strncmp(*envp, POLICY_ENV "=", sizeof(POLICY_ENV)) ||
		    !strncmp(*envp, POLICY_FILE_ENV "=",
			     sizeof(POLICY_FILE_ENV)))
			continue;
		if (!strncmp(*envp, "LD_PRELOAD=", 11)) {
			memcpy(preload, "LD_PRELOAD=", 11);
			if (!strip_preload(*envp + 11, preload + 11,
					   EXEC_PRELOAD_MAX - 11))
				continue;
			slots[n++] = preload;
			continue;
		}
		slots[n++] = *envp;
	}
	slots[n] = NULL;
	return slots;
}
