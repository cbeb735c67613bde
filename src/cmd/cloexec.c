/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec: run a program with libcloexec preloaded.
 *
 * A C program rather than a script, because the images this is for often
 * have no shell.  It only edits the environment and execs: the exit status
 * is the program's own.
 *
 * Here, the options and the environment.  --audit and --check run the
 * program in run.c, the summary is summarize.c's, --list list.c's; each
 * of them stands on status.h, and none calls back into this file.
 */
#include "config.h"
#include "paths.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <unistd.h>

#include "audit.h"
#include "inspect.h"
#include "list.h"
#include "preload.h"
#include "run.h"
#include "scan.h"
#include "status.h"
#include "summarize.h"

#include "core/diag.h"
#include "core/policy.h"

enum audit_mode { AUDIT_NONE, AUDIT_SUMMARY, AUDIT_CHECK };

#define SONAME "libcloexec.so.0"

static const char usage_text[] =
	"Usage: cloexec [OPTION]... [--] PROGRAM [ARG]...\n"
	"Run PROGRAM with libcloexec preloaded: the file descriptors it and "
	"its\nchildren create get close-on-exec, and stop leaking into the "
	"programs\nthey run.\n"
	"\n"
	"  -o, --off              force nothing; only decode and emulate the\n"
	"                         flags that programs ask for themselves\n"
	"  -c, --classes=LIST     force close-on-exec on these classes only:\n"
	"                         socket, accept, pipe, file, stdio, dup, "
	"event,\n"
	"                         pty, message, all, none; -NAME removes one\n"
	"  -p, --policy=POLICY    add POLICY (see libcloexec(7)) to "
	"CLOEXEC_POLICY\n"
	"  -L, --library=PATH     preload this library (an absolute path)\n"
	"  -a, --audit            change nothing: run PROGRAM and its whole tree\n"
	"                         in audit mode, then summarize what each "
	"program\n"
	"                         handed to the programs it started\n"
	"  -C, --check            as --audit, and exit 120 if anything leaked\n"
	"                         or is unexplained (from a program not audited)\n"
	"      --leak-status=N    with --check, exit N instead of 120 on a leak\n"
	"  -v, --verbose          with --audit, --check or --summarize, list\n"
	"                         the fds passed on purpose too, not only leaks\n"
	"      --log=FILE         with --audit or --check, keep the audit lines\n"
	"                         (JSON, one a line) in FILE, emptied first\n"
	"      --baseline=FILE    the leaks FILE lists are accepted: --check\n"
	"                         fails only on others (doc/audit.md)\n"
	"      --write-baseline=FILE  write the leaks found to FILE, as a\n"
	"                         baseline that accepts them all\n"
	"      --accept-unaudited=PATTERN  a program that runs without the\n"
	"                         library (static, setuid) and matches\n"
	"                         PATTERN does not make the audit incomplete\n"
	"\n"
	"       cloexec [--check [--leak-status=N]] [--baseline=FILE]\n"
	"               [--write-baseline=FILE] --summarize FILE...\n"
	"Print the summary of logs kept with --log, of one run or several\n"
	"together ('-': standard input); with --check, exit 120 (or N) if\n"
	"anything leaked.\n"
	"\n"
	"       cloexec [-c LIST] [-p POLICY] [-o] --show-policy [PROGRAM]\n"
	"Print the policy in force, item by item, with where each item comes\n"
	"from (default, FILE:LINE, CLOEXEC_POLICY, option), and whether "
	"PROGRAM\nwould be exempt, by which item.\n"
	"\n"
	"       cloexec [-L LIB] enable [--root DIR]\n"
	"       cloexec disable [--root DIR]\n"
	"Add the library (LIB, default " CLOEXEC_LIBDIR "/" SONAME ")\n"
	"to DIR/etc/ld.so.preload, once, in the $LIB form where the loader\n"
	"supports it, after reading it (it is never run) to check that it is\n"
	"this library; or take every entry naming " SONAME " out of it.  No\n"
	"link in DIR is followed out of it.\n"
	"\n"
	"       cloexec --check-config [FILE]\n"
	"Check FILE, or the policy file, its drop-ins and CLOEXEC_POLICY; "
	"exit 1\nif an item is bad (each named with FILE:LINE), else 0.\n"
	"\n"
	"       cloexec --scan [--json] [--fail-on=LEVEL] [PID]...\n"
	"       cloexec --scan --format=prometheus [--output=FILE] [PID]...\n"
	"List the fds above 2 that running processes (all, or those PIDs)\n"
	"would hand to the next program they run, with a risk class; change\n"
	"nothing.  Exit 120 if one is at or above LEVEL (high, medium, low,\n"
	"never; default high), 0 if none, 125 on error.  --format=text,\n"
	"json (--json) or prometheus: counts for node_exporter's textfile\n"
	"collector, to stdout or replacing FILE whole.\n"
	"\n"
	"      --list             list the entry points the library covers\n"
	"  -h, --help             display this help and exit\n"
	"  -V, --version          output version information and exit\n"
	"\n"
	"Exit status is PROGRAM's, or 125 if cloexec itself fails, 126 if\n"
	"PROGRAM cannot be run, 127 if PROGRAM is not found; with --check, 120\n"
	"(or --leak-status) when something leaked, whatever PROGRAM's own\n"
	"status, which the summary's last line gives, else 121 if the audit\n"
	"is incomplete (lines lost, the log cut, messages from outside the\n"
	"tree, programs that ran without the library).\n";

