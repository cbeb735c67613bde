#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# socat's own test.sh (tests/peers/run.sh says how it is run): socat
# makes socketpairs, pipes and ptys and hands them to the programs of
# its EXEC and SYSTEM addresses, on stdio or on the numbers that fdin=
# and fdout= name; FD:N takes a number it inherited.  A test is its
# NAME in test.sh (NAME@N where test.sh gives two tests one name: N is
# the number); the result OK passes, FAILED and NO RESULT fail, the rest
# ("... not available") is a skip.
set -u

# The quick selection (CI's): every EXEC and SYSTEM handoff (socketpair,
# pipes, pty; stdio, fdin/fdout; with and without fork; nested socats),
# the FD: and stdio addresses, and what socat tells a child's exit; and
# TUNINTERFACE (root), whose packet socket's recvmsg refused the flag the
# library added (EINVAL), until msg.c asked again.
quick="UNISTDIO DUALSTDIO DUALFDS EXECSOCKET SYSTEMSOCKET EXECPIPES
SYSTEMPIPES EXECPTY SYSTEMPTY SYSTEMPIPESFDS DUALSYSTEMFDS
SYSTEMPIPESFDSFLUSH DUALSYSTEMFDSFLUSH EXECCATNOFORK SYSTEMCATNOFORK
EXEC_NOFORK_UNIDIR SINGLEEXECOUTSOCKETPAIR SINGLEEXECOUTPIPE
SINGLEEXECINSOCKETPAIR SINGLEEXECINPIPE NESTEDSOCATEXEC NESTEDSOCATSYSTEM
EXECENDCLOSE FDOUT_ERROR DIAG_FDIN SYSTEM_RC EXEC_RC EXECPIPESSTDERR
UNIEXECEOF REVEXECEOF SYSTEM_SHUTDOWN TUNINTERFACE"

# A socat of a test runs a few seconds; some of the OpenSSL tests spin
# for ever natively once their child is gone.
hang=120

# The lists of tests are split into words on purpose.
# shellcheck disable=SC2086
case ${1-} in
package) echo socat ;;
needs) echo iputils-ping iproute2 net-tools openssl procps diffutils ;;
quick) printf '%s\n' $quick ;;
hang) echo $hang ;;
build)
	./configure && make -j2
	;;
run)
	shift
	cd "$PEERS_SRC" || exit 1
	# Neither colours nor a terminal's idea of them in the log.
	TERM=dumb
	export TERM
	if [ $# = 0 ] && [ -n "${PEERS_QUICK-}" ]; then
		set -- $quick
	fi
	# test.sh takes a test's name or its number.
	for t; do
		shift
		set -- "$@" "${t#*@}"
	done
	# With no test named, test.sh runs all of them; -N 0 also those that
	# Debian's copy leaves out (NUMCOND: "broken in containers", OpenSSL
	# 1.1), some of them fdin/fdout and SYSTEM tests.
	exec bash ./test.sh -N 0 "$@"
	;;
parse)
	# test  17 DUALSYSTEMFDS: echo via dual system() of cat... OK
	# The result may come on a line of its own, after a message (a
	# shell's "Killed" of a program the watchdog ended).
	sed 's/\x1b\[[0-9;]*m//g' | awk '
		function verdict(r) {
			if (r ~ /^OK/) return "PASS"
			if (r ~ /^(FAILED|NO RESULT)/) return "FAIL"
			return ""
		}
		/^test +[0-9]+ [^ :]+: / {
			name = $3
			sub(/:$/, "", name)
			r = $0
			sub(/^[^:]*: /, "", r)
			if (!sub(/^.*\.\.\. */, "", r)) r = ""
			v = verdict(r)
			n++
			names[n] = name; nums[n] = $2; seen[name]++
			# Nothing yet: a fail, unless a verdict follows.
			res[n] = v != "" ? v : r == "" ? "FAIL" : "SKIP"
			open = v == ""
			next
		}
		open && verdict($0) != "" { res[n] = verdict($0); open = 0 }
		END {
			for (i = 1; i <= n; i++)
				print names[i] (seen[names[i]] > 1 ? "@" nums[i] : ""), res[i]
		}'
	;;
*)
	echo "usage: $0 package|needs|quick|hang|build|run [TEST...]|parse" >&2
	exit 2
	;;
esac
