#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The table of the audit's reasons in doc/audit.md, made from the rows of
# src/core/why.def: sh src/why.sh src/core/why.def
set -eu
tab=$(printf '\t')
echo '| why | the fd is passed on purpose because | its reason starts |'
echo '|---|---|---|'
# Each row spans two lines: WHY(ID, "word", "text",\n    "rule")
sed -n '/^WHY(/{N;s/\n */ /;p;}' "$1" |
	sed -n 's/^WHY([A-Z0-9_]*, "\([^"]*\)", "\([^"]*\)", "\(.*\)")$/\1\t\2\t\3/p' |
	awk -F"$tab" '{
		# A text the rule completes ("named as ") ends in a blank.
		text = $2 ~ / $/ ? $2 "…" : $2
		printf "| `%s` | %s | `%s` |\n", $1, $3, text
	}'
