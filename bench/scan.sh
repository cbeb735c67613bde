#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# `make bench-scan`: cloexec --scan of processes that hold many
# inheritable unix sockets (each looked up in its namespace's sock_diag
# dump, which lists them all): 20,000 and 100,000 sockets, 10,000 to a
# process.  The best of three runs, with OLD_CLOEXEC=PATH also another
# build's, for a ratio in the same run; and the floor (fdinfofloor): the
# CPU of reading each fd's fdinfo once, which any scan must (only there
# does the kernel say whether an fd is close-on-exec), and nothing more.
#
#	make bench-scan [OLD_CLOEXEC=/path/to/old/cloexec]
set -eu
: "${CLOEXEC_CMD:?}" "${HOLDFDS:?}" "${FDINFOFLOOR:?}"
old=${OLD_CLOEXEC-}

# best CMD...: the least of three runs, in seconds: CPU (user + system,
# which another job on the machine does not inflate) where /usr/bin/time
# is there to say it, else wall
best() {
	b=
	for _ in 1 2 3; do
		if [ -x /usr/bin/time ]; then
			t=$(/usr/bin/time -f '%U %S' "$@" 2>&1 >/dev/null |
				tail -1 | awk '{ print $1 + $2 }')
		else
			s=$(date +%s.%N)
			"$@" >/dev/null 2>&1 || true
			t=$(echo "$s $(date +%s.%N)" | awk '{ print $2 - $1 }')
		fi
		b=$(echo "$t ${b:-}" | awk '{ print ($2 == "" || $1 < $2) ? $1 : $2 }')
	done
	echo "$b"
}

# Holders of 10,000 sockets each: one process may not be allowed more.
ulimit -n "$(ulimit -Hn)"
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge 10100 ] || {
	echo "bench-scan: an fd limit of 10100 is needed, not $(ulimit -n)"
	exit 77
}
# floor PID...: the least of three runs of fdinfofloor, in CPU seconds
floor() {
	f=
	for _ in 1 2 3; do
		t=$("$FDINFOFLOOR" "$@" | awk '{ print $1 }')
		f=$(echo "$t ${f:-}" | awk '{ print ($2 == "" || $1 < $2) ? $1 : $2 }')
	done
	echo "$f"
}

printf '%-9s %-12s %-9s %s\n' sockets "cloexec(s)" "floor(s)" \
	"${old:+old(s) old/new}"
for holders in 2 10; do
	pids=
	i=0
	while [ $i -lt $holders ]; do
		ready=$(mktemp)
		"$HOLDFDS" pairs:5000 >"$ready" &
		pids="$pids $!"
		until [ -s "$ready" ]; do sleep 0.1; done
		rm -f "$ready"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	new_s=$(best "$CLOEXEC_CMD" --scan --fail-on=never $pids)
	# shellcheck disable=SC2086
	floor_s=$(floor $pids)
	line=$(printf '%-9s %-12s %-9s' $((holders * 10000)) "$new_s" \
		"$floor_s")
	if [ -n "$old" ]; then
		# shellcheck disable=SC2086
		old_s=$(best "$old" --scan --fail-on=never $pids)
		line="$line $old_s $(echo "$old_s $new_s" |
			awk '{ printf "%.0f", $1 / $2 }')"
	fi
	echo "$line"
	# shellcheck disable=SC2086
	kill $pids
	wait 2>/dev/null || true
done
