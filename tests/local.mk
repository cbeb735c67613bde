# SPDX-License-Identifier: LGPL-2.1-or-later

# What the tests see of the build: the library, the command, the reporter.
# Under the sanitizers, leaks are not looked for: the tests run programs
# that are not ours (sh, printenv); valgrind checks the unit tests for them.
# And the sanitized command may run with another library preloaded first.
# Nothing of the caller's own configuration of the library reaches a test
# (the process state it starts from is tests/lib/cleanstart's).
AM_TESTS_ENVIRONMENT = \
	unset LD_PRELOAD CLOEXEC_POLICY CLOEXEC_CONFIG CLOEXEC_AUDIT_FD \
	  CLOEXEC_AUDIT_SOCKET CLOEXEC_PRELOAD_ALL LIBCLOEXEC_TEST_NO_FORK_LOCK \
	  LIBCLOEXEC_TEST_WINDOW; \
	CLOEXEC_LIB='$(abs_top_builddir)/src/.libs/libcloexec.so.0'; \
	CLOEXEC_TEST_LIB='$(abs_top_builddir)/tests/lib/.libs/libcloexec-test.so'; \
	export CLOEXEC_TEST_LIB; \
	CLOEXEC_CMD='$(abs_top_builddir)/src/cloexec'; \
	CLOEXEC_SAN_LIB='$(SAN_LIB)'; \
	CLOEXEC_ABSENT='$(CLOEXEC_ABSENT)'; \
	CLOEXEC_LIBC_FILES='$(CLOEXEC_LIBC_FILES)'; READELF='$(READELF)'; \
	export CLOEXEC_LIBC_FILES READELF; \
	FDREPORT='$(abs_top_builddir)/tests/lib/fdreport'; \
	OLDKERNEL_LIB='$(abs_top_builddir)/tests/lib/.libs/liboldkernel.so'; \
	export OLDKERNEL_LIB; \
	SLOWINIT_LIB='$(abs_top_builddir)/tests/lib/.libs/libslowinit.so'; \
	export SLOWINIT_LIB; \
	MAPSGATE_LIB='$(abs_top_builddir)/tests/lib/.libs/libmapsgate.so'; \
	export MAPSGATE_LIB; \
	HOLDLINE_LIB='$(abs_top_builddir)/tests/lib/.libs/libholdline.so'; \
	export HOLDLINE_LIB; \
	CTOROPEN_LIB='$(abs_top_builddir)/tests/lib/.libs/libctoropen.so'; \
	export CTOROPEN_LIB; \
	PLANTLINK_LIB='$(abs_top_builddir)/tests/lib/.libs/libplantlink.so'; \
	export PLANTLINK_LIB; \
	top_srcdir='$(top_srcdir)'; top_builddir='$(top_builddir)'; \
	export CLOEXEC_LIB CLOEXEC_CMD CLOEXEC_SAN_LIB CLOEXEC_ABSENT FDREPORT; \
	export top_srcdir top_builddir; \
	MAKE='$(MAKE)'; CC='$(CC)'; export MAKE CC; \
	CLOEXEC_DEBS='$(CLOEXEC_DEBS)'; export CLOEXEC_DEBS; \
	inst_bindir='$(bindir)'; inst_libdir='$(libdir)'; \
	inst_includedir='$(includedir)'; inst_mandir='$(mandir)'; \
	inst_sysconfdir='$(sysconfdir)'; \
	export inst_bindir inst_libdir inst_includedir inst_mandir; \
	export inst_sysconfdir; \
	ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0; \
	export ASAN_OPTIONS;

# Child programs the tests exec.
check_PROGRAMS += tests/lib/fdreport
# What every test starts from: fds 0-2 only, umask, limits, signals.
check_PROGRAMS += tests/lib/cleanstart
tests_lib_cleanstart_SOURCES = tests/lib/cleanstart.c
tests_lib_fdreport_SOURCES = tests/lib/fdreport.c

