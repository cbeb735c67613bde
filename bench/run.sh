#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# `make bench`: libcloexec against plain libc, side by side in one run.
#
# Wall times on a shared machine are noise plus signal, so nothing here is
# a time on its own: every figure is a ratio of configurations run
# alternately in the same minute (median of BENCH_ROUNDS rounds, 10 by
# default), or an instruction count from callgrind, which is the same on
# every run.  The configurations of bench/fdbench:
#
#   libc        the program as it is, no preload
#   native      libcloexec preloaded, this kernel (the flagged calls)
#   fallback    libcloexec preloaded, the emulated 2008 kernel (lock+fcntl)
#   after       no preload, the program sets FD_CLOEXEC itself with fcntl
#   after-old   the same under the emulated kernel: what the fallback is
#               compared with, since the emulation taxes every system call
#
# Prints one table and writes it, and the same as CSV, to bench/results/.
set -eu
: "${top_builddir:?}" "${CLOEXEC_LIB:?}"
b=$top_builddir
fdbench=$b/bench/fdbench
startme=$b/bench/startme
empty=$b/tests/lib/.libs/libempty.so
rounds=${BENCH_ROUNDS:-10}
res=$b/bench/results
mkdir -p "$res"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
raw=$tmp/raw
: >"$raw"
note() { printf '%s\n' "$*" >&2; }

# fdbench under a configuration: CONFIG ARGS...
bench() {
	cfg=$1
	shift
	case $cfg in
	libc) env -u LD_PRELOAD "$fdbench" "$@" ;;
	native) env LD_PRELOAD="$CLOEXEC_LIB" "$fdbench" "$@" ;;
	audit) env LD_PRELOAD="$CLOEXEC_LIB" CLOEXEC_POLICY=audit \
		"$fdbench" "$@" ;;
	fallback) env LD_PRELOAD="$CLOEXEC_LIB" "$fdbench" --oldkernel "$@" ;;
	after) env -u LD_PRELOAD "$fdbench" --fcntl-after "$@" ;;
	after-old) env -u LD_PRELOAD "$fdbench" --fcntl-after --oldkernel "$@" ;;
	esac
}

# Each round runs the configurations in a rotated order.
rotate() { # N WORDS...
	n=$1
	shift
	i=0
	while [ "$i" -lt "$n" ]; do
		first=$1
		shift
		set -- "$@" "$first"
		i=$((i + 1))
	done
	echo "$@"
}

measure() {
	note "bench: per-call cost, $rounds rounds of 5 configurations"
	r=1
	while [ "$r" -le "$rounds" ]; do
		for cfg in $(rotate $((r % 5)) libc native fallback after after-old); do
			bench "$cfg" ops | sed "s/^/ops $r $cfg /" >>"$raw"
		done
		r=$((r + 1))
	done

	# Instructions per iteration inside the timed loop: the difference between
	# a long and a short run, so that resolution and probes fall out.
	have_valgrind=false
	command -v valgrind >/dev/null 2>&1 && have_valgrind=true
	ir_total() { # OUTFILE: the collected instructions
		awk '/^summary:/ { print $2; exit }' "$1"
	}
	callgrind() { # OUT ARGS...: run ARGS under callgrind, quietly
		out=$1
		shift
		valgrind -q --tool=callgrind --callgrind-out-file="$out" "$@" \
			>/dev/null 2>&1
	}
	if $have_valgrind; then
		note "bench: instruction counts (callgrind)"
		ops=$(bench libc --iters 64 ops | awk '{ print $1 }')
		for cfg in libc native fallback; do
			for op in $ops; do
				for n in 640 3200; do
					case $cfg in
					libc) pre= ;;
					*) pre=$CLOEXEC_LIB ;;
					esac
					flags=
					[ "$cfg" = fallback ] && flags=--oldkernel
					LD_PRELOAD=$pre callgrind "$tmp/cg.$n" \
						--toggle-collect=measured_batch \
						"$fdbench" $flags --iters $n ops "$op" ||
						: >"$tmp/cg.$n"
				done
				a=$(ir_total "$tmp/cg.640")
				z=$(ir_total "$tmp/cg.3200")
				if [ -n "$a" ] && [ -n "$z" ]; then
					echo "ir 0 $cfg $op $(((z - a) / 2560))" >>"$raw"
				fi
			done
		done
		note "bench: process start (callgrind)"
		for prog in /bin/true "$startme"; do
			name=$(basename "$prog")
			for cfg in plain empty lib; do
				case $cfg in
				plain) pre= ;;
				empty) pre=$empty ;;
				lib) pre=$CLOEXEC_LIB ;;
				esac
				LD_PRELOAD=$pre callgrind "$tmp/cg.start" "$prog"
				echo "startir 0 $cfg $name $(ir_total "$tmp/cg.start")" \
					>>"$raw"
			done
		done
	fi

	note "bench: process start (wall)"
	for prog in /bin/true "$startme"; do
		name=$(basename "$prog")
		bench libc start "$prog" "$CLOEXEC_LIB" "$empty" 300 |
			sed "s/^start_\([a-z]*\) /start 0 \1 $name /" >>"$raw"
	done

	note "bench: fork and posix_spawn, idle and with 2 creating threads"
	r=1
	while [ "$r" -le 3 ]; do
		for cfg in $(rotate "$r" libc native fallback); do
			bench "$cfg" spawn "$startme" | sed "s/^/spawn $r $cfg /" >>"$raw"
		done
		r=$((r + 1))
	done

	note "bench: fork with 1 GiB resident"
	r=1
	while [ "$r" -le 5 ]; do
		for cfg in $(rotate "$r" libc native); do
			bench "$cfg" bigfork 1024 | sed "s/^/bigfork $r $cfg /" >>"$raw"
		done
		r=$((r + 1))
	done

	note "bench: memory with 10000 open fds"
	for cfg in libc native audit; do
		bench "$cfg" memory 10000 | sed "s/^/memory 0 $cfg /" >>"$raw"
	done
}

# BENCH_RAW=FILE: only the report, from an earlier run's raw.txt.
if [ -n "${BENCH_RAW-}" ]; then
	cp "$BENCH_RAW" "$raw"
else
	measure
fi

cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown)
header="$(date -u +%Y-%m-%d), $cpu, $(nproc) cpus, Linux $(uname -r), $glibc"

cp "$raw" "$res/raw.txt"
awk -v header="$header" -v rounds="$rounds" -v res="$res" \
	-f "$(dirname "$0")/report.awk" "$raw" | tee "$res/table.txt"
