#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Mutants nobody wrote: made mechanically from the code of chosen files.

    auto.py [-n COUNT] [-s SEED] [--list] [--ids] FILE|DIR...
    auto.py --check EXPLAINED FILE|DIR...

FILE is a path from the top of the tree (run from there); a DIR stands for
its .c and .h files.  Every site of each kind below is a mutant:

    negate   if (C)              -> if (!(C))
    drop     if (A && B)         -> if (A), if (B)   (each term of a top-level
                                                     && or || chain dropped)
    logic    if (A && B)         -> if (A || B)      (each top-level && or ||
                                                     of a condition swapped)
    compare  a == b, a < b ...   -> a != b, a <= b ... (== and != swapped,
                                                     < <= > >= moved by one)
    uncall   if (f(x) < 0)       -> if (0 < 0)       (a call whose result a
                                                     condition checks, deleted)
    stmt     f(x);               -> (void)0;         (a call that is a whole
                                                     statement, deleted)
    flag     A | B | C           -> A | C ...        (each capitalised term of
                                                     a | chain dropped)
    bool     true, false         -> false, true
    const    N                   -> N + 1, N - 1     (a decimal constant in
                                                     code, changed by one)
    mode     0600                -> 0622, 0644       (an octal constant: write,
                                                     read, for group and other)

With -n, COUNT of them, sampled with SEED (any text: a commit hash).  The
output is a table for tests/mutate/run.sh (the format of
tests/mutate/mutants): each mutant's text is the smallest run of whole
lines around the site that occurs once in the file.  With --list, one
line a mutant instead: ID, file:line, and the change; with --ids, the IDs
alone.  With --check, that each line of EXPLAINED (tests/mutate/explained)
names a mutant of those files and says why it is equivalent or
unreachable: "ID<TAB>what it changes<TAB>equivalent: ..." or
"unreachable: ...".

A mutant's ID is auto-DIR-STEM-HASH: HASH is taken from its file, the lines
it changes, before and after, and which of the same changes of the same
text in that file it is.  So an ID stays as long as the code it mutates
does, whatever moves around it, and tests/mutate/explained can name it.

