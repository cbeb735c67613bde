/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One line of the library's (src/core/report.h): its fields, its command
 * line, and the fd it names described as a person reads it.
 */
#include "config.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit_line.h"

/*
 * The value of "name" in one of the library's lines: they are flat
 * objects of strings, numbers, true, false and null, written by report.c.
 * A string is unescaped into buf.  False if the field is absent or null.
 */
bool line_field(const char *line, const char *name, char *buf, size_t size)
{
	char key[64];
	const char *p;
	size_t n = 0;

	snprintf(key, sizeof(key), "\"%s\":", name);
	p = strstr(line, key);
	if (!p || !size)
		return false;
	p += strlen(key);
	if (!strncmp(p, "null", 4))
		return false;
	if (*p != '"') {
		while (*p && *p != ',' && *p != '}' && n + 1 < size)
			buf[n++] = *p++;
		buf[n] = '\0';
		return true;
	}
	for (p++; *p && *p != '"' && n + 1 < size; p++) {
		if (*p == '\\' && p[1] == 'u' && strlen(p) >= 6) {
			buf[n++] = (char)strtol((char[3]){ p[4], p[5], 0 },
						NULL, 16);
			p += 5;
		} else {
			if (*p == '\\' && p[1])
				p++;
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
	return true;
}

bool audit_resolve;

/*
 * A C++ name as people read it: libstdc++'s __cxa_demangle, found at run
 * time, so that neither the library nor cloexec links libstdc++ (a C
 * program's audit needs no C++ runtime).  name+0x42 keeps its offset.
 * Into buf; the name as it is where it is not a C++ one.
 */
static const char *demangle(const char *symbol, char *buf, size_t size)
{
	typedef char *demangle_fn(const char *, char *, size_t *, int *);
	static demangle_fn *fn;
	static bool tried;
	const char *plus = strrchr(symbol, '+');
	size_t n = plus ? (size_t)(plus - symbol) : strlen(symbol);
	char name[256];
	char *out;
	int status = -1;

	if (strncmp(symbol, "_Z", 2) || n >= sizeof(name))
		return symbol;
	if (!tried) {
		void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

		tried = true;
		if (lib)
			fn = (demangle_fn *)dlsym(lib, "__cxa_demangle");
	}
	if (!fn)
		return symbol;
	memcpy(name, symbol, n);
	name[n] = '\0';
	out = fn(name, NULL, NULL, &status);
	if (!out || status)
		return symbol;
	snprintf(buf, size, "%s%s", out, plus ? plus : "");
	free(out);
	return buf;
}

/* addr2line's answers, once per object and offset. */
struct resolved {
	char *key, *text;
	struct resolved *next;
};

/*
 * OBJECT+OFFSET as FILE:LINE, by addr2line (binutils), where the object
 * has debug info; else how to get there, in a few words.  Run without
 * the library and the audit's variables: it is not part of the audit.
 */
static const char *resolve(const char *object, const char *offset)
{
	static struct resolved *cache;
	static int have_addr2line = -1;
	extern char **environ;
	char key[600], text[700], out[512] = "";
	char *argv[] = { "addr2line", "-e", (char *)object, (char *)offset,
			 NULL };
	char **env;
	struct resolved *r;
	posix_spawn_file_actions_t fa;
	size_t n = 0, i;
	int pipefd[2], status;
	ssize_t got;
	pid_t pid;

	snprintf(key, sizeof(key), "%s+%s", object, offset);
	for (r = cache; r; r = r->next)
		if (!strcmp(r->key, key))
			return r->text;
	for (env = environ; *env; env++)
		n++;
	env = calloc(n + 1, sizeof(*env));
	if (!env)
		abort();
	for (i = n = 0; environ[i]; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) &&
		    strncmp(environ[i], "CLOEXEC_", 8))
			env[n++] = environ[i];
	if (have_addr2line && pipe2(pipefd, O_CLOEXEC) == 0) {
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY,
						 0);
		if (posix_spawnp(&pid, "addr2line", &fa, NULL, argv, env)) {
			have_addr2line = 0;
			pid = -1;
		}
		posix_spawn_file_actions_destroy(&fa);
		close(pipefd[1]);
		n = 0;
		while (pid > 0 && n + 1 < sizeof(out) &&
		       (got = read(pipefd[0], out + n, sizeof(out) - 1 - n)) >
			       0)
			n += (size_t)got;
		out[n] = '\0';
		close(pipefd[0]);
		if (pid > 0 && waitpid(pid, &status, 0) == pid &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 127)
			have_addr2line = 0;
		else if (pid > 0)
			have_addr2line = 1;
	}
	free(env);
	out[strcspn(out, "\n")] = '\0';
	/* " (discriminator 2)" says nothing to a reader. */
	out[strcspn(out, " ")] = '\0';
	if (out[0] && strncmp(out, "??", 2) && !strstr(out, ":0") &&
	    !strstr(out, ":?"))
		snprintf(text, sizeof(text), "%s (%s+%s)", out, object,
			 offset);
	else if (have_addr2line)
		snprintf(text, sizeof(text),
			 "%s+%s (no debug info: install its -dbgsym package "
			 "or build it with -g, then addr2line -e %s %s)",
			 object, offset, object, offset);
	else
		snprintf(text, sizeof(text),
			 "%s+%s (for file:line, install binutils and run "
			 "addr2line -e %s %s)",
			 object, offset, object, offset);
	r = malloc(sizeof(*r));
	if (!r || !(r->key = strdup(key)) || !(r->text = strdup(text)))
		abort();
	r->next = cache;
	cache = r;
	return r->text;
}

