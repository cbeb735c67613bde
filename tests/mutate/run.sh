#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The mutation campaign (make mutate): each mutant of tests/mutate/mutants
# is applied, alone, to a copy of the release tree, which is built and
# tested: the first tests (MUTATE_ALONE, 4) one at a time, stopping at the
# first that fails, then the rest together, two at a time.
#
#	run.sh [-c] [-n COUNT -s SEED] [ID...]
#
# Without arguments, every mutant; with IDs, those; with -n, COUNT of them
# spread over the table from a place SEED (hex digits: a commit hash)
# chooses.  The copy is built in $MUTATE_DIR (from make: mutate.d in the
# build tree), configured once and rebuilt incrementally: only the file a
# mutant changes, and what links it, is built again.
#
# With MUTATE_MAP (make coverage-map's map.json: which tests reach each
# line of src/), a mutant runs only the tests that reach a line it
# changes (tests/mutate/reach.py), the likely killers first, and one on
# a line no test reaches is UNREACHED, without a build.  Without, every
# test, quick ones first.  A mutant that tests/mutate/explained names (an
# equivalent one, or one on code no program can reach, and why) is
# EXPLAINED, not run (MUTATE_RECHECK=yes runs them too: a killed one has
# a stale reason).  With MUTATE_AUTO=yes (make mutate-auto's table), a
# mutant that does not build is STILLBORN (not a bug: no program has it),
# not an ERROR, and one the compiler makes the same code of (in each
# object it builds again, less debugging data) is SAME CODE: equivalent,
# explained by the compiler.  After MUTATE_TIME_LIMIT seconds, no more
# mutants start.
#
# Prints a table, mutant against the test that killed it (or SURVIVED,
# UNREACHED, EXPLAINED, or ERROR: its text is not in its file exactly
# once, or it does not build), the kill ratio, and the score of each
# file.  Exit status 0 when every mutant chosen was killed or explained.
# With -c, only checks that each mutant's text is in its file exactly
# once, building nothing.  The make target passes: top_srcdir,
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
map=${MUTATE_MAP:-}
explained=$top_srcdir/tests/mutate/explained
auto=${MUTATE_AUTO:-no}
recheck=${MUTATE_RECHECK:-no}
time_limit=${MUTATE_TIME_LIMIT:-}
# A mutant's first tests run one at a time, stopping at the first that
# fails; the rest together, $jobs at a time.
alone=${MUTATE_ALONE:-4}

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

# One run at a time in a directory: two would build in the same tree.
if command -v flock >/dev/null; then
	exec 9>"$work/lock"
	flock -n 9 || { echo "mutate: another run is using $work"; exit 99; }
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

# Which tests each mutant runs: those that reach its lines, where the map
# says (MDIR/ID/tests, or MDIR/ID/unreached); else every test.
if [ -n "$map" ]; then
	[ -f "$map" ] || { echo "mutate: no $map (make coverage-map)"; exit 99; }
	# shellcheck disable=SC2086 # a list
	python3 "$top_srcdir/tests/mutate/reach.py" "$map" "$top_srcdir" \
		"$mdir" "$work/kills" $chosen || exit 99
fi

# is_explained ID: does tests/mutate/explained give a reason for it?
is_explained() {
	[ -f "$explained" ] && grep -q "^$1[[:space:]]" "$explained"
}

# tests_of ID: the tests mutant ID runs, in order.
tests_of() {
	if [ -f "$mdir/$1/tests" ]; then
		cat "$mdir/$1/tests"
	else
		# shellcheck disable=SC2046 # a list
		order $(cat "$mdir/$1/first" 2>/dev/null)
	fi
}

# The mutants that will run, and the tests they need.
to_run=
for id in $chosen; do
	[ -d "$mdir/$id" ] || continue
	[ "$recheck" != yes ] && is_explained "$id" && continue
	[ -f "$mdir/$id/unreached" ] && continue
	to_run="$to_run $id"
done
needed=
for id in $to_run; do
	for t in $(tests_of "$id"); do
		in_list "$t" "$needed" || needed="$needed $t"
	done
done
[ -n "$to_run" ] &&
	echo "mutate: $(echo "$to_run" | wc -w) of $(echo "$chosen" | wc -w)" \
		"mutants to build, $(echo "$needed" | wc -w) tests among them"

build_tree() {
	(cd "$build" && nice "$MAKE" -j"$jobs" && \
		nice "$MAKE" -j"$jobs" check TESTS=) >"$1" 2>&1
}

