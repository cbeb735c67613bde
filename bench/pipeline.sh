#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The whole-system figure of `make bench`: a shell script is mostly process
# starts.  20 pipelines of three programs each, or as many as $1.
n=${1:-20}
i=0
while [ $i -lt "$n" ]; do
	echo x | sed s/x/y/ | grep -c y >/dev/null
	i=$((i + 1))
done
