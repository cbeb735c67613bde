# SPDX-License-Identifier: LGPL-2.1-or-later

# The shared core: everything a wrapper stands on.  Convenience
# libraries, so that the unit tests can link it without the interposed
# names.  The policy's load is apart from the rest: the test build of the
# library (tests/local.mk) compiles it again with the test-only switches.
# start.c follows fdtable.c, where its constructor was: constructors run
# in the order of the objects, and the start scan stays before the fork
# handlers' registration (forklock.c).
noinst_LTLIBRARIES += src/libcorebase.la
src_libcorebase_la_SOURCES = \
	src/core/compat.h \
	src/core/creds.c src/core/creds.h \
	src/core/diag.c src/core/diag.h \
	src/core/exec.c src/core/exec.h \
	src/core/export.h \
	src/core/fdprop.h \
	src/core/fdreq.c src/core/fdreq.h \
	src/core/fdtable.c src/core/fdtable.h \
	src/core/start.c \
	src/core/kstat.c \
	src/core/flags.h \
	src/core/forklock.c src/core/forklock.h \
	src/core/handoff.c src/core/handoff.h \
	src/core/image.c src/core/image.h \
	src/core/layers.c src/core/layers.h \
	src/core/line.c src/core/line.h \
	src/core/peek.c src/core/peek.h \
	src/core/load.h \
	src/core/next.c src/core/next.h \
	src/core/pid.c src/core/pid.h \
	src/core/policy.c src/core/policy.h \
	src/core/probe.c src/core/probe.h \
	src/core/real.c src/core/real.h \
	src/core/report.c src/core/report.h \
	src/core/shell.c src/core/shell.h \
	src/core/sink.c src/core/sink.h \
	src/core/sockdiag.c src/core/sockdiag.h \
	src/core/str.h \
	src/core/sys.h \
	src/core/thread.h \
	src/core/why.c src/core/why.h
# Unwind tables: a thread cancelled inside a wrapped call unwinds through
# the wrapper's frame.  No -fexceptions: that would make libgcc_s a
# dependency, loaded into every process (fdreq.c says how cancellation is
# handled without it).
# libcbind.h: the versions of libc the library's own calls are bound at
# (src/symvers.sh bind).
LIB_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden -fasynchronous-unwind-tables \
	-include libcbind.h
src_libcorebase_la_CFLAGS = $(LIB_CFLAGS)

noinst_LTLIBRARIES += src/libcore.la
src_libcore_la_SOURCES = src/core/load.c src/core/load.h
src_libcore_la_CFLAGS = $(LIB_CFLAGS)
src_libcore_la_LIBADD = src/libcorebase.la

# The wrappers: one file per fd family.
noinst_LTLIBRARIES += src/libwrap.la
src_libwrap_la_SOURCES = \
	src/wrap/close.c \
	src/wrap/creds.c \
	src/wrap/dup.c \
	src/wrap/event.c \
	src/wrap/fdflags.c \
	src/wrap/file.c \
	src/wrap/lock.c \
	src/wrap/mount.c \
	src/wrap/msg.c \
	src/wrap/pipe.c \
	src/wrap/pty.c \
	src/wrap/rcmd.c \
	src/wrap/socket.c \
	src/wrap/spawn.c \
	src/wrap/specs.h src/wrap/stream.h \
	src/wrap/stdio.c \
	src/wrap/syscall.c
src_libwrap_la_CFLAGS = $(LIB_CFLAGS)

# The library: the wrappers on top of the core.
lib_LTLIBRARIES += src/libcloexec.la
src_libcloexec_la_SOURCES = src/core/version.c
if OWN_STARTFILES
src_libcloexec_la_SOURCES += src/core/dso.c
endif
src_libcloexec_la_CFLAGS = $(LIB_CFLAGS)
src_libcloexec_la_LIBADD = src/libwrap.la src/libcore.la
# -version-info current:revision:age, the interface being the names in
# src/entrypoints.def and what they do.  It is not the release number.
# A release that changes code but no interface: revision + 1.  One that
# adds entry points: current + 1, age + 1, revision 0.  One that removes or
# changes one: current + 1, revision 0, age 0, and the soname
# (current - age) goes up with the Debian package name (libcloexec0).
# Avoid that: /etc/ld.so.preload files in images name libcloexec.so.0,
# and cloexec(1) preloads it by that name.
src_libcloexec_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-Wl,--version-script=src/libcloexec.map $(STARTFILES_LDFLAGS)
EXTRA_src_libcloexec_la_DEPENDENCIES = src/libcloexec.map