# Shell tests get the same environment.
TEST_EXTENSIONS = .test

# Where this machine cannot execute the build's programs, every test skips
# with the reason, as do the targets that run them (bench, demo,
# check-valgrind): $(cannot_run_skip) ends their recipe's first command.
# Each test runs under tests/lib/cleanstart: whatever fds, umask, limits
# and ignored signals the caller of make had, the test does not.
if HOST_RUNS
LOG_COMPILER = $(abs_top_builddir)/tests/lib/cleanstart
TEST_LOG_COMPILER = $(LOG_COMPILER) $(SHELL)
cannot_run_skip = :
else
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/lib/cannot-run.sh
TEST_LOG_COMPILER = $(LOG_COMPILER)
cannot_run_skip = echo "$@: skipped: this machine cannot run the programs" \
	"that '$(CC)' makes (see config.log)"; exit 0
endif
EXTRA_DIST += tests/lib/cannot-run.sh

if HAVE_CHECK
check_LTLIBRARIES += tests/lib/libtest.la
tests_lib_libtest_la_SOURCES = \
	tests/lib/oldkernel.c tests/lib/oldkernel.h \
	tests/lib/seedcheck.c tests/lib/seedcheck.h \
	tests/lib/testlib.c tests/lib/testlib.h tests/lib/fdmsg.h
tests_lib_libtest_la_CPPFLAGS = $(AM_CPPFLAGS) $(CHECK_CFLAGS) \
	$(KERNEL_TEST_CPPFLAGS)

TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/lib $(CHECK_CFLAGS)
UNIT_LIBS = tests/lib/libtest.la src/libcore.la $(CHECK_LIBS)
UNIT_TEST_SWITCH_LIBS = tests/lib/libtest.la tests/lib/libcoretest.la \
	$(CHECK_LIBS)
IT_LIBS = tests/lib/libtest.la $(CHECK_LIBS)

# Unit tests: the core, linked directly (no interposed names).
UNIT_TESTS = \
	tests/unit/check_escape \
	tests/unit/check_exec \
	tests/unit/check_flags \
	tests/unit/check_forklock \
	tests/unit/check_line \
	tests/unit/check_peek \
	tests/unit/check_policy \
	tests/unit/check_probe \
	tests/unit/check_real
check_PROGRAMS += $(UNIT_TESTS)
# The command's escapes, its source linked in (no core behind it).
tests_unit_check_escape_SOURCES = tests/unit/check_escape.c src/cmd/escape.c
tests_unit_check_escape_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_check_escape_LDADD = tests/lib/libtest.la $(CHECK_LIBS)
tests_unit_check_exec_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_check_exec_LDADD = $(UNIT_LIBS)
tests_unit_check_flags_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_check_flags_LDADD = $(UNIT_LIBS)
tests_unit_check_forklock_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_check_forklock_LDADD = $(UNIT_LIBS)
tests_unit_check_line_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_check_line_LDADD = $(UNIT_LIBS)
tests_unit_check_peek_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_check_peek_LDADD = $(UNIT_LIBS)
tests_unit_check_policy_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_check_policy_LDADD = $(UNIT_TEST_SWITCH_LIBS)
tests_unit_check_probe_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_check_probe_LDADD = $(UNIT_LIBS)
tests_unit_check_real_CPPFLAGS = $(TEST_CPPFLAGS)
tests_unit_check_real_LDADD = $(UNIT_LIBS)

# Integration tests: real calls, with and without the preloaded library,
# on this kernel and on the emulated one (tests/lib/testlib.h).
IT_TESTS = \
	tests/it/it_entry \
	tests/it/it_null \
	tests/it/it_lock \
	tests/it/it_window \
	tests/it/it_policy \
	tests/it/it_socket \
	tests/it/race_socket \
	tests/it/race_spawn \
	tests/it/race_load \
	tests/it/it_time64 \
	tests/seeds/seed003_socket \
	tests/seeds/seed004_paccept \
	tests/seeds/seed005_signalfd \
	tests/seeds/seed006_timerfd \
	tests/seeds/seed007_epoll \
	tests/seeds/seed008_pipe2 \
	tests/seeds/seed009_nonblock \
	tests/seeds/seed010_pipe2_nonblock
