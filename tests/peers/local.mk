# SPDX-License-Identifier: LGPL-2.1-or-later

# `make check-peers`: other projects' own test suites (socat's test.sh,
# GNU make's, bash's, util-linux's flock, script and lsfd tests, built
# from Debian's source in peers.d; Python's fd tests, as Debian ships
# them), each run natively and then with the library preloaded into
# every process of the run, and compared test by test
# (tests/peers/run.sh, doc/testing.md).  PEERS_QUICK=1: CI's selection of each.
# PEERS_SUITES: some of them.  As root it installs what it needs
# (tests/peers/setup.sh); otherwise it says what to run.
PEERS_DIR = $(abs_top_builddir)/peers.d
PEERS_SUITES =
PEERS_QUICK =
PEERS_RERUNS = 2
PEERS_FILES = tests/peers/run.sh tests/peers/setup.sh tests/peers/accepted \
	tests/peers/socat.sh tests/peers/make.sh tests/peers/bash.sh \
	tests/peers/util-linux.sh tests/peers/python.sh
EXTRA_DIST += $(PEERS_FILES)
check-peers: all tests/lib/cleanstart
	@$(cannot_run_skip); \
	unset MAKEFLAGS MFLAGS MAKELEVEL; \
	CLOEXEC_LIB='$(abs_top_builddir)/src/.libs/libcloexec.so.0' \
	CLEANSTART='$(abs_top_builddir)/tests/lib/cleanstart' \
	PEERS_DIR='$(PEERS_DIR)' PEERS_SUITES='$(PEERS_SUITES)' \
	PEERS_QUICK='$(PEERS_QUICK)' PEERS_RERUNS='$(PEERS_RERUNS)' \
	$(SHELL) $(top_srcdir)/tests/peers/run.sh
.PHONY: check-peers
