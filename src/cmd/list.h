/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec --list.  Takes the rows of src/entrypoints.def, compiled in;
 * gives them on stdout as Markdown tables: the entry points with their
 * class and paths, the calls already close-on-exec, and what no wrapper
 * reaches.  Calls nothing of cloexec's.
 */
#ifndef CLOEXEC_CMD_LIST_H
#define CLOEXEC_CMD_LIST_H

void list_entries(void);

#endif /* CLOEXEC_CMD_LIST_H */
