#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Mutants nobody wrote: made mechanically from the code of chosen files.

    auto.py [-n COUNT] [-s SEED] [--list] FILE...

FILE is a path from the top of the tree (run from there).  Every site of
each kind below is a mutant:

    negate   if (C)              -> if (!(C))
    drop     if (A && B)         -> if (A), if (B)   (each term of a top-level
                                                     && or || chain dropped)
    compare  a == b, a < b ...   -> a != b, a <= b ... (== and != swapped,
                                                     < <= > >= moved by one)
    uncall   if (f(x) < 0)       -> if (0 < 0)       (a call whose result a
                                                     condition checks, deleted)
    const    N                   -> N + 1, N - 1     (a decimal constant in
                                                     code, changed by one)

With -n, COUNT of them, sampled with SEED (any text: a commit hash).  The
output is a table for tests/mutate/run.sh (the format of
tests/mutate/mutants): each mutant's text is the smallest run of whole
lines around the site that occurs once in the file.  With --list, one
line a mutant instead: ID, file:line, and the change.

Code only: comments, strings, character constants and preprocessor lines
are left alone, as are lines the table format cannot carry (blank ones,
ones starting with '#', ones whose first word is a key of the table).
"""
import random
import re
import sys

KEYS = {"mutant", "file", "find", "repl", "desc", "first"}
# The tests that most likely kill a mutant of a file: run first.
FIRST = {
    "src/cmd/audit.c": "tests/cmd/audit.test tests/cmd/tree.test "
                       "tests/cmd/baseline.test tests/cmd/checkstatus.test",
    "src/cmd/scan.c": "tests/cmd/scan.test",
    "src/cmd/preload.c": "tests/cmd/preload.test",
    "src/cmd/inspect.c": "tests/cmd/inspect.test",
    "src/core/exec.c": "tests/unit/check_exec tests/cmd/inherit.test "
                       "tests/it/it_policy",
    "src/core/handoff.c": "tests/unit/check_exec tests/cmd/inherit.test "
                          "tests/cmd/evidence.test",
    "src/core/report.c": "tests/cmd/auditlog.test tests/cmd/records.test "
                         "tests/cmd/audit.test",
    "src/core/line.c": "tests/cmd/records.test tests/cmd/audit.test",
    "src/core/sink.c": "tests/cmd/auditlog.test tests/cmd/audit.test",
    "src/core/layers.c": "tests/cmd/layers.test tests/cmd/auditlog.test",
    "src/core/policy.c": "tests/unit/check_policy tests/cmd/policy.test",
    "src/core/load.c": "tests/unit/check_policy tests/cmd/policy.test "
                       "tests/cmd/layers.test",
    "src/core/fdtable.c": "tests/it/it_policy tests/cmd/inherit.test",
    "src/core/forklock.c": "tests/unit/check_forklock tests/it/it_lock",
}


def mask(lines):
    """Each line with comments, strings and char constants blanked
    (same length), and whether it is code at all."""
    out, code = [], []
    in_comment = False
    for line in lines:
        m = list(line)
        i = 0
        quote = None
        while i < len(m):
            c = m[i]
            nxt = m[i + 1] if i + 1 < len(m) else ""
            if in_comment:
                if c == "*" and nxt == "/":
                    m[i] = m[i + 1] = " "
                    in_comment = False
                    i += 2
                    continue
                m[i] = " "
            elif quote:
                if c == "\\":
                    m[i] = " "
                    if i + 1 < len(m):
                        m[i + 1] = " "
                    i += 2
                    continue
                if c == quote:
                    quote = None
                else:
                    m[i] = " "
            elif c == "/" and nxt == "*":
                m[i] = m[i + 1] = " "
                in_comment = True
                i += 2
                continue
            elif c == "/" and nxt == "/":
                for j in range(i, len(m)):
                    m[j] = " "
                break
            elif c in "\"'":
                quote = c
            i += 1
        text = "".join(m)
        out.append(text)
        stripped = line.lstrip()
        code.append(bool(text.strip()) and not stripped.startswith("#"))
    return out, code


def carriable(line):
    """Can the table carry this line as more of a find or repl text?"""
    s = line.strip()
    if not s or line.startswith("#"):
        return False
    return line.split()[0] not in KEYS


def window(lines, first, last, new_text, text):
    """The smallest run of lines around first..last unique in text:
    (find, repl) or None."""
    lo, hi = first, last
    for _ in range(8):
        chunk = lines[lo:hi + 1]
        if all(carriable(l) for l in chunk):
            find = "\n".join(chunk)
            if text.count(find) == 1:
                repl = "\n".join(lines[lo:first] + new_text.split("\n")
                                 + lines[last + 1:hi + 1])
                if repl.strip() and not all(carriable(l) for l in
                                            repl.split("\n")):
                    return None
                return find, repl
        if lo > 0 and carriable(lines[lo - 1]):
            lo -= 1
        elif hi + 1 < len(lines) and carriable(lines[hi + 1]):
            hi += 1
        else:
            return None
    return None


def close_paren(masked, start):
    """Index just past the parenthesis that closes the one at start, in a
    string of joined masked lines, or -1."""
    depth = 0
    for i in range(start, len(masked)):
        if masked[i] == "(":
            depth += 1
        elif masked[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def top_level(masked, lo, hi, ops):
    """Positions of the operators ops at paren depth 0 in masked[lo:hi]."""
    depth, found = 0, []
    i = lo
    while i < hi:
        c = masked[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0:
            for op in ops:
                if masked.startswith(op, i):
                    found.append((i, op))
                    i += len(op) - 1
                    break
        i += 1
    return found


COMPARE = [("==", ["!="]), ("!=", ["=="]), ("<=", ["<", ">"]),
           (">=", [">", "<"]), ("<", ["<=", ">="]), (">", [">=", "<="])]
CALL = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(")
NOT_CALLS = {"if", "while", "for", "switch", "return", "sizeof", "defined",
             "__attribute__", "__builtin_expect", "likely", "unlikely"}
NUMBER = re.compile(r"(?<![\w.])(\d+)(?![\w.])")


def mutants_of(path):
    text = open(path).read()
    lines = text.split("\n")
    masked_lines, code = mask(lines)
    # Joined, with offsets of each line's start.
    starts, pos = [], 0
    for l in masked_lines:
        starts.append(pos)
        pos += len(l) + 1
    masked = "\n".join(masked_lines)
    joined = "\n".join(lines)

    def line_of(offset):
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    found = []

    def add(kind, a, b, new, what):
        """Replace joined[a:b] by new; what describes it."""
        first, last = line_of(a), line_of(max(a, b - 1))
        if not all(code[first:last + 1]):
            return
        seg_start = starts[first]
        seg_end = starts[last] + len(lines[last])
        new_text = joined[seg_start:a] + new + joined[b:seg_end]
        w = window(lines, first, last, new_text, text)
        if w:
            found.append((kind, first + 1, what, w[0], w[1]))

    # Conditions of if and while: negate, drop terms, delete checked calls.
    for m in re.finditer(r"\b(if|while)\s*\(", masked):
        open_at = m.end() - 1
        end = close_paren(masked, open_at)
        if end < 0:
            continue
        lo, hi = open_at + 1, end - 1
        cond = joined[lo:hi]
        add("negate", lo, hi, "!(" + cond + ")", "negated: %s" % cond)
        for ops in (["&&"], ["||"]):
            at = top_level(masked, lo, hi, ops)
            if not at:
                continue
            bounds = [lo] + [p + len(op) for p, op in at]
            ends = [p for p, _ in at] + [hi]
            for k in range(len(bounds)):
                term = joined[bounds[k]:ends[k]].strip()
                if k == 0:
                    a, b = lo, at[0][0] + len(at[0][1])
                else:
                    a, b = at[k - 1][0], ends[k]
                rest = (joined[lo:a] + joined[b:hi]).strip()
                add("drop", lo, hi, rest, "%s term dropped: %s"
                    % (ops[0], term))
        for c in CALL.finditer(masked, lo, hi):
            if c.group(1) in NOT_CALLS:
                continue
            cend = close_paren(masked, c.end() - 1)
            if cend < 0 or cend > hi:
                continue
            add("uncall", c.start(), cend, "0",
                "call deleted, its result 0: %s" % joined[c.start():cend])

    # Comparisons and constants anywhere in code.
    for i, ml in enumerate(masked_lines):
        if not code[i]:
            continue
        base = starts[i]
        j = 0
        while j < len(ml):
            for op, news in COMPARE:
                if not ml.startswith(op, j):
                    continue
                before = ml[j - 1] if j else " "
                after = ml[j + len(op)] if j + len(op) < len(ml) else " "
                # not <<, >>, ->, <<=, >>=, nor an #include's <...>
                if before in "<>-=!" or after in "<>=" or (
                        op in "<>" and after == " " and before != " "):
                    break
                if op in ("<", ">") and (before != " " or after != " "):
                    break
                for new in news:
                    add("compare", base + j, base + j + len(op), new,
                        "%s changed to %s" % (op, new))
                j += len(op) - 1
                break
            j += 1
        for m in NUMBER.finditer(ml):
            n = int(m.group(1))
            if m.start() and ml[m.start() - 1] in "[":
                continue  # an array's size: a build error, not a bug
            for new in ((n + 1, n - 1) if n > 0 else (1,)):
                add("const", base + m.start(), base + m.end(), str(new),
                    "%d changed to %d" % (n, new))
    return found


def main(argv):
    count, seed, listing, files = None, "0", False, []
    i = 0
    while i < len(argv):
        if argv[i] == "-n":
            count = int(argv[i + 1])
            i += 2
        elif argv[i] == "-s":
            seed = argv[i + 1]
            i += 2
        elif argv[i] == "--list":
            listing = True
            i += 1
        else:
            files.append(argv[i])
            i += 1
    if not files:
        sys.stderr.write(__doc__)
        return 2
    every = []
    for path in files:
        stem = re.sub(r"[^a-z0-9]+", "-", path.split("/")[-1].lower())
        stem = stem.rstrip("-").replace("-c", "") if stem.endswith("-c") \
            else stem
        seen = set()
        for n, (kind, line, what, find, repl) in enumerate(mutants_of(path)):
            if (find, repl) in seen or find == repl:
                continue
            seen.add((find, repl))
            every.append(("auto-%s-%d-%s-%d" % (stem, line, kind, n), path,
                          line, what, find, repl))
    chosen = every
    if count is not None and count < len(every):
        chosen = random.Random(seed).sample(every, count)
        chosen.sort(key=lambda m: (m[1], m[2], m[0]))
    out = sys.stdout
    if listing:
        for mid, path, line, what, _, _ in chosen:
            out.write("%s\t%s:%d\t%s\n" % (mid, path, line,
                                           " ".join(what.split())))
        return 0
    out.write("# Made by tests/mutate/auto.py: %d of %d mutants of %s "
              "(seed %s).\n" % (len(chosen), len(every), " ".join(files),
                                seed))
    for mid, path, line, what, find, repl in chosen:
        out.write("\nmutant %s\nfile %s\nfind %s\nrepl %s\n" % (
            mid, path, find, repl))
        out.write("desc line %d: %s\n" % (line, " ".join(what.split())))
        if path in FIRST:
            out.write("first %s\n" % FIRST[path])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