if [ -n "$to_run" ]; then
	mkdir -p "$build"
	if [ ! -f "$build/Makefile" ]; then
		echo "mutate: configuring $build"
		(cd "$build" && "$src/configure" -q) \
			>"$work/configure.log" 2>&1 ||
			{ cat "$work/configure.log"; exit 99; }
	fi
	echo "mutate: building the unmutated tree"
	build_tree "$work/build.log" ||
		{ tail -30 "$work/build.log"; echo "mutate: no build"; exit 99; }
	# Its code, for telling a mutant the compiler undoes.
	rm -rf "$work/objs"
	(cd "$build" && find . -name '*.o') | while read -r o; do
		mkdir -p "$work/objs/$(dirname "$o")" &&
			objcopy --strip-debug "$build/$o" "$work/objs/$o"
	done
fi

# same_code: did the last build make the same code as the unmutated tree,
# in every object it built again?  (Its debugging data may differ.)
same_code() {
	find "$build" -name '*.o' -newer "$work/stamp" >"$work/rebuilt"
	[ -s "$work/rebuilt" ] || return 1
	while read -r o; do
		objcopy --strip-debug "$o" "$work/stripped.o" &&
			cmp -s "$work/stripped.o" "$work/objs/${o#"$build"/}" ||
			return 1
	done <"$work/rebuilt"
}

