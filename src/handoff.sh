#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The table of handoff protocols in doc/inheritance.md, made from the rows
# of src/core/handoff.def: sh src/handoff.sh src/core/handoff.def
set -eu
tab=$(printf '\t')
echo '| program | what names the fd | how the number is written | example |'
echo '|---|---|---|---|'
sed -n \
	-e 's/^HANDOFF("\([^"]*\)", "\([^"]*\)", \([A-Z_]*\), "\(.*\)")$/A\t\1\t\2\t\3\t\4/p' \
	-e 's/^HANDOFF_ENV("\([^"]*\)", \([A-Z_]*\), "\(.*\)")$/E\tany\t\1\t\2\t\3/p' \
	"$1" | awk -F"$tab" '
	BEGIN {
		how["HO_NEXT"] = "the next argument"
		how["HO_VALUE"] = "the next argument, or `=N`"
		how["HO_PREFIX"] = "right after it, in any case"
		how["HO_BARE"] = "the whole argument"
		how["HO_ITEMS"] = "in each item"
		how["HO_FD_ITEMS"] = "in its `fd=N` items"
	}
	{
		if ($1 == "E")
			what = $3 ~ /_$/ ? "variables `" $3 "*`" : \
					   "variable `" $3 "`"
		else
			what = $3 == "" ? "an argument" : "`" $3 "`"
		printf "| %s | %s | %s | `%s` |\n", $2, what, how[$4], $5
	}'
