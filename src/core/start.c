/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the library does as it is loaded, above the modules it sets going:
 * the fd table's scan of what the process was given (fdtable.h), then the
 * audit's report of it (report.h).  The table records and the report
 * describes: the table calls nothing above it.
 */
#include "config.h"

#include <stdint.h>

#include "fdtable.h"
#include "layers.h"
#include "load.h"
#include "report.h"

/*
 * Which fds the process was given can only be known at load time.  The
 * sweep must never take those away, and the audit names them; with the
 * default policy neither runs, and the scan (and its system calls) is
 * saved.  The fallback path's in-flight sweep scans at its first use.
 */
__attribute__((constructor)) static void scan_at_start(void)
{
	uint32_t word;

	/* Once: where nothing is configured, each call opens two paths. */
	if (!policy_configured())
		return;
	word = policy_word();
	if (word & (POLICY_SWEEP | POLICY_REPORT))
		fdtable_scan_inherited();
	if (word & POLICY_REPORT)
		report_started();
}
