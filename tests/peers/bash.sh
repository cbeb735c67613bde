#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bash's own tests (tests/peers/run.sh says how they are run): the shell
# opens redirections straight onto the numbers the script names
# (exec 3<file, {var}>file), moves them above 10 to save them, makes
# pipes for pipelines, coprocs, command and process substitution
# (/dev/fd/63), and hands all of it to the commands it runs.  A test is
# one of tests/run-*, run as run-all runs it; it passes when it prints
# nothing on stdout (its diff against the expected output), as run-all
# has it read.  A failure is FAIL:SUM, SUM the checksum of that diff with
# its digits left out: one that fails both ways, but not alike, differs.
set -u

# The quick selection: the tests of redirections, pipes, coprocs and
# substitutions, which take seconds (read waits a minute on its timeouts).
quick="redir vredir heredoc herestr procsub coproc execscript comsub
comsub-posix lastpipe posixpipe exportfunc"

# A test is one bash running a whole .tests file: ifs-posix runs
# minutes on a loaded machine.
hang=1200

# The lists of tests are split into words on purpose.
# shellcheck disable=SC2086
case ${1-} in
package) echo bash ;;
needs) echo locales ;;
quick) printf '%s\n' $quick ;;
hang) echo $hang ;;
build)
	# As debian/rules builds bash (not bash-static), with the helpers
	# of make tests, and the locale its tests use where the system has
	# not generated it (debian/locale-gen).
	./configure --enable-largefile --without-bash-malloc &&
		make -j2 &&
		make recho zecho printenv xcase &&
		cp recho zecho printenv xcase tests/ &&
		mkdir -p locales &&
		localedef -i en_US -c -f UTF-8 locales/en_US.UTF-8
	;;
run)
	shift
	cd "$PEERS_SRC" || exit 1
	if [ $# = 0 ]; then
		if [ -n "${PEERS_QUICK-}" ]; then
			# shellcheck disable=SC2086
			set -- $quick
		else
			for t in tests/run-*; do
				case ${t#tests/run-} in
				all | minimal | gprof | *.orig | *~) ;;
				*) set -- "$@" "${t#tests/run-}" ;;
				esac
			done
		fi
	fi
	# What the Makefile's "make tests" and run-all set, and Debian's
	# LOCPATH.
	cd tests || exit 1
	THIS_SH=$PEERS_SRC/bash BUILD_DIR=$PEERS_SRC LOCPATH=$PEERS_SRC/locales
	PATH=.:$PEERS_SRC/tests:$PATH
	export THIS_SH BUILD_DIR LOCPATH PATH
	unset BASH_ENV SHELLOPTS
	for t; do
		BASH_TSTOUT=$PEERS_WORK/bashtst-$t
		export BASH_TSTOUT
		echo "== run-$t"
		start=$(date +%s)
		sh "./run-$t" >"$PEERS_WORK/$t.out" 2>"$PEERS_WORK/$t.err"
		cat "$PEERS_WORK/$t.out" "$PEERS_WORK/$t.err"
		echo
		if [ -s "$PEERS_WORK/$t.out" ]; then
			# Which failure: its diff, numbers (PIDs) left out.
			sum=$(tr 0-9 N <"$PEERS_WORK/$t.out" | cksum | cut -d' ' -f1)
			echo "peers-result $t FAIL:$sum $(($(date +%s) - start))s"
		else
			echo "peers-result $t PASS $(($(date +%s) - start))s"
		fi
		rm -f "$BASH_TSTOUT"
	done
	;;
parse) sed -n 's/^peers-result //p' ;;
*)
	echo "usage: $0 package|needs|quick|hang|build|run [TEST...]|parse" >&2
	exit 2
	;;
esac
