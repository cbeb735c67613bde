/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * minish: a stand-in for /bin/sh, echo and printenv, built with the C
 * library of this build.
 *
 * A library built for musl cannot be preloaded into the system's glibc
 * programs (their loader refuses it, and they do not start), so the tests
 * of a musl build run programs of their own wherever the library follows
 * a program into its children: this one stands in for the shell that
 * system() and popen() start (bind-mounted on /bin/sh in a private mount
 * namespace, tests/cmd/lib.sh) and for the small commands the tests run
 * under `cloexec`.  Like a shell running a simple command, it execs the
 * command: fds it did not create pass through to it untouched.
 *
 *	minish -c 'WORD...' [ARG0 [ARG...]]	words split as sh does for
 *						quotes; no expansions
 *	minish WORD...
 *
 * Builtins: exit [N], echo [WORD...], printenv NAME, : (true).  Anything
 * else is run with execvp; 127 if it is not found, 126 if it cannot run.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_WORDS 256

/* Split line into words in place: '...', "..." and backslash quote. */
static int split(char *line, char **words)
{
	char *in = line, *out = line;
	int n = 0;

	for (;;) {
		char quote = 0;

		while (*in == ' ' || *in == '\t' || *in == '\n')
			in++;
		if (!*in)
			break;
		if (n == MAX_WORDS - 1) {
			fputs("minish: too many words\n", stderr);
			exit(2);
		}
		words[n++] = out;
		for (; *in; in++) {
			if (quote) {
				if (*in == quote)
					quote = 0;
				else if (quote == '"' && *in == '\\' && in[1])
					*out++ = *++in;
				else
					*out++ = *in;
			} else if (*in == '\'' || *in == '"') {
				quote = *in;
			} else if (*in == '\\' && in[1]) {
				*out++ = *++in;
			} else if (*in == ' ' || *in == '\t' || *in == '\n') {
				break;
			} else {
				*out++ = *in;
			}
		}
		if (quote) {
			fputs("minish: unterminated quote\n", stderr);
			exit(2);
		}
		if (*in)
			in++;
		*out++ = '\0';
	}
	words[n] = NULL;
	return n;
}

static int run(char **words)
{
	int i;

	if (!words[0] || !strcmp(words[0], ":") || !strcmp(words[0], "true"))
		return 0;
	if (!strcmp(words[0], "exit"))
		return words[1] ? atoi(words[1]) : 0;
	if (!strcmp(words[0], "echo")) {
		for (i = 1; words[i]; i++)
			printf("%s%s", i > 1 ? " " : "", words[i]);
		printf("\n");
		return fflush(stdout) ? 1 : 0;
	}
	if (!strcmp(words[0], "printenv")) {
		const char *v = words[1] ? getenv(words[1]) : NULL;

		if (!v)
			return 1;
		printf("%s\n", v);
		return fflush(stdout) ? 1 : 0;
	}
	execvp(words[0], words);
	fprintf(stderr, "minish: %s: %s\n", words[0], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}

int main(int argc, char **argv)
{
	char *words[MAX_WORDS];

	if (argc > 2 && !strcmp(argv[1], "-c")) {
		/* system() passes "--" before the command, as sh allows. */
		int i = argc > 3 && !strcmp(argv[2], "--") ? 3 : 2;

		split(argv[i], words);
		return run(words);
	}
	if (argc < 2) {
		fputs("usage: minish -c LINE | minish WORD...\n", stderr);
		return 2;
	}
	return run(argv + 1);
}
