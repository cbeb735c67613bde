/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the `cloexec --audit` log reader and summary
 * (src/cmd/audit.h's rooms), on any bytes: the programs of an audited
 * tree can write anything to the log, and its lines are read back with a
 * hand-written field parser.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;
	FILE *in;

	if (!out)
		out = fopen("/dev/null", "w");
	if (!size || !out)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		abort();
	audit_summary_stream(in, out);
	fclose(in);
	return 0;
}
