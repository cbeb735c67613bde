# SPDX-License-Identifier: LGPL-2.1-or-later

# `make fuzz`: libFuzzer targets for what reads untrusted text or writes
# lines from it, built with clang (-fsanitize=fuzzer,address,undefined)
# from the core's sources, each run for FUZZ_SECONDS from its seed corpus
# in tests/fuzz/<target>/ and failing on a crash, a sanitizer report or
# an input that takes longer than FUZZ_TIMEOUT seconds.  What they find
# is left in tests/fuzz/artifacts/; what they learn, in
# tests/fuzz/corpus/ (both in the build tree).
#
#	make fuzz				every target, 60 s each
#	make fuzz FUZZ_TARGETS=glob FUZZ_SECONDS=600
#
# clang is the one configure found, or else the first clang on PATH now
# (CI installs it after configuring).
FUZZ_TARGETS = policy glob record auditlog
FUZZ_SECONDS = 60
FUZZ_TIMEOUT = 1
FUZZ_CC = @FUZZ_CC@
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_CPPFLAGS = -I$(top_srcdir)/src -I$(top_srcdir)/include \
	-I$(top_builddir)
# The core, less policy.c (fuzz_policy.c includes it) and kstat.c (the
# stat family as the kernel's calls: libc's, here, for the sanitizers).
FUZZ_CORE = $(top_srcdir)/src/core/creds.c \
	$(top_srcdir)/src/core/diag.c $(top_srcdir)/src/core/exec.c \
	$(top_srcdir)/src/core/fdreq.c $(top_srcdir)/src/core/fdtable.c \
	$(top_srcdir)/src/core/handoff.c $(top_srcdir)/src/core/image.c \
	$(top_srcdir)/src/core/forklock.c $(top_srcdir)/src/core/layers.c \
	$(top_srcdir)/src/core/load.c $(top_srcdir)/src/core/pid.c \
	$(top_srcdir)/src/core/peek.c $(top_srcdir)/src/core/next.c \
	$(top_srcdir)/src/core/probe.c $(top_srcdir)/src/core/sockdiag.c \
	$(top_srcdir)/src/core/real.c $(top_srcdir)/src/core/line.c \
	$(top_srcdir)/src/core/report.c $(top_srcdir)/src/core/shell.c \
	$(top_srcdir)/src/core/sink.c $(top_srcdir)/src/core/start.c \
	$(top_srcdir)/src/core/why.c
FUZZ_SEEDS = \
	tests/fuzz/policy/env-default tests/fuzz/policy/env-all \
	tests/fuzz/policy/env-bad tests/fuzz/policy/file-comments \
	tests/fuzz/policy/file-long-line \
	tests/fuzz/glob/star-path tests/fuzz/glob/class tests/fuzz/glob/stars \
	tests/fuzz/record/plain tests/fuzz/record/socket \
	tests/fuzz/record/bytes tests/fuzz/record/long tests/fuzz/record/full \
	tests/fuzz/record/argv \
	tests/fuzz/auditlog/leaky tests/fuzz/auditlog/escapes \
	tests/fuzz/auditlog/broken tests/fuzz/auditlog/lost \
	tests/fuzz/auditlog/schema2 tests/fuzz/auditlog/tree
EXTRA_DIST += tests/fuzz/fuzz_policy.c tests/fuzz/fuzz_glob.c \
	tests/fuzz/fuzz_record.c tests/fuzz/fuzz_auditlog.c $(FUZZ_SEEDS)
CLEANFILES += tests/fuzz/fuzz_policy tests/fuzz/fuzz_glob \
	tests/fuzz/fuzz_record tests/fuzz/fuzz_auditlog
clean-local: clean-fuzz
clean-fuzz:
	rm -rf tests/fuzz/corpus tests/fuzz/artifacts tests/fuzz/fuzz_*.log

