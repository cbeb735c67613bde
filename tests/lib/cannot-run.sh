# SPDX-License-Identifier: LGPL-2.1-or-later
# The test runner of a build whose programs this machine cannot execute
# (CLOEXEC_HOST_RUNS in m4/cloexec.m4): a cross build, or a -m32 build on a
# kernel that refuses 32-bit programs.  Each test skips, saying why.
echo "SKIP: this machine cannot run the programs that '${CC-cc}' makes" \
	"(configure found so by running one; see config.log)"
exit 77
