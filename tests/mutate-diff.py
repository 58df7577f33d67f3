#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make mutate-diff BASE=REV: mechanical mutants on the C lines changed
since REV, each run against the tests that execute its line.

As mutation testing is run at review (Petrovic and Ivankovic, "State of
Mutation Testing at Google", ICSE-SEIP 2018): mutants only on changed
lines, at most one per line, arid lines (comments, declarations,
logging, braces) skipped, and the survivors shown with file:line.

1. The map.  kab is built with gcov (make COV=1, build-cov/), every
   test file runs alone (the unit test binaries and tests/cli/t*.sh,
   the files that boot QEMU too), and gcov says which lines each one
   executed.  Kept in build-cov/mutate-map.json with the hashes of the
   sources it was made of: made once (--remap makes it again).  A
   line of a file changed since is found where it was (difflib) and
   takes that line's tests; a line new since runs against every test
   that executed the file.  A line gcov gives no count of its own
   takes the tests of the lines it belongs to: a statement's
   continuation those of its first line, a break or a continue those
   of the statement before it in its block.
2. The mutants.  The lines of common/ runner/ db/ analysis/ model/
   driver/ watch/ kbuild/ cli/ plugin/ that `git diff BASE` adds, less the arid
   ones;
   on each, one of: a relational or equality operator flipped (< <=,
   == !=), && and || swapped, an if's or while's condition negated, an
   integer constant moved by one, a return value replaced, true and
   false swapped, a statement deleted.  The choice is random, seeded
   (--seed) by the line, so a run is repeatable.
3. Each mutant, in a copy of the tree: written, built (incrementally:
   one object, the links), then the tests that execute its line, the
   fast ones first, until one fails (killed) or none does (survived).
   The files that boot guests (QEMU, ssh, LAVA) or build kab whole run
   first only for a line no other file reaches; for another line they
   run once the mutant survived the others (and the sanitized run),
   unless --fast-only; under --san in the sanitized build, as CI's
   first pass runs every file (and plain as well for the files CI
   runs a second time plain).  gcov cannot see into a
   guest: a line of the agent's code (a source whose object defines a
   symbol of kab-agent) that no test reached on the host runs against
   the files that boot the agent (t9, t10), and is marked so.
   A mutant that does not build is stillborn and not counted; one no
   test executes is uncovered and counts as survived.  A test that
   runs three times as long as it did for the map (and a minute) is
   killed, and so is the mutant.

Mutants the author judged equivalent (the program means the same) are
listed in tests/mutants/equivalent-diff.txt by the key the report
prints, each with the reason; they are not counted.  The report ends
with the score per library and in all, "K of N killed (P%)".

    tests/mutate-diff.py --base REV [--sample N] [--seed S]
                         [--only PATH...] [--keys KEY...] [--fast-only]
                         [--map-only] [--list]
"""
import argparse
import hashlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBS = ["common", "runner", "db", "analysis", "model", "driver", "watch", "report",
        "kbuild", "cli", "plugin"]
COV = "build-cov"
EQUIV = os.path.join(TOP, "tests", "mutants", "equivalent-diff.txt")


def die(msg):
    print("mutate-diff: %s" % msg, file=sys.stderr)
    sys.exit(2)


def git(*args, cwd=TOP):
    return subprocess.run(["git"] + list(args), cwd=cwd, check=True,
                          stdout=subprocess.PIPE, text=True,
                          errors="replace").stdout


# --- which lines changed -------------------------------------------------

def changed_lines(base, only):
    """{path: set(line numbers in the work tree)} added since base."""
    paths = ["%s/*.c" % d for d in LIBS]
    out = git("diff", "-U0", "--no-color", "--no-ext-diff", base, "--",
              *paths)
    lines, cur = {}, None
    for ln in out.splitlines():
        if ln.startswith("+++ "):
            cur = ln[6:] if ln.startswith("+++ b/") else None
            if cur and only and not any(cur.startswith(o) for o in only):
                cur = None
        elif ln.startswith("@@") and cur:
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", ln)
            start, n = int(m.group(1)), int(m.group(2) or "1")
            lines.setdefault(cur, set()).update(range(start, start + n))
    return lines


# --- a little C lexer: which characters are code -------------------------

def code_mask(text):
    """A list of booleans: text[i] is code (not comment, string, char)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                mask[k] = text[k] == "\n"
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            for k in range(i, j):
                mask[k] = False
            i = j
        else:
            i += 1
    return mask