FUZZ_BUILD = cc='$(FUZZ_CC)'; \
	for c in clang clang-16 clang-15 clang-14; do \
	  [ -n "$$cc" ] && break; \
	  command -v $$c >/dev/null 2>&1 && cc=$$c; \
	done; \
	if [ -z "$$cc" ]; then \
	  echo "make fuzz: no clang found (apt-get install clang)"; exit 1; \
	fi; \
	$(MKDIR_P) tests/fuzz && \
	$$cc $(FUZZ_CFLAGS) $(FUZZ_CPPFLAGS) -o $@

tests/fuzz/fuzz_policy: $(top_srcdir)/tests/fuzz/fuzz_policy.c \
		$(top_srcdir)/src/core/policy.c $(FUZZ_CORE) config.h paths.h
	$(AM_V_CCLD)$(FUZZ_BUILD) $(top_srcdir)/tests/fuzz/fuzz_policy.c \
	  $(FUZZ_CORE) -ldl -lpthread
tests/fuzz/fuzz_glob: $(top_srcdir)/tests/fuzz/fuzz_glob.c \
		$(top_srcdir)/src/core/policy.c $(FUZZ_CORE) config.h paths.h
	$(AM_V_CCLD)$(FUZZ_BUILD) $(top_srcdir)/tests/fuzz/fuzz_glob.c \
	  $(top_srcdir)/src/core/policy.c $(FUZZ_CORE) -ldl -lpthread
tests/fuzz/fuzz_record: $(top_srcdir)/tests/fuzz/fuzz_record.c \
		$(top_srcdir)/src/core/policy.c $(FUZZ_CORE) config.h paths.h
	$(AM_V_CCLD)$(FUZZ_BUILD) $(top_srcdir)/tests/fuzz/fuzz_record.c \
	  $(top_srcdir)/src/core/policy.c $(FUZZ_CORE) -ldl -lpthread
# The audit's rooms: src/cmd/audit.h draws which calls which.
FUZZ_AUDIT = $(top_srcdir)/src/cmd/audit_log.c \
	$(top_srcdir)/src/cmd/audit_line.c \
	$(top_srcdir)/src/cmd/audit_tree.c \
	$(top_srcdir)/src/cmd/audit_verdict.c \
	$(top_srcdir)/src/cmd/audit_json.c \
	$(top_srcdir)/src/cmd/audit_out.c \
	$(top_srcdir)/src/core/line.c
tests/fuzz/fuzz_auditlog: $(top_srcdir)/tests/fuzz/fuzz_auditlog.c \
		$(FUZZ_AUDIT) config.h
	$(AM_V_CCLD)$(FUZZ_BUILD) $(top_srcdir)/tests/fuzz/fuzz_auditlog.c \
	  $(FUZZ_AUDIT)

fuzz-build: tests/fuzz/fuzz_policy tests/fuzz/fuzz_glob \
	tests/fuzz/fuzz_record tests/fuzz/fuzz_auditlog

# Each target on its own (-jobs is not used: the machines are shared):
# new inputs go to the corpus directory, the seeds are only read.
fuzz: fuzz-build
	@failed=; \
	for t in $(FUZZ_TARGETS); do \
	  $(MKDIR_P) tests/fuzz/corpus/$$t tests/fuzz/artifacts; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  ./tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
	    -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=tests/fuzz/artifacts/$$t- \
	    tests/fuzz/corpus/$$t $(top_srcdir)/tests/fuzz/$$t \
	    > tests/fuzz/fuzz_$$t.log 2>&1; \
	  status=$$?; \
	  grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' \
	    tests/fuzz/fuzz_$$t.log | tail -2; \
	  if [ $$status != 0 ]; then \
	    echo "fuzz: $$t FAILED (status $$status):"; \
	    grep -E -A12 'ERROR|==[0-9]+==|timeout|Test unit written' \
	      tests/fuzz/fuzz_$$t.log | head -40; \
	    failed="$$failed $$t"; \
	  fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed"; exit 1; fi; \
	echo "fuzz: all passed"
.PHONY: fuzz fuzz-build clean-fuzz