# The exported names are the rows of entrypoints.def, and nothing else: its
# ENTRY rows, less those the C library lacks (configure's CLOEXEC_ABSENT:
# glibc's fortify names and the like, on musl), and the ALIAS rows that
# this libc has (config.h).  Their versions are the C library's own
# (src/symvers.sh): the version script, and symvers.h for the wrappers of
# the older versions.
src/libcloexec.names: $(top_srcdir)/src/entrypoints.def config.h $(top_builddir)/config.status
	$(AM_V_GEN)$(MKDIR_P) src && \
	printf '%s\n' '#include "config.h"' \
	  '#define ENTRY(sym, ...) sym@@' '#define ALIAS(sym, entry) sym@@' \
	  '#include "entrypoints.def"' | \
	  $(CC) -E -P -x c -I$(top_builddir) -I$(top_srcdir)/src - | \
	  sed -n 's/^[ \t]*\([A-Za-z_0-9]*\)@@.*/\1/p' | \
	  awk -v absent='$(CLOEXEC_ABSENT)' \
	    'BEGIN { n = split(absent, a, " "); \
	             for (i = 1; i <= n; i++) out[a[i]] = 1 } \
	     !($$0 in out)' > $@-t && mv $@-t $@
SYMVERS = $(SHELL) $(top_srcdir)/src/symvers.sh
src/libcloexec.map: src/libcloexec.names $(top_srcdir)/src/symvers.sh
	$(AM_V_GEN)$(SYMVERS) map '$(READELF)' src/libcloexec.names \
	  $(CLOEXEC_LIBC_FILES) > $@-t && mv $@-t $@
symvers.h: src/libcloexec.names $(top_srcdir)/src/symvers.sh
	$(AM_V_GEN)$(SYMVERS) header '$(READELF)' src/libcloexec.names \
	  $(CLOEXEC_LIBC_FILES) > $@-t && mv $@-t $@
libcbind.h: src/libcloexec.names $(top_srcdir)/src/symvers.sh
	$(AM_V_GEN)$(SYMVERS) bind '$(READELF)' src/libcloexec.names \
	  $(CLOEXEC_LIBC_FILES) > $@-t && mv $@-t $@
BUILT_SOURCES += symvers.h libcbind.h
CLEANFILES += src/libcloexec.names src/libcloexec.map symvers.h libcbind.h
EXTRA_DIST += src/symvers.sh
EXTRA_DIST += src/entrypoints.def
EXTRA_DIST += src/core/handoff.def src/handoff.sh src/core/why.def src/why.sh

bin_PROGRAMS += src/cloexec
src_cloexec_SOURCES = src/cmd/cloexec.c src/cmd/status.c src/cmd/status.h \
	src/cmd/audit.h \
	src/cmd/audit_log.c src/cmd/audit_log.h \
	src/cmd/audit_line.c src/cmd/audit_line.h \
	src/cmd/audit_tree.c src/cmd/audit_tree.h \
	src/cmd/audit_verdict.c src/cmd/audit_verdict.h \
	src/cmd/audit_json.c src/cmd/audit_json.h \
	src/cmd/audit_out.c src/cmd/audit_out.h src/cmd/audit_int.h \
	src/cmd/list.c src/cmd/list.h \
	src/cmd/run.c src/cmd/run.h \
	src/cmd/pending.c src/cmd/pending.h \
	src/cmd/summarize.c src/cmd/summarize.h \
	src/cmd/inspect.c src/cmd/inspect.h src/cmd/preload.c src/cmd/preload.h \
	src/cmd/intree.c src/cmd/intree.h src/cmd/elfcheck.c src/cmd/elfcheck.h \
	src/cmd/scan.c src/cmd/scan.h src/cmd/scan_prom.c src/cmd/scan_prom.h \
	src/cmd/socktab.c src/cmd/socktab.h \
	src/cmd/fdfs.c src/cmd/fdfs.h src/cmd/escape.c src/cmd/escape.h \
	src/cmd/logcopy.c src/cmd/logcopy.h src/cmd/mem.c src/cmd/mem.h
src_cloexec_CPPFLAGS = $(AM_CPPFLAGS) \
	-DCLOEXEC_BUILD_DIR='"$(abs_top_builddir)/src"' \
	-DCLOEXEC_SANITIZER_RUNTIME='"$(SAN_LIB)"'
src_cloexec_LDADD = src/libcore.la
