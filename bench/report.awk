# SPDX-License-Identifier: LGPL-2.1-or-later
#
# bench/run.sh's report: reads "section round config name value" lines,
# prints the table, writes res/ops.csv and res/summary.csv.

function median(list,    v, n, i, j, t) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	if (n == 0)
		return ""
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

# The median over rounds of a/b, each round paired with itself.
function ratio(sec, a, b, name,    r, list) {
	list = ""
	for (r = 1; r <= maxround[sec]; r++)
		if ((sec, r, a, name) in val && (sec, r, b, name) in val &&
		    val[sec, r, b, name] > 0)
			list = list " " val[sec, r, a, name] / val[sec, r, b, name]
	return median(list)
}

function med(sec, cfg, name,    r, list) {
	list = ""
	for (r = 0; r <= maxround[sec]; r++)
		if ((sec, r, cfg, name) in val)
			list = list " " val[sec, r, cfg, name]
	return median(list)
}

function fmt(x, spec) {
	return x == "" ? "-" : sprintf(spec, x)
}

# A count, or the median of an even number of counts: 17.5, not 18.
function count(x, sign) {
	if (x == "")
		return "-"
	return sprintf(x == int(x) ? "%" sign "d" : "%" sign ".1f", x)
}

# A target: the verdict, and a row of summary.csv.
function target(metric, value, op, limit, unit,    ok) {
	if (value == "")
		ok = "not measured"
	else if (op == "<=")
		ok = value + 0 <= limit ? "met" : "MISSED"
	else
		ok = value + 0 >= limit ? "met" : "MISSED"
	printf "%s,%s,%s %s%s,%s\n", metric, value, op, limit, unit, ok \
		> (res "/summary.csv")
	if (ok == "MISSED")
		missed++
	return ok
}

# A per-call row's +Ir target: 40 (fopen's mode scan, 60), or where the
# least interposer with the library's duties needs more, that floor
# (bench/recvfloor.sh, measured in the same run).
function ir_base(op) {
	return op == "fopen" ? 60 : 40
}

function ir_limit(op,    floor) {
	if (!(("floor", 0, "duties", op) in val))
		return ir_base(op)
	floor = val["floor", 0, "duties", op]
	return floor > ir_base(op) ? floor : ir_base(op)
}

# A row of the whole-system section: a count (the difference lib - empty
# against LIMIT) or, with ratio set, a CPU time (lib/empty of each round,
# their median).  SCALE divides the medians shown.
function whole_row(label, name, limit, unit, ratio_, scale,    p, e, l, d,
		   shown, verdict, line) {
	p = med("whole", "plain", name)
	e = med("whole", "empty", name)
	l = med("whole", "lib", name)
	if (ratio_) {
		d = ratio("whole", "lib", "empty", name)
		shown = fmt(d, "x%.3f")
		if (d != "")
			d = sprintf("%.3f", d)
	} else {
		d = e != "" && l != "" ? l - e : ""
		shown = count(d, "+")
	}
	verdict = limit == "" ? "" : target("whole system: " label,
					    d, "<=", limit, unit)
	line = sprintf("%-32s %9s %9s %9s %9s  %-9s %s", label,
		       ratio_ ? fmt(p == "" ? "" : p / scale, "%.0f") : count(p),
		       ratio_ ? fmt(e == "" ? "" : e / scale, "%.0f") : count(e),
		       ratio_ ? fmt(l == "" ? "" : l / scale, "%.0f") : count(l),
		       shown,
		       limit == "" ? "" : (ratio_ ? "<= " limit : "<= +" limit),
		       verdict)
	sub(/ +$/, "", line)
	print line
}

# A row of counts: the three configurations' values and what lib adds.
function count_row(label, p, e, l, shown, limit, verdict,    line) {
	line = sprintf("%-32s %9s %9s %9s %9s  %-9s %s", label, p, e, l,
		       shown, limit, verdict)
	sub(/ +$/, "", line)
	print line
}

function per(x, n) {
	return x != "" && n > 0 ? x / n : ""
}

function fmt1(x) {
	return x == "" ? "-" : sprintf("%.1f", x)
}

