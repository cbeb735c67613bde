#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# GNU make's own test suite (tests/peers/run.sh says how it is run):
# make hands its recipes' shells the jobserver's pipe (and clears its
# close-on-exec flag only for the recipes that run a make), merges their
# output through temporary files with -O, and runs make within make.  A
# test is a script of tests/scripts (features/jobserver); "ok" passes,
# FAILED and "Error running" fail (FAIL:3/4 when 3 of its 4 cases
# passed), N/A is a skip.
set -u

quick="features/jobserver features/output-sync features/recursion
features/parallelism features/exec functions/shell variables/MAKE
variables/MAKEFLAGS variables/MAKELEVEL misc/close_stdout misc/fopen-fail"

# A make of a test runs seconds.
hang=300

# The lists of tests are split into words on purpose.
# shellcheck disable=SC2086
case ${1-} in
package) echo make-dfsg ;;
needs) echo perl ;;
quick) printf '%s\n' $quick ;;
hang) echo $hang ;;
build)
	# As debian/rules builds the make package (no Guile).
	autoreconf -fi &&
		./configure --with-guile=no ac_cv_lib_util_getloadavg=no &&
		make -j2 || exit 1
	# The test driver starts each make with an environment of its own
	# making (PATH, HOME, ... and LD_LIBRARY_PATH): LD_PRELOAD goes
	# there too, or only perl would be preloaded.  /etc/ld.so.preload
	# would not be dropped.
	sed -i "s/'LD_LIBRARY_PATH',/'LD_LIBRARY_PATH', 'LD_PRELOAD',/" \
		tests/test_driver.pl || exit 1
	if ! grep -q "'LD_PRELOAD'" tests/test_driver.pl; then
		echo "make.sh: test_driver.pl: no LD_LIBRARY_PATH to add LD_PRELOAD to"
		exit 1
	fi
	;;
run)
	shift
	if [ $# = 0 ] && [ -n "${PEERS_QUICK-}" ]; then
		set -- $quick
	fi
	# As make check runs it: from tests/, where it finds its scripts
	# and makes its work/.
	cd "$PEERS_SRC/tests" &&
		exec perl ./run_make_tests.pl -srcdir "$PEERS_SRC" \
			-make "$PEERS_SRC/make" "$@"
	;;
parse)
	# features/jobserver ............. ok     (8 passed)
	# misc/fopen-fail ................ Error running ... (expected 512; got 11)
	# FAILED (0/1 passed)
	awk '
		function done(r) { if (t != "") print t, r; t = "" }
		/^[a-z]+\/[^ ]+ \.\.\.+/ {
			done("FAIL")
			t = $1
			r = $0
			sub(/^[^ ]+ \.+ */, "", r)
		}
		t == "" { next }
		{ if (!(/^[a-z]+\/[^ ]+ \.\.\.+/)) r = $0 }
		r ~ /^ok / { done("PASS") }
		r ~ /FAILED/ {
			# How many of its cases: FAILED (3/4 passed) is FAIL:3/4.
			n = r
			if (sub(/.*FAILED \(/, "", n) && sub(/ passed.*/, "", n))
				done("FAIL:" n)
			else
				done("FAIL")
		}
		r ~ /^N\/A/ { done("SKIP") }
		END { done("FAIL") }'
	;;
*)
	echo "usage: $0 package|needs|quick|hang|build|run [TEST...]|parse" >&2
	exit 2
	;;
esac