Code only: comments, strings, character constants and preprocessor lines
other than #define are left alone (of a #define, its comparisons,
constants and flags), as are lines the table format cannot carry (blank
ones, and, after a text's first line, ones starting with '#' or whose
first word is a key of the table).
"""
import hashlib
import os
import random
import re
import sys

KEYS = {"mutant", "file", "find", "repl", "desc", "first"}
# The tests that most likely kill a mutant of a file: run first (of those
# that reach its line, where run.sh knows which do).
FIRST = {
    "src/cmd/audit_line.c": "tests/cmd/records.test tests/cmd/audit.test",
    "src/cmd/audit_log.c": "tests/cmd/auditlog.test tests/cmd/audit.test",
    "src/cmd/audit_tree.c": "tests/cmd/tree.test tests/cmd/people.test",
    "src/cmd/audit_verdict.c": "tests/cmd/checkstatus.test "
                               "tests/cmd/baseline.test tests/cmd/audit.test",
    "src/cmd/audit_out.c": "tests/cmd/output.test tests/cmd/people.test",
    "src/cmd/audit_json.c": "tests/cmd/records.test",
    "src/cmd/scan.c": "tests/cmd/scan.test",
    "src/cmd/scan_prom.c": "tests/cmd/scanprom.test",
    "src/cmd/preload.c": "tests/cmd/preload.test",
    "src/cmd/inspect.c": "tests/cmd/inspect.test",
    "src/cmd/run.c": "tests/cmd/audit.test tests/cmd/auditfd.test",
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
    "src/core/probe.c": "tests/unit/check_probe tests/it/it_entry",
    "src/core/real.c": "tests/unit/check_real tests/it/it_entry",
    "src/core/fdreq.c": "tests/it/it_entry tests/cmd/policy.test",
}
# A file not named above: the tests of its directory.
FIRST_DIR = {
    "src/wrap": "tests/it/it_entry tests/it/it_socket",
}


def mask(lines):
    """Each line with comments, strings and char constants blanked
    (same length), and whether it is code (or a #define) at all."""
    out, code = [], []
    in_comment = False
    cont = cont_define = False
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
        if cont:
            directive, define = True, cont_define
        else:
            directive = line.lstrip().startswith("#")
            at = directive and re.match(
                r"\s*#\s*define\s+\w+(\([^)]*\))?[ \t]", text)
            define = bool(at)
            # The name (and its parameters) is not code: blank it.
            if at:
                text = " " * at.end() + text[at.end():]
        out.append(text)
        code.append(bool(text.strip()) and (not directive or define))
        # A directive goes on while its lines end with a backslash.
        cont = directive and line.rstrip().endswith("\\")
        cont_define = define
    return out, code


def carriable(line, first=False):
    """Can the table carry this line as part of a find or repl text?  The
    first line follows a key, so it may start with '#'."""
    s = line.strip()
    if not s:
        return False
    if first:
        return True
    if line.startswith("#"):
        return False
    return line.split()[0] not in KEYS


def carried(chunk):
    return all(carriable(l, k == 0) for k, l in enumerate(chunk))


def window(lines, first, last, new_text, text):
    """The smallest run of lines around first..last unique in text:
    (find, repl) or None."""
    lo, hi = first, last
    for _ in range(8):
        chunk = lines[lo:hi + 1]
        if carried(chunk):
            find = "\n".join(chunk)
            if text.count(find) == 1:
                repl = "\n".join(lines[lo:first] + new_text.split("\n")
                                 + lines[last + 1:hi + 1])
                if repl.strip() and not carried(repl.split("\n")):
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
NUMBER = re.compile(r"(?<![\w.])([1-9]\d*|0)(?![\w.])")
OCTAL = re.compile(r"(?<![\w.])(0[0-7]{3})(?![\w.])")
# A call that is a whole statement, alone on its line.
STATEMENT = re.compile(r"^(\s*)([a-z_][a-z0-9_]*\s*\(.*\)\s*;)\s*$")
# (Of free, a leak: make check-valgrind's, not the suite's.)
NOT_STATEMENTS = NOT_CALLS | {"va_start", "va_end", "va_copy", "assert",
                              "static_assert", "_Static_assert", "free"}
# A | chain of simple terms, of which the capitalised ones are flags.
TERM = r"(?:\(\w+\)\s*)?[A-Za-z_]\w*"
FLAGS = re.compile(r"(?<![|\w])%s(?:\s*\|(?![|=])\s*%s)+(?![\w(|])"
                   % (TERM, TERM))
FLAG = re.compile(r"^(?:\(\w+\)\s*)?[A-Z][A-Z0-9_]*$")


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
            site = "\n".join(lines[first:last + 1])
            found.append((kind, first + 1, what, w[0], w[1], site, new_text))

    def is_define(offset):
        return lines[line_of(offset)].lstrip().startswith("#") or \
            not code[line_of(offset)]

    # Conditions of if and while: negate, drop terms, swap && and ||,
    # delete checked calls.
    for m in re.finditer(r"\b(if|while)\s*\(", masked):
        if is_define(m.start()):
            continue
        open_at = m.end() - 1
        end = close_paren(masked, open_at)
        if end < 0:
            continue
        lo, hi = open_at + 1, end - 1
        cond = joined[lo:hi]
        add("negate", lo, hi, "!(" + cond + ")", "negated: %s" % cond)
        # A chain inside a ?: is not the condition's own.
        for ops in ([] if top_level(masked, lo, hi, ["?"]) else
                    (["&&"], ["||"])):
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
            # Only where the chain is of one operator: a mixed one would
            # change its grouping.
            if not top_level(masked, lo, hi, ["||" if ops[0] == "&&"
                                              else "&&"]):
                other = "||" if ops[0] == "&&" else "&&"
                for p, op in at:
                    add("logic", p, p + 2, other, "%s changed to %s: %s"
                        % (op, other, " ".join(cond.split())))
        for c in CALL.finditer(masked, lo, hi):
            if c.group(1) in NOT_CALLS:
                continue
            cend = close_paren(masked, c.end() - 1)
            if cend < 0 or cend > hi:
                continue
            add("uncall", c.start(), cend, "0",
                "call deleted, its result 0: %s" % joined[c.start():cend])

    # Calls that are whole statements.
    for i, ml in enumerate(masked_lines):
        if not code[i] or lines[i].lstrip().startswith("#"):
            continue
        m = STATEMENT.match(ml)
        if not m or ml.rstrip().endswith("\\"):
            continue
        call = CALL.match(m.group(2))
        if not call or call.group(1) in NOT_STATEMENTS:
            continue
        # One call: its parenthesis closes just before the ';'.
        a = starts[i] + m.start(2)
        cend = close_paren(masked, starts[i] + m.start(2) + call.end() - 1)
        if cend != starts[i] + len(ml.rstrip()) - 1:
            continue
        add("stmt", a, cend + 1, "(void)0;", "call deleted: %s"
            % " ".join(joined[a:cend].split()))

    # Comparisons, flags, booleans and constants anywhere in code.
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
        for m in FLAGS.finditer(ml):
            terms = [t for t in re.finditer(r"(?:\(\w+\)\s*)?[A-Za-z_]\w*",
                                            m.group(0))]
            for k, t in enumerate(terms):
                # (O_RDONLY is 0: without it, the same.)
                if not FLAG.match(t.group(0)) or t.group(0) == "O_RDONLY":
                    continue
                if k == 0:
                    a, b = t.start(), terms[1].start()
                else:
                    a, b = terms[k - 1].end(), t.end()
                add("flag", base + m.start() + a, base + m.start() + b, "",
                    "flag dropped: %s" % t.group(0))
        for m in re.finditer(r"\b(true|false)\b", ml):
            new = "false" if m.group(1) == "true" else "true"
            add("bool", base + m.start(), base + m.end(), new,
                "%s changed to %s" % (m.group(1), new))
        for m in OCTAL.finditer(ml):
            n = int(m.group(1), 8)
            for more in (0o022, 0o044):
                if n & more != more:
                    new = "0%o" % (n | more)
                    add("mode", base + m.start(), base + m.end(), new,
                        "%s changed to %s" % (m.group(1), new))
        for m in NUMBER.finditer(ml):
            n = int(m.group(1))
            if m.start() and ml[m.start() - 1] in "[":
                continue  # an array's size: a build error, not a bug
            for new in ((n + 1, n - 1) if n > 0 else (1,)):
                add("const", base + m.start(), base + m.end(), str(new),
                    "%d changed to %d" % (n, new))
    return found


def expand(args):
    """Files and directories (their .c and .h files), in order."""
    out = []
    for a in args:
        if os.path.isdir(a):
            out += sorted(os.path.join(a, f) for f in os.listdir(a)
                          if f.endswith((".c", ".h")))
        else:
            out.append(a)
    return out


def stem_of(path):
    """src/core/policy.c -> core-policy; src/wrap/fdreq.h -> wrap-fdreq-h"""
    parts = path.split("/")
    name = parts[-1]
    name = name[:-2] if name.endswith(".c") else name
    where = parts[-2] if len(parts) > 1 else ""
    return re.sub(r"[^a-z0-9]+", "-", ("%s-%s" % (where, name)).lower()) \
        .strip("-")


def every_mutant(files):
    """(id, path, line, kind, what, find, repl) of every mutant of files."""
    every = []
    for path in files:
        stem = stem_of(path)
        seen = set()
        times = {}
        for kind, line, what, find, repl, site, new in mutants_of(path):
            if (find, repl) in seen or find == repl:
                continue
            seen.add((find, repl))
            key = (site.strip(), new.strip())
            k = times.get(key, 0)
            times[key] = k + 1
            h = hashlib.sha1(("%s\0%s\0%s\0%d" % (path, key[0], key[1], k))
                             .encode()).hexdigest()[:8]
            every.append(("auto-%s-%s" % (stem, h), path, line, kind, what,
                          find, repl))
    return every


def first_of(path):
    if path in FIRST:
        return FIRST[path]
    return FIRST_DIR.get(os.path.dirname(path))


def check(explained, every):
    """0 if each line of explained names a mutant of every, with a reason."""
    known = {m[0]: m for m in every}
    bad = 0
    seen = set()
    for n, line in enumerate(open(explained), 1):
        if line.startswith("#") or not line.strip():
            continue
        parts = line.rstrip("\n").split("\t")
        where = "%s:%d" % (explained, n)
        if len(parts) != 3 or not re.match(
                r"(equivalent|unreachable): \S", parts[2]):
            print("%s: not ID<TAB>WHAT<TAB>equivalent: or unreachable: "
                  "WHY" % where)
            bad = 1
        elif parts[0] not in known:
            print("%s: %s: no such mutant now (%s): its code changed; "
                  "is the reason still true?" % (where, parts[0], parts[1]))
            bad = 1
        elif parts[0] in seen:
            print("%s: %s twice" % (where, parts[0]))
            bad = 1
        seen.add(parts[0])
    return bad


def main(argv):
    count, seed, listing, ids, files = None, "0", False, False, []
    explained = None
    i = 0
    while i < len(argv):
        if argv[i] == "--check":
            explained = argv[i + 1]
            i += 2
        elif argv[i] == "-n":
            count = int(argv[i + 1])
            i += 2
        elif argv[i] == "-s":
            seed = argv[i + 1]
            i += 2
        elif argv[i] == "--list":
            listing = True
            i += 1
        elif argv[i] == "--ids":
            ids = True
            i += 1
        else:
            files.append(argv[i])
            i += 1
    files = expand(files)
    if not files:
        sys.stderr.write(__doc__)
        return 2
    every = every_mutant(files)
    if explained:
        return check(explained, every)
    chosen = every
    if count is not None and count < len(every):
        chosen = random.Random(seed).sample(every, count)
        chosen.sort(key=lambda m: (files.index(m[1]), m[2], m[0]))
    out = sys.stdout
    if ids:
        for m in chosen:
            out.write(m[0] + "\n")
        return 0
    if listing:
        for mid, path, line, kind, what, _, _ in chosen:
            out.write("%s\t%s:%d\t%s\t%s\n" % (mid, path, line, kind,
                                               " ".join(what.split())))
        return 0
    out.write("# Made by tests/mutate/auto.py: %d of %d mutants of %s "
              "(seed %s).\n" % (len(chosen), len(every), " ".join(files),
                                seed))
    for mid, path, line, kind, what, find, repl in chosen:
        out.write("\nmutant %s\nfile %s\nfind %s\nrepl %s\n" % (
            mid, path, find, repl))
        out.write("desc line %d: %s: %s\n" % (line, kind,
                                             " ".join(what.split())))
        first = first_of(path)
        if first:
            out.write("first %s\n" % first)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