check_PROGRAMS += $(IT_TESTS)
tests_it_it_entry_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_it_entry_LDADD = $(IT_LIBS) -lutil
tests_it_it_null_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_it_null_LDADD = $(IT_LIBS) -lutil
tests_it_it_lock_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_it_lock_LDADD = $(IT_LIBS)
tests_it_it_window_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_it_window_LDADD = $(IT_LIBS)
tests_it_it_policy_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_it_policy_LDADD = $(IT_LIBS)
tests_it_it_socket_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_it_socket_LDADD = $(IT_LIBS)
tests_it_race_spawn_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_race_spawn_LDADD = $(IT_LIBS)
tests_it_race_socket_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_race_socket_LDADD = $(IT_LIBS)
tests_it_race_load_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_race_load_LDADD = $(IT_LIBS)
tests_it_it_time64_CPPFLAGS = $(TEST_CPPFLAGS)
tests_it_it_time64_LDADD = $(IT_LIBS)
tests_seeds_seed003_socket_CPPFLAGS = $(TEST_CPPFLAGS)
tests_seeds_seed003_socket_LDADD = $(IT_LIBS)
tests_seeds_seed004_paccept_CPPFLAGS = $(TEST_CPPFLAGS)
tests_seeds_seed004_paccept_LDADD = $(IT_LIBS)
tests_seeds_seed005_signalfd_CPPFLAGS = $(TEST_CPPFLAGS)
tests_seeds_seed005_signalfd_LDADD = $(IT_LIBS)
tests_seeds_seed006_timerfd_CPPFLAGS = $(TEST_CPPFLAGS)
tests_seeds_seed006_timerfd_LDADD = $(IT_LIBS)
tests_seeds_seed007_epoll_CPPFLAGS = $(TEST_CPPFLAGS)
tests_seeds_seed007_epoll_LDADD = $(IT_LIBS)
tests_seeds_seed008_pipe2_CPPFLAGS = $(TEST_CPPFLAGS)
tests_seeds_seed008_pipe2_LDADD = $(IT_LIBS)
tests_seeds_seed009_nonblock_CPPFLAGS = $(TEST_CPPFLAGS)
tests_seeds_seed009_nonblock_LDADD = $(IT_LIBS)
tests_seeds_seed010_pipe2_nonblock_CPPFLAGS = $(TEST_CPPFLAGS)
tests_seeds_seed010_pipe2_nonblock_LDADD = $(IT_LIBS)

TESTS += $(UNIT_TESTS) $(IT_TESTS)
endif

# The test build of the library: the same, with the test-only switches
# (LIBCLOEXEC_TEST_NO_FORK_LOCK) honoured, for the race tests' phase with
# the lock off.  Built by make check only: the library that is installed
# has no switch, nor its name (tests/cmd/exports.test).
check_LTLIBRARIES += tests/lib/libcoretest.la
tests_lib_libcoretest_la_SOURCES = src/core/load.c src/core/load.h
tests_lib_libcoretest_la_CPPFLAGS = $(AM_CPPFLAGS) -DCLOEXEC_TEST_SWITCHES=1
tests_lib_libcoretest_la_CFLAGS = $(LIB_CFLAGS)
tests_lib_libcoretest_la_LIBADD = src/libcorebase.la
check_LTLIBRARIES += tests/lib/libcloexec-test.la
tests_lib_libcloexec_test_la_SOURCES = src/core/version.c
if OWN_STARTFILES
tests_lib_libcloexec_test_la_SOURCES += src/core/dso.c
endif
tests_lib_libcloexec_test_la_CFLAGS = $(LIB_CFLAGS)
tests_lib_libcloexec_test_la_LIBADD = src/libwrap.la tests/lib/libcoretest.la
tests_lib_libcloexec_test_la_LDFLAGS = -module -avoid-version \
	-rpath /nowhere -no-undefined \
	-Wl,--version-script=src/libcloexec.map $(STARTFILES_LDFLAGS)