KEYWORDS = ("return", "break", "continue", "goto", "case", "default",
            "typedef", "static", "extern", "struct", "union", "enum",
            "const", "unsigned", "signed", "else", "do", "sizeof")
ARID_CALLS = re.compile(r"\b(cli_note|cli_progress_note|kab_target_note|"
                        r"kab_target_note_lines|fprintf\s*\(\s*stderr|"
                        r"perror|assert|free|strbuf_release|json_decref|"
                        r"fclose|close|unlink|sqlite3_finalize)\b")
DECL = re.compile(r"^\s*(?:(?:static|const|volatile|unsigned|signed|"
                  r"struct|enum|union)\s+)*[A-Za-z_]\w*(?:\s+|\s*\*+\s*)"
                  r"\**[A-Za-z_]\w*\s*(?:[=;,\[]|$)")


def code_of(line, mask):
    """The line with its non-code characters blanked."""
    return "".join(ch if m else " " for ch, m in zip(line, mask))


def arid(code, prev_code):
    s = code.strip()
    if not s or s.startswith("#"):
        return True
    if re.fullmatch(r"[{}();,]*|else|do|\w+:", s):
        return True
    # a parameter marked unused: no code (kab builds with
    # -Wno-unused-parameter, so its deletion is an equivalent mutant)
    if re.fullmatch(r"\(void\)\s*\w+\s*;", s):
        return True
    # the middle or end of a statement begun above, unless a condition
    if prev_code is not None and not re.search(r"[;{}:)]\s*$", prev_code) \
            and not prev_code.strip().startswith("#") and prev_code.strip():
        if not re.search(r"&&|\|\||[<>]=?|[=!]=", s):
            return True
    if ARID_CALLS.search(s) and not re.match(r"(if|while|for)\b", s):
        return True
    if DECL.match(code) and "(" not in s.split("=")[0]:
        return "=" not in s
    return False


# --- the operators ---------------------------------------------------------

def in_code(mask, a, b):
    return all(mask[a:b])


def paren_end(code, i):
    """Index of the ) matching the ( at i on this line, or -1."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


def mutations(line, mask, prev_code):
    """(operator, mutated line) for each mutation the line allows."""
    code = code_of(line, mask)
    out = []
    for m in re.finditer(r"(?<![<>=!\-])(<=|>=|==|!=|<|>)(?![<>=])", code):
        if code[m.start()] in "<>" and re.search(r"#\s*include", code):
            continue
        a, b = m.span()
        out.append(("rel", line[:a] + REL[m.group(1)] + line[b:]))
    for m in re.finditer(r"&&|\|\|", code):
        a, b = m.span()
        out.append(("logic", line[:a] + ("||" if m.group() == "&&" else
                                         "&&") + line[b:]))
    for m in re.finditer(r"\b(if|while)\s*\(", code):
        a = m.end() - 1
        b = paren_end(code, a)
        if b > 0:
            out.append(("negate", line[:a + 1] + "!(" + line[a + 1:b] +
                        ")" + line[b:]))
    for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", code):
        if re.search(r"\[\s*$", code[:m.start()]) and \
                DECL.match(code):
            continue			# an array's size
        a, b = m.span()
        v = int(m.group(1))
        out.append(("const", line[:a] + str(v + 1) + line[b:]))
        if v > 0:
            out.append(("const", line[:a] + str(v - 1) + line[b:]))
    m = re.match(r"(\s*return\s+)(.+?)(\s*;\s*)$", code)
    if m:
        e = m.group(2).strip()
        repl = {"0": "1", "1": "0", "-1": "0", "true": "false",
                "false": "true", "NULL": None}.get(e, "0")
        if repl is not None:
            a, b = m.start(2), m.end(2)
            out.append(("return", line[:a] + repl + line[b:]))
    for m in re.finditer(r"\b(true|false)\b", code):
        if code.lstrip().startswith("return"):
            continue
        a, b = m.span()
        out.append(("bool", line[:a] + ("false" if m.group() == "true"
                                        else "true") + line[b:]))
    s = code.strip()
    words = s.split("(")[0].split()
    first = words[0] if words else ""
    if s.endswith(";") and first not in KEYWORDS and \
            not DECL.match(code) and (prev_code is None or
                                      re.search(r"[;{}:)]\s*$", prev_code)
                                      or not prev_code.strip()) and \
            re.match(r"[\w*(]", s) and not s.startswith("return"):
        indent = line[:len(line) - len(line.lstrip())]
        out.append(("delete", indent + ";"))
    return out


def mutant_key(path, orig, new):
    h = hashlib.sha1(("%s\0%s\0%s" % (path, orig.strip(), new.strip()))
                     .encode()).hexdigest()
    return h[:12]


def library(path):
    return path.split("/")[0]


def generate(base, only, seed, every):
    muts = []
    for path, nums in sorted(changed_lines(base, only).items()):
        full = os.path.join(TOP, path)
        if not os.path.exists(full):
            continue
        text = open(full, errors="replace").read()
        mask = code_mask(text)
        lines = text.split("\n")
        off, masks = 0, []
        for ln in lines:
            masks.append(mask[off:off + len(ln)])
            off += len(ln) + 1
        prev = None
        codes = [code_of(ln, mk) for ln, mk in zip(lines, masks)]
        for i, ln in enumerate(lines, 1):
            # the code line above, blank lines skipped
            k = i - 2
            while k >= 0 and not codes[k].strip():
                k -= 1
            prev = codes[k] if k >= 0 else None
            if i not in nums or arid(codes[i - 1], prev):
                continue
            cands = [c for c in mutations(ln, masks[i - 1], prev)
                     if c[1] != ln]
            if not cands:
                continue
            if not every:
                r = random.Random("%s:%s:%d" % (seed, path, i))
                cands = [r.choice(cands)]
            for op, new in cands:
                muts.append({"path": path, "line": i, "op": op,
                             "orig": ln, "new": new,
                             "key": mutant_key(path, ln, new)})
    return muts


# --- the map of tests to lines ---------------------------------------------

def test_list(top, build):
    units = sorted(f for f in os.listdir(os.path.join(top, build, "tests"))
                   if f.startswith("test-") and "." not in f)
    clis = sorted((f for f in os.listdir(os.path.join(top, "tests", "cli"))
                   if re.fullmatch(r"t[\w-]*\.sh", f) and f != "t-harness.sh"),
                  key=lambda f: int(re.match(r"t(\d+)", f).group(1))
                  if re.match(r"t\d+", f) else -1)
    return units + clis


def open_to_all(bdir):
    """A test that runs kab as another user writes gcov's files too."""
    for d, _, files in os.walk(bdir):
        os.chmod(d, 0o777)
        for f in files:
            if f.endswith(".gcda"):
                os.chmod(os.path.join(d, f), 0o666)


