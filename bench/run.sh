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
# The whole-system section (issue 25) preloads the parent as well as its
# children, as /etc/ld.so.preload does in an image: plain (none), empty
# (tests/lib's library of nothing, every process) and lib (every process).
# Its configure figure takes some minutes: BENCH_QUICK=1 leaves it out.
# Beside each CPU ratio of a whole workload, the counts that noise does
# not move (issue 35): the user-space instructions of every process of a
# short shell loop (callgrind, BENCH_SHLOOP_IR_LINES lines, 4 by default),
# and for the shell loop and configure the system calls (strace -f) and
# minor faults (wait4) per process.
#
# Prints one table and writes it, and the same as CSV, to bench/results/.
set -eu
: "${top_builddir:?}" "${CLOEXEC_LIB:?}"
b=$top_builddir
fdbench=$b/bench/fdbench
startme=$b/bench/startme
forkexec=$b/bench/forkexec
execone=$b/bench/execone
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$here/.." && pwd)
empty=$b/tests/lib/.libs/libempty.so
rounds=${BENCH_ROUNDS:-10}
# The shell loop's lines under callgrind (every process traced is slow).
shloop_ir_n=${BENCH_SHLOOP_IR_LINES:-4}
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
# CONFIG COMMAND...: COMMAND with this configuration's preload, which its
# children inherit.
preloaded() {
	cfg=$1
	shift
	case $cfg in
	plain) env -u LD_PRELOAD "$@" ;;
	*) env LD_PRELOAD="$(preload_of "$cfg")" "$@" ;;
	esac
}

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
		# recvmsg's floors, for its row's target (bench/recvfloor.sh).
		top_builddir=$top_builddir sh "$here/recvfloor.sh" --raw \
			>>"$raw" || true
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
	# A library just linked has pages in the page cache not written back
	# yet, and smaps counts those as Private_Dirty in every process that
	# maps them (some 200 KiB here): written back first.
	sync
	for cfg in libc native audit; do
		bench "$cfg" memory 10000 | sed "s/^/memory 0 $cfg /" >>"$raw"
	done

	whole
}

# The inclusive cost of OBJECT's exec function that costs most (the
# outermost) in callgrind FILE: FILE OBJECT-REGEX.  A function still
# running at the dump, as the exec is at --dump-before=execve, has its cost
# so far.
exec_fn_ir() {
	command -v callgrind_annotate >/dev/null 2>&1 || return 0
	callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
		awk -v obj="$2" '
		/=>/ || $0 !~ obj { next }
		/:(execl|execle|execlp|execv|execve|execvp|execvpe|fexecve|execveat) \[/ {
			v = $1
			gsub(",", "", v)
			if (v + 0 > max)
				max = v + 0
		}
		END { if (max) print max }'
}

# Whole system, issue 25: every process preloaded, the measuring parent
# too, against an empty preload everywhere.  Records "whole ROUND CONFIG
# FIGURE VALUE".
whole() {
	note "bench: whole system: fork and fork+exec, $rounds rounds"
	r=1
	while [ "$r" -le "$rounds" ]; do
		for cfg in $(rotate $((r % 3)) plain empty lib); do
			for m in fork exec; do
				preloaded "$cfg" "$forkexec" "$m" 21 |
					sed -n "s/^flt /whole $r $cfg ${m}_flt /p" \
						>>"$raw"
			done
		done
		r=$((r + 1))
	done

	if $have_valgrind; then
		note "bench: whole system: exec and fork+exec (callgrind)"
		for cfg in plain empty lib; do
			# What a program runs before the kernel's execve: the
			# first (only) dump; the exec itself is not traced.
			rm -f "$tmp"/cgx*
			preloaded "$cfg" valgrind -q --tool=callgrind \
				--dump-before=execve \
				--callgrind-out-file="$tmp/cgx" "$execone" \
				>/dev/null 2>&1 || :
			[ -s "$tmp/cgx.1" ] || continue
			echo "whole 0 $cfg exec_ir $(ir_total "$tmp/cgx.1")" >>"$raw"
			case $cfg in
			lib) obj=libcloexec ;;
			*) obj='/libc[.]so' ;;
			esac
			w=$(exec_fn_ir "$tmp/cgx.1" "$obj")
			[ -z "$w" ] || echo "whole 0 $cfg execwrap_ir $w" >>"$raw"

			# The whole child of a fork+exec: callgrind follows the
			# fork, and with --trace-children the exec; a dump
			# before fork leaves the child only its own costs (from
			# libc's fork on), one before execve ends its first
			# image.  Its files are those named by its pid: the
			# second child's, in the steady state (forkexec.c).
			rm -rf "$tmp/cgf"
			mkdir "$tmp/cgf"
			preloaded "$cfg" valgrind -q --tool=callgrind \
				--trace-children=yes --dump-before=fork \
				--dump-before=execve \
				--callgrind-out-file="$tmp/cgf/cg.%p" \
				"$forkexec" exec 2 >"$tmp/cgf/out" 2>/dev/null || :
			pid=$(sed -n 's/^pid //p' "$tmp/cgf/out")
			if [ -z "$pid" ] || [ ! -s "$tmp/cgf/cg.$pid" ]; then
				continue
			fi
			sum=0
			for f in "$tmp/cgf/cg.$pid" "$tmp/cgf/cg.$pid".*; do
				[ -f "$f" ] || continue
				sum=$((sum + $(ir_total "$f")))
			done
			echo "whole 0 $cfg forkexec_ir $sum" >>"$raw"
		done
	fi

	# A preloaded sh: LD_PRELOAD is in its own environment, so every
	# program of its pipelines has it.  CPU of sh and all it waited for.
	n=$rounds
	[ "$n" -ge 5 ] || n=5
	note "bench: whole system: shell loop, $n rounds"
	r=1
	while [ "$r" -le "$n" ]; do
		for cfg in $(rotate $((r % 3)) plain empty lib); do
			if out=$(preloaded "$cfg" "$forkexec" run /bin/sh \
				"$here/pipeline.sh" 100); then
				echo "$out" | sed -n \
					-e "s/^cpu /whole $r $cfg shloop_cpu /p" \
					-e "s/^flt /whole $r $cfg shloop_flt /p" \
					>>"$raw"
			fi
		done
		r=$((r + 1))
	done
	shloop_counts

	# This project's configure, every process preloaded: a copy of what
	# it reads, since the source tree may be configured in place (which
	# forbids a build elsewhere), each run in a fresh build directory.
	if [ -n "${BENCH_QUICK-}" ] || [ ! -x "$top_srcdir/configure" ]; then
		note "bench: whole system: configure skipped"
		return 0
	fi
	n=${BENCH_CONFIGURE_ROUNDS:-5}
	note "bench: whole system: configure, $n rounds of empty and lib" \
		"(some minutes; BENCH_QUICK=1 skips it)"
	src=$tmp/cfgsrc
	mkdir -p "$src/src/core"
	(cd "$top_srcdir" && cp -R configure config.h.in Makefile.in \
		libcloexec.pc.in build-aux "$src/" &&
		cp src/core/fdreq.c "$src/src/core/")
	r=1
	while [ "$r" -le "$n" ]; do
		for cfg in $(rotate $((r % 2)) empty lib); do
			rm -rf "$src/build"
			mkdir "$src/build"
			if out=$(cd "$src/build" && preloaded "$cfg" \
				"$forkexec" run ../configure -q 2>"$tmp/cfg.err"); then
				echo "$out" | sed -n \
					-e "s/^cpu /whole $r $cfg configure_cpu /p" \
					-e "s/^flt /whole $r $cfg configure_flt /p" \
					>>"$raw"
			else
				note "bench: configure failed under $cfg:" \
					"$(tail -n 3 "$tmp/cfg.err")"
			fi
		done
		r=$((r + 1))
	done
	# Its system calls and processes, once each: the count is the same
	# run to run, but for what the compiler's own choices make differ.
	if command -v strace >/dev/null 2>&1; then
		note "bench: whole system: configure under strace, empty and lib"
		for cfg in empty lib; do
			rm -rf "$src/build"
			mkdir "$src/build"
			# shellcheck disable=SC2046
			if (cd "$src/build" && env -u LD_PRELOAD strace -f -c \
				-o "$tmp/sc" $(preload_opt "$cfg") \
				../configure -q >/dev/null 2>&1); then
				syscalls_of "$tmp/sc" configure "$cfg"
			fi
		done
	fi
	rm -rf "$src"
}

