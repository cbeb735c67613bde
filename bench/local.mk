# SPDX-License-Identifier: LGPL-2.1-or-later

# `make bench`: not part of `make check`; see bench/run.sh.
EXTRA_PROGRAMS = bench/fdbench bench/startme bench/execone bench/forkexec \
	bench/fdinfofloor
bench_fdbench_SOURCES = bench/fdbench.c \
	tests/lib/oldkernel.c tests/lib/oldkernel.h tests/lib/fdmsg.h
bench_fdbench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/lib
bench_fdbench_LDADD = -lpthread
bench_startme_SOURCES = bench/startme.c
bench_execone_SOURCES = bench/execone.c
bench_forkexec_SOURCES = bench/forkexec.c
bench_fdinfofloor_SOURCES = bench/fdinfofloor.c
# Bound at load: a child binding its first call (_exit, execl) lazily runs
# the loader's resolver, whose frame reaches a new stack page in some
# layouts and not in others, with the library or without it: a fault
# that follows ASLR, not the library (doc/benchmarks.md).
bench_forkexec_LDFLAGS = -Wl,-z,now
CLEANFILES += $(EXTRA_PROGRAMS)
EXTRA_DIST += bench/run.sh bench/report.awk bench/pipeline.sh bench/scan.sh \
	bench/loaderfloor.sh bench/recvfloor.sh

bench: bench/fdbench bench/startme bench/execone bench/forkexec \
	  src/libcloexec.la tests/lib/libempty.la
	@$(cannot_run_skip); \
	top_builddir='$(abs_top_builddir)' \
	  CLOEXEC_LIB='$(abs_top_builddir)/src/.libs/libcloexec.so.0' \
	  $(SHELL) $(srcdir)/bench/run.sh
.PHONY: bench

# `make bench-scan`: cloexec --scan at 20,000 and 100,000 sockets, and
# the floor under it (bench/fdinfofloor).
bench-scan: src/cloexec tests/lib/holdfds bench/fdinfofloor
	@CLOEXEC_CMD='$(abs_top_builddir)/src/cloexec' \
	  HOLDFDS='$(abs_top_builddir)/tests/lib/holdfds' \
	  FDINFOFLOOR='$(abs_top_builddir)/bench/fdinfofloor' \
	  OLD_CLOEXEC='$(OLD_CLOEXEC)' $(SHELL) $(srcdir)/bench/scan.sh
.PHONY: bench-scan
