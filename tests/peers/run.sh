#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# make check-peers: other projects' own test suites, each run twice from
# one build of Debian's source, natively and with the library preloaded
# into every process of the run (LD_PRELOAD exported for the whole run,
# as /etc/ld.so.preload would load it), then compared test by test.
#
# Each suite is a script beside this one (tests/peers/SUITE.sh), with
# these commands:
#   package        the Debian source package (none: the suite is an
#                  installed package's, nothing to fetch or build)
#   quick          the tests of the quick selection (PEERS_QUICK=1); one
#                  that ends in a dot stands for every test it begins
#   version        for a suite of an installed package (no package), its
#                  version
#   build          build what the suite runs, in the unpacked source
#   run [TEST...]  run the suite's selection (or those tests): its output
#   parse          read that output on stdin, write "TEST RESULT" lines
#                  (RESULT: PASS, FAIL or SKIP; a TEST has no blanks)
#   needs          Debian packages the tests run, beyond build-dep's
#   hang           seconds after which a program of a test hangs
#
# The environment (from tests/peers/local.mk): CLOEXEC_LIB (the build's
# library, an absolute path), CLEANSTART (tests/lib/cleanstart), PEERS_DIR
# (the cache in the build tree), PEERS_SUITES, PEERS_QUICK (CI's
# selection), PEERS_RERUNS, PEERS_LIMIT (seconds a run may take),
# PEERS_ACCEPTED.
#
# A test whose result differs is run again alone, PEERS_RERUNS times each
# way, natively first.  It is a difference when every native run agrees,
# every preloaded run agrees, and the two disagree; otherwise it is
# flaky, and listed.  A difference fails the target unless the accepted
# list (tests/peers/accepted) names it, with its reason.
set -u

here=$(cd "$(dirname "$0")" && pwd)
: "${CLOEXEC_LIB:?run me from make check-peers}" "${CLEANSTART:?}"
: "${PEERS_DIR:?}"
suites=${PEERS_SUITES:-socat make bash util-linux python}
quick=${PEERS_QUICK:-}
reruns=${PEERS_RERUNS:-2}
accepted=${PEERS_ACCEPTED:-$here/accepted}
export PEERS_QUICK="$quick"

say() { printf 'check-peers: %s\n' "$*"; }
die() {
	say "$*" >&2
	exit 1
}