# The figures of a whole workload that noise does not move, each
# configuration's single run (round 0): system calls and processes
# (strace), minor faults (wait4, the median of the CPU rounds) per
# process; for the shell loop also the user-space instructions of every
# process (callgrind), against LIMIT as lib/empty.
function quiet_rows(what, name, limit,    c, n, v, ir, procs, d, shown,
		    verdict) {
	split("plain empty lib", c, " ")
	if (name == "shloop") {
		for (n = 1; n <= 3; n++) {
			ir[c[n]] = med("whole", c[n], "shloop_ir")
			procs[c[n]] = med("whole", c[n], "shloop_ir_procs")
		}
		d = ir["empty"] > 0 && ir["lib"] != "" ? \
			ir["lib"] / ir["empty"] : ""
		shown = fmt(d, "x%.3f")
		verdict = target("whole system: shell loop Ir every process " \
				 "lib/empty", d == "" ? "" : sprintf("%.3f", d),
				 "<=", limit, "")
		count_row(sprintf("shell loop x%d: Ir, %s procs",
				  shloop_lines(), count(procs["lib"])),
			  count(ir["plain"]), count(ir["empty"]),
			  count(ir["lib"]), shown, "<= " limit, verdict)
		d = ir["empty"] != "" && ir["lib"] != "" && procs["lib"] > 0 ? \
			(ir["lib"] - ir["empty"]) / procs["lib"] : ""
		count_row("  Ir per process", fmt(per(ir["plain"],
			  procs["plain"]), "%.0f"), fmt(per(ir["empty"],
			  procs["empty"]), "%.0f"), fmt(per(ir["lib"],
			  procs["lib"]), "%.0f"), fmt(d, "%+.0f"), "", "")
	}
	for (n = 1; n <= 3; n++) {
		procs[c[n]] = med("whole", c[n], name "_procs")
		v["sys", c[n]] = per(med("whole", c[n], name "_sys"),
				     procs[c[n]])
		v["flt", c[n]] = per(med("whole", c[n], name "_flt"),
				     procs[c[n]])
	}
	d = v["sys", "lib"] != "" && v["sys", "empty"] != "" ? \
		v["sys", "lib"] - v["sys", "empty"] : ""
	count_row(sprintf("%s: syscalls/process", what), fmt1(v["sys", "plain"]),
		  fmt1(v["sys", "empty"]), fmt1(v["sys", "lib"]),
		  fmt(d, "%+.1f"), "", "")
	d = v["flt", "lib"] != "" && v["flt", "empty"] != "" ? \
		v["flt", "lib"] - v["flt", "empty"] : ""
	count_row(sprintf("%s: faults/process", what), fmt1(v["flt", "plain"]),
		  fmt1(v["flt", "empty"]), fmt1(v["flt", "lib"]),
		  fmt(d, "%+.1f"), "", "")
	count_row(sprintf("%s: processes", what), count(procs["plain"]),
		  count(procs["empty"]), count(procs["lib"]), "", "", "")
}

function shloop_lines(    k) {
	return shloop_ir_lines ? shloop_ir_lines : 4
}

# What exec adds beyond the start-up of the program that execs (issue
# 35): the library's Ir before execve less its Ir at the start of
# /bin/true (the process start rows), each against the empty preload.
function exec_beyond_start(    x, t, d) {
	x = med("whole", "lib", "exec_ir") - med("whole", "empty", "exec_ir")
	t = med("startir", "lib", "true") - med("startir", "empty", "true")
	d = med("whole", "lib", "exec_ir") != "" && \
	    med("startir", "lib", "true") != "" ? x - t : ""
	count_row("exec: Ir beyond start-up", "", "", "", count(d, "+"),
		  "<= +2000", target("whole system: exec Ir beyond start-up",
				     d, "<=", 2000, ""))
}

function whole_system() {
	print ""
	print "Whole system: every process preloaded (parents too), against " \
		"an empty preload"
	print "(faults: wait4, median of 21 children, median of rounds; CPU: " \
		"children's user+sys,"
	print "median of the rounds' lib/empty; Ir: callgrind; the library's " \
		"share of exec: its"
	print "exec wrapper's inclusive Ir, the plain and empty columns " \
		"libc's execl; the counts under"
	print "each CPU row, which noise does not move: Ir of every " \
		"process (callgrind), system calls"
	print "(strace -f), minor faults (wait4), per process; one run each)"
	printf "%-32s %9s %9s %9s %9s  %s\n", "figure", "plain", "empty",
		"lib", "lib-emp", "target"
	whole_row("exec: Ir before execve", "exec_ir", "", "", 0, 1)
	exec_beyond_start()
	whole_row("exec: Ir in the exec wrapper", "execwrap_ir", 2000, "",
		  0, 1)
	whole_row("fork: child minor faults", "fork_flt", 2, "", 0, 1)
	whole_row("fork+exec: child minor faults", "exec_flt", 8, "", 0, 1)
	whole_row("fork+exec: child Ir", "forkexec_ir", 8000, "", 0, 1)
	whole_row("shell loop x100: CPU ms", "shloop_cpu", 1.03, "", 1,
		  1000)
	quiet_rows("shell loop x100", "shloop", 1.03)
	whole_row("configure -q: CPU s", "configure_cpu", 1.03, "", 1,
		  1000000)
	quiet_rows("configure -q", "configure", "")
}