# FILE NAME CONFIG: the system calls and processes (forks + 1) that strace
# -c counted in FILE, as whole rows NAME_sys and NAME_procs.  A fork that
# a signal interrupts is made again (ERESTARTNOINTR): one process, two
# calls, one of them an error.
syscalls_of() {
	awk -v name="$2" -v cfg="$3" '
		$NF == "total" { calls = $4 }
		$NF ~ /^(clone|clone3|fork|vfork)$/ {
			forks += $4 - (NF == 6 ? $5 : 0)
		}
		END {
			if (calls) {
				print "whole 0 " cfg " " name "_sys " calls
				print "whole 0 " cfg " " name "_procs " forks + 1
			}
		}' "$1" >>"$raw"
}

# The shell loop's counts, which noise does not move: user-space
# instructions summed over every process of a short run (callgrind
# follows each fork and exec; a dump before fork leaves a child only its
# own costs, and one before execve ends an image, as for the fork+exec
# figure), and the system calls and processes of the long run, by strace.
shloop_counts() {
	if $have_valgrind; then
		note "bench: whole system: shell loop x$shloop_ir_n (callgrind, every process)"
		for cfg in plain empty lib; do
			rm -rf "$tmp/cgs"
			mkdir "$tmp/cgs"
			preloaded "$cfg" valgrind -q --tool=callgrind \
				--trace-children=yes --dump-before=fork \
				--dump-before=execve \
				--callgrind-out-file="$tmp/cgs/cg.%p" \
				/bin/sh "$here/pipeline.sh" "$shloop_ir_n" \
				>/dev/null 2>&1 || continue
			sum=0
			for f in "$tmp/cgs"/cg.*; do
				[ -f "$f" ] || continue
				sum=$((sum + $(ir_total "$f")))
			done
			procs=$(cd "$tmp/cgs" && ls | sed 's/^cg\.\([0-9]*\).*/\1/' |
				sort -u | wc -l)
			echo "whole 0 $cfg shloop_ir $sum" >>"$raw"
			echo "whole 0 $cfg shloop_ir_procs $procs" >>"$raw"
		done
		rm -rf "$tmp/cgs"
	fi
	command -v strace >/dev/null 2>&1 || return 0
	for cfg in plain empty lib; do
		# shellcheck disable=SC2046
		env -u LD_PRELOAD strace -f -c -o "$tmp/sc" $(preload_opt "$cfg") \
			/bin/sh "$here/pipeline.sh" 100 >/dev/null 2>&1 &&
			syscalls_of "$tmp/sc" shloop "$cfg"
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
	-v shloop_ir_lines="$shloop_ir_n" \
	-f "$(dirname "$0")/report.awk" "$raw" | tee "$res/table.txt"