case $CLOEXEC_LIB in
/*) ;;
*) die "CLOEXEC_LIB is not an absolute path: $CLOEXEC_LIB" ;;
esac
[ -f "$CLOEXEC_LIB" ] || die "no library at $CLOEXEC_LIB: build it first"
[ -x "$CLEANSTART" ] || die "no $CLEANSTART: make tests/lib/cleanstart"
for s in $suites; do
	[ -f "$here/$s.sh" ] || die "no suite '$s' (tests/peers/$s.sh)"
done
# The loader only warns about a preload it cannot load, and runs on: a
# wrong path would compare the suites with themselves.
probe=$(LD_PRELOAD=$CLOEXEC_LIB sh -c 'grep -c libcloexec /proc/$$/maps' 2>&1)
[ "$probe" -ge 1 ] 2>/dev/null ||
	die "LD_PRELOAD=$CLOEXEC_LIB does not load into sh: $probe"

# What the suites need from the archive: the deb-src lists, build-dep
# of each, and the programs their tests run.  Installed here as root;
# otherwise said.
# shellcheck disable=SC2086
if ! sh "$here/setup.sh" --check $suites; then
	[ "$(id -u)" = 0 ] ||
		die "as root, first run: sh $here/setup.sh $suites"
	sh "$here/setup.sh" $suites || die "setup.sh failed"
fi

mkdir -p "$PEERS_DIR" || exit 1
began=$(date +%s)
summary=$PEERS_DIR/summary.txt
details=$PEERS_DIR/differences.txt
: >"$summary"
: >"$details"
failed=0

# The processes of one run: PID and its descendants (ps, from /proc).
tree() {
	ps -e -o pid=,ppid=,etimes= | awk -v root="$1" -v min="${2:-0}" \
		-v depth="${3:-0}" '
		{ up[$1] = $2; age[$1] = $3 }
		END {
			for (p in up) {
				d = 0
				for (q = p; q != root && (q in up) && q > 1; q = up[q])
					d++
				if (q == root && d >= depth && age[p] >= min)
					print p
			}
		}'
}

# watchdog PID LOG HANG: kills what hangs in the run of PID.  PID is
# `timeout`; its child is the suite's script, which is or runs the
# suite's own driver (test.sh, run_make_tests.pl, each test of bash's and
# of util-linux's); what that starts runs a test, and none of a suite's
# runs longer than HANG seconds (the suite's `hang`).  Such a process is
# killed with what it started, and written in LOG with its command line:
# a test that hangs preloaded has to be read as one that fails.
watchdog() {
	while sleep 5 && kill -0 "$1" 2>/dev/null; do
		for p in $(tree "$1" "$3" 2); do
			args=$( (tr '\0' ' ' <"/proc/$p/cmdline") 2>/dev/null)
			[ -n "$args" ] || continue
			echo "check-peers: killed $p after ${3}s: $args" >>"$2"
			_kids=$(tree "$p")
			# shellcheck disable=SC2086
			kill -TERM $_kids 2>/dev/null
			# Some ignore it (socat 1.7.4 spins once its child is gone).
			# shellcheck disable=SC2086
			(sleep 5 && kill -KILL $_kids 2>/dev/null) &
		done
	done
}

# run_once SUITE MODE LOG [TEST...]: the suite's run, natively or
# preloaded, in a fresh scratch directory, from cleanstart's state.  Both
# ways in the same directory: a path one run has longer than the other
# can fail it (AF_UNIX paths end at 108 bytes).
run_once() {
	_suite=$1 _mode=$2 _log=$3
	shift 3
	_work=$PEERS_DIR/$_suite/work
	rm -rf "$_work" && mkdir -p "$_work" || exit 1
	if [ "$_mode" = preloaded ]; then
		_pre="LD_PRELOAD=$CLOEXEC_LIB"
	else
		_pre=PEERS_NATIVE=1
	fi
	(
		cd "$PEERS_DIR/$_suite/src" || exit 1
		unset LD_PRELOAD CLOEXEC_POLICY CLOEXEC_CONFIG CLOEXEC_AUDIT_FD \
			CLOEXEC_AUDIT_SOCKET CLOEXEC_PRELOAD_ALL MAKEFLAGS MFLAGS \
			MAKELEVEL
		# The system's programs, not a caller's (a pyenv shim, ~/bin).
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
		PEERS_SRC=$PEERS_DIR/$_suite/src PEERS_WORK=$_work TMPDIR=$_work
		export PATH PEERS_SRC PEERS_WORK TMPDIR
		timeout -k 30 "${PEERS_LIMIT:-5400}" "$CLEANSTART" env "$_pre" \
			sh "$here/$_suite.sh" run "$@" </dev/null >"$_log" 2>&1 &
		_pid=$!
		watchdog "$_pid" "$_log" "$(sh "$here/$_suite.sh" hang)" &
		_dog=$!
		wait "$_pid"
		_status=$?
		kill "$_dog" 2>/dev/null
		wait "$_dog" 2>/dev/null
		[ "$_status" != 124 ] ||
			echo "check-peers: the run took over ${PEERS_LIMIT:-5400}s: stopped" >>"$_log"
	)
}

# results LOG: the suite's parse of it, sorted by test.
results() {
	sh "$here/$1.sh" parse <"$2" | sort -k1,1 -u
}

# result_of TEST FILE: its result there, MISSING if the run lost it.
result_of() {
	awk -v t="$1" '$1 == t { r = $2 } END { print r ? r : "MISSING" }' "$2"
}

# reason SUITE TEST: the accepted list's reason for it, if it has one.
reason() {
	[ -f "$accepted" ] || return 0
	awk -v s="$1" -v t="$2" '
		/^#/ || NF < 3 { next }
		$1 == s && $2 == t { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }
	' "$accepted"
}

suite() {
	s=$1
	dir=$PEERS_DIR/$s
	script=$here/$s.sh
	mkdir -p "$dir" || exit 1

	# Fetch: Debian's source, its patches applied; once.
	pkg=$(sh "$script" package)
	if [ -z "$pkg" ]; then
		mkdir -p "$dir/src" && sh "$script" version >"$dir/version"
	elif [ ! -f "$dir/version" ] || [ ! -d "$dir/src" ]; then
		say "$s: apt-get source $pkg"
		rm -rf "$dir/dl" "$dir/src" "$dir/built"
		mkdir -p "$dir/dl"
		(cd "$dir/dl" && apt-get -o APT::Sandbox::User=root source -q=2 \
			"$pkg") >"$dir/fetch.log" 2>&1 ||
			{ tail -20 "$dir/fetch.log"; say "$s: apt-get source failed"; return 1; }
		src=$(find "$dir/dl" -mindepth 1 -maxdepth 1 -type d | head -1)
		[ -n "$src" ] || { say "$s: nothing unpacked"; return 1; }
		mv "$src" "$dir/src" &&
			sed -n 's/^Version: //p' "$dir"/dl/*.dsc | head -1 >"$dir/version"
		rm -rf "$dir/dl"
	fi
	version=$(cat "$dir/version")

	# Build, again when the suite's build command changed.
	stamp=$(sed -n '/^build)/,/;;/p' "$script" | cksum)
	if [ "$(cat "$dir/built" 2>/dev/null)" != "$stamp" ]; then
		say "$s $version: building (log: $dir/build.log)"
		rm -f "$dir/built"
		t0=$(date +%s)
		(cd "$dir/src" && sh "$script" build) >"$dir/build.log" 2>&1 ||
			{ tail -30 "$dir/build.log"; say "$s: the build failed"; return 1; }
		echo "$stamp" >"$dir/built"
		say "$s $version: built in $(($(date +%s) - t0)) s"
	fi

	for mode in native preloaded; do
		t0=$(date +%s)
		run_once "$s" "$mode" "$dir/$mode.log"
		results "$s" "$dir/$mode.log" >"$dir/$mode.res"
		say "$s $version: its tests ran $mode${quick:+ (the quick selection)} in $(($(date +%s) - t0)) s"
	done
	# A quick test that a new version renamed would not run, silently.
	lost=0
	if [ -n "$quick" ]; then
		for t in $(sh "$script" quick); do
			# A test, or with a dot at its end every test it begins.
			awk -v t="$t" '$1 == t || (t ~ /\.$/ && index($1, t) == 1) \
				{ found = 1 } END { exit !found }' "$dir/native.res" &&
				continue
			say "$s: the quick selection's $t did not run natively"
			lost=1
		done
	fi

	# The tests whose results differ, a lost one included.
	awk 'NR == FNR { n[$1] = $2; next }
		{ p[$1] = $2 }
		END {
			for (t in n) if (!(t in p) || p[t] != n[t]) print t
			for (t in p) if (!(t in n)) print t
		}' "$dir/native.res" "$dir/preloaded.res" | sort >"$dir/differ"

	real=0 acc=0 flaky=0
	: >"$dir/diff.txt"
	while read -r t; do
		nat=$(result_of "$t" "$dir/native.res")
		pre=$(result_of "$t" "$dir/preloaded.res")
		k=0
		while [ "$k" -lt "$reruns" ]; do
			k=$((k + 1))
			for mode in native preloaded; do
				log=$dir/rerun/$(echo "$t" | tr / _).$mode.$k.log
				mkdir -p "$dir/rerun"
				run_once "$s" "$mode" "$log" "$t"
				# Run alone, a test of two with one name has its name.
				r=$(results "$s" "$log" | awk -v t="$t" -v u="${t%@*}" \
					'$1 == t || $1 == u { r = $2 }
					END { print r ? r : "MISSING" }')
				if [ "$mode" = native ]; then nat="$nat $r"; else pre="$pre $r"; fi
			done
		done
		# Every run of a side agrees with the others of that side.
		nat1=${nat%% *} pre1=${pre%% *}
		if [ "$(echo "$nat" | tr ' ' '\n' | sort -u | wc -l)" = 1 ] &&
			[ "$(echo "$pre" | tr ' ' '\n' | sort -u | wc -l)" = 1 ] &&
			[ "$nat1" != "$pre1" ]; then
			why=$(reason "$s" "$t")
			if [ -n "$why" ]; then
				acc=$((acc + 1))
				verdict="accepted: $why"
			else
				real=$((real + 1))
				verdict="DIFFERENCE"
			fi
		else
			flaky=$((flaky + 1))
			verdict="flaky"
		fi
		line="$s $t: native $nat; preloaded $pre: $verdict"
		echo "$line" >>"$dir/diff.txt"
		say "  $line"
	done <"$dir/differ"
	cat "$dir/diff.txt" >>"$details"

	# Accepted entries that did not differ: stale, or not run here.
	if [ -f "$accepted" ]; then
		awk -v s="$s" '!/^#/ && $1 == s { print $2 }' "$accepted" |
			while read -r t; do
				grep -q "^$t " "$dir/native.res" || continue
				grep -q "^$s $t: .*accepted" "$dir/diff.txt" ||
					say "  $s $t: accepted, but did not differ in this run"
			done
	fi

	tests=$(cat "$dir/native.res" "$dir/preloaded.res" | awk '{ print $1 }' |
		sort -u | wc -l)
	ran=$(awk '$2 != "SKIP"' "$dir/native.res" | wc -l)
	npass=$(awk '$2 == "PASS"' "$dir/native.res" | wc -l)
	ppass=$(awk '$2 == "PASS"' "$dir/preloaded.res" | wc -l)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$version" "$tests" \
		"$ran" "$npass" "$ppass" "$real" "$acc" "$flaky" >>"$summary"
	say "$s $version: $tests tests, $ran run natively; passed: $npass natively, $ppass preloaded; differences: $real, accepted $acc, flaky $flaky"
	[ "$tests" -gt 0 ] || { say "$s: no test ran"; return 1; }
	[ "$real" = 0 ] && [ "$lost" = 0 ]
}

for s in $suites; do
	suite "$s" || failed=1
done

echo
echo "check-peers${quick:+ (quick)}: each suite natively, then preloaded with $CLOEXEC_LIB"
echo
awk -F '\t' '
	BEGIN {
		printf "%-11s %-18s %6s %6s %7s %7s %5s %8s %5s\n", "suite",
			"version", "tests", "run", "native", "preload", "diffs",
			"accepted", "flaky"
	}
	{
		printf "%-11s %-18s %6d %6d %7d %7d %5d %8d %5d\n", $1, $2, $3, $4,
			$5, $6, $7, $8, $9
		for (i = 3; i <= 9; i++) sum[i] += $i
	}
	END {
		printf "%-11s %-18s %6d %6d %7d %7d %5d %8d %5d\n", "all", "",
			sum[3], sum[4], sum[5], sum[6], sum[7], sum[8], sum[9]
	}' "$summary"
echo "(tests: each suite's tests; run: not skipped natively; native and"
echo "preload: passed; diffs: differences that fail the target)"
if [ -s "$details" ]; then
	echo
	cat "$details"
fi
took="in $(($(date +%s) - began)) s"
if [ "$failed" != 0 ]; then
	echo
	say "FAILED $took (logs in $PEERS_DIR/SUITE/)"
	exit 1
fi
say "passed $took"
