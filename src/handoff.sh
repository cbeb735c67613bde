#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The tables of handoff protocols in doc/inheritance.md, made from the
# rows of src/core/handoff.def: sh src/handoff.sh src/core/handoff.def
set -eu
tab=$(printf '\t')
sed -n \
	-e 's/^HANDOFF_PROGRAM("\([^"]*\)", \([A-Z_]*\), \([A-Z_]*\))$/P\t\1\t\2\t\3/p' \
	-e 's/^HANDOFF("\([^"]*\)", "\([^"]*\)", \([A-Z_0-9]*\), \([0-9]*\), "\(.*\)")$/O\t\1\t\2\t\3\t\4\t\5/p' \
	-e 's/^HANDOFF_CHILD("\([^"]*\)", "\([^"]*\)", "\(.*\)")$/C\t\1\t\2\t\3/p' \
	-e 's/^HANDOFF_ENV("\([^"]*\)", \([A-Z_]*\), "\(.*\)")$/E\t\1\t\2\t\3/p' \
	"$1" | awk -F"$tab" '
	BEGIN {
		how["HO_EQUALS"] = "`--option N` or `--option=N`"
		how["HO_SPACED"] = "the next argument only"
		how["HO_JOINED"] = "`-o N` or `-oN`"
		ops["HO_COMMAND"] = "a command, whose arguments are not its own"
		ops["HO_SOCAT"] = "two addresses: `FD:N` or `N` alone names fd N"
		ops["HO_OTHER"] = "name no fd"
		items["HO_ITEMS"] = "in each item"
		items["HO_FD_ITEMS"] = "in its `fd=N` items"
	}
	$1 == "P" {
		order[++np] = $2; style[$2] = $3; operands[$2] = $4
	}
	$1 == "O" && $5 > 0 {
		which = $4 == "HO_MAYBE" ? "its value, if it has one" : \
			$4 == 1 ? "its value" : "its value number " $5
		fd[$2] = fd[$2] sprintf("| %s | `%s` | %s | `%s` |\n", $2, $3,
					which, $6)
	}
	$1 == "O" && $5 == 0 {
		skip[$2] = skip[$2] (skip[$2] == "" ? "" : ", ") \
			"`" $3 "` (" $4 ")"
	}
	$1 == "C" {
		child = child sprintf("| %s | `%sN` in an address | `%s` |\n",
				      $2, $3, $4)
	}
	$1 == "E" {
		what = $2 ~ /_$/ ? "variables `" $2 "*`" : "variable `" $2 "`"
		env = env sprintf("| %s | %s | `%s` |\n", what, items[$3], $4)
	}
	END {
		print "The programs, and how each reads its command line:"
		print ""
		print "| program | an option value is written | its operands |"
		print "|---|---|---|"
		for (i = 1; i <= np; i++)
			printf "| %s | %s | %s |\n", order[i],
			       how[style[order[i]]], ops[operands[order[i]]]
		print ""
		print "Their options that take an fd:"
		print ""
		print "| program | option | the fd | example |"
		print "|---|---|---|---|"
		for (i = 1; i <= np; i++)
			printf "%s", fd[order[i]]
		print ""
		print "Their options whose values are not fds (how many they take):"
		print ""
		for (i = 1; i <= np; i++)
			if (skip[order[i]] != "")
				printf "* %s: %s\n", order[i], skip[order[i]]
		print ""
		print "What a running program names for its children:"
		print ""
		print "| running program | what names the fd | example |"
		print "|---|---|---|"
		printf "%s", child
		print ""
		print "Variables that name fds, for any program:"
		print ""
		print "| variable | where the numbers are | example |"
		print "|---|---|---|"
		printf "%s", env
	}'
