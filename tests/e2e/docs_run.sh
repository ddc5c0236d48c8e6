#!/bin/bash
# SPDX-License-Identifier: MIT
# Docs that run: every ```sh and ```yaml block of README.md, docs/*.md and
# schema/*.md, every inline `xrun ...` command there, and the `# xrun ...`
# command lines in the comments of plans/*.yaml are checked, as a new user
# would try them:
# - a YAML block that is a plan (a top-level `xrun: 1`) passes `xrun
#   validate`; any other YAML block (a fragment) must parse as YAML;
# - every xrun command line names a real command and only real options
#   (`xrun WORDS... --help` exits 0), its plan and reference files exist in
#   the source tree, and it does not pass a store (.db) where a plan goes;
# - shell blocks marked to run do run, in one scratch directory shared in
#   file order (README.md first), with xrun on the PATH and plans/,
#   samples/ and schema/ linked in, and exit as documented.
# Markers: an HTML comment on the line before the fence (invisible on the
# rendered page):
#   <!-- docs-check: run -->          run this sh block; exit 0
#   <!-- docs-check: run exit=N -->   ... and expect exit N
#   <!-- docs-check: demo -->         run the `./build/xrun ...` commands of
#                                     this block (the rest builds xrun, which
#                                     the suite has done) with xrun on PATH;
#                                     a `run` without a plan runs a copy of
#                                     plans/loopback.yaml on a free port,
#                                     1 s a run
#   <!-- docs-check: invalid -->      a YAML plan that must NOT validate
#   <!-- docs-check: skip -->         not checked (say why in the text)
# Blocks without a marker need hardware, root or a network: only their
# command lines are checked as above.
set -eu
: "${XRUN:?set XRUN to the xrun binary}"
src=${XRUN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; }
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3-yaml missing"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/bin" "$dir/work"
ln -s "$XRUN" "$dir/bin/xrun"
for d in plans samples schema; do ln -s "$src/$d" "$dir/work/$d"; done
cd "$dir/work"
export PATH="$dir/bin:$PATH" XRUN_DOCS_SRC="$src" XRUN_DOCS_DIR="$dir"
python3 - <<'PY'
import glob, os, re, shlex, socket, subprocess, sys, yaml
from concurrent.futures import ThreadPoolExecutor

src = os.environ["XRUN_DOCS_SRC"]
work = os.getcwd()
xrun = "xrun"
fails = []
# The xrun processes a check starts (--help, validate) are independent of
# each other: four at a time (they wait on process start, more than on a
# core); the blocks that run stay in file order on this thread.
pool = ThreadPoolExecutor(max_workers=4)
pending = []

def later(fn, *a):
    pending.append(pool.submit(fn, *a))
parsed = set()
counts = {"plans validated": 0, "fragments parsed": 0, "commands parsed": 0,
          "blocks run": 0}

def fail(where, msg):
    fails.append(f"{where}: {msg}")
    print(f"FAIL: {where}: {msg}")

MARK = re.compile(r"<!--\s*docs-check:\s*(\w[\w-]*)(?:\s+exit=(\d+))?\s*-->")