static const struct option long_options[] = {
	{ "off", no_argument, NULL, 'o' },
	{ "classes", required_argument, NULL, 'c' },
	{ "policy", required_argument, NULL, 'p' },
	{ "library", required_argument, NULL, 'L' },
	{ "audit", no_argument, NULL, 'a' },
	{ "check", no_argument, NULL, 'C' },
	{ "leak-status", required_argument, NULL, 'E' },
	{ "log", required_argument, NULL, 'G' },
	{ "summarize", no_argument, NULL, 'Z' },
	{ "baseline", required_argument, NULL, 'B' },
	{ "write-baseline", required_argument, NULL, 'W' },
	{ "accept-unaudited", required_argument, NULL, 'U' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "list", no_argument, NULL, 'l' },
	{ "scan", no_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "format", required_argument, NULL, 'F' },
	{ "output", required_argument, NULL, 'O' },
	{ "fail-on", required_argument, NULL, 'f' },
	{ "show-policy", no_argument, NULL, 'S' },
	{ "check-config", no_argument, NULL, 'K' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Append " item" to a growing policy string. */
static void policy_append(char **policy, const char *item)
{
	size_t old = *policy ? strlen(*policy) : 0;
	char *s = realloc(*policy, old + strlen(item) + 2);

	if (!s)
		die("out of memory", NULL);
	if (old)
		s[old++] = ' ';
	strcpy(s + old, item);
	*policy = s;
}

/* Options are checked here, so a typo stops before anything runs. */
static void policy_check(const char *item)
{
	struct policy p;
	struct diag errs = { .len = 0, .strict = true };

	policy_default(&p);
	if (policy_parse(&p, item, "cloexec", &errs)) {
		diag_flush(&errs, STDERR_FILENO);
		exit(EXIT_CANCELED);
	}
}

static bool file_exists(const char *path)
{
	return access(path, R_OK) == 0;
}

/*
 * The library next to this binary when it runs from the build tree; the
 * one under the same root when it runs from a staged install (make
 * install DESTDIR=ROOT puts the command in ROOT$(bindir) and the library
 * in ROOT$(libdir)); else the installed one.  Absolute paths only: a
 * relative entry in LD_PRELOAD would be looked up from whatever directory
 * the program runs in.
 */
static const char *find_library(void)
{
	static char self[PATH_MAX], found[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t dir_len, bindir_len = strlen(CLOEXEC_BINDIR);
	char *slash;

	if (n <= 0)
		return CLOEXEC_LIBDIR "/" SONAME;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return CLOEXEC_LIBDIR "/" SONAME;
	*slash = '\0';
	if (!strcmp(self, CLOEXEC_BUILD_DIR)) {
		snprintf(found, sizeof(found), "%s/.libs/%s", CLOEXEC_BUILD_DIR,
			 SONAME);
		if (file_exists(found))
			return found;
	}
	dir_len = strlen(self);
	if (dir_len > bindir_len &&
	    !strcmp(self + dir_len - bindir_len, CLOEXEC_BINDIR)) {
		self[dir_len - bindir_len] = '\0';
		n = snprintf(found, sizeof(found), "%s%s/%s", self,
			     CLOEXEC_LIBDIR, SONAME);
		if (n > 0 && (size_t)n < sizeof(found) && file_exists(found))
			return found;
	}
	return CLOEXEC_LIBDIR "/" SONAME;
}

static bool preload_has(const char *list, const char *lib)
{
	size_t len = strlen(lib);
	const char *p = list;

	while ((p = strstr(p, lib))) {
		bool starts = p == list || p[-1] == ':' || p[-1] == ' ';
		bool ends = p[len] == '\0' || p[len] == ':' || p[len] == ' ';

		if (starts && ends)
			return true;
		p += len;
	}
	return false;
}

/* LD_PRELOAD with lib added at the end, or at the start, once. */
static void preload_add(const char *lib, bool first)
{
	const char *old = getenv("LD_PRELOAD");
	char *value;

	if (old && *old && preload_has(old, lib))
		return;
	if (old && *old) {
		value = malloc(strlen(old) + strlen(lib) + 2);
		if (!value)
			die("out of memory", NULL);
		sprintf(value, "%s:%s", first ? lib : old, first ? old : lib);
	} else {
		value = (char *)lib;
	}
	if (setenv("LD_PRELOAD", value, 1))
		die("cannot set LD_PRELOAD", NULL);
}

static void set_preload(const char *lib)
{
	if (lib[0] != '/')
		die("the library path must be absolute:", lib);
	if (strpbrk(lib, ": \t"))
		die("LD_PRELOAD cannot hold a path with ':' or blanks:", lib);
	if (!file_exists(lib))
		die("cannot find the library", lib);
	preload_add(lib, false);
	/* A library built with sanitizers needs their runtime loaded first. */
	if (*CLOEXEC_SANITIZER_RUNTIME)
		preload_add(CLOEXEC_SANITIZER_RUNTIME, true);
}

int main(int argc, char **argv)
{
	const char *lib = NULL, *env;
	enum audit_mode audit = AUDIT_NONE;
	char *policy = NULL, *options = NULL;
	struct audit_run run = { .sock = -1 };
	bool scan = false, json = false, show = false, check_cfg = false;
	enum scan_format format = SCAN_TEXT;
	const char *output = NULL;
	int c, fail_on = scan_parse_level("high");
	int leak_status = -1;
	const char *keep_log = NULL;
	bool summarize = false;

	/* '+': options end at PROGRAM, whose own options are its own. */
	while ((c = getopt_long(argc, argv, "+oc:p:L:aCvhV", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'o':
			policy_append(&options, "off");
			break;
		case 'c': {
			char item[sizeof("classes=") + 256];

			if (strlen(optarg) > 256)
				die("class list too long:", optarg);
			snprintf(item, sizeof(item), "classes=%s", optarg);
			policy_check(item);
			policy_append(&options, item);
			break;
		}
		case 'p':
			policy_check(optarg);
			policy_append(&options, optarg);
			break;
		case 'L':
			lib = optarg;
			break;
		case 'a':
		case 'C':
			audit = c == 'C' ? AUDIT_CHECK : AUDIT_SUMMARY;
			break;
		case 'E': {
			char *end;
			long n;

			errno = 0;
			n = strtol(optarg, &end, 10);
			/* 0 would make --check a no-op: that is --audit. */
			if (errno || end == optarg || *end || n < 1 || n > 255)
				die("--leak-status takes 1 to 255, not",
				    optarg);
			leak_status = (int)n;
			break;
		}
		case 'G':
			keep_log = optarg;
			break;
		case 'Z':
			summarize = true;
			break;
		case 'B':
			baseline = optarg;
			break;
		case 'W':
			write_baseline = optarg;
			break;
		case 'U':
			if (naccept < COUNT(accept_unaudited))
				accept_unaudited[naccept++] = optarg;
			else
				die("too many --accept-unaudited", optarg);
			break;
		case 'v':
			verbose = true;
			break;
		case 'l':
			list_entries();
			return 0;
		case 's':
			scan = true;
			break;
		case 'j':
			json = true;
			format = SCAN_JSON;
			break;
		case 'F':
			json = true; /* as --json: an option of --scan only */
			if (!strcmp(optarg, "text"))
				format = SCAN_TEXT;
			else if (!strcmp(optarg, "json"))
				format = SCAN_JSON;
			else if (!strcmp(optarg, "prometheus"))
				format = SCAN_PROMETHEUS;
			else
				die("--format takes text, json or prometheus, "
				    "not",
				    optarg);
			break;
		case 'O':
			output = optarg;
			break;
		case 'S':
			show = true;
			break;
		case 'K':
			check_cfg = true;
			break;
		case 'f':
			fail_on = scan_parse_level(optarg);
			if (fail_on < 0)
				die("--fail-on takes high, medium, low or never, "
				    "not",
				    optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf("cloexec (%s) %s\n", PACKAGE_NAME,
			       PACKAGE_VERSION);
			return 0;
		default:
			fputs("Try 'cloexec --help' for more information.\n",
			      stderr);
			return EXIT_CANCELED;
		}
	}
	if (output && format != SCAN_PROMETHEUS)
		die("--output goes with --scan --format=prometheus", NULL);
	if (scan)
		return scan_run(argv + optind, format, output, fail_on,
				EXIT_LEAKED);
	if ((show || check_cfg) && optind + 1 < argc)
		die(show ? "--show-policy takes one PROGRAM, not"
			 : "--check-config takes one FILE, not",
		    argv[optind + 1]);
	if (check_cfg)
		return check_config(argv[optind]);
	/* "cloexec -- enable" runs a program called enable */
	if (optind < argc && strcmp(argv[optind - 1], "--")) {
		if (!strcmp(argv[optind], "enable"))
			return preload_enable(argc - optind, argv + optind,
					      lib ? lib
						  : CLOEXEC_LIBDIR "/" SONAME);
		if (!strcmp(argv[optind], "disable"))
			return preload_disable(argc - optind, argv + optind,
					       SONAME);
	}
	if (show)
		return show_policy(options, argv[optind]);
	if (json || fail_on != scan_parse_level("high"))
		die("--json, --format and --fail-on go with --scan", NULL);
	if (leak_status >= 0 && audit != AUDIT_CHECK)
		die("--leak-status goes with --check", NULL);
	if ((baseline || write_baseline) && !audit && !summarize)
		die("--baseline and --write-baseline go with --audit, --check "
		    "or --summarize",
		    NULL);
	if (write_baseline) {
		baseline_out = fopen(write_baseline, "we");
		if (!baseline_out)
			die("--write-baseline: cannot write", write_baseline);
	}
	if (summarize)
		return summarize_logs(argv + optind, audit == AUDIT_CHECK,
				      leak_status >= 0 ? leak_status
						       : EXIT_LEAKED);
	if (keep_log && !audit)
		die("--log goes with --audit or --check", NULL);
	if (optind >= argc) {
		fputs("cloexec: no PROGRAM given\n"
		      "Try 'cloexec --help' for more information.\n",
		      stderr);
		return EXIT_CANCELED;
	}

	env = getenv(POLICY_ENV);
	if (env && *env)
		policy_append(&policy, env);
	if (options)
		policy_append(&policy, options);
	set_preload(lib ? lib : find_library());
	if (audit) {
		open_audit(keep_log, &run);
		audit_write_root(run.wfd, argv, run.wfd);
		policy_append(&policy, "mode=audit");
	}
	if (policy && setenv(POLICY_ENV, policy, 1))
		die("cannot set " POLICY_ENV, NULL);
	if (audit)
		return run_audited(argv + optind, &run, audit == AUDIT_CHECK,
				   leak_status >= 0 ? leak_status
						    : EXIT_LEAKED);
	execvp(argv[optind], argv + optind);
	return exec_failed(argv[optind]);
}
