#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The dynamic loader's system calls for a preload of the library's shape:
# two libraries with no code, the library's exported names as empty
# functions, the first with its version definitions (src/libcloexec.map)
# and its three version needs, the second with neither.  Each is preloaded
# into PROGRAM (default sed) under strace, and the calls the loader makes
# before the program's own start (set_tid_address) are counted, with the
# empty preload and the library beside them.  The programs crash after
# that, their open and close being empty functions: only the loader's
# part is counted.
#
#   sh bench/loaderfloor.sh [PROGRAM ARG...]    (from the build directory)
set -eu
b=${top_builddir:-.}
[ $# -gt 0 ] || set -- sed s/x/y/ /dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -E '^[[:space:]]+[A-Za-z_0-9]+;' "$b/src/libcloexec.map" |
	tr -d ' \t;' | sort -u >"$tmp/names"
{
	echo 'extern unsigned long getauxval(unsigned long);'
	echo 'extern void __pthread_register_cancel(void *);'
	echo 'extern char **environ;'
	echo 'void *floor_refs[] = { (void *)getauxval,'
	echo '	(void *)__pthread_register_cancel, (void *)&environ };'
	sed 's/.*/void &(void) {}/' "$tmp/names"
} >"$tmp/floor.c"
cc="${CC:-cc} -O2 -fPIC -shared -nostartfiles -fno-builtin -w"
$cc -o "$tmp/libversions.so" "$tmp/floor.c" \
	-Wl,--version-script="$b/src/libcloexec.map"
$cc -o "$tmp/libnoversions.so" "$tmp/floor.c"
for lib in "$b/tests/lib/.libs/libempty.so" "$tmp/libnoversions.so" \
	"$tmp/libversions.so" "$b/src/.libs/libcloexec.so.0"; do
	strace -o "$tmp/trace" -E LD_PRELOAD="$lib" "$@" >/dev/null 2>&1 || :
	calls=$(sed -n '1,/set_tid_address/p' "$tmp/trace" | wc -l | tr -d ' ')
	anon=$(sed -n '1,/set_tid_address/p' "$tmp/trace" |
		grep -c MAP_ANONYMOUS || :)
	printf '%-24s %3s calls before the start, %s anonymous mmaps\n' \
		"$(basename "$lib")" "$calls" "$anon"
done
