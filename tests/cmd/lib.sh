# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the shell tests: one line per check, exit 1 if any failed.
# The environment comes from AM_TESTS_ENVIRONMENT (tests/local.mk).

: "${CLOEXEC_LIB:?run me from make check}"
: "${CLOEXEC_CMD:?}" "${top_builddir:?}" "${top_srcdir:?}"

MKFD=$top_builddir/tests/lib/mkfd
FIRSTCALL=$top_builddir/tests/lib/firstcall
LEAKY=$top_builddir/examples/leaky
STDFD=$top_builddir/tests/lib/stdfd
MINISH=$(cd "$top_builddir/tests/lib" && pwd)/minish
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cloexec-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# Programs started here must not inherit what the harness leaked to us.
for fd in 3 4 5 6 7 8 9; do eval "exec $fd>&-"; done
# Nor start without a stdin, as a harness may: the first fd a program
# here made would be 0, which the library rightly leaves inheritable, so
# the checks would see another program; and libtool stops (exec 5<&0).
(: 9<&0) 2>/dev/null || exec </dev/null

ok() { echo "ok: $*"; }
not_ok() { echo "FAIL: $*"; failed=1; }

# expect DESCRIPTION GOT WANT
expect() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: got '$2', want '$3'"; fi
}

# expect_match DESCRIPTION TEXT PATTERN (a grep -E pattern)
expect_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok "$1"
	else not_ok "$1: '$2' does not match '$3'"; fi
}

# expect_no_match DESCRIPTION TEXT PATTERN
expect_no_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then not_ok "$1: '$2' matches '$3'"
	else ok "$1"; fi
}

# status COMMAND...: its exit status, output discarded
status() {
	"$@" >/dev/null 2>&1
	echo $?
}

# CLOEXEC_PRELOAD_ALL=1: the system preloads the library into every
# process (/etc/ld.so.preload, as in tests/root/debootstrap.test), these
# tests included.  Then there is nothing to add, and "without the library"
# can only mean with the library forcing nothing.  A test that shows a
# leak without the library runs the program through unpreloaded, or, where
# it needs a program rather than a function (with_sh, a background
# server), through env $UNPRELOAD: env(1) arguments without blanks.
if [ "${CLOEXEC_PRELOAD_ALL-}" = 1 ]; then
	# preloaded COMMAND...: run it with the library
	preloaded() { "$@"; }
	UNPRELOAD=CLOEXEC_POLICY=off
else
	preloaded() {
		LD_PRELOAD="${CLOEXEC_SAN_LIB:+$CLOEXEC_SAN_LIB }$CLOEXEC_LIB" "$@"
	}
	UNPRELOAD="-u LD_PRELOAD"
fi
# unpreloaded COMMAND...: run it without the library's effect
# shellcheck disable=SC2086
unpreloaded() { env $UNPRELOAD "$@"; }

# A musl build's library cannot be preloaded into the system's glibc
# programs (nor a glibc build's into musl ones): their loader refuses it
# and they do not start.  A 32-bit build's is refused by 64-bit programs,
# which say so and run without it.  Where the library follows a program
# into its children, the tests of such a build run a program of its own
# instead: minish for sh, echo and printenv (tests/lib/minish.c).
if [ "$(preloaded /bin/sh -c 'echo ok' 2>&1)" = ok ]; then
	system_takes_lib=true
	SH=sh ECHO=echo PRINTENV=printenv
else
	system_takes_lib=false
	SH=$MINISH ECHO="$MINISH echo" PRINTENV="$MINISH printenv"
fi

# with_sh COMMAND...: run it where /bin/sh, which system() and popen()
# start, takes the library: as it is, or else in a private mount namespace
# with minish bind-mounted on /bin/sh (root, util-linux's unshare).
# sh_replaceable says whether that can be done here.
with_sh() {
	if $system_takes_lib; then
		"$@"
	else
		unshare -m sh -c 'mount --bind "$0" /bin/sh && exec "$@"' \
			"$MINISH" "$@"
	fi
}
sh_replaceable() {
	$system_takes_lib || with_sh true 2>/dev/null
}

# elf_class FILE: 1 for 32-bit, 2 for 64-bit (the byte after "\177ELF")
elf_class() {
	od -An -tu1 -j4 -N1 "$1" | tr -d ' '
}

finish() {
	exit $failed
}
