#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The mutation campaign (make mutate): each mutant of tests/mutate/mutants
# is applied, alone, to a copy of the release tree, which is built and
# tested, the tests one at a time, stopping at the first that fails.
#
#	run.sh [-c] [-n COUNT -s SEED] [ID...]
#
# Without arguments, every mutant; with IDs, those; with -n, COUNT of them
# spread over the table from a place SEED (hex digits: a commit hash)
# chooses.  The copy is built in $MUTATE_DIR (from make: mutate.d in the
# build tree), configured once and rebuilt incrementally: only the file a
# mutant changes, and what links it, is built again.
#
# Prints a table, mutant against the test that killed it (or SURVIVED,
# or ERROR: its text is not in its file exactly once, or it does not
# build), and the kill ratio.  Exit status 0 when every mutant chosen was
# killed.  With -c, only checks that each mutant's text is in its file
# exactly once, building nothing.  The make target passes: top_srcdir,
# top_builddir (absolute), MAKE, MUTATE_DIR, MUTATE_TESTS (the suite, in
# make's order).
set -u
LC_ALL=C
export LC_ALL
: "${top_srcdir:?run me from make mutate}" "${top_builddir:?}"
: "${MUTATE_DIR:?}" "${MUTATE_TESTS:?}" "${MAKE:=make}"
# Another table (make mutate-auto's, made by auto.py): MUTATE_TABLE.
table=${MUTATE_TABLE:-$top_srcdir/tests/mutate/mutants}
apply=$top_srcdir/tests/mutate/apply.awk
jobs=${MUTATE_JOBS:-2}
# A test that runs longer than this is a kill (a mutant that hangs).
test_timeout=${MUTATE_TEST_TIMEOUT:-300}

count=
seed=
check_only=false
while getopts cn:s: opt; do
	case $opt in
	c) check_only=true ;;
	n) count=$OPTARG ;;
	s) seed=$OPTARG ;;
	*) echo "usage: $0 [-c] [-n COUNT -s SEED] [ID...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

# The quick tests, and those most likely to fail, first; the race tests
# and the real programs last.  A test of the suite not named here runs
# after these, in make's order.
quick_first="tests/unit/check_policy tests/unit/check_exec
tests/unit/check_forklock tests/unit/check_flags tests/unit/check_probe
tests/unit/check_real tests/cmd/policy.test tests/cmd/cloexec.test
tests/it/it_entry tests/it/it_policy tests/it/it_window tests/it/it_socket
tests/seeds/seed003_socket tests/seeds/seed004_paccept
tests/seeds/seed005_signalfd tests/seeds/seed006_timerfd
tests/seeds/seed007_epoll tests/seeds/seed008_pipe2
tests/seeds/seed009_nonblock tests/seeds/seed010_pipe2_nonblock
tests/it/it_time64 tests/cmd/layers.test tests/cmd/inherit.test
tests/cmd/audit.test tests/cmd/auditlog.test tests/cmd/errors.test
tests/cmd/inspect.test tests/cmd/exports.test tests/cmd/preload.test
tests/cmd/secure.test tests/cmd/legacy.test tests/cmd/leaks.test
tests/cmd/scan.test tests/cmd/systemd.test tests/cmd/demo.test
tests/cmd/programs.test tests/cmd/install.test tests/it/it_lock
tests/it/race_socket tests/it/race_spawn tests/it/race_load
tests/cmd/servers.test"

# in_list WORD LIST: is WORD one of LIST's words?
in_list() {
	for w in $2; do
		[ "$w" = "$1" ] && return 0
	done
	return 1
}

# The suite, in the order above: FIRST... then the rest.
order() {
	out=
	for t in "$@" $quick_first $MUTATE_TESTS; do
		in_list "$t" "$MUTATE_TESTS" || continue
		in_list "$t" "$out" || out="$out $t"
	done
	echo "$out"
}

