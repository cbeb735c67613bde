#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# CPython's own tests of its fds, as Debian ships them for its python3.11
# (libpython3.11-testsuite: the tests of the interpreter Debian built, so
# nothing to fetch or build).  Python makes every fd non-inheritable
# itself (PEP 446), then hands chosen ones on: subprocess's pass_fds and
# stdio (its child dup2()s onto 0-2, and clears the flag itself where the
# fd is there already), os.set_inheritable, os.dup2's inheritable copy,
# posix_spawn's file actions, pty.fork, SCM_RIGHTS over sockets; and its
# tests check the flags as they go.  A test is a test case's id
# (test.test_os.FDInheritanceTests.test_dup2): ok and expected failures
# pass, FAIL and ERROR fail, skips skip.
set -u

# Python's modules that make, pass, receive and check fds.  VSOCK tests
# hang natively on a kernel without a vsock transport.
modules="test_subprocess test_os test_posix test_pty test_fcntl test_socket
test_tempfile test_selectors test_epoll test_signal"
quick="test_subprocess test_os test_posix test_pty test_fcntl test_socket"

# A test module is one process (-j1): test_subprocess runs minutes on a
# loaded machine.
hang=1200

# The lists of tests are split into words on purpose.
# shellcheck disable=SC2086
case ${1-} in
package) ;;
version) dpkg-query -W -f='${Version}\n' libpython3.11-testsuite ;;
needs) echo python3.11 libpython3.11-testsuite net-tools ;;
# What the quick selection runs: every case of its modules.
quick) for m in $quick; do echo "test.$m."; done ;;
hang) echo $hang ;;
build) ;;
run)
	shift
	cd "$PEERS_WORK" || exit 1
	py() {
		/usr/bin/python3.11 -m test -v -j1 --timeout "$hang" \
			-i '*VSOCK*' "$@"
	}
	if [ $# = 0 ]; then
		if [ -n "${PEERS_QUICK-}" ]; then
			py $quick
		else
			py $modules
		fi
		exit
	fi
	# Test cases again, one by one, in their module.
	for t; do
		m=${t#test.}
		py "${m%%.*}" -m "$t"
	done
	;;
parse)
	# test_dup2 (test.test_os.FDInheritanceTests.test_dup2) ... ok
	# The verdict may come lines later, after what the test printed.
	awk '
		function verdict(s) {
			if (s ~ /\.\.\. ok$|^ok$|expected failure$/) return "PASS"
			if (s ~ /(\.\.\. |^)(FAIL|ERROR)$|unexpected success$/) return "FAIL"
			if (s ~ /(\.\.\. |^)skipped/) return "SKIP"
			return ""
		}
		match($0, /^test[^ ]* \(test\.[^ )]+\)/) {
			if (t != "") print t, "FAIL"
			t = substr($0, RSTART, RLENGTH)
			sub(/^[^(]*\(/, "", t)
			sub(/\)$/, "", t)
		}
		t != "" && (v = verdict($0)) != "" { print t, v; t = "" }
		END { if (t != "") print t, "FAIL" }'
	;;
*)
	echo "usage: $0 package|version|needs|quick|hang|build|run [TEST...]|parse" >&2
	exit 2
	;;
esac
