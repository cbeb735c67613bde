#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# make coverage: the library, the command and everything the tests link,
# built with gcov instrumentation in a copy of the release tree, the whole
# suite run there, and gcovr's report of line and branch coverage per file
# of src/ (Debian's gcovr).
#
#	run.sh
#
# The copy is $COVERAGE_DIR/src (refreshed file by file from make
# distdir), built in $COVERAGE_DIR/build (configured once, CFLAGS -O0
# --coverage).  Counts of an earlier run are removed first.  Writes, in
# $COVERAGE_DIR: table.md (a row a file: lines, branches), lines.txt and
# branches.txt (gcovr's), html/index.html (each file's lines and
# branches, taken or not), tests.txt (the suite's results).
#
# The suite's verdict is not this target's: some tests are about what
# instrumentation changes (startcost.test counts the library's system
# calls at start; gcov writes its counts at every exit), and a process
# that cannot write its counts (run as nobody) says so on stderr.  The
# tests that fail here are listed with the table; the target fails only
# if nothing could be built, or gcovr is missing.
set -u
LC_ALL=C
export LC_ALL
: "${top_srcdir:?run me from make coverage}" "${top_builddir:?}"
: "${COVERAGE_DIR:?}" "${MAKE:=make}"
jobs=${COVERAGE_JOBS:-2}
work=$COVERAGE_DIR
src=$work/src
build=$work/build

if ! command -v gcovr >/dev/null; then
	echo "coverage: needs gcovr (apt-get install gcovr)"
	exit 1
fi

mkdir -p "$work"
rm -rf "$work/fresh"
(cd "$top_builddir" && "$MAKE" -s distdir distdir="$work/fresh") \
	>"$work/distdir.log" 2>&1 ||
	{ cat "$work/distdir.log"; echo "coverage: no distdir"; exit 1; }
mkdir -p "$src"
(cd "$work/fresh" && find . -type f) | while read -r f; do
	cmp -s "$work/fresh/$f" "$src/$f" && continue
	mkdir -p "$(dirname "$src/$f")" && cp -p "$work/fresh/$f" "$src/$f"
done
rm -rf "$work/fresh"

# Counters updated atomically: the race tests' threads would otherwise
# lose increments, and leave counts gcov reads as negative.  libtool
# keeps --coverage out of a shared library's link: -lgcov brings the
# runtime in.
cflags="-O0 -g --coverage -fprofile-update=atomic"
mkdir -p "$build"
if [ ! -f "$build/Makefile" ] ||
	[ "$(cat "$work/cflags" 2>/dev/null)" != "$cflags" ]; then
	echo "coverage: configuring $build"
	rm -rf "$build"
	mkdir -p "$build"
	(cd "$build" && "$src/configure" -q CFLAGS="$cflags" \
		LDFLAGS="--coverage" LIBS="-lgcov") >"$work/configure.log" 2>&1 ||
		{ cat "$work/configure.log"; exit 1; }
	echo "$cflags" >"$work/cflags"
fi
echo "coverage: building"
(cd "$build" && nice "$MAKE" -j"$jobs" && nice "$MAKE" -j"$jobs" check TESTS=) \
	>"$work/build.log" 2>&1 ||
	{ tail -30 "$work/build.log"; echo "coverage: no build"; exit 1; }
find "$build" -name '*.gcda' -exec rm -f {} +

echo "coverage: the suite"
(cd "$build" && nice "$MAKE" -j"$jobs" -k check) >"$work/check.log" 2>&1
grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS): ' "$work/check.log" |
	sort >"$work/tests.txt"
# Their results are not the tree's: a harness that looks for failed
# tests (.ci/run) must not find them.  The logs stay.
find "$build" -name '*.trs' -exec rm -f {} +

echo "coverage: the report"
# Only the objects of what is installed: the test build's policy.c
# (libcoretest, built with the test switches) has other line numbers for
# the same functions, which gcovr cannot merge; configure's and the test
# programs' own are not src/.
find "$build" \( -name 'tests_lib_*.gc*' -o -name '*conftest*.gc*' \) \
	-exec rm -f {} +
find "$build/tests" -name '*.gc*' -exec rm -f {} +
cd "$work" || exit 1
# A count that gcov cannot parse (a process killed while it wrote its
# counts) is skipped, and said in gcovr.log, rather than losing the report.
gcov_args="-r $src --object-directory $build --filter $src/src/ \
--gcov-ignore-parse-errors"
rm -rf html
mkdir html
# shellcheck disable=SC2086
gcovr $gcov_args --txt lines.txt --json-summary summary.json \
	--html-details html/index.html --exclude-unreachable-branches \
	>/dev/null 2>"$work/gcovr.log" ||
	{ cat "$work/gcovr.log"; exit 1; }
# shellcheck disable=SC2086
gcovr $gcov_args --branches --txt branches.txt \
	--exclude-unreachable-branches >/dev/null 2>>"$work/gcovr.log"
python3 - summary.json >table.md <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
def pct(c, t):
    return "%5.1f%%" % (100.0 * c / t) if t else "    -"
print("| file | lines | line % | branches | branch % |")
print("|---|---:|---:|---:|---:|")
for f in sorted(s["files"], key=lambda f: f["filename"]):
    print("| %s | %d/%d | %s | %d/%d | %s |" % (
        f["filename"], f["line_covered"], f["line_total"],
        pct(f["line_covered"], f["line_total"]),
        f["branch_covered"], f["branch_total"],
        pct(f["branch_covered"], f["branch_total"])))
print("| **total** | %d/%d | %s | %d/%d | %s |" % (
    s["line_covered"], s["line_total"],
    pct(s["line_covered"], s["line_total"]),
    s["branch_covered"], s["branch_total"],
    pct(s["branch_covered"], s["branch_total"])))
PY
cat table.md
echo
echo "coverage: the suite in the instrumented build:" \
	"$(grep -c '^PASS' tests.txt) passed, $(grep -c '^SKIP' tests.txt) skipped," \
	"$(grep -cE '^(FAIL|ERROR)' tests.txt) failed:"
grep -E '^(FAIL|ERROR)' tests.txt | sed 's/^/  /'
echo "coverage: $work/table.md, lines.txt, branches.txt, html/index.html"