# The table, one directory per mutant: file, find, repl, desc, first.
# Records are blocks of "key text" lines (tests/mutate/mutants says
# more).
work=$MUTATE_DIR
# (-c has its own, so that it can run beside a campaign.)
mdir=$work/m
$check_only && mdir=$work/m-check
rm -rf "$mdir"
mkdir -p "$mdir" || exit 99
awk -v dir="$mdir" '
	function put(key, text) {
		f = dir "/" id "/" key
		printf "%s\n", text >> f
		close(f)
	}
	/^#/ || /^[ \t]*$/ { next }
	$1 ~ /^(mutant|file|find|repl|desc|first)$/ {
		key = $1
		text = substr($0, length(key) + 2)
	}
	$1 !~ /^(mutant|file|find|repl|desc|first)$/ {
		# A line of its own: more of the find or repl text.
		if (key != "find" && key != "repl") {
			print "mutants: line " NR ": no key" > "/dev/stderr"
			bad = 1
			next
		}
		text = $0
	}
	key == "mutant" {
		id = text
		if (id in seen) {
			print "mutants: " id " twice" > "/dev/stderr"
			bad = 1
		}
		seen[id] = 1
		ids = ids id "\n"
		system("mkdir \"" dir "/" id "\"")
		next
	}
	{ put(key, text) }
	END {
		printf "%s", ids > (dir "/ids")
		exit bad
	}' "$table" || exit 99

all=$(cat "$mdir/ids")
total=$(echo "$all" | wc -l)
if [ $# -gt 0 ]; then
	chosen=$*
elif [ -n "$count" ]; then
	# COUNT of them, evenly spaced, from a start that SEED picks.
	start=$(printf '%d' "0x$(printf '%s' "${seed:-0}" | cut -c1-7)")
	stride=$((total / count))
	[ "$stride" -ge 1 ] || stride=1
	chosen=
	i=0
	while [ "$i" -lt "$count" ] && [ "$i" -lt "$total" ]; do
		chosen="$chosen $(echo "$all" |
			sed -n "$(((start + i * stride) % total + 1))p")"
		i=$((i + 1))
	done
else
	chosen=$all
fi

# Every mutant chosen applies to the tree as it is, or the table is stale.
stale=0
for id in $chosen; do
	m=$mdir/$id
	file=$(cat "$m/file" 2>/dev/null)
	[ -f "$m/repl" ] || : >"$m/repl"
	if [ ! -d "$m" ] || [ -z "$file" ] || [ ! -f "$m/find" ]; then
		echo "mutate: $id: no such mutant, or no file or find"
		stale=$((stale + 1))
	elif ! awk -f "$apply" "$m/find" "$m/repl" "$top_srcdir/$file" \
		>/dev/null 2>"$work/apply.err"; then
		echo "mutate: $id: ERROR: its text is in $file" \
			"$(cat "$work/apply.err") times, not once"
		stale=$((stale + 1))
	fi
done
if $check_only; then
	echo "mutate: $(echo "$chosen" | wc -w) mutants, $stale stale"
	[ "$stale" = 0 ]
	exit
fi

# The copy: the release tree, refreshed file by file, so that a second
# run rebuilds only what changed since the first.
src=$work/src
build=$work/build
rm -rf "$work/fresh"
(cd "$top_builddir" && "$MAKE" -s distdir distdir="$work/fresh") \
	>"$work/distdir.log" 2>&1 ||
	{ cat "$work/distdir.log"; echo "mutate: no distdir"; exit 99; }
mkdir -p "$src"
(cd "$work/fresh" && find . -type f) | while read -r f; do
	cmp -s "$work/fresh/$f" "$src/$f" && continue
	mkdir -p "$(dirname "$src/$f")" && cp -p "$work/fresh/$f" "$src/$f"
done
rm -rf "$work/fresh"

# Put back the file a mutant changed, newer than what was built from it.
current=
restore() {
	if [ -n "$current" ]; then
		mv "$src/$current.orig" "$src/$current"
		touch "$src/$current"
		current=
	fi
}
trap 'restore' EXIT
trap 'restore; exit 130' INT TERM

build_tree() {
	(cd "$build" && nice "$MAKE" -j"$jobs" && \
		nice "$MAKE" -j"$jobs" check TESTS=) >"$1" 2>&1
}