/*
 * The "argv" array of a line as a person reads a command line, each
 * word quoted where it has to be, cut to about max bytes with "...".
 */
void line_argv(const char *line, char *buf, size_t size, size_t max)
{
	const char *p = strstr(line, "\"argv\":[");
	char word[512];
	size_t n = 0, w;

	buf[0] = '\0';
	if (!p)
		return;
	for (p += 8; *p == '"';) {
		bool quote;

		for (w = 0, p++; *p && *p != '"'; p++) {
			char c = *p;

			if (*p == '\\' && p[1] == 'u' && strlen(p) >= 6) {
				c = (char)strtol((char[3]){ p[4], p[5], 0 },
						 NULL, 16);
				p += 5;
			} else if (*p == '\\' && p[1]) {
				c = *++p;
			}
			if (w + 1 < sizeof(word))
				word[w++] = c;
		}
		word[w] = '\0';
		if (*p == '"')
			p++;
		if (*p == ',')
			p++;
		quote = !w || word[strspn(word, "abcdefghijklmnopqrstuvwxyz"
						"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
						"0123456789_-./=:,+@%")];
		n += (size_t)snprintf(buf + n, size > n ? size - n : 0,
				      "%s%s%s%s", n ? " " : "",
				      quote ? "\"" : "", word,
				      quote ? "\"" : "");
		if (n >= size)
			break;
	}
	if (strlen(buf) > max)
		strcpy(buf + max - 3, "...");
}

void line_describe(const char *line, char *what, size_t size, char *inode,
		   size_t *inode_at)
{
	char fd[16] = "?", kind[32] = "", target[512] = "", call[64] = "";
	char family[16] = "", socktype[16] = "", local[160] = "";
	char peer[160] = "", symbol[256] = "", object[512] = "";
	char offset[32] = "", reason[128] = "", plain[1024];
	char *open;
	size_t n;

	line_field(line, "fd", fd, sizeof(fd));
	line_field(line, "kind", kind, sizeof(kind));
	line_field(line, "target", target, sizeof(target));
	/*
	 * socket:[123] and pipe:[123]: the inode goes to inode, and out of
	 * the description, which says where it was (*inode_at), so that the
	 * rows that differ only by it are one.
	 */
	inode[0] = '\0';
	*inode_at = 0;
	open = strchr(target, '[');
	if (target[0] != '/' && open && open[1] != ']' &&
	    open[1 + strspn(open + 1, "0123456789")] == ']' &&
	    strspn(open + 1, "0123456789") < 32) {
		snprintf(inode, 32, "%.*s", (int)strspn(open + 1, "0123456789"),
			 open + 1);
		memmove(open + 1, open + 1 + strlen(inode),
			strlen(open + 1 + strlen(inode)) + 1);
		*inode_at = strlen(fd) + strlen(kind) + 6 +
			    (size_t)(open + 1 - target);
	}
	n = (size_t)snprintf(what, size, "fd %s, %s %s", fd, kind, target);
	if (*inode_at >= strlen(what) || what[*inode_at] != ']') {
		inode[0] = '\0';
		*inode_at = 0;
	}
	if (line_field(line, "family", family, sizeof(family))) {
		line_field(line, "socktype", socktype, sizeof(socktype));
		n += (size_t)snprintf(what + n, size > n ? size - n : 0,
				      " (%s %s", family, socktype);
		if (line_field(line, "local", local, sizeof(local)) && *local)
			n += (size_t)snprintf(what + n, size > n ? size - n : 0,
					      " on %s", local);
		if (line_field(line, "peer", peer, sizeof(peer)) && *peer)
			n += (size_t)snprintf(what + n, size > n ? size - n : 0,
					      " to %s", peer);
		n += (size_t)snprintf(what + n, size > n ? size - n : 0, ")");
	}
	if (!line_field(line, "created_by", call, sizeof(call)))
		snprintf(what + n, size > n ? size - n : 0,
			 ", made where the library could not see");
	else if (!strcmp(call, "inherited"))
		snprintf(what + n, size > n ? size - n : 0,
			 ", inherited at start");
	else if (line_field(line, "caller_symbol", symbol, sizeof(symbol)) &&
		 line_field(line, "caller_object", object, sizeof(object)))
		snprintf(what + n, size > n ? size - n : 0,
			 ", made by %s() in %s (%s)", call,
			 demangle(symbol, plain, sizeof(plain)), object);
	else if (line_field(line, "caller_object", object, sizeof(object)) &&
		 line_field(line, "caller_offset", offset, sizeof(offset)) &&
		 audit_resolve)
		snprintf(what + n, size > n ? size - n : 0,
			 ", made by %s() at %s", call,
			 resolve(object, offset));
	else if (line_field(line, "caller_object", object, sizeof(object)) &&
		 line_field(line, "caller_offset", offset, sizeof(offset)))
		snprintf(what + n, size > n ? size - n : 0,
			 ", made by %s() at %s+%s", call, object, offset);
	else
		snprintf(what + n, size > n ? size - n : 0, ", made by %s()",
			 call);
	n = strlen(what);
	/* "inherited at start" says it already. */
	if (strcmp(call, "inherited") &&
	    line_field(line, "reason", reason, sizeof(reason)))
		snprintf(what + n, size > n ? size - n : 0, ": %s", reason);
}

long line_number(const char *line, const char *name)
{
	char buf[32];

	return line_field(line, name, buf, sizeof(buf)) ? strtol(buf, NULL, 10)
							: -1;
}
