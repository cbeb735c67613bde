/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the policy text, as the environment gives it
 * (policy_parse) and as a file does (layers_read_file: lines, comments,
 * the size limit), then what is derived from it (the exempt list against
 * a program, the hot word).  The first byte picks the form.
 *
 * policy.c is included, not linked, to reach its static functions: the
 * target is built with the other core sources but not that one.
 */
#include "core/policy.c"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "core/layers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_parsed(const struct policy *p, const struct diag *errs)
{
	unsigned i;

	/* Every list item and log= must point inside the copied text. */
	if (p->text_len > sizeof(p->text) || errs->len > sizeof(errs->buf))
		abort();
	for (i = 0; i < p->keep_path.n; i++)
		if ((size_t)p->keep_path.item[i].off + p->keep_path.item[i].len >
		    p->text_len)
			abort();
	if (p->log_off >= 0 && (size_t)p->log_off + p->log_len > p->text_len)
		abort();
	if (p->nkeep > POLICY_KEEP_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct policy p;
	struct diag errs = { .len = 0 };
	char path[64];
	int fd;

	if (size < 1)
		return 0;
	policy_default(&p);
	if (data[0] & 1) {
		char *text = malloc(size);

		memcpy(text, data + 1, size - 1);
		text[size - 1] = '\0';
		policy_parse(&p, text, POLICY_ENV, &errs);
		free(text);
	} else {
		fd = memfd_create("policy", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		if (write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		layers_read_file(&p, path, &errs, NULL);
		close(fd);
	}
	check_parsed(&p, &errs);
	policy_settle(&p, "/usr/bin/fuzz-program", "fuzz-program",
		      "fuzz-program");
	policy_word_of(&p);
	return 0;
}
