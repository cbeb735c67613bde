/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cloexec --list: the rows of src/entrypoints.def as tables (list.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "list.h"

#include "core/policy.h"

struct entry {
	const char *symbol, *file, *call, *native, *fallback, *musl;
};

static const struct entry entries[] = {
#define ENTRY(sym, file, call, native, fallback, musl)                        \
	{ #sym, file, #call, native, fallback, musl },
#include "entrypoints.def"
#undef ENTRY
};

/* A call's policy class, as the configuration names it. */
static const struct call_class {
	const char *call;
	enum fd_class cls;
} call_classes[] = {
#define CALL(name, fam, class, capability, kind) { #name, class },
#include "entrypoints.def"
#undef CALL
};

struct elsewhere {
	const char *what, *answer;
};

static const struct elsewhere already[] = {
#define ALREADY(what, how) { what, how },
#include "entrypoints.def"
#undef ALREADY
};

static const struct elsewhere unreachable[] = {
#define UNREACHABLE(what, answer) { what, answer },
#include "entrypoints.def"
#undef UNREACHABLE
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* "socket", "dup2 (off by default)"; "-" for no fd, "by number". */
static void print_class(const char *call)
{
	size_t i;

	if (!strcmp(call, "by_number")) {
		printf("by number");
		return;
	}
	for (i = 0; i < COUNT(call_classes); i++) {
		enum fd_class c = call_classes[i].cls;

		if (strcmp(call_classes[i].call, call))
			continue;
		printf("%s%s", fd_class_name(c),
		       FD_CLASS_DEFAULT & (1u << c) ? "" : " (off by default)");
		return;
	}
	printf("-");
}

void list_entries(void)
{
	size_t i;

	printf("| entry point | class | native | fallback | musl |\n");
	printf("|---|---|---|---|---|\n");
	for (i = 0; i < COUNT(entries); i++) {
		printf("| %s | ", entries[i].symbol);
		print_class(entries[i].call);
		printf(" | %s | %s | %s |\n", entries[i].native,
		       entries[i].fallback, entries[i].musl);
	}
	printf("\nAlready close-on-exec, no wrapper needed:\n\n");
	printf("| call | why |\n|---|---|\n");
	for (i = 0; i < COUNT(already); i++)
		printf("| %s | %s |\n", already[i].what, already[i].answer);
	printf("\nOut of reach of the wrappers:\n\n");
	printf("| what | the library's answer |\n|---|---|\n");
	for (i = 0; i < COUNT(unreachable); i++)
		printf("| %s | %s |\n", unreachable[i].what,
		       unreachable[i].answer);
}