mkdir -p "$build"
if [ ! -f "$build/Makefile" ]; then
	echo "mutate: configuring $build"
	(cd "$build" && "$src/configure" -q) >"$work/configure.log" 2>&1 ||
		{ cat "$work/configure.log"; exit 99; }
fi
echo "mutate: building the unmutated tree"
build_tree "$work/build.log" ||
	{ tail -30 "$work/build.log"; echo "mutate: no build"; exit 99; }

# run_test TEST LOG: 0 passed or skipped, 1 failed, 2 timed out, 3 other.
run_test() {
	rm -f "$build/${1%.test}.trs" "$build/${1%.test}.log"
	(cd "$build" && timeout -k 10 "$test_timeout" \
		nice "$MAKE" check TESTS="$1" >"$2" 2>&1)
	rc=$?
	[ "$rc" = 0 ] && return 0
	[ "$rc" = 124 ] || [ "$rc" = 137 ] && return 2
	grep -Eq '^(FAIL|ERROR): ' "$2" && return 1
	return 3
}

# The unmutated suite must pass, or every mutant would look killed.
# Its times are printed for ordering the tests.
if [ "${MUTATE_BASELINE:-yes}" = yes ]; then
	echo "mutate: the suite on the unmutated tree"
	for t in $(order); do
		t0=$(date +%s)
		run_test "$t" "$work/baseline.log"
		rc=$?
		echo "  $t: $(($(date +%s) - t0)) s"
		if [ "$rc" != 0 ]; then
			cat "$work/baseline.log"
			tail -40 "$build/${t%.test}.log" 2>/dev/null
			echo "mutate: $t fails without a mutant"
			exit 99
		fi
	done
fi

: >"$work/table.txt"
killed=0
n=0
status=0
for id in $chosen; do
	m=$mdir/$id
	n=$((n + 1))
	t0=$(date +%s)
	result=
	file=$(cat "$m/file" 2>/dev/null)
	if [ ! -d "$m" ]; then
		result="ERROR (no such mutant)"
	elif [ -z "$file" ] || [ ! -f "$m/find" ] || [ ! -f "$src/$file" ]; then
		result="ERROR (no file, or nothing to find)"
	else
		[ -f "$m/repl" ] || : >"$m/repl"
		if ! awk -f "$apply" "$m/find" "$m/repl" "$src/$file" \
			>"$work/mutated" 2>"$work/apply.err"; then
			n_found=$(cat "$work/apply.err")
			result="ERROR (found $n_found times in $file)"
		else
			current=$file
			cp -p "$src/$file" "$src/$file.orig"
			cat "$work/mutated" >"$src/$file"
			if ! build_tree "$work/build-mutant.log"; then
				cp "$work/build-mutant.log" \
					"$work/build-$id.log"
				result="ERROR (no build: build-$id.log)"
			else
				first=$(cat "$m/first" 2>/dev/null)
				# shellcheck disable=SC2086 # a list
				for t in $(order $first); do
					run_test "$t" "$work/test.log"
					case $? in
					0) continue ;;
					1) result=$t ;;
					2) result="$t (timeout)" ;;
					*) result="ERROR ($t: test-$id.log)"
					   cp "$work/test.log" "$work/test-$id.log" ;;
					esac
					break
				done
				[ -n "$result" ] || result=SURVIVED
			fi
			restore
		fi
	fi
	case $result in
	SURVIVED | ERROR*) status=1 ;;
	*) killed=$((killed + 1)) ;;
	esac
	line=$(printf '%-26s %-32s %4ss  %s' "$id" "$result" \
		"$(($(date +%s) - t0))" "$(cat "$m/desc" 2>/dev/null)")
	echo "$line"
	echo "$line" >>"$work/table.txt"
done
echo "mutate: killed $killed of $n ($((n ? killed * 100 / n : 0))%)" |
	tee -a "$work/table.txt"
# The killers' results are not the tree's: a harness that looks for
# failed tests (.ci/run) must not find them.  Their logs stay.
find "$build" -name '*.trs' -exec rm -f {} +
[ "$status" = 0 ] || echo "mutate: table in $work/table.txt"
exit $status
