#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The whole-system figure of `make bench`: a shell script is mostly process
# starts.  20 pipelines of three programs each.
i=0
while [ $i -lt 20 ]; do
	echo x | sed s/x/y/ | grep -c y >/dev/null
	i=$((i + 1))
done