def blocks(path):
    """(line, lang, text, marker, exit) of each fenced block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i, out = 0, []
    while i < len(lines):
        m = re.match(r"^(\s*)```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, lang, start = len(m.group(1)), m.group(2), i
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
            j += 1
        body = "\n".join(l[indent:] if l[:indent].strip() == "" else l
                         for l in lines[i + 1:j])
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        mk = MARK.search(lines[k]) if k >= 0 else None
        out.append((start + 1, lang, body + "\n", mk.group(1) if mk else None,
                    int(mk.group(2)) if mk and mk.group(2) else 0))
        i = j + 1
    return out

def commands(text):
    """xrun command word lists in shell text (continuations joined)."""
    text = re.sub(r"\\\n\s*", " ", text)
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("$ "):
            line = line[2:]
        for seg in re.split(r"&&|\|\||;|\|", line):
            seg = seg.strip()
            if seg.startswith("sudo "):
                seg = seg[5:].strip()
            try:
                words = shlex.split(seg, comments=True)
            except ValueError:
                continue
            if words and (words[0] == "xrun" or words[0].endswith("/xrun")):
                yield seg, words

VALUE_OPTS = {"--db", "-o", "--output", "--only", "--format", "--lang",
              "--title", "--metric", "--threshold", "--unit", "--reference",
              "--session", "--profile", "--prefix", "--rate", "--burst",
              "--latency"}

def check_command(where, seg, words):
    counts["commands parsed"] += 1
    args = words[1:]
    # A placeholder word for a plan file ("xrun PLAN") stands for a real
    # one: a word that names no command must be a plan path.
    parse_args = [os.path.join(src, "plans/loopback.yaml") if a == "PLAN"
                  else a for a in args]
    def parses():
        r = subprocess.run([xrun] + parse_args + ["--help"],
                           capture_output=True, text=True, cwd=work)
        if r.returncode != 0:
            fail(where, f"'{seg}' does not parse: {r.stderr.strip()[:200]}")
    # The same command line in several places is parsed once: the answer
    # is the same, and each xrun under ASan costs a fraction of a second.
    key = tuple(parse_args)
    if key not in parsed:
        parsed.add(key)
        later(parses)
    prev = None
    for w in args:
        if prev in ("--db",) or w.startswith("-") or prev in VALUE_OPTS - {"--reference"}:
            prev = w
            continue
        name = w.split("=", 1)[-1]
        if re.search(r"[$<>{}~*]", name) or name.startswith("/"):
            prev = w
            continue
        if name.endswith((".yaml", ".yml", ".csv")):
            if not os.path.exists(os.path.join(src, name)) and \
                    not os.path.exists(os.path.join(work, name)):
                fail(where, f"'{seg}': no file {name} in the source tree")
        elif name.endswith(".db") and prev != "--db" and args[0] != "merge":
            # xrun merge OUT.db IN.db... takes stores, not plans
            fail(where, f"'{seg}': {name} is read as a plan (use --db {name})")
        prev = w

def check_yaml(where, text, marker):
    if marker == "skip":
        return
    is_plan = re.search(r"^xrun:\s*1\b", text, re.M) is not None
    if is_plan:
        counts["plans validated"] += 1
        def validates():
            r = subprocess.run([xrun, "validate", "-"], input=text,
                               capture_output=True, text=True, cwd=work)
            want = 2 if marker == "invalid" else 0
            if r.returncode != want:
                fail(where, f"xrun validate: exit {r.returncode}, want "
                     f"{want}: {(r.stderr or r.stdout).strip()[:300]}")
        later(validates)
        return
    counts["fragments parsed"] += 1
    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.YAMLError as e:
        if marker != "invalid":
            fail(where, f"YAML fragment does not parse: {str(e)[:200]}")
        return
    if len(docs) > 1:
        fail(where, "a block holds several YAML documents (---): one a block")

def demo_plan():
    """The plan compiled into xrun (plans/loopback.yaml, what the demo's
    plain `xrun run` runs) on a free port: its iperf3 server's default
    5201 may be anyone's (another test, another clone's suite). Same name,
    so the same ./loopback.db and ./loopback.pdf."""
    plan = yaml.safe_load(open(os.path.join(src, "plans", "loopback.yaml"),
                               encoding="utf-8"))
    srv = plan.get("engine", {}).get("server")
    if not isinstance(srv, dict) or "port" in srv:
        fail("plans/loopback.yaml", "engine.server is not a mapping without "
             "a port: docs_run cannot move the demo to a free port")
        return None
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    srv["port"] = s.getsockname()[1]
    # 1 s a run, not the plan's 2: what is checked is that the demo runs
    # its cells in order and ends with its PDF, not how long it measures
    # (16 runs; the test's longest part under ASan beside other tests).
    plan["engine"]["duration"] = "1s"
    s.close()
    path = os.path.join(os.environ["XRUN_DOCS_DIR"], "loopback.yaml")
    with open(path, "w", encoding="utf-8") as f:
        yaml.safe_dump(plan, f, sort_keys=False)
    return path

def demo_command(words, plan):
    """xrun WORDS with the free-port copy of the compiled-in plan for a
    `run` that names no plan."""
    args = words[1:]
    if plan and args and args[0] == "run" and not any(
            a.endswith((".yaml", ".yml")) or not a.startswith("-")
            for a in args[1:]):
        args = ["run", plan] + args[1:]
    return shlex.join(["xrun"] + args)

def run_block(where, text, marker, want):
    counts["blocks run"] += 1
    if marker == "demo":
        plan = demo_plan()
        cmds = [demo_command(w, plan) for seg, w in commands(text)
                if w[0].endswith("/xrun")]
        text = "\n".join(cmds) + "\n"
    r = subprocess.run(["bash", "-e", "-c", text], capture_output=True,
                       text=True, cwd=work, timeout=300)
    if r.returncode != want:
        fail(where, f"exit {r.returncode}, want {want}: "
             f"{(r.stderr + r.stdout).strip()[-400:]}")
    else:
        print(f"ok - {where}: ran, exit {want}")
    if marker == "demo":
        for f in ("loopback.db", "loopback.pdf"):
            if not os.path.exists(os.path.join(work, f)):
                fail(where, f"the demo did not write ./{f} (README says it does)")

files = [os.path.join(src, "README.md")] + \
    sorted(glob.glob(os.path.join(src, "docs", "*.md"))) + \
    sorted(glob.glob(os.path.join(src, "schema", "*.md")))
for path in files:
    rel = os.path.relpath(path, src)
    text = open(path, encoding="utf-8").read()
    for line, lang, body, marker, want in blocks(path):
        where = f"{rel}:{line}"
        if lang == "yaml":
            check_yaml(where, body, marker)
        elif lang == "sh" and marker != "skip":
            # a block that runs first: its commands may name files it made
            if marker in ("run", "demo"):
                run_block(where, body, marker, want)
            for seg, words in commands(body):
                check_command(where, seg, words)
    # inline `xrun ...` in the prose (fenced blocks removed first)
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    for m in re.finditer(r"`((?:sudo )?xrun [^`\n]+)`", prose):
        cmd = m.group(1)
        if re.search(r"\[|\.\.\.|\|", cmd):
            continue  # a synopsis, not a command
        ln = text[:text.find(m.group(0))].count("\n") + 1
        for seg, words in commands(cmd):
            check_command(f"{rel}:{ln}", seg, words)

for path in sorted(glob.glob(os.path.join(src, "plans", "*.yaml"))):
    rel = os.path.relpath(path, src)
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.startswith("#"):
            continue
        body = line.lstrip("#").strip()
        cands = re.findall(r"`(xrun [^`]+)`", body)
        if body.startswith("xrun "):
            cands.append(re.split(r"\s{2,}\(", body)[0])
        for c in cands:
            for seg, words in commands(c):
                check_command(f"{rel}:{n}", seg, words)

for f in pending:
    f.result()
pool.shutdown()
print("ok - " + ", ".join(f"{v} {k}" for k, v in counts.items()))
if fails:
    print(f"{len(fails)} problem(s)")
    sys.exit(1)
PY