EXTRA_tests_lib_libcloexec_test_la_DEPENDENCIES = src/libcloexec.map

check_PROGRAMS += tests/lib/mkfd tests/lib/holdfds tests/lib/firstcall
# Bound to older versions of libc functions (tests/cmd/symvers.test).
check_PROGRAMS += tests/lib/oldver
tests_lib_oldver_SOURCES = tests/lib/oldver.c
tests_lib_mkfd_SOURCES = tests/lib/mkfd.c
tests_lib_holdfds_SOURCES = tests/lib/holdfds.c
tests_lib_firstcall_SOURCES = tests/lib/firstcall.c
# A FUSE file that never answers a stat (scan.test; skipped without it).
EXTRA_DIST += tests/lib/stuckfs.c
if HAVE_FUSE3
check_PROGRAMS += tests/lib/stuckfs
tests_lib_stuckfs_SOURCES = tests/lib/stuckfs.c
tests_lib_stuckfs_CFLAGS = $(AM_CFLAGS) $(FUSE3_CFLAGS)
tests_lib_stuckfs_LDADD = $(FUSE3_LIBS)
endif

# A kernel without openat2, for its children (preload.test).
check_PROGRAMS += tests/lib/noopenat2 tests/lib/flipname
tests_lib_flipname_SOURCES = tests/lib/flipname.c
tests_lib_noopenat2_SOURCES = tests/lib/noopenat2.c
tests_lib_noopenat2_CPPFLAGS = $(AM_CPPFLAGS) $(KERNEL_TEST_CPPFLAGS)

# The inheritance tests' C parent; their setuid program is built by the
# test itself, linked with the library (setuid ignores LD_PRELOAD).
check_PROGRAMS += tests/lib/pipefd
tests_lib_pipefd_SOURCES = tests/lib/pipefd.c
check_PROGRAMS += tests/lib/handon
tests_lib_handon_SOURCES = tests/lib/handon.c
tests_lib_handon_LDADD = -lutil
EXTRA_DIST += tests/lib/suidfd.c

# For programs without a test harness (and any C library, no Check): the
# std-fd idioms, a stand-in shell, the emulated old kernel as a preload.
check_PROGRAMS += tests/lib/stdfd tests/lib/minish tests/lib/suidexec
tests_lib_stdfd_SOURCES = tests/lib/stdfd.c
tests_lib_suidexec_SOURCES = tests/lib/suidexec.c
tests_lib_minish_SOURCES = tests/lib/minish.c
check_LTLIBRARIES += tests/lib/liboldkernel.la
tests_lib_liboldkernel_la_SOURCES = tests/lib/oldkernel-preload.c \
	tests/lib/oldkernel.c tests/lib/oldkernel.h
