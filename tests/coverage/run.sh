#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make coverage: the library, the command and everything the tests link,
# built with gcov instrumentation in a copy of the release tree, each test
# of the suite run there alone, and what each one reached: line and branch
# coverage per file of src/, and the branches of the security-relevant
# files that no test takes both ways.
#
#	run.sh [map]
#
# The copy is $COVERAGE_DIR/src (refreshed file by file from make
# distdir), built in $COVERAGE_DIR/build (configured once, CFLAGS -O0
# --coverage).  The tests run one at a time, the counts cleared before
# each, so that each test's record (tests/NAME.json.gz: the lines of src/
# it ran, each branch's count) is its own.  A record is kept until the
# tree changes: when only a test's own file changed (its script, or its
# C source), only that test runs again.  map.json says which tests reach
# each line (tests/mutate/run.sh selects a mutant's tests with it).
#
# With "map", that is all (make coverage-map; needs only gcov).  Without,
# the report too (needs Debian's gcovr): in $COVERAGE_DIR, table.md (a row
# a file: lines, branches), lines.txt and branches.txt (gcovr's),
# html/index.html (each file's lines and branches, taken or not),
# tests.txt (each test's result here), security.md and branches-left.txt:
# the branches of $COVERAGE_SECURITY (the setuid paths, the policy's load
# and layers, the audit sink and verdict, enable/disable, the scan, the
# inheritance rules) not taken both ways, less those that
# tests/coverage/explained gives a one-line reason for.  These are
# printed.
#
# The suite's verdict is not this target's: some tests are about what
# instrumentation changes (startcost.test counts the library's system
# calls at start; gcov writes its counts at every exit), and a process
# that cannot write its counts (run as nobody) says so on stderr.  The
# tests that fail here are listed with the table; the target fails only
# if nothing could be built, or gcovr is missing.  What a process counted
# is lost if a signal ends it; one that ends by _exit() writes its counts
# first in this build (tests/coverage/gcov_exit.c), and so do the
# library's exec wrappers (CLOEXEC_COVERAGE), as gcc's own code does
# around the exec calls it compiles.
set -u
LC_ALL=C
export LC_ALL
: "${top_srcdir:?run me from make coverage}" "${top_builddir:?}"
: "${COVERAGE_DIR:?}" "${COVERAGE_TESTS:?}" "${MAKE:=make}"
: "${COVERAGE_SECURITY:=}"
jobs=${COVERAGE_JOBS:-2}
# A test that runs longer than this here is stopped (and its record kept).
test_timeout=${COVERAGE_TEST_TIMEOUT:-900}
work=$COVERAGE_DIR
src=$work/src
build=$work/build
pertest=$top_srcdir/tests/coverage/pertest.py
mode=${1:-report}

if [ "$mode" = report ] && ! command -v gcovr >/dev/null; then
	echo "coverage: needs gcovr (apt-get install gcovr)"
	exit 1
fi

mkdir -p "$work"
# One run at a time in a directory: two would build in the same tree.
if command -v flock >/dev/null; then
	exec 9>"$work/lock"
	flock -n 9 || { echo "coverage: another run is using $work"; exit 1; }
fi
rm -rf "$work/fresh"
(cd "$top_builddir" && "$MAKE" -s distdir distdir="$work/fresh") \
	>"$work/distdir.log" 2>&1 ||
	{ cat "$work/distdir.log"; echo "coverage: no distdir"; exit 1; }
mkdir -p "$src"
(cd "$work/fresh" && find . -type f) | while read -r f; do
	cmp -s "$work/fresh/$f" "$src/$f" && continue
	mkdir -p "$(dirname "$src/$f")" && cp -p "$work/fresh/$f" "$src/$f"
done
# What is no longer in the tree goes from the copy too.
(cd "$src" && find . -type f) | while read -r f; do
	[ -e "$work/fresh/$f" ] || rm -f "$src/$f"
done
rm -rf "$work/fresh"

# Counters updated atomically: the race tests' threads would otherwise
# lose increments, and leave counts gcov reads as negative.  libtool
# keeps --coverage out of a shared library's link: -lgcov brings the
# runtime in.
# A process that ends by _exit() writes its counts too (gcov_exit.c).
cflags="-O0 -g --coverage -fprofile-update=atomic"
cppflags="-DCLOEXEC_COVERAGE=1"
ldflags="--coverage -Wl,--wrap=_exit -Wl,--wrap=_Exit"
exit_o=$work/gcov_exit.o
mkdir -p "$build"
if [ ! -f "$build/Makefile" ] || [ ! -f "$exit_o" ] ||
	[ "$src/tests/coverage/gcov_exit.c" -nt "$exit_o" ] ||
	[ "$(cat "$work/cflags" 2>/dev/null)" != "$cflags $cppflags $ldflags" ]; then
	echo "coverage: configuring $build"
	rm -rf "$build" "$work/tests" "$work/keys.json" "$work/map.json"
	mkdir -p "$build"
	gcc -c -O0 -fPIC -o "$exit_o" "$src/tests/coverage/gcov_exit.c" ||
		exit 1
	(cd "$build" && "$src/configure" -q CFLAGS="$cflags" \
		CPPFLAGS="$cppflags" LDFLAGS="$ldflags" \
		LIBS="-lgcov $exit_o") >"$work/configure.log" 2>&1 ||
		{ cat "$work/configure.log"; exit 1; }
	echo "$cflags $cppflags $ldflags" >"$work/cflags"
fi

