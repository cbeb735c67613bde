# SPDX-License-Identifier: LGPL-2.1-or-later

# The legacy program of the quick start; built for `make demo` and tests.
check_PROGRAMS += examples/leaky
examples_leaky_SOURCES = examples/leaky.c

# The policy file that the Debian package installs as /etc/libcloexec.conf,
# and an image that preloads the library into every process.
EXTRA_DIST += examples/libcloexec.conf examples/Dockerfile \
	examples/Dockerfile.musl \
	examples/systemd/cloexec.conf examples/systemd/cloexec-scan.service \
	examples/systemd/cloexec-scan.timer

# `make demo`: the leak, what --audit says of it (where to start with a
# program of one's own), then its absence.
demo: src/cloexec src/libcloexec.la examples/leaky
	@$(cannot_run_skip); \
	echo '== examples/leaky as it is:' && ./examples/leaky && \
	echo && echo '== cloexec --audit, which changes nothing:' && \
	./src/cloexec --audit -- ./examples/leaky 2>&1 && \
	echo && echo '== examples/leaky under cloexec:' && \
	./src/cloexec -- ./examples/leaky
.PHONY: demo