tests_lib_liboldkernel_la_CPPFLAGS = $(AM_CPPFLAGS) $(KERNEL_TEST_CPPFLAGS)
tests_lib_liboldkernel_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# Shell tests: the command, the policy, the exported names, the demo,
# real programs, make install.
SHELL_TESTS = \
	tests/cmd/cloexec.test \
	tests/cmd/next.test \
	tests/cmd/policy.test \
	tests/cmd/layers.test \
	tests/cmd/inspect.test \
	tests/cmd/errors.test \
	tests/cmd/preload.test \
	tests/cmd/systemd.test \
	tests/cmd/secure.test \
	tests/cmd/exports.test \
	tests/cmd/map.test \
	tests/cmd/symvers.test \
	tests/cmd/demo.test \
	tests/cmd/legacy.test \
	tests/cmd/programs.test \
	tests/cmd/audit.test \
	tests/cmd/auditlog.test \
	tests/cmd/checkstatus.test \
	tests/cmd/trust.test \
	tests/cmd/treerace.test \
	tests/cmd/signals.test \
	tests/cmd/keeplog.test \
	tests/cmd/auditfd.test \
	tests/cmd/output.test \
	tests/cmd/records.test \
	tests/cmd/baseline.test \
	tests/cmd/people.test \
	tests/cmd/tree.test \
	tests/cmd/leaks.test \
	tests/cmd/inherit.test \
	tests/cmd/evidence.test \
	tests/cmd/handoff.test \
	tests/cmd/servers.test \
	tests/cmd/install.test \
	tests/cmd/scan.test \
	tests/cmd/scanfs.test \
	tests/cmd/scanprom.test \
	tests/cmd/startcost.test
TESTS += $(SHELL_TESTS)
EXTRA_DIST += $(SHELL_TESTS) tests/cmd/lib.sh

# A library whose constructor holds the dynamic loader's lock a while.
check_LTLIBRARIES += tests/lib/libslowinit.la
tests_lib_libslowinit_la_SOURCES = tests/lib/slowinit.c
tests_lib_libslowinit_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# A library whose constructor opens a file (tree.test).
check_LTLIBRARIES += tests/lib/libctoropen.la
tests_lib_libctoropen_la_SOURCES = tests/lib/ctoropen.c
tests_lib_libctoropen_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# Another interposer of socket() and close(), preloaded after the library
# (next.test).
check_LTLIBRARIES += tests/lib/libnextsocket.la
tests_lib_libnextsocket_la_SOURCES = tests/lib/nextsocket.c
tests_lib_libnextsocket_la_LDFLAGS = -module -avoid-version -rpath /nowhere \
	-Wl,--version-script=$(top_srcdir)/tests/lib/nextsocket.map
tests_lib_libnextsocket_la_LIBADD = -ldl
EXTRA_DIST += tests/lib/nextsocket.map

# A /tmp without O_TMPFILE, preloaded after the library (policy.test).
check_LTLIBRARIES += tests/lib/libnotmpfile.la
tests_lib_libnotmpfile_la_SOURCES = tests/lib/notmpfile.c
tests_lib_libnotmpfile_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# A link planted at enable's temporary name, between its unlink and its
# open (preload.test).
check_LTLIBRARIES += tests/lib/libplantlink.la
tests_lib_libplantlink_la_SOURCES = tests/lib/plantlink.c
tests_lib_libplantlink_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# An exec between the open of a process's maps and their read, made
# certain: preloaded into cloexec (tree.test).
check_LTLIBRARIES += tests/lib/libmapsgate.la
tests_lib_libmapsgate_la_SOURCES = tests/lib/mapsgate.c
tests_lib_libmapsgate_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# cloexec held after it wrote the program's exec line, before it copied
# it (trust.test).
check_LTLIBRARIES += tests/lib/libholdline.la
tests_lib_libholdline_la_SOURCES = tests/lib/holdline.c
tests_lib_libholdline_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# An empty shared library: the "other preload" of the command tests.
check_LTLIBRARIES += tests/lib/libempty.la
tests_lib_libempty_la_SOURCES = tests/lib/empty.c
tests_lib_libempty_la_LDFLAGS = -module -avoid-version -rpath /nowhere

# `make check-root`: what needs root and the package archive, on the
# Debian packages that CLOEXEC_DEBS names, or that `make deb` builds.
ROOT_TESTS = tests/root/debootstrap.test
EXTRA_DIST += $(ROOT_TESTS) tests/root/mkroot.sh
check-root:
	@debs='$(CLOEXEC_DEBS)'; \
	if [ -z "$$debs" ]; then \
	  $(MAKE) $(AM_MAKEFLAGS) deb && debs='$(abs_top_builddir)/deb'; \
	fi && \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(ROOT_TESTS)' CLOEXEC_DEBS="$$debs"
