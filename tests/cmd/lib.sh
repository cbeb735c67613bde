# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the shell tests: one line per check, exit 1 if any failed.
# The environment comes from AM_TESTS_ENVIRONMENT (tests/local.mk).

: "${CLOEXEC_LIB:?run me from make check}"
: "${CLOEXEC_CMD:?}" "${top_builddir:?}" "${top_srcdir:?}"

MKFD=$top_builddir/tests/lib/mkfd
LEAKY=$top_builddir/examples/leaky
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cloexec-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# Programs started here must not inherit what the harness leaked to us.
for fd in 3 4 5 6 7 8 9; do eval "exec $fd>&-"; done

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

# preloaded COMMAND...: run it with the library, like the container case
preloaded() {
	LD_PRELOAD="${CLOEXEC_SAN_LIB:+$CLOEXEC_SAN_LIB }$CLOEXEC_LIB" "$@"
}

# elf_class FILE: 1 for 32-bit, 2 for 64-bit (the byte after "\177ELF")
elf_class() {
	od -An -tu1 -j4 -N1 "$1" | tr -d ' '
}

finish() {
	exit $failed
}
