/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --audit and --check, live.  Takes the program's argv and --log's FILE;
 * gives the log and the socket the tree reports to (open_audit, which
 * names them in the environment), runs the program with its signals
 * passed on, gathers its tree's lines, and returns the exit status after
 * the summary (run_audited).  Calls the audit, logcopy.h, summarize.h
 * and status.h.
 */
#ifndef CLOEXEC_CMD_RUN_H
#define CLOEXEC_CMD_RUN_H

#include <stdbool.h>

#include "core/report.h"

/* The log as the audit has it: written by the tree, read back here. */
struct audit_run {
	int wfd; /* the tree's, inherited: append only */
	int rfd; /* cloexec's, to read the lines back */
	int sock; /* the socket for the lines that cannot go to wfd */
	/* what a datagram of the tree starts with: REPORT_AUDIT_TOKEN_LEN hex */
	char token[REPORT_AUDIT_TOKEN_LEN + 1];
	int refused; /* datagrams that did not come from the tree */
};

/* The log and the socket, opened; exits with status 125 if it cannot. */
void open_audit(const char *keep_log, struct audit_run *run);
/* The program run, and the summary; returns cloexec's exit status. */
int run_audited(char **argv, struct audit_run *run, bool check,
		int leak_status);

#endif /* CLOEXEC_CMD_RUN_H */