.PHONY: check-root

# `make check-image`: the image of examples/Dockerfile built and run by a
# container engine (podman, docker), on a base image of the root that
# check-root keeps; the same packages.
IMAGE_TESTS = tests/image/image.test
EXTRA_DIST += $(IMAGE_TESTS) tests/image/engine.sh
# Without the tools it needs it fails, saying what to run, where its test
# would skip: a fresh machine that could run the image must not pass by
# running nothing (./bootstrap check-image installs them).
image_needs = dpkg-buildpackage debootstrap
check-image:
	@missing=; \
	for c in $(image_needs); do \
	  command -v $$c >/dev/null 2>&1 || missing="$$missing $$c"; \
	done; \
	command -v podman >/dev/null 2>&1 || command -v docker >/dev/null 2>&1 || \
	  missing="$$missing podman"; \
	if [ -n "$$missing" ]; then \
	  echo "check-image: no$$missing here; run (as root, on Debian):"; \
	  echo "  ./bootstrap check-image"; \
	  echo "which installs debhelper dh-autoreconf debootstrap wget podman runc"; \
	  exit 1; \
	fi
	@debs='$(CLOEXEC_DEBS)'; \
	if [ -z "$$debs" ]; then \
	  $(MAKE) $(AM_MAKEFLAGS) deb && debs='$(abs_top_builddir)/deb'; \
	fi && \
	{ $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(IMAGE_TESTS)' \
	    CLOEXEC_DEBS="$$debs"; status=$$?; \
	  echo "== $(IMAGE_TESTS:.test=.log): the commands it ran, and its checks"; \
	  cat $(IMAGE_TESTS:.test=.log); exit $$status; }
.PHONY: check-image

# `make check-image-musl CLOEXEC_MUSL_BUILD=DIR`: examples/Dockerfile.musl
# with the musl build in DIR, on a base image of Debian's musl package.
MUSL_IMAGE_TESTS = tests/image/musl.test
EXTRA_DIST += $(MUSL_IMAGE_TESTS)
check-image-musl:
	@CLOEXEC_MUSL_BUILD='$(CLOEXEC_MUSL_BUILD)'; export CLOEXEC_MUSL_BUILD; \
	{ $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(MUSL_IMAGE_TESTS)'; \
	  status=$$?; \
	  echo "== $(MUSL_IMAGE_TESTS:.test=.log): the commands it ran, and its checks"; \
	  cat $(MUSL_IMAGE_TESTS:.test=.log); exit $$status; }
.PHONY: check-image-musl

if HAVE_CHECK
# The unit tests under valgrind: memory errors and definite leaks fail.
check-valgrind: $(UNIT_TESTS)
	@$(cannot_run_skip); \
	for t in $(UNIT_TESTS); do \
	  echo "valgrind $$t"; \
	  TL_VALGRIND=1 CK_DEFAULT_TIMEOUT=120 valgrind -q --error-exitcode=1 \
	    --leak-check=full --errors-for-leak-kinds=definite \
	    ./$$t > $$t.valgrind.log 2>&1 \
	    || { cat $$t.valgrind.log; exit 1; }; \
	done; \
	echo "valgrind: no errors"
else
check-valgrind:
	@echo "check-valgrind needs Check"; exit 1
endif
.PHONY: check-valgrind

# The unit tests alone: what CI runs of a cross build, under qemu-user
# (make check-unit LOG_COMPILER=qemu-aarch64), where the integration
# tests cannot run (they re-execute themselves and install seccomp filters).
check-unit:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(UNIT_TESTS)'
.PHONY: check-unit
CLEANFILES += tests/unit/*.valgrind.log

# `make mutate`: the mutation campaign (tests/mutate/run.sh).  Every
# mutant of tests/mutate/mutants, or MUTATE_SAMPLE of them from a place
# MUTATE_SEED (a commit hash) picks, or those MUTANTS names; built in
# mutate.d, a copy of the release tree.  With MUTATE_MAP=yes (the
# default), make coverage-map first: a mutant then runs only the tests
# that reach its lines, and one that no test reaches is reported so,
# without a build (MUTATE_MAP=no: every test).  Fails if one survives.
# It runs a copy of run.sh: the shell reads a script as it goes, and the
# one in the tree may be edited meanwhile.
MUTATE_DIR = $(abs_top_builddir)/mutate.d
MUTATE_SAMPLE =
MUTATE_SEED =
MUTANTS =
MUTATE_TABLE =
MUTATE_MAP = yes
MUTATE_RECHECK = no
MUTATE_TIME_LIMIT =
MUTATE_FILES = tests/mutate/run.sh tests/mutate/apply.awk \
	tests/mutate/mutants tests/mutate/auto.py tests/mutate/reach.py \
	tests/mutate/explained
EXTRA_DIST += $(MUTATE_FILES)
mutate:
	@$(cannot_run_skip); \
	map=; \
	if [ '$(MUTATE_MAP)' = yes ]; then \
	  $(MAKE) $(AM_MAKEFLAGS) coverage-map && \
	  map='$(COVERAGE_DIR)/map.json' || exit 1; \
	fi; \
	unset MAKEFLAGS MFLAGS MAKELEVEL; sample='$(MUTATE_SAMPLE)'; \
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	MAKE='$(MAKE)' MUTATE_DIR='$(MUTATE_DIR)' MUTATE_TESTS='$(TESTS)'; \
	MUTATE_TABLE='$(MUTATE_TABLE)' MUTATE_MAP="$$map"; \
	MUTATE_AUTO='$(MUTATE_AUTO)' MUTATE_RECHECK='$(MUTATE_RECHECK)'; \
	MUTATE_TIME_LIMIT='$(MUTATE_TIME_LIMIT)'; \
	export top_srcdir top_builddir MAKE MUTATE_DIR MUTATE_TESTS MUTATE_MAP \
	  MUTATE_AUTO MUTATE_RECHECK MUTATE_TIME_LIMIT; \
	[ -z "$$MUTATE_TABLE" ] || export MUTATE_TABLE; \
	mkdir -p '$(MUTATE_DIR)' && \
	cp $(top_srcdir)/tests/mutate/run.sh '$(MUTATE_DIR)/run.sh' && \
	$(SHELL) '$(MUTATE_DIR)/run.sh' \
	  $${sample:+-n "$$sample" -s '$(MUTATE_SEED)'} \
	  $(MUTANTS)
# Only that each mutant's text is still in its file, once, and that each
# line of tests/mutate/explained names a mutant of make mutate-auto's
# files, with its reason: no build.
mutate-check:
	@top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	MUTATE_DIR='$(MUTATE_DIR)' MUTATE_TESTS='$(TESTS)' \
	$(SHELL) $(top_srcdir)/tests/mutate/run.sh -c && \
	cd $(top_srcdir) && python3 tests/mutate/auto.py \
	  --check tests/mutate/explained $(MUTATE_AUTO_FILES) && \
	echo "mutate: tests/mutate/explained: every line names a mutant"
.PHONY: mutate mutate-check

# `make mutate-auto`: mutants nobody wrote, made by tests/mutate/auto.py
# from MUTATE_AUTO_FILES (files, or directories: their .c and .h files):
# negated conditions, dropped && and || terms, && and || swapped,
# changed comparisons, deleted calls (whose result a condition checks,
# or that are a statement), dropped flags, true and false swapped,
# constants changed by one, file modes widened.  MUTATE_AUTO_SAMPLE of
# them, which MUTATE_AUTO_SEED picks, run as make mutate runs its table,
# each with the tests that reach its lines.  A mutant that does not
# build is stillborn, not an error; one that tests/mutate/explained
# names is not run.  Survivors are listed in mutate.d/table.txt, with
# each file's score; the target fails if one survives unexplained, or
# is on a line no test reaches.  `make mutate-auto-list` lists them all,
# without running any.
MUTATE_AUTO_FILES = src/core src/wrap src/cmd
MUTATE_AUTO_SAMPLE = 300
MUTATE_AUTO_SEED = 0
MUTATE_AUTO = no
mutate-auto:
	@$(cannot_run_skip); \
	mkdir -p '$(MUTATE_DIR)' && \
	(cd $(top_srcdir) && python3 tests/mutate/auto.py \
	  -n '$(MUTATE_AUTO_SAMPLE)' -s '$(MUTATE_AUTO_SEED)' \
	  $(MUTATE_AUTO_FILES)) > '$(MUTATE_DIR)/auto.mutants' && \
	$(MAKE) $(AM_MAKEFLAGS) mutate MUTATE_AUTO=yes \
	  MUTATE_TABLE='$(MUTATE_DIR)/auto.mutants'
mutate-auto-list:
	@cd $(top_srcdir) && python3 tests/mutate/auto.py --list \
	  $(MUTATE_AUTO_FILES)
.PHONY: mutate-auto mutate-auto-list

# `make coverage`: each test of the suite alone in a gcov build of a copy
# of the release tree (coverage.d), what each reached (map.json: which
# tests reach each line, for make mutate), gcovr's line and branch
# coverage of each file of src/, and the branches of COVERAGE_SECURITY
# that no test takes both ways, less those tests/coverage/explained
# gives a reason for (tests/coverage/run.sh; needs Debian's gcovr).
# `make coverage-map`: the map alone (gcov only).  A test's record is
# kept until the tree changes, or its own file.  Not in CI.
COVERAGE_DIR = $(abs_top_builddir)/coverage.d
# The setuid paths, the policy's load and layers, the audit sink and
# verdict, enable/disable, the scan, the inheritance rules.
COVERAGE_SECURITY = src/core/creds.c src/wrap/creds.c \
	src/core/load.c src/core/layers.c src/core/policy.c \
	src/core/sink.c src/cmd/audit_verdict.c src/cmd/preload.c \
	src/cmd/intree.c src/cmd/scan.c src/cmd/socktab.c src/cmd/fdfs.c \
	src/core/handoff.c src/core/exec.c src/core/shell.c
EXTRA_DIST += tests/coverage/run.sh tests/coverage/pertest.py \
	tests/coverage/gcov_exit.c \
	tests/coverage/explained
coverage coverage-map:
	@$(cannot_run_skip); \
	unset MAKEFLAGS MFLAGS MAKELEVEL; \
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	MAKE='$(MAKE)' COVERAGE_DIR='$(COVERAGE_DIR)'; \
	COVERAGE_TESTS='$(TESTS)' COVERAGE_SECURITY='$(COVERAGE_SECURITY)'; \
	export top_srcdir top_builddir MAKE COVERAGE_DIR COVERAGE_TESTS \
	  COVERAGE_SECURITY; \
	mkdir -p '$(COVERAGE_DIR)' && \
	cp $(top_srcdir)/tests/coverage/run.sh '$(COVERAGE_DIR)/run.sh' && \
	mode=report; [ '$@' != coverage-map ] || mode=map; \
	$(SHELL) '$(COVERAGE_DIR)/run.sh' $$mode
.PHONY: coverage coverage-map

# A library planted in a tree, of the library's soname (preload.test).
check_LTLIBRARIES += tests/lib/planted/libcloexec.la
tests_lib_planted_libcloexec_la_SOURCES = tests/lib/planted.c
tests_lib_planted_libcloexec_la_CFLAGS = $(AM_CFLAGS) -fno-builtin
tests_lib_planted_libcloexec_la_LDFLAGS = -version-info 0:0:0 -rpath /nowhere