def run_test(top, build, t, timeout, fail_fast):
    env = dict(os.environ, KAB_TOP=top, KAB_BUILD=os.path.join(top, build),
               CMOCKA_MESSAGE_OUTPUT="TAP",
               KAB_FIXTURES=os.path.join(top, "tests", "fixtures"))
    if "san" in build:
        # as tests/run: ASan's allocator is not glibc's
        env["KAB_SAN"] = "1"
    if fail_fast:
        env["KAB_FAIL_FAST"] = "1"
    # a test running kab as another user: gcov's complaints not on
    # the stderr the test reads
    env["GCOV_ERROR_FILE"] = "/dev/null"
    cmd = [os.path.join(top, build, "tests", t)] if t.startswith("test-") \
        else ["bash", os.path.join(top, "tests", "cli", t)]
    t0 = time.time()
    p = subprocess.Popen(cmd, cwd=top, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True, text=True,
                         errors="replace")
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        # the test's own processes only (QEMU runs in groups of its
        # own): never another's that happens to run beside it
        kill_tree(p.pid)
        p.communicate()
        return "timeout", time.time() - t0, ""
    ok = p.returncode == 0 and not re.search(r"^not ok", out, re.M)
    return ("pass" if ok else "fail"), time.time() - t0, out


def kill_tree(pid):
    """SIGKILL pid, its process group and every process below it."""
    kids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(ppid, []).append(int(d))
    left, tree = [pid], []
    while left:
        q = left.pop()
        tree.append(q)
        left.extend(kids.get(q, []))
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    for q in tree:
        try:
            os.kill(q, signal.SIGKILL)
        except OSError:
            pass


def not_ok(out):
    """The names of the tests a TAP output says failed."""
    return sorted(set(re.findall(r"^not ok \d* *-? *(.*)$", out, re.M)))


