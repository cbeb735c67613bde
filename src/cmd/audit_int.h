/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The summary's records, private to the audit's rooms: the log reader
 * (audit_log.c) makes them, the output (audit_out.c) prints and frees
 * them.
 */
#ifndef CLOEXEC_AUDIT_INT_H
#define CLOEXEC_AUDIT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "audit_tree.h"
#include "audit_verdict.h"

struct group {
	char *who;  /* "PROGRAM started EXEC (ARGV0)" */
	char *what; /* the fd, described */
	char *rule; /* the baseline line that accepts it (--write-baseline) */
	char *argv; /* the first command line, as people read it */
	bool other_argv; /* and others were seen */
	char **inodes; /* the distinct inodes of its target, if any */
	size_t ninodes;
	size_t inode_at; /* where in what they go: at its "[]"'s "]" */
	bool deliberate;
	bool accepted; /* a leak that the baseline accepts */
	bool harmless; /* /dev/null: anyone may open it, it holds nothing */
	int count;
};

/* The groups of every log read so far. */
struct audit {
	struct group *groups;
	size_t ngroups;
	struct baseline baseline; /* --baseline's: the leaks it accepts */
	FILE *write_baseline; /* --write-baseline: where its lines go */
	int leaks, kept, harmless, accepted;
	int lost; /* lines the programs said they could not write */
	char *lost_said[3]; /* the first few of those notices, described */
	struct tree tree; /* the processes, for the fds nobody explains */
	struct pending *pending; /* the lines of execs not yet known to be */
	size_t npending;
};

#endif /* CLOEXEC_AUDIT_INT_H */