# run_test TEST LOG: 0 passed or skipped, 1 failed, 2 timed out, 3 other.
# A test the map has a time for may take four times that, and a minute.
run_test() {
	limit=$(awk -v t="$1" -v max="$test_timeout" '
		$1 == t && $2 * 4 + 60 < max { max = int($2 * 4 + 60) }
		END { print max }' "$mdir/times" 2>/dev/null) ||
		limit=$test_timeout
	rm -f "$build/${1%.test}.trs" "$build/${1%.test}.log"
	(cd "$build" && timeout -k 10 "$limit" \
		nice "$MAKE" check TESTS="$1" >"$2" 2>&1)
	rc=$?
	[ "$rc" = 0 ] && return 0
	[ "$rc" = 124 ] || [ "$rc" = 137 ] && return 2
	grep -Eq '^(FAIL|ERROR): ' "$2" && return 1
	return 3
}

# run_tests LOG TEST...: the tests together, $jobs at a time: 0 all passed
# or skipped, 1 one failed, 2 one timed out (its name in $failed, the
# first in the list that did), 3 other.
run_tests() {
	log=$1
	shift
	limit=$(for t; do
		awk -v t="$t" -v max="$test_timeout" '
			$1 == t && $2 * 4 + 60 < max { max = int($2 * 4 + 60) }
			END { print max }' "$mdir/times" 2>/dev/null ||
			echo "$test_timeout"
	done | awk -v j="$jobs" '{ s += $1 } END { print int(s / j) + 60 }')
	for t; do
		rm -f "$build/${t%.test}.trs" "$build/${t%.test}.log"
	done
	(cd "$build" && timeout -k 10 "$limit" \
		nice "$MAKE" -k -j"$jobs" check TESTS="$*" >"$log" 2>&1)
	rc=$?
	failed=
	for t; do
		if [ ! -f "$build/${t%.test}.trs" ]; then
			failed=$t
			return 2
		fi
		if grep -Eq '^:test-result: (FAIL|ERROR)' \
			"$build/${t%.test}.trs"; then
			failed=$t
			return 1
		fi
	done
	[ "$rc" = 0 ] && return 0
	return 3
}

# The unmutated tree must pass the tests that kill, or every mutant would
# look killed.  MUTATE_BASELINE=yes: every test the mutants run, first
# (their times are printed for ordering the tests); =lazy (the default):
# a test the first time it kills, the tree rebuilt without the mutant;
# =no: none (a harness that ran them on this tree just before).
baseline=${MUTATE_BASELINE:-lazy}
verified=
# verify TEST: exit 99 unless TEST passes on the unmutated tree.
verify() {
	in_list "$1" "$verified" && return 0
	if [ -n "$2" ]; then
		build_tree "$work/build.log" ||
			{ tail -30 "$work/build.log"; echo "mutate: no build"; exit 99; }
	fi
	v0=$(date +%s)
	run_test "$1" "$work/baseline.log"
	rc=$?
	echo "  $1 on the unmutated tree: $(($(date +%s) - v0)) s"
	if [ "$rc" != 0 ]; then
		cat "$work/baseline.log"
		tail -40 "$build/${1%.test}.log" 2>/dev/null
		echo "mutate: $1 fails without a mutant"
		exit 99
	fi
	verified="$verified $1"
}
if [ "$baseline" = yes ] && [ -n "$needed" ]; then
	echo "mutate: the tests on the unmutated tree"
	# shellcheck disable=SC2086 # a list
	for t in $(order $needed); do
		in_list "$t" "$needed" && verify "$t"
	done
elif [ "$baseline" = no ]; then
	verified=$needed
fi

: >"$work/table.txt"
: >"$work/results"
killed=0
n=0
status=0
started=$(date +%s)
for id in $chosen; do
	m=$mdir/$id
	n=$((n + 1))
	t0=$(date +%s)
	result=
	file=$(cat "$m/file" 2>/dev/null)
	where=$file:$(cat "$m/lines" 2>/dev/null)
	if [ -n "$time_limit" ] && [ $((t0 - started)) -ge "$time_limit" ]; then
		result="NOT RUN (time limit)"
	elif [ ! -d "$m" ]; then
		result="ERROR (no such mutant)"
	elif [ "$recheck" != yes ] && is_explained "$id"; then
		result=EXPLAINED
	elif [ -f "$m/unreached" ]; then
		result=UNREACHED
		is_explained "$id" && result=EXPLAINED
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
			touch "$work/stamp"
			if ! build_tree "$work/build-mutant.log"; then
				cp "$work/build-mutant.log" \
					"$work/build-$id.log"
				if [ "$auto" = yes ]; then
					result="STILLBORN (build-$id.log)"
				else
					result="ERROR (no build: build-$id.log)"
				fi
			elif [ "$auto" = yes ] && same_code; then
				result="SAME CODE"
			else
				k=0
				rest=
				for t in $(tests_of "$id"); do
					k=$((k + 1))
					if [ "$k" -gt "$alone" ]; then
						rest="$rest $t"
						continue
					fi
					run_test "$t" "$work/test.log"
					case $? in
					0) continue ;;
					1) result=$t ;;
					2) result="$t (timeout)" ;;
					*) result="ERROR ($t: test-$id.log)"
					   cp "$work/test.log" "$work/test-$id.log" ;;
					esac
					rest=
					break
				done
				if [ -n "$rest" ]; then
					# shellcheck disable=SC2086 # a list
					run_tests "$work/test.log" $rest
					case $? in
					0) ;;
					1) result=$failed ;;
					2) result="$failed (timeout)" ;;
					*) result="ERROR (test-$id.log)"
					   cp "$work/test.log" "$work/test-$id.log" ;;
					esac
				fi
				[ -n "$result" ] || result=SURVIVED
			fi
			restore
			case $result in
			tests/*) verify "${result%% *}" rebuild ;;
			esac
		fi
		if [ "$recheck" = yes ] && is_explained "$id"; then
			case $result in
			SURVIVED) result=EXPLAINED ;;
			tests/*) result="$result: explained, yet killed" ;;
			esac
		fi
	fi
	case $result in
	*"explained, yet killed") status=1 ;;
	tests/*)
		killed=$((killed + 1))
		printf '%s\t%s\n' "$file" "${result%% *}" >>"$work/kills" ;;
	SURVIVED | UNREACHED | ERROR*) status=1 ;;
	esac
	printf '%s\t%s\t%s\n' "$id" "$file" "$result" >>"$work/results"
	line=$(printf '%-26s %-32s %4ss  %s  %s' "$id" "$result" \
		"$(($(date +%s) - t0))" "$where" "$(cat "$m/desc" 2>/dev/null)")
	echo "$line"
	echo "$line" >>"$work/table.txt"
done
echo "mutate: killed $killed of $n ($((n ? killed * 100 / n : 0))%)" |
	tee -a "$work/table.txt"
# Each file's score: killed of those that are not explained (nor
# compiled to the same code, nor stillborn, nor left by the time limit),
# and killed or explained of all.
awk -F '\t' '
	{
		f = $2; r = $3
		if (!(f in all)) order[++nf] = f
		all[f]++
		if (r ~ /^tests\// && r !~ /yet killed/) k[f]++
		else if (r == "EXPLAINED" || r == "SAME CODE") e[f]++
		else if (r ~ /^(STILLBORN|NOT RUN)/) x[f]++
		else if (r == "UNREACHED") u[f]++
		else s[f]++
	}
	function pct(a, b) { return b ? sprintf("%5.1f%%", 100 * a / b) : "    -" }
	END {
		if (!nf) exit
		printf "mutate: per file: killed, explained, unreached, survived " \
			"(or errors), stillborn or not run; the score (killed of " \
			"the rest, less explained); killed or explained\n"
		for (i = 1; i <= nf; i++) {
			f = order[i]
			rest = all[f] - x[f]
			printf "  %-28s %4d %4d %4d %4d %4d  %s  %s\n", f, k[f], e[f],
				u[f], s[f], x[f], pct(k[f], rest - e[f]),
				pct(k[f] + e[f], rest)
			tk += k[f]; te += e[f]; tu += u[f]; ts += s[f]; tx += x[f]
			tr += rest
		}
		printf "  %-28s %4d %4d %4d %4d %4d  %s  %s\n", "total", tk, te,
			tu, ts, tx, pct(tk, tr - te), pct(tk + te, tr)
	}' "$work/results" | tee -a "$work/table.txt"
# The killers' results are not the tree's: a harness that looks for
# failed tests (.ci/run) must not find them.  Their logs stay.
[ -d "$build" ] && find "$build" -name '*.trs' -exec rm -f {} +
[ "$status" = 0 ] || echo "mutate: table in $work/table.txt"
exit $status
