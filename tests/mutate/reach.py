#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Which tests a mutant runs (tests/mutate/run.sh), from make coverage's map.

    reach.py MAP SRC MDIR KILLS ID...

MAP is make coverage-map's map.json (which tests reach each line of
src/), of the tree SRC, which the mutants of MDIR (one directory each:
file, find, repl, first) apply to.  For each ID, writes MDIR/ID/lines,
the lines of its file the mutant changes ("12" or "12-14"), and either

    MDIR/ID/tests      the tests that reach one of those lines, the likely
                       killers first: those the mutant names first, then
                       those that killed most mutants of its file before
                       (KILLS: lines "FILE<TAB>TEST", one a kill), then the
                       quickest;
    MDIR/ID/unreached  no test reaches one of those lines: nothing to run;

or neither, where the map knows nothing of those lines (a file outside
src/, a line of data, not code): then every test may kill it.  And
MDIR/times: each test's time in the map's run, "TEST SECONDS" a line.
"""
import json
import os
import sys


def changed_lines(text, find, repl):
    """The first and last line (1-based) of text that the mutant changes:
    the lines of find that differ from repl, less what both begin and end
    with; for an insertion, the lines on each side of it."""
    at = text.find(find)
    if at < 0:
        return None
    first = text.count("\n", 0, at) + 1
    f, r = find.split("\n"), repl.split("\n")
    lo = 0
    while lo < len(f) and lo < len(r) and f[lo] == r[lo]:
        lo += 1
    hi = 0
    while hi < len(f) - lo and hi < len(r) - lo and \
            f[len(f) - 1 - hi] == r[len(r) - 1 - hi]:
        hi += 1
    a, b = first + lo, first + len(f) - 1 - hi
    if b < a:
        a, b = a - 1, a
    return max(a, first), max(b, first)


def read(path):
    try:
        with open(path) as fh:
            return fh.read()
    except OSError:
        return None


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    mp, src, mdir, kills = argv[:4]
    m = json.load(open(mp))
    tests, times, lines = m["tests"], m["time"], m["lines"]
    with open(os.path.join(mdir, "times"), "w") as fh:
        for t in tests:
            fh.write("%s %s\n" % (t, times.get(t, 0)))
    killed = {}
    for line in (read(kills) or "").split("\n"):
        parts = line.split("\t")
        if len(parts) == 2:
            k = killed.setdefault(parts[0], {})
            k[parts[1]] = k.get(parts[1], 0) + 1
    for mid in argv[4:]:
        d = os.path.join(mdir, mid)
        for f in ("tests", "unreached", "lines"):
            if os.path.exists(os.path.join(d, f)):
                os.remove(os.path.join(d, f))
        path = (read(os.path.join(d, "file")) or "").strip()
        # The table's texts end with the newline of their last line.
        find = (read(os.path.join(d, "find")) or "")[:-1]
        repl = (read(os.path.join(d, "repl")) or "\n")[:-1]
        text = read(os.path.join(src, path))
        if not path or not find or text is None:
            continue
        span = changed_lines(text, find, repl)
        if not span:
            continue
        a, b = span
        with open(os.path.join(d, "lines"), "w") as fh:
            fh.write("%d\n" % a if a == b else "%d-%d\n" % (a, b))
        known = lines.get(path)
        if known is None:
            continue
        code = [str(n) for n in range(a, b + 1) if str(n) in known]
        if not code:
            continue
        reach = set()
        for n in code:
            reach.update(tests[i] for i in known[n])
        if not reach:
            open(os.path.join(d, "unreached"), "w").close()
            continue
        first = (read(os.path.join(d, "first")) or "").split()
        history = killed.get(path, {})

        def rank(t):
            if t in first:
                return (0, first.index(t), 0)
            return (1, -history.get(t, 0), times.get(t, 0))
        with open(os.path.join(d, "tests"), "w") as fh:
            for t in sorted(reach, key=lambda t: (rank(t), t)):
                fh.write(t + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
