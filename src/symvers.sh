#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# symvers.sh map|header READELF NAMES [LIB...]
#
# The library's symbol versions, from the C library's own: each name of
# NAMES (one a line, the exported rows) gets every version that LIB (the
# libc.so.6, libutil.so.1 ... the compiler links against) has of it, its
# default version as the default (@@) and the others as compat versions
# (@), in LIB's order of versions.  A program bound to fopen@GLIBC_2.0 then
# reaches a wrapper of that version, which calls that version of the real
# function.  The library's own names (cloexec_*) go in LIBCLOEXEC_0.1.
#
# map: the version script.  header: COMPAT_<name>(X), which expands to
# X(name, tag, "version") once per compat version of name, for the family
# file to define the wrappers of those versions with.
#
# Without LIB (musl: no symbol versions at all), the map is one anonymous
# node, and the header defines no COMPAT_ macro.
set -eu

mode=$1 readelf=$2 names=$3
shift 3

# table: "version name default|compat" per exported version, in LIB's
# order of versions (the first that has it), then by name.
table() {
	for lib; do
		"$readelf" -W -V "$lib" | sed -n \
			's/.*Flags: none *Index: *[0-9]* *Cnt: *[0-9]* *Name: *\([^ ]*\).*/V \1/p'
		"$readelf" -W --dyn-syms "$lib" |
			awk '$7 != "UND" && $5 != "LOCAL" && $8 ~ /@/ {
				print "S", $8 }'
	done | awk -v names="$names" '
		BEGIN { while ((getline n < names) > 0) want[n] = 1 }
		$1 == "V" { if (!($2 in rank)) rank[$2] = ++nver; next }
		{
			at = index($2, "@"); sym = substr($2, 1, at - 1)
			ver = substr($2, at + 1); kind = "compat"
			if (substr(ver, 1, 1) == "@") {
				ver = substr(ver, 2); kind = "default"
			}
			if (!(sym in want)) next
			# One library may have as default what another keeps
			# for compatibility (libpthread before glibc 2.34).
			if (kind == "default" || !((sym, ver) in kinds))
				kinds[sym, ver] = kind
		}
		END {
			for (k in kinds) {
				split(k, p, SUBSEP)
				printf "%05d %s %s %s\n", rank[p[2]], p[2], p[1],
				       kinds[k]
			}
		}' | sort | cut -d' ' -f2-
}

case $mode in
map)
	echo '/* Generated from src/entrypoints.def by src/symvers.sh. */'
	if [ $# = 0 ]; then
		echo '{'
		echo 'global:'
		sed 's/^/	/; s/$/;/' "$names"
		echo 'local:'
		echo '	*;'
		echo '};'
		exit 0
	fi
	table "$@" > "$names.table"
	# A wrapped libc name without a version here would be exported in
	# none that a program asks for: never reached.
	missing=$(awk 'NR == FNR { seen[$2] = 1; next }
		       !($1 in seen) && $1 !~ /^cloexec_/' \
		"$names.table" "$names")
	if [ -n "$missing" ]; then
		echo "symvers.sh: no version of $missing in $*" >&2
		exit 1
	fi
	awk '
		$1 != cur {
			if (cur != "") print "};"
			cur = $1; print cur " {"
			n = 0
		}
		$3 == "default" {
			if (!n++) print "global:"
			print "\t" $2 ";"
		}
		END { if (cur != "") print "};" }' "$names.table"
	echo 'LIBCLOEXEC_0.1 {'
	echo 'global:'
	sed -n 's/^\(cloexec_.*\)/	\1;/p' "$names"
	echo 'local:'
	echo '	*;'
	echo '};'
	rm -f "$names.table"
	;;
header)
	echo '/* Generated from src/entrypoints.def by src/symvers.sh. */'
	[ $# = 0 ] && exit 0
	table "$@" | awk '
		$3 == "compat" {
			tag = $1; gsub(/[^A-Za-z0-9_]/, "_", tag)
			x[$2] = x[$2] " X(" $2 ", " tag ", \"" $1 "\")"
		}
		END {
			for (s in x)
				print "#define COMPAT_" s "(X)" x[s]
		}' | sort
	;;
*)
	echo "symvers.sh: map or header, not $mode" >&2
	exit 2
	;;
esac