{
	sec = $1; r = $2; cfg = $3; name = $4
	val[sec, r, cfg, name] = $5
	if (r > maxround[sec])
		maxround[sec] = r
	if (sec == "ops" && !(name in seen)) {
		seen[name] = 1
		order[++nops] = name
	}
}

END {
	print "metric,value,target,verdict" > (res "/summary.csv")
	print "libcloexec benchmarks: " header
	print ""
	printf "Per call (the call and its close), ns: median of %d rounds " \
		"run alternately.\n", rounds
	print "after = create, then fcntl(F_SETFD) by hand; old = under the " \
		"emulated 2008 kernel."
	print "Ratios are medians of per-round ratios.  Ir = instructions in " \
		"user space per call (callgrind)."
	print ""
	printf "%-13s %7s %7s %8s %7s %9s %7s %7s %8s %6s %6s %5s %7s\n",
		"operation", "libc", "native", "fallback", "after", "after-old",
		"nat/lc", "aft/nat", "fb/afto", "Ir lc", "Ir nat", "+Ir",
		"Ir fb"
	csv = res "/ops.csv"
	print "operation,libc_ns,native_ns,fallback_ns,after_ns," \
		"after_old_ns,native_vs_libc,after_vs_native," \
		"fallback_vs_after_old,ir_libc,ir_native,ir_extra," \
		"ir_fallback" > csv
	for (i = 1; i <= nops; i++) {
		op = order[i]
		lc = med("ops", "libc", op)
		nat = med("ops", "native", op)
		fb = med("ops", "fallback", op)
		af = med("ops", "after", op)
		ao = med("ops", "after-old", op)
		r1 = ratio("ops", "native", "libc", op)
		r2 = ratio("ops", "after", "native", op)
		r3 = ratio("ops", "fallback", "after-old", op)
		il = med("ir", "libc", op)
		in_ = med("ir", "native", op)
		ifb = med("ir", "fallback", op)
		extra = il != "" && in_ != "" ? in_ - il : ""
		printf "%-13s %7.0f %7.0f %8.0f %7.0f %9.0f %7.3f %7.3f " \
			"%8.3f %6s %6s %5s %7s\n", op, lc, nat, fb, af, ao,
			r1, r2, r3, fmt(il, "%d"), fmt(in_, "%d"),
			fmt(extra, "%d"), fmt(ifb, "%d")
		printf "%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.3f,%.3f,%.3f,%s,%s," \
			"%s,%s\n", op, lc, nat, fb, af, ao, r1, r2, r3, il,
			in_, extra, ifb > csv
		v[1] = target(op " native/libc wall", sprintf("%.3f", r1),
			      "<=", 1.03, "")
		v[2] = target(op " after/native wall", sprintf("%.3f", r2),
			      ">=", op == "dup" ? 1.3 : 1.0, "")
		v[3] = target(op " fallback/after-old wall",
			      sprintf("%.3f", r3), "<=", 1.10, "")
		v[4] = target(op " extra instructions", extra, "<=",
			      ir_limit(op), "")
		for (k = 1; k <= 4; k++)
			if (v[k] == "MISSED")
				misses[op] = misses[op] " " k
	}
	print ""
	print "Targets per row: (1) nat/lc <= 1.03  (2) aft/nat >= 1 (dup: " \
		">= 1.3)  (3) fb/afto <= 1.10  (4) +Ir <= 40 (fopen: <= 60)"
	for (i = 1; i <= nops; i++)
		if (ir_limit(op = order[i]) > ir_base(op))
			printf "  (4) for %s: its floor, +%d, where +%d is below " \
				"it (bench/recvfloor.sh: the least interposer " \
				"+%d, with the library's duties +%d)\n", op,
				ir_limit(op), ir_base(op),
				val["floor", 0, "bare", op], ir_limit(op)
	for (i = 1; i <= nops; i++)
		if (order[i] in misses)
			printf "  MISSED %-13s targets%s\n", order[i],
				misses[order[i]]

	print ""
	print "Process start, the parent not preloaded, against an empty " \
		"preload (CPU, wall, faults: medians"
	print "of alternating starts; system calls: strace -f -c; " \
		"instructions: callgrind)"
	printf "%-9s %8s %8s %9s %9s %9s %9s %9s\n", "program", "cpu l/e",
		"wall l/e", "cpu e/pl", "sys l-e", "flt l-e", "Ir l-e",
		"Ir lib"
	nprog = split("true startme sed grep pipeline", progs, " ")
	for (i = 1; i <= nprog; i++) {
		p = progs[i]
		ce = med("startcpu", "empty", p)
		cl = med("startcpu", "lib", p)
		cp = med("startcpu", "plain", p)
		we = med("start", "empty", p)
		wl = med("start", "lib", p)
		se = med("startsys", "empty", p)
		sl = med("startsys", "lib", p)
		fe = med("startflt", "empty", p)
		fl = med("startflt", "lib", p)
		ie = med("startir", "empty", p)
		il = med("startir", "lib", p)
		cpu = ce > 0 && cl != "" ? cl / ce : ""
		sys_ = se != "" && sl != "" ? sl - se : ""
		flt = fe != "" && fl != "" ? fl - fe : ""
		ir = ie != "" && il != "" ? il - ie : ""
		printf "%-9s %8s %8s %9s %9s %9s %9s %9s\n", p,
			fmt(cpu, "%.3f"), fmt(we > 0 ? wl / we : "", "%.3f"),
			fmt(cp > 0 && ce != "" ? ce / cp : "", "%.3f"),
			fmt(sys_, "%+d"), fmt(flt, "%+d"), fmt(ir, "%+d"),
			fmt(il, "%d")
		if (p == "pipeline")
			print "  target: pipeline CPU lib/empty <= 1.03: " \
				target("pipeline CPU lib/empty",
				       fmt(cpu, "%.3f"), "<=", 1.03, "")
		if (p == "startme" || p == "pipeline")
			continue
		printf "  targets: system calls <= +2: %s; minor faults " \
			"<= +5: %s; instructions <= +5000: %s\n",
			target(p " start system calls beyond an empty library",
			       sys_, "<=", 2, ""),
			target(p " start minor faults beyond an empty library",
			       flt, "<=", 5, ""),
			target(p " start instructions beyond an empty library",
			       ir, "<=", 5000, "")
	}

	whole_system()

	print ""
	print "fork and posix_spawn (median ns; 2 threads creating sockets " \
		"in the busy rows), creators' rate (calls/s)"
	printf "%-17s %10s %10s %10s %10s %8s %8s %8s\n", "", "libc",
		"empty", "native", "fallback", "nat/lc", "nat/emp", "fb/lc"
	nm = split("fork_idle spawn_idle fork_busy spawn_busy create_alone " \
		   "create_with_fork fork_with_create", metrics, " ")
	for (i = 1; i <= nm; i++) {
		m = metrics[i]
		a = med("spawn", "libc", m)
		e = med("spawn", "empty", m)
		n_ = med("spawn", "native", m)
		f = med("spawn", "fallback", m)
		printf "%-17s %10.0f %10.0f %10.0f %10.0f %8.3f %8.3f %8.3f\n",
			m, a, e, n_, f, ratio("spawn", "native", "libc", m),
			ratio("spawn", "native", "empty", m),
			ratio("spawn", "fallback", "libc", m)
		printf "%s native/libc,%.3f,,\n", m,
			ratio("spawn", "native", "libc", m) > (res "/summary.csv")
		printf "%s fallback/libc,%.3f,,\n", m,
			ratio("spawn", "fallback", "libc", m) > (res "/summary.csv")
		if (m != "fork_idle" && m != "spawn_idle")
			continue
		re_ = e > 0 ? ratio("spawn", "native", "empty", m) : ""
		tgt = tgt sprintf("  target: %s native/empty <= 1.02: %s\n", m,
				  target(m " native/empty preload",
					 re_ == "" ? "" : sprintf("%.3f", re_),
					 "<=", 1.02, ""))
	}
	printf "%s", tgt

	print ""
	bf = ratio("bigfork", "native", "libc", "bigfork")
	printf "fork with 1 GiB resident: libc %.0f ns, native %.0f ns, " \
		"ratio %.3f: target <= 1.05: %s\n",
		med("bigfork", "libc", "bigfork"),
		med("bigfork", "native", "bigfork"), bf,
		target("fork 1 GiB native/libc", sprintf("%.3f", bf), "<=",
		       1.05, "")

	lib_kib = med("memory", "native", "dirty_after") - \
		  med("memory", "libc", "dirty_after")
	per_fd = ((med("memory", "audit", "dirty_after") - \
		   med("memory", "libc", "dirty_after")) - lib_kib) * 1024 / \
		 10000
	printf "memory with 10000 fds: the library's own private dirty " \
		"memory %d KiB (target <= 64: %s);\n", lib_kib,
		target("memory KiB at 10000 fds", lib_kib, "<=", 64, " KiB")
	printf "  audit adds %.1f bytes per fd (target <= 32: %s)\n", per_fd,
		target("audit bytes per fd", sprintf("%.1f", per_fd), "<=",
		       32, " B")
	print ""
	printf "%d targets missed; CSV in %s/ops.csv and %s/summary.csv\n",
		missed, res, res
}
