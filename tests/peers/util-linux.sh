#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# util-linux's own tests of flock, script and lsfd (tests/peers/run.sh
# says how they are run): flock holds a lock through an fd that the
# command it runs inherits, or through a number the caller opened
# (flock 9); script runs a shell on a pty it made, with its log files
# open; lsfd reads every fd of a process (test_mkfds makes them on the
# numbers the test names, and lsfd shows their flags).  A test is a
# script of tests/ts (misc/flock, lsfd/mkfds-pipe-no-fork): its exit
# status and its report (OK, FAILED, SKIPPED) say how it went; a failure
# is FAIL:N,M with the numbers of the subtests that failed, if it has
# subtests.
set -u

tests="misc/flock script/buffering-race script/options script/race
script/replay lsfd/column-kthread lsfd/mkfds-directory
lsfd/mkfds-pipe-no-fork lsfd/mkfds-ro-block-device
lsfd/mkfds-ro-regular-file lsfd/mkfds-rw-character-device
lsfd/mkfds-socketpair lsfd/mkfds-symlink lsfd/option-filter-broken-exp
lsfd/option-pid lsfd/option-summary"
# The quick selection: all but script/race, a minute of the same race.
quick=$(echo "$tests" | tr ' ' '\n' | grep -v '^script/race$')

# A test of theirs runs seconds.
hang=300

# The lists of tests are split into words on purpose.
# shellcheck disable=SC2086
case ${1-} in
package) echo util-linux ;;
needs) echo procps coreutils ;;
quick) printf '%s\n' $quick ;;
hang) echo $hang ;;
build)
	# The programs those tests run, and their helper, no more.
	# Static in-tree libraries: no libtool wrappers between the test and
	# the program.
	./configure --disable-nls --disable-asciidoc --without-python \
		--disable-shared &&
		make -j2 flock script scriptreplay scriptlive lsfd losetup \
			test_mkfds test_script
	;;
run)
	shift
	cd "$PEERS_SRC" || exit 1
	if [ $# = 0 ]; then
		if [ -n "${PEERS_QUICK-}" ]; then
			set -- $quick
		else
			set -- $tests
		fi
	fi
	for t; do
		echo "== $t"
		start=$(date +%s)
		bash "tests/ts/$t" --srcdir="$PEERS_SRC" --builddir="$PEERS_SRC" \
			--show-diff --parsable >"$PEERS_WORK/out" 2>&1
		status=$?
		cat "$PEERS_WORK/out"
		echo
		if [ "$status" != 0 ] || grep -q 'FAILED' "$PEERS_WORK/out"; then
			# Which of its subtests failed ([04] live: FAIL:04).
			sub=$(sed -n 's/.*: \[\([0-9]*\)\] .*FAILED.*/\1/p' \
				"$PEERS_WORK/out" | tr '\n' , | sed 's/,$//')
			echo "peers-result $t FAIL${sub:+:$sub} $(($(date +%s) - start))s"
		elif grep -q ' SKIPPED' "$PEERS_WORK/out"; then
			echo "peers-result $t SKIP $(($(date +%s) - start))s"
		elif grep -q ' OK' "$PEERS_WORK/out"; then
			echo "peers-result $t PASS $(($(date +%s) - start))s"
		else
			echo "peers-result $t FAIL $(($(date +%s) - start))s"
		fi
	done
	;;
parse) sed -n 's/^peers-result //p' ;;
*)
	echo "usage: $0 package|needs|quick|hang|build|run [TEST...]|parse" >&2
	exit 2
	;;
esac
