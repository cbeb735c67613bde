#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Per-test coverage, for make coverage and make mutate (tests/coverage/run.sh).

    pertest.py stale SRC DIR TEST...
        The tests whose records in DIR are missing or out of date, one a
        line: all of them when anything but the tests' own files changed
        in the tree SRC (src/, tests/lib/, the build ...), else those whose
        own file changed.  DIR/keys.json says what the records are of.
    pertest.py collect BUILD SRC OUT
        Reads the counts of BUILD's .gcda files with gcov and writes OUT:
        the lines of SRC/src that ran (and those that could have) and
        each branch's count.
    pertest.py done SRC DIR TEST...
        After every stale test has its record: keys.json, and map.json,
        which runs src/FILE's line N: {"tests": [...], "time": {...},
        "lines": {"src/FILE": {"N": [test index ...]}}}.
    pertest.py report DIR EXPLAINED SRC FILE...
        DIR/table.md, the lines and branches of each file of src/, all
        tests' records together; DIR/branches-left.txt, the branches of
        FILE... not taken both ways, less those EXPLAINED gives a reason
        for (FILE<TAB>FUNCTION<TAB>the line's text, trimmed<TAB>reason:
        one reason for each line of that text in that function); and
        DIR/security.md, FILE...'s branches taken and explained.
"""
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys

# What no test's coverage depends on: how the tests are run and measured,
# and the documentation.
NOT_KEYS = ("tests/mutate/", "tests/coverage/", "doc/", "bench/",
            "README", "man/", "bootstrap")


def own_files(src, test):
    """The files that are this test's alone: its script or its source."""
    return [f for f in (test, test + ".c") if os.path.isfile(
        os.path.join(src, f))]


