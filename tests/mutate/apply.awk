# SPDX-License-Identifier: LGPL-2.1-or-later
# awk -f apply.awk FIND REPL FILE: FILE with the text of FIND replaced by
# that of REPL, on stdout.  The text must occur exactly once in FILE:
# otherwise nothing is printed, the count goes to stderr and the status
# is 2.  Plain text, no patterns; run it with LC_ALL=C.
FILENAME == ARGV[1] {
	find = (FNR > 1 ? find "\n" : "") $0
	next
}
FILENAME == ARGV[2] {
	repl = (FNR > 1 ? repl "\n" : "") $0
	next
}
{
	text = (FNR > 1 ? text "\n" : "") $0
}
END {
	if (find == "") {
		print "apply.awk: nothing to find" > "/dev/stderr"
		exit 2
	}
	n = 0
	rest = text
	while ((i = index(rest, find)) > 0) {
		n++
		rest = substr(rest, i + length(find))
	}
	if (n != 1) {
		print n > "/dev/stderr"
		exit 2
	}
	i = index(text, find)
	printf "%s%s%s\n", substr(text, 1, i - 1), repl,
		substr(text, i + length(find))
}
