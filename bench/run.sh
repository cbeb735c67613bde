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
here=$(cd "$(dirname "$0")" && pwd)
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
	empty) env LD_PRELOAD="$empty" "$fdbench" "$@" ;;
	native) env LD_PRELOAD="$CLOEXEC_LIB" "$fdbench" "$@" ;;
	audit) env LD_PRELOAD="$CLOEXEC_LIB" CLOEXEC_POLICY=audit \
		"$fdbench" "$@" ;;
	fallback) env LD_PRELOAD="$CLOEXEC_LIB" "$fdbench" --oldkernel "$@" ;;
	after) env -u LD_PRELOAD "$fdbench" --fcntl-after "$@" ;;
	after-old) env -u LD_PRELOAD "$fdbench" --fcntl-after --oldkernel "$@" ;;
	esac
}

# The programs of the start-up figures, as command lines (no blanks in
# their words), and the preload of each configuration.
echo x >"$tmp/input"
command_of() {
	case $1 in
	true) echo /bin/true ;;
	startme) echo "$startme" ;;
	sed) echo "/bin/sed s/x/y/ $tmp/input" ;;
	grep) echo "/bin/grep -c x $tmp/input" ;;
	pipeline) echo "/bin/sh $here/pipeline.sh" ;;
	esac
}
preload_of() {
	case $1 in
	plain) echo ;;
	empty) echo "$empty" ;;
	lib) echo "$CLOEXEC_LIB" ;;
	esac
}
preload_opt() {
	[ "$1" = plain ] || echo "-E LD_PRELOAD=$(preload_of "$1")"
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
		for name in true startme sed grep; do
			for cfg in plain empty lib; do
				# shellcheck disable=SC2046
				LD_PRELOAD=$(preload_of $cfg) callgrind \
					"$tmp/cg.start" $(command_of $name)
				echo "startir 0 $cfg $name $(ir_total "$tmp/cg.start")" \
					>>"$raw"
			done
		done
	fi

	# Every process of an image pays the start: /bin/true, a sed and a
	# grep that read a file, and a shell loop of pipelines, each as it
	# is, with an empty library preloaded (the loader's own floor for any
	# preload) and with the library.  Wall, CPU and minor faults are
	# medians of alternating starts (wait4's rusage); system calls are
	# counted by strace -f -c.
	note "bench: process start (wall, CPU, faults, system calls)"
	for name in true startme sed grep pipeline; do
		case $name in
		true | startme) n=300 ;;
		pipeline) n=15 ;;
		*) n=100 ;;
		esac
		# shellcheck disable=SC2046
		bench libc start "$CLOEXEC_LIB" "$empty" $n $(command_of $name) |
			sed "s/^\([a-z]*\) \([a-z]*\) /\1 0 \2 $name /" >>"$raw"
		command -v strace >/dev/null 2>&1 || continue
		for cfg in plain empty lib; do
			# shellcheck disable=SC2046
			env -u LD_PRELOAD strace -f -c -o "$tmp/sc" \
				$(preload_opt $cfg) \
				$(command_of $name) >/dev/null 2>&1
			echo "startsys 0 $cfg $name $(awk '$NF == "total" { print $4 }' "$tmp/sc")" \
				>>"$raw"
		done
	done

	# The empty preload is the floor for fork and spawn too: the child
	# that posix_spawn starts pays the loader's work for any preload.
	note "bench: fork and posix_spawn, idle and with 2 creating threads"
	r=1
	while [ "$r" -le 4 ]; do
		for cfg in $(rotate "$r" libc empty native fallback); do
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