def digest(src, files):
    h = hashlib.sha256()
    for f in sorted(files):
        h.update(f.encode() + b"\0")
        with open(os.path.join(src, f), "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


def keys_of(src, tests):
    own = {t: own_files(src, t) for t in tests}
    owned = {f for fs in own.values() for f in fs}
    rest = []
    for top, dirs, files in os.walk(src):
        dirs.sort()
        for f in files:
            rel = os.path.relpath(os.path.join(top, f), src)
            if rel in owned or rel.startswith(NOT_KEYS):
                continue
            rest.append(rel)
    return {"base": digest(src, rest),
            "tests": {t: digest(src, own[t]) for t in tests}}


def record_path(d, test):
    return os.path.join(d, "tests", test.replace("/", "_") + ".json.gz")


def stale(src, d, tests):
    keys = keys_of(src, tests)
    try:
        old = json.load(open(os.path.join(d, "keys.json")))
    except (OSError, ValueError):
        old = {}
    for t in tests:
        if (old.get("base") != keys["base"]
                or old.get("tests", {}).get(t) != keys["tests"][t]
                or not os.path.isfile(record_path(d, t))):
            print(t)
    return 0


def gcov_json(build, gcdas):
    """Each gcov JSON document of these .gcda files."""
    docs = []
    for i in range(0, len(gcdas), 50):
        p = subprocess.run(["gcov", "-b", "-j", "-t"] + gcdas[i:i + 50],
                           cwd=build, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        text, at = p.stdout, 0
        dec = json.JSONDecoder()
        while True:
            while at < len(text) and text[at].isspace():
                at += 1
            if at >= len(text):
                break
            try:
                doc, at = dec.raw_decode(text, at)
            except ValueError:
                break
            docs.append(doc)
    return docs


def collect(build, src, out):
    src = os.path.realpath(src)
    gcdas = []
    for top, dirs, files in os.walk(build):
        for f in files:
            if f.endswith(".gcda") and "conftest" not in f:
                gcdas.append(os.path.relpath(os.path.join(top, f), build))
    gcdas.sort()
    lines, branches = {}, {}
    for doc in gcov_json(build, gcdas):
        cwd = doc.get("current_working_directory", build)
        # The test build's objects (libcoretest: load.c with the test
        # switches) count as reaching their lines, but their branches are
        # of another compilation.
        test_build = os.path.basename(doc.get("data_file", "")).startswith(
            "tests_lib_")
        for f in doc.get("files", []):
            path = os.path.realpath(os.path.join(cwd, f["file"]))
            rel = os.path.relpath(path, src)
            if not rel.startswith("src/"):
                continue
            fl = lines.setdefault(rel, {})
            fb = branches.setdefault(rel, {})
            for l in f["lines"]:
                n = str(l["line_number"])
                fl[n] = fl.get(n, 0) + l["count"]
                if test_build:
                    continue
                b = [x["count"] for x in l.get("branches", [])
                     if not x.get("throw")]
                if not b:
                    continue
                have = fb.setdefault(n, [])
                for v in have:
                    if len(v) == len(b):
                        for k in range(len(b)):
                            v[k] += b[k]
                        break
                else:
                    have.append(b)
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with gzip.open(out, "wt") as fh:
        json.dump({"lines": lines, "branches": branches}, fh)
    return 0


def load_record(d, t):
    with gzip.open(record_path(d, t), "rt") as fh:
        return json.load(fh)


def done(src, d, tests):
    keys = keys_of(src, tests)
    times = {}
    for t in tests:
        try:
            with open(os.path.join(d, "tests", t.replace("/", "_")
                                   + ".time")) as fh:
                times[t] = float(fh.read().split()[0])
        except (OSError, ValueError, IndexError):
            times[t] = 0.0
    by_line = {}
    for i, t in enumerate(tests):
        rec = load_record(d, t)
        for f, ls in rec["lines"].items():
            bf = by_line.setdefault(f, {})
            for n, c in ls.items():
                reached = bf.setdefault(n, [])
                if c > 0:
                    reached.append(i)
    with open(os.path.join(d, "map.json.tmp"), "w") as fh:
        json.dump({"tests": tests, "time": times, "lines": by_line}, fh)
    os.rename(os.path.join(d, "map.json.tmp"), os.path.join(d, "map.json"))
    with open(os.path.join(d, "keys.json"), "w") as fh:
        json.dump(keys, fh)
    return 0


def totals(d, tests):
    lines, branches = {}, {}
    for t in tests:
        rec = load_record(d, t)
        for f, ls in rec["lines"].items():
            fl = lines.setdefault(f, {})
            for n, c in ls.items():
                fl[n] = fl.get(n, 0) + c
        for f, bs in rec["branches"].items():
            fb = branches.setdefault(f, {})
            for n, vs in bs.items():
                have = fb.setdefault(n, [])
                for b in vs:
                    for v in have:
                        if len(v) == len(b):
                            for k in range(len(b)):
                                v[k] += b[k]
                            break
                    else:
                        have.append(list(b))
    return lines, branches


def pct(c, t):
    return "%5.1f%%" % (100.0 * c / t) if t else "    -"


FUNCTION = re.compile(r"^[A-Za-z_][^;=]*?\b(\w+)\s*\(")


def functions_of(text):
    """The function each line is in, by the house style (a definition
    starts at column 0, its body's brace too): "" outside one."""
    out, name, at = [], "", ""
    for line in text:
        m = FUNCTION.match(line)
        if m and not line.rstrip().endswith(";"):
            at = m.group(1)
        if line.startswith("{"):
            name = at
        out.append(name)
        if line.startswith("}"):
            name = ""
    return out


def report(d, explained, files, src):
    tests = json.load(open(os.path.join(d, "map.json")))["tests"]
    lines, branches = totals(d, tests)
    out = open(os.path.join(d, "table.md"), "w")
    out.write("| file | lines | line % | branches | branch % |\n")
    out.write("|---|---:|---:|---:|---:|\n")
    tl = tc = tb = tt = 0
    for f in sorted(lines):
        ls = lines[f]
        lc = sum(1 for c in ls.values() if c > 0)
        bt = sum(len(v) for vs in branches.get(f, {}).values() for v in vs)
        bc = sum(1 for vs in branches.get(f, {}).values() for v in vs
                 for c in v if c > 0)
        out.write("| %s | %d/%d | %s | %d/%d | %s |\n" % (
            f, lc, len(ls), pct(lc, len(ls)), bc, bt, pct(bc, bt)))
        tl += len(ls)
        tc += lc
        tb += bt
        tt += bc
    out.write("| **total** | %d/%d | %s | %d/%d | %s |\n" % (
        tc, tl, pct(tc, tl), tt, tb, pct(tt, tb)))
    out.close()
    # The reasons: FILE<TAB>FUNCTION<TAB>the line's text<TAB>why.
    reasons = {}
    bad = 0
    for n, line in enumerate(open(explained), 1):
        if line.startswith("#") or not line.strip():
            continue
        parts = line.rstrip("\n").split("\t")
        if len(parts) != 4 or not parts[3].strip():
            print("%s:%d: not FILE<TAB>FUNCTION<TAB>LINE<TAB>REASON"
                  % (explained, n))
            bad = 1
            continue
        reasons[(parts[0], parts[1], parts[2].strip())] = [parts[3], 0]
    left = open(os.path.join(d, "branches-left.txt"), "w")
    summary = []
    for f in files:
        try:
            text = open(os.path.join(src, f)).read().split("\n")
        except OSError:
            continue
        funcs = functions_of(text)
        bs = branches.get(f, {})
        nb = nt = nx = 0
        for n in sorted(bs, key=int):
            for v in bs[n]:
                never = sum(1 for c in v if c == 0)
                nb += len(v)
                nt += len(v) - never
                if not never:
                    continue
                src_line = text[int(n) - 1].strip() if int(n) <= len(text) \
                    else ""
                func = funcs[int(n) - 1] if int(n) <= len(text) else ""
                why = reasons.get((f, func, src_line))
                if why:
                    why[1] += 1
                    nx += never
                    continue
                left.write("%s:%s: %s(): %s: %s\n" % (
                    f, n, func, "never reached" if never == len(v) else
                    "%d of %d ways never taken" % (never, len(v)), src_line))
        summary.append("| %s | %d/%d | %s | %d | %s |" % (
            f, nt, nb, pct(nt, nb), nx, pct(nt + nx, nb)))
    left.close()
    for (f, fn, l), (why, used) in sorted(reasons.items()):
        if not used:
            print("coverage: %s: stale reason: no branch left in %s, %s(), "
                  "on a line '%s'" % (explained, f, fn, l))
    with open(os.path.join(d, "security.md"), "w") as fh:
        fh.write("| file | branches taken | % | explained | % with "
                 "explained |\n|---|---:|---:|---:|---:|\n")
        fh.write("\n".join(summary) + "\n")
    return bad


def main(argv):
    if len(argv) >= 3 and argv[0] == "stale":
        return stale(argv[1], argv[2], argv[3:])
    if len(argv) == 4 and argv[0] == "collect":
        return collect(argv[1], argv[2], argv[3])
    if len(argv) >= 3 and argv[0] == "done":
        return done(argv[1], argv[2], argv[3:])
    if len(argv) >= 4 and argv[0] == "report":
        return report(argv[1], argv[2], argv[4:], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