def gcov_lines(top, build):
    """{source path: set(lines executed)} from the .gcda files there."""
    seen = {}
    bdir = os.path.join(top, build)
    with tempfile.TemporaryDirectory() as tmp:
        for d, _, files in os.walk(bdir):
            gcdas = [os.path.join(d, f) for f in files if f.endswith(".gcda")]
            if not gcdas:
                continue
            p = subprocess.run(["gcov", "-t", "-j", "-o", d] + gcdas,
                               cwd=tmp, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            for doc in p.stdout.splitlines():
                if not doc.strip().startswith("{"):
                    continue
                j = json.loads(doc)
                cwd = j.get("current_working_directory", top)
                for f in j.get("files", []):
                    src = os.path.relpath(os.path.join(cwd, f["file"]), top)
                    if src.startswith(".."):
                        continue
                    s = seen.setdefault(src, set())
                    s.update(l["line_number"] for l in f["lines"]
                             if l["count"] > 0)
    return seen


def file_hashes(texts=None):
    """{source: sha1}; texts, when given, gets each source's lines."""
    out = {}
    for f in git("ls-files", "-co", "--exclude-standard", "--",
                 *["%s/*.c" % d for d in LIBS]).split():
        data = open(os.path.join(TOP, f), "rb").read()
        out[f] = hashlib.sha1(data).hexdigest()
        if texts is not None:
            texts[f] = data.decode(errors="replace")
    return out


def moved_lines(old_text, new_path):
    """{new line: old line} for the lines a file kept since the map."""
    import difflib
    old = old_text.split("\n")
    new = open(os.path.join(TOP, new_path), errors="replace").read() \
        .split("\n")
    out = {}
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                out[j1 + k + 1] = i1 + k + 1
    return out


def make_map(skip, again):
    """
    The map, made when there is none (or again): the sources' hashes
    are kept with it, so that a file changed since is known (its
    mutants then run against every test that executed the file).
    """
    path = os.path.join(TOP, COV, "mutate-map.json")
    if os.path.exists(path) and not again:
        return json.load(open(path))
    texts = {}
    hashes = file_hashes(texts)
    print("# the map: kab built with gcov, each test file run alone",
          flush=True)
    build_cov()
    m = {"files": hashes, "texts": texts, "lines": {}, "times": {},
         "failing": [], "not_ok": {}}
    for t in test_list(TOP, COV):
        if t not in skip:
            map_one(m, t)
    with open(path, "w") as f:
        json.dump(m, f)
    return m


def build_cov():
    bins = subprocess.run(["make", "-s", "--no-print-directory", "COV=1",
                           "--eval", "print-bins: ; @echo $(TEST_BINS)",
                           "print-bins"], cwd=TOP, stdout=subprocess.PIPE,
                          text=True).stdout.split()
    if subprocess.run(["make", "-s", "--no-print-directory", "-j2",
                       "COV=1", "all"] + bins, cwd=TOP).returncode:
        die("make COV=1 failed")


def map_one(m, t):
    """Test file t run alone under gcov: its lines, time and failures
    into the map m (what an earlier run of it said, replaced)."""
    for src in m["lines"].values():
        for ln in src:
            if t in src[ln]:
                src[ln].remove(t)
    for d, _, files in os.walk(os.path.join(TOP, COV)):
        for f in files:
            if f.endswith(".gcda"):
                os.unlink(os.path.join(d, f))
    open_to_all(os.path.join(TOP, COV))
    st, secs, out = run_test(TOP, COV, t, 3600, False)
    m["times"][t] = secs
    if t in m["failing"]:
        m["failing"].remove(t)
    m.setdefault("not_ok", {}).pop(t, None)
    if st != "pass":
        m["failing"].append(t)
        m["not_ok"][t] = not_ok(out)
        with open(os.path.join(TOP, COV, t + ".out"), "w") as f:
            f.write(out)
    print("#   %-24s %4.0f s %s" % (t, secs, "" if st == "pass" else st),
          flush=True)
    for src, ls in gcov_lines(TOP, COV).items():
        for ln in ls:
            m["lines"].setdefault(src, {}).setdefault(str(ln), []).append(t)


def retest(m, tests):
    """Run tests for the map again (one that failed, say), in place.
    Their lines are recorded as the sources are now: a source changed
    since the map would mix two numberings, so that is refused."""
    now = file_hashes()
    stale = sorted(f for f in now if f in m["files"] and
                   m["files"][f] != now[f])
    if stale:
        die("--retest: %s changed since the map; their lines would mix "
            "two versions: make the map again with --remap" %
            " ".join(stale[:5]) + (" ..." if len(stale) > 5 else ""))
    build_cov()
    for t in tests:
        map_one(m, t)
    with open(os.path.join(TOP, COV, "mutate-map.json"), "w") as f:
        json.dump(m, f)


# --- running the mutants ---------------------------------------------------

def equivalents():
    eq = {}
    if os.path.exists(EQUIV):
        for ln in open(EQUIV):
            m = re.match(r"([0-9a-f]{12})\s+(.*)", ln)
            if m:
                eq[m.group(1)] = m.group(2).strip()
    return eq


# The files that boot guests (or build kab whole): run against a mutant
# first when no other file reaches its line, else once it survived the
# others (not with --fast-only).
SLOW = {"t9-qemu.sh", "t10-ab.sh", "t11-bisect.sh", "t14-ssh.sh",
        "t15-ci-workflows.sh", "t19-install.sh", "t20-deb.sh",
        "t24-lava.sh"}


# what .ci/run runs a second time in the plain build
CI_PLAIN = {"t1-malloc1.sh", "t15-ci-workflows.sh", "t19-install.sh",
            "t20-deb.sh"}

GUEST = ["t9-qemu.sh", "t10-ab.sh"]


_agent_files = None


def agent_side(path):
    """Linked into kab-agent, which runs in the guests: a source whose
    object defines a symbol the agent has."""
    global _agent_files
    if _agent_files is None:
        _agent_files = set()

        def syms(f):
            p = subprocess.run(["nm", "--defined-only", "-g", f],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            return {ln.split()[-1] for ln in p.stdout.splitlines()
                    if len(ln.split()) == 3 and ln.split()[1] in "TtDdBbRr"}
        agent = syms(os.path.join(TOP, "build", "kab-agent")) - {"main"}
        for d in ("runner", "common", "cli"):
            bd = os.path.join(TOP, "build", d)
            for f in os.listdir(bd) if os.path.isdir(bd) else []:
                if f.endswith(".o") and syms(os.path.join(bd, f)) & agent:
                    _agent_files.add("%s/%s.c" % (d, f[:-2]))
        # the agent's own main, whose other functions are all static
        _agent_files.add("cli/agent.c")
    return path in _agent_files


def statement_tests(cov, path, line):
    """gcov counts a statement of several lines on one of them: a line
    within it that gcov left out takes the tests of the lines above it
    in the same statement (an initializer's lines those of the
    declaration; a function's static table those of the function's
    first counted line after it)."""
    with open(os.path.join(TOP, path), errors="replace") as f:
        full = f.read()
    text = full.split("\n")
    mask = code_mask(full)
    offs = [0]
    for t in text:
        offs.append(offs[-1] + len(t) + 1)
    here = code_of(text[line - 1], mask[offs[line - 1]:offs[line - 1] +
                                        len(text[line - 1])]).strip()
    if re.fullmatch(r"(break|continue)\s*;", here):
        return jump_tests(cov, text, line)
    if here.startswith("static") and re.search(r"=\s*\{$", here) and \
            text[line - 1].startswith("\t"):
        return tests_after(cov, text, line)
    ln = line - 1
    while ln > 0 and line - ln < 40:
        prev = code_of(text[ln - 1],
                       mask[offs[ln - 1]:offs[ln - 1] + len(text[ln - 1])]
                       ).rstrip()
        if prev.endswith("{") and re.search(r"=\s*\{$", prev):
            # an initializer's opening: its lines are its statement's,
            # and a function's static table is read by what follows
            if cov.get(str(ln)):
                return cov[str(ln)]
            if prev.lstrip().startswith("static") and \
                    text[ln - 1].startswith("\t"):
                return tests_after(cov, text, line)
            ln -= 1
            continue
        if not prev or re.search(r"[;{}]$", prev) or \
                prev.lstrip().startswith("#"):
            return []
        if cov.get(str(ln)):
            return cov[str(ln)]
        ln -= 1
    return []


def tests_after(cov, text, line):
    """The tests of the first line counted after line, in its function
    (which ends at a "}" in the first column)."""
    for ln in range(line + 1, min(len(text), line + 120) + 1):
        if text[ln - 1].startswith("}"):
            break
        if cov.get(str(ln)):
            return cov[str(ln)]
    return []


def indent(t):
    return len(t) - len(t.lstrip("\t"))


def jump_tests(cov, text, line):
    """gcov gives a break or a continue no count of its own: it is
    reached from the statement before it in its block, the nearest line
    above at its depth or shallower (the case label, when it is the
    first) that gcov counted.  A line deeper belongs to a block inside,
    which may jump elsewhere."""
    depth = indent(text[line - 1])
    ln = line - 1
    while ln > 0 and line - ln < 40:
        t = text[ln - 1]
        if t.strip() and indent(t) <= depth:
            if cov.get(str(ln)):
                return cov[str(ln)]
            if indent(t) < depth and not t.strip().startswith("case ") \
                    and t.strip() != "default:":
                return []
        ln -= 1
    return []


def order_tests(tests, times):
    fast = [t for t in tests if t not in SLOW]
    return sorted(fast or tests, key=lambda t: (not t.startswith("test-"),
                                                times.get(t, 1e9)))


def wilson(k, n):
    if not n:
        return (0, 0)
    z, p = 1.96, k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (100 * (c - h), 100 * (c + h))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--sample", type=int, default=0,
                    help="run N mutants drawn at random (seeded)")
    ap.add_argument("--seed", default="kab")
    ap.add_argument("--only", nargs="*", default=[],
                    help="paths (or their beginnings) to mutate")
    ap.add_argument("--every", action="store_true",
                    help="every mutation of a line, not one")
    ap.add_argument("--list", action="store_true",
                    help="print the mutants, run nothing")
    ap.add_argument("--map-only", action="store_true")
    ap.add_argument("--remap", action="store_true",
                    help="make the map again (after tests changed)")
    ap.add_argument("--retest", nargs="*", default=[],
                    help="run these test files for the map again")
    ap.add_argument("--skip", nargs="*", default=[],
                    help="test files left out of the map")
    ap.add_argument("--json", help="write each mutant's result here")
    ap.add_argument("--san", action="store_true",
                    help="run a plain survivor's fast test files again in "
                    "the sanitized build (make SAN=1), as CI's first "
                    "pass runs")
    ap.add_argument("--fast-only", action="store_true",
                    help="a survivor of the fast files is not run against "
                    "the files that boot guests")
    ap.add_argument("--keys", nargs="*", default=[],
                    help="run only the mutants with these keys")
    ap.add_argument("--budget", type=float, default=0,
                    help="start no mutant after this many seconds")
    a = ap.parse_args()
    try:
        git("rev-parse", "--verify", "-q", a.base + "^{commit}")
    except subprocess.CalledProcessError:
        die("BASE=%s is not a revision: give one git knows, e.g. "
            "BASE=HEAD~10" % a.base)
    muts = generate(a.base, a.only, a.seed, a.every)
    eq = equivalents()
    if a.sample and a.sample < len(muts):
        # in the drawn order: a run cut short by --budget is still a
        # random sample of the lines
        muts = random.Random(a.seed).sample(muts, a.sample)
    if a.keys:
        muts = [m for m in muts if m["key"] in a.keys]
    if a.list:
        for m in muts:
            print("%s %s:%d %-7s %s" % (m["key"], m["path"], m["line"],
                                        m["op"], m["new"].strip()))
        print("%d mutants" % len(muts))
        return 0
    if not muts and not a.map_only and not a.retest:
        print("0 of 0 mutants killed: no C line of %s changed since %s" %
              (" ".join(LIBS), a.base))
        return 0
    cmap = make_map(set(a.skip), a.remap)
    if a.retest:
        retest(cmap, a.retest)
    if a.map_only:
        return 0
    times = cmap["times"]
    now = file_hashes()
    stale = {f for f in now if cmap["files"].get(f) != now[f]}
    if any(m["path"] in stale for m in muts):
        print("# changed since the map (their mutants run against every "
              "test that executed the file): %s" % " ".join(sorted(
                  {m["path"] for m in muts if m["path"] in stale})))
    # a file with tests that failed for the map (under gcov, beside
    # other work) still kills a mutant by a test that failed anew
    baseline = cmap.get("not_ok", {})
    failing = {t for t in cmap["failing"] if t not in baseline}
    if cmap["failing"]:
        print("# failing without a mutant: %s (%s)" % (
            " ".join(sorted(cmap["failing"])),
            "a new failure kills" if not failing else
            "not used: %s" % " ".join(sorted(failing))))

    work = tempfile.mkdtemp(prefix="kab-mutate-diff.")
    try:
        files = git("ls-files", "-co", "--exclude-standard", "-z")
        tar = subprocess.run(["tar", "-cf", "-", "--null", "-T", "-"],
                             cwd=TOP, input=files.encode(),
                             stdout=subprocess.PIPE, check=True).stdout
        subprocess.run(["tar", "-xf", "-", "-C", work], input=tar, check=True)
        for b in ["build"] + (["build-san"] if a.san else []):
            if os.path.isdir(os.path.join(TOP, b)):
                shutil.copytree(os.path.join(TOP, b),
                                os.path.join(work, b), symlinks=True)
        bins = subprocess.run(["make", "-s", "--no-print-directory",
                               "--eval", "print-bins: ; @echo $(TEST_BINS)",
                               "print-bins"], cwd=work,
                              stdout=subprocess.PIPE, text=True).stdout.split()

        def build(need=None):
            """kab, its agent and the unit tests need names (all)."""
            want = bins if need is None else \
                [b for b in bins if os.path.basename(b) in need]
            return subprocess.run(["make", "-s", "--no-print-directory",
                                   "-j2", "all"] + want, cwd=work,
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
        def build_san(need):
            """The sanitized build of what the tests need, and kab's
            plain agent in build/ (the guests measure with it)."""
            want = ["build-san/" + b.split("/", 1)[1] for b in bins
                    if os.path.basename(b) in need]
            return subprocess.run(["make", "-s", "--no-print-directory",
                                   "-j2", "SAN=1", "all"] + want, cwd=work,
                                  stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
        if build().returncode:
            die("the tree does not build")
        if a.san and build_san(set(os.path.basename(b)
                                   for b in bins)).returncode:
            die("the tree does not build with SAN=1")
        results = []
        moves = {}
        start = time.time()
        for m in muts:
            if a.budget and time.time() - start > a.budget:
                print("# the budget is spent: %d mutants not run" %
                      (len(muts) - len(results)))
                break
            res = dict(m)
            if m["key"] in eq:
                res["status"] = "equivalent"
                res["why"] = eq[m["key"]]
                results.append(res)
                print("equivalent %s %s:%d %s" % (m["key"], m["path"],
                                                   m["line"], m["op"]),
                      flush=True)
                continue
            cov = cmap["lines"].get(m["path"], {})
            moved = None
            if m["path"] in stale and m["path"] in cmap.get("texts", {}):
                moved = moves.setdefault(m["path"], moved_lines(
                    cmap["texts"][m["path"]], m["path"]))
            if m["path"] not in stale:
                tests = cov.get(str(m["line"]), []) or \
                    statement_tests(cov, m["path"], m["line"])
            elif moved and m["line"] in moved:
                # a line kept since the map, moved: its old line's tests
                tests = cov.get(str(moved[m["line"]]), [])
            else:
                tests = sorted({t for ts in cov.values() for t in ts})
            tests = [t for t in tests if t not in failing]
            # the agent's code a guest runs: gcov cannot see into a
            # guest, so its lines no host test reached go to the files
            # that boot the agent
            if not tests and agent_side(m["path"]):
                tests = [t for t in GUEST if t not in failing]
                res["guest"] = True
            full = os.path.join(work, m["path"])
            orig = open(full).read()
            lines = orig.split("\n")
            assert lines[m["line"] - 1] == m["orig"]
            lines[m["line"] - 1] = m["new"]
            t0 = time.time()
            if not tests:
                # one that does not compile is stillborn, not uncovered
                with open(full, "w") as f:
                    f.write("\n".join(lines))
                b = build()
                res["status"] = "stillborn" if b.returncode else \
                    "uncovered"
                with open(full, "w") as f:
                    f.write(orig)
            else:
                with open(full, "w") as f:
                    f.write("\n".join(lines))
                # only what the tests run: a link is seconds each
                b = build(set(order_tests(tests, times)))
                if b.returncode:
                    res["status"] = "stillborn"
                    err = re.search(r"error: .*", b.stderr)
                    res["why"] = err.group() if err else "make failed"
                else:
                    res["status"] = "survived"
                    for t in order_tests(tests, times):
                        lim = 3 * times.get(t, 60) + 60
                        st, _, out = run_test(work, "build", t, lim,
                                              t not in baseline)
                        if st == "fail" and t in baseline and \
                                not set(not_ok(out)) - set(baseline[t]):
                            continue
                        if st != "pass":
                            res["status"] = "killed"
                            res["by"] = t + (" (timeout)" if st == "timeout"
                                             else "")
                            res["failed"] = not_ok(out)
                            break
                    # what only ASan/UBSan/LSan see: a leak, an overflow;
                    # kab on the host, the fast files (the guests run
                    # the plain agent under SAN=1 too)
                    fast = [t for t in tests if t not in SLOW]
                    if res["status"] == "survived" and a.san and fast \
                            and not build_san(set(fast)).returncode:
                        for t in order_tests(fast, times):
                            # the sanitized build runs slower
                            lim = 10 * times.get(t, 60) + 120
                            st, _, out = run_test(work, "build-san", t,
                                                  lim, True)
                            if st == "fail":
                                res["status"] = "killed"
                                res["by"] = t + " (SAN=1)"
                                res["failed"] = not_ok(out)
                                # a sanitizer's own report, or only
                                # a failure (a loaded host's waits?)
                                res["sanitizer"] = bool(re.search(
                                    r"Sanitizer|runtime error:", out))
                                if not res["sanitizer"]:
                                    res["by"] = t + " (SAN=1, no " \
                                        "sanitizer report)"
                                break
                    # the files that boot guests reach it too: run
                    # them before calling it a survivor (a lane's lock
                    # only t24's devices take)
                    # (under --san in the sanitized build, as CI's first
                    # pass runs them: a leak kills; then the plain build
                    # for the files CI runs plain too)
                    slow = [t for t in tests if t in SLOW and
                            t not in order_tests(tests, times)]
                    runs = []
                    for t in sorted(slow, key=lambda t: times.get(t, 1e9)):
                        if a.san:
                            runs.append((t, "build-san"))
                        if not a.san or t in CI_PLAIN:
                            runs.append((t, "build"))
                    if res["status"] == "survived" and not a.fast_only \
                            and a.san and slow and \
                            build_san(set(slow)).returncode:
                        runs = [r for r in runs if r[1] == "build"]
                    if res["status"] == "survived" and not a.fast_only:
                        for t, b in runs:
                            lim = 3 * times.get(t, 60) + 60
                            if b == "build-san":
                                lim = 5 * times.get(t, 60) + 120
                            st, _, out = run_test(work, b, t, lim,
                                                  t not in baseline)
                            if st == "fail" and t in baseline and \
                                    not set(not_ok(out)) - \
                                    set(baseline[t]):
                                continue
                            if st != "pass":
                                res["status"] = "killed"
                                res["by"] = t + (" (SAN=1)" if b ==
                                                 "build-san" else "") + \
                                    (" (timeout)" if st == "timeout"
                                     else "")
                                res["failed"] = not_ok(out)
                                if b == "build-san":
                                    res["sanitizer"] = bool(re.search(
                                        r"Sanitizer|runtime error:", out))
                                break
                with open(full, "w") as f:
                    f.write(orig)
            res["seconds"] = round(time.time() - t0)
            res["tests"] = len(tests)
            results.append(res)
            tag = {"killed": "killed   ", "survived": "SURVIVED ",
                   "uncovered": "UNCOVERED", "stillborn": "stillborn"}
            print("%s %s %s:%d %-7s %s%s" % (
                tag[res["status"]], m["key"], m["path"], m["line"], m["op"],
                m["new"].strip()[:70],
                " [by %s]" % res["by"] if "by" in res else ""), flush=True)
            # what failed, for a reader to tell a kill from a flake
            for name in res.get("failed", [])[:3]:
                print("#   not ok: %s" % name[:100], flush=True)
        build()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    print("# %d s for %d mutants" % (time.time() - start, len(results)))
    libs = {}
    for r in results:
        s = libs.setdefault(library(r["path"]), {})
        s[r["status"]] = s.get(r["status"], 0) + 1
    tk = tn = 0
    print("# %-9s %6s %8s %9s %9s %10s  %s" % (
        "library", "killed", "survived", "uncovered", "stillborn",
        "equivalent", "score"))
    for lib in sorted(libs):
        s = libs[lib]
        k = s.get("killed", 0)
        n = k + s.get("survived", 0) + s.get("uncovered", 0)
        tk += k
        tn += n
        print("# %-9s %6d %8d %9d %9d %10d  %s" % (
            lib, k, s.get("survived", 0), s.get("uncovered", 0),
            s.get("stillborn", 0), s.get("equivalent", 0),
            "%.0f%%" % (100 * k / n) if n else "-"))
    lo, hi = wilson(tk, tn)
    print("%d of %d mutants killed (%.0f%%; 95%% interval %.0f-%.0f%%)" % (
        tk, tn, 100 * tk / tn if tn else 0, lo, hi))
    return 0


if __name__ == "__main__":
    sys.exit(main())
