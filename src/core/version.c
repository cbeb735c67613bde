/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "config.h"

#include "cloexec.h"
#include "export.h"

CLOEXEC_EXPORT const char *cloexec_version(void)
{
	return PACKAGE_VERSION;
}