# shellcheck disable=SC2086 # lists
stale=$(python3 "$pertest" stale "$src" "$work" $COVERAGE_TESTS) || exit 1
if [ -n "$stale" ]; then
	echo "coverage: building"
	(cd "$build" && nice "$MAKE" -j"$jobs" &&
		nice "$MAKE" -j"$jobs" check TESTS=) >"$work/build.log" 2>&1 ||
		{ tail -30 "$work/build.log"; echo "coverage: no build"; exit 1; }
	echo "coverage: $(echo "$stale" | wc -w) of" \
		"$(echo "$COVERAGE_TESTS" | wc -w) tests to run, one at a time"
fi
mkdir -p "$work/tests" "$work/gcda"
for t in $stale; do
	name=$(echo "$t" | tr / _)
	find "$build" -name '*.gcda' -exec rm -f {} +
	rm -f "$build/${t%.test}.trs"
	t0=$(date +%s)
	(cd "$build" && timeout -k 10 "$test_timeout" \
		nice "$MAKE" check TESTS="$t") >"$work/test.log" 2>&1
	rc=$?
	result=$(sed -n 's/^:test-result: //p' "$build/${t%.test}.trs" \
		2>/dev/null | head -1)
	[ "$rc" = 124 ] || [ "$rc" = 137 ] && result=TIMEOUT
	: "${result:=ERROR}"
	elapsed=$(($(date +%s) - t0))
	python3 "$pertest" collect "$build" "$src" \
		"$work/tests/$name.json.gz" 2>>"$work/gcov.log" ||
		{ echo "coverage: $t: no record"; exit 1; }
	echo "$elapsed $result" >"$work/tests/$name.time"
	echo "  $t: $result, $elapsed s"
	# The counts themselves, for gcovr's report of everything.
	rm -rf "$work/gcda/$name"
	(cd "$build" && find . -name '*.gcda') | while read -r f; do
		mkdir -p "$work/gcda/$name/$(dirname "$f")" &&
			mv "$build/$f" "$work/gcda/$name/$f"
	done
done
# Their results are not the tree's: a harness that looks for failed
# tests (.ci/run) must not find them.  The logs stay.
find "$build" -name '*.trs' -exec rm -f {} +
# shellcheck disable=SC2086
python3 "$pertest" done "$src" "$work" $COVERAGE_TESTS || exit 1
echo "coverage: $work/map.json: which tests reach each line of src/"
[ "$mode" = map ] && exit 0

: >"$work/tests.txt"
for t in $COVERAGE_TESTS; do
	name=$(echo "$t" | tr / _)
	echo "$(cut -d' ' -f2 "$work/tests/$name.time"): $t" >>"$work/tests.txt"
done

echo "coverage: the report"
# Every test's counts together, in the build where gcovr finds them with
# their notes.  Only the objects of what is installed: the test build's
# load.c (libcoretest, built with the test switches) has other line
# numbers for the same functions, which gcovr cannot merge; configure's
# and the test programs' own are not src/.
find "$build" -name '*.gcda' -exec rm -f {} +
rm -rf "$work/merged"
for t in $COVERAGE_TESTS; do
	d=$work/gcda/$(echo "$t" | tr / _)
	[ -d "$d" ] || continue
	if [ -d "$work/merged" ]; then
		gcov-tool merge -o "$work/merged.new" "$work/merged" "$d" \
			>/dev/null 2>>"$work/gcov.log" &&
			rm -rf "$work/merged" &&
			mv "$work/merged.new" "$work/merged"
	else
		cp -r "$d" "$work/merged"
	fi
done
(cd "$work/merged" 2>/dev/null && find . -name '*.gcda') | while read -r f; do
	cp "$work/merged/$f" "$build/$f"
done
find "$build" \( -name 'tests_lib_*.gc*' -o -name '*conftest*.gc*' \) \
	-exec rm -f {} +
find "$build/tests" -name '*.gcda' -exec rm -f {} +
cd "$work" || exit 1
# A count that gcov cannot parse (a process killed while it wrote its
# counts) is skipped, and said in gcovr.log, rather than losing the report.
gcov_args="-r $src --object-directory $build --filter $src/src/ \
--gcov-ignore-parse-errors"
rm -rf html
mkdir html
# shellcheck disable=SC2086
gcovr $gcov_args --txt lines.txt --html-details html/index.html \
	--exclude-unreachable-branches >/dev/null 2>"$work/gcovr.log" ||
	{ cat "$work/gcovr.log"; exit 1; }
# shellcheck disable=SC2086
gcovr $gcov_args --branches --txt branches.txt \
	--exclude-unreachable-branches >/dev/null 2>>"$work/gcovr.log"
# shellcheck disable=SC2086
python3 "$pertest" report "$work" "$top_srcdir/tests/coverage/explained" \
	"$src" $COVERAGE_SECURITY
cat table.md
echo
echo "coverage: the suite in the instrumented build:" \
	"$(grep -c '^PASS' tests.txt) passed, $(grep -c '^SKIP' tests.txt) skipped," \
	"$(grep -cvE '^(PASS|SKIP)' tests.txt) failed:"
grep -vE '^(PASS|SKIP)' tests.txt | sed 's/^/  /'
echo
echo "coverage: the security-relevant files' branches:"
cat security.md
echo
echo "coverage: their branches not taken both ways, less" \
	"tests/coverage/explained's ($(wc -l <branches-left.txt)):"
sed 's/^/  /' branches-left.txt
echo "coverage: $work/table.md, security.md, branches-left.txt, lines.txt," \
	"branches.txt, html/index.html, map.json"
