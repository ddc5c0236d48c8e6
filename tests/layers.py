#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layer rule, checked: docs/architecture.md's table "Folders, and what
each may use" against every `#include "..."` of every .c and .h under runner/
and reports/, and against the xr_* libraries each layer links in
CMakeLists.txt. A folder without a row, a row without a folder, an include
or a link the row does not allow: each is printed as FILE:LINE: what is
wrong, and the exit status is 1. Run by ctest as e2e/layers.

Usage: tests/layers.py [SRC]   (SRC: the source tree, default this one)

The table's last column names the layers a folder may use by their last
path component ("plan, base"); "libc only" is none; "everything above" is
every folder of the rows above it. An include is resolved as the compiler
would find it: beside the including file first, else the one file of that
name under runner/ or reports/ (an ambiguous or missing name, e.g. a
generated file, is not a layer edge and is skipped)."""
import os
import re
import sys

TOPS = ("runner", "reports")
HEAD = re.compile(r"^\|\s*folder\s*\|\s*job\s*\|\s*may use\s*\|\s*$")


def read_table(src):
    """{folder: (line, set of folders it may use)} in the table's order."""
    path = os.path.join(src, "docs", "architecture.md")
    rows, order, errors = {}, [], []
    lines = open(path, encoding="utf-8").read().split("\n")
    start = next((i for i, l in enumerate(lines) if HEAD.match(l)), None)
    if start is None:
        return {}, [f"docs/architecture.md: no '| folder | job | may use |' table"]
    raw = []
    for i in range(start + 2, len(lines)):
        l = lines[i]
        if not l.startswith("|"):
            break
        cells = [c.strip() for c in l.strip().strip("|").split("|")]
        folder = cells[0].strip("`")
        raw.append((i + 1, folder, cells[-1]))
        order.append(folder)
    short = {}
    for _, f, _ in raw:
        short.setdefault(os.path.basename(f), []).append(f)
    for n, (line, folder, may) in enumerate(raw):
        if may == "libc only":
            uses = set()
        elif may == "everything above":
            uses = set(order[:n])
        else:
            uses = set()
            for word in (w.strip() for w in may.split(",")):
                hit = short.get(word, [])
                if len(hit) != 1:
                    errors.append(f"docs/architecture.md:{line}: {folder} "
                                  f"may use '{word}': no single row of "
                                  f"that name")
                    continue
                uses.add(hit[0])
        rows[folder] = (line, uses)
    return rows, errors


def source_files(src):
    files = []
    for top in TOPS:
        for d, _, fs in os.walk(os.path.join(src, top)):
            files += [os.path.join(d, f) for f in sorted(fs)
                      if f.endswith((".c", ".h"))]
    return sorted(files)


def check_includes(src, rows, files):
    rel = lambda p: os.path.relpath(p, src)
    by_base = {}
    for f in files:
        by_base.setdefault(os.path.basename(f), []).append(f)
    inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    errors = []
    for f in files:
        a = os.path.dirname(rel(f))
        if a not in rows:
            continue
        for ln, text in enumerate(open(f, errors="replace"), 1):
            m = inc.match(text)
            if not m:
                continue
            name = m.group(1)
            cand = os.path.normpath(os.path.join(os.path.dirname(f), name))
            if not os.path.exists(cand):
                hits = [h for h in by_base.get(os.path.basename(name), [])
                        if h.endswith("/" + name)]
                if len(hits) != 1:
                    continue
                cand = hits[0]
            b = os.path.dirname(rel(cand))
            if b == a or b in rows[a][1]:
                continue
            may = ", ".join(sorted(rows[a][1])) or "libc only"
            errors.append(f"{rel(f)}:{ln}: includes \"{name}\" of the layer "
                          f"{b}, which {a} may not use (docs/architecture.md"
                          f":{rows[a][0]}: {may})")
    return errors


def check_links(src, rows):
    """Each xr_ library links only the layers its folder's row allows."""
    path = os.path.join(src, "CMakeLists.txt")
    text = open(path, encoding="utf-8").read()
    target = {m.group(1): m.group(2) for m in
              re.finditer(r"^\s*xr_layer\((xr_\w+)\s+([\w/]+)", text, re.M)}
    errors = []
    for m in re.finditer(r"target_link_libraries\((xr_\w+)\s+([^)]*)\)", text):
        t = m.group(1)
        if t not in target or target[t] not in rows:
            continue
        line = text.count("\n", 0, m.start()) + 1
        a = target[t]
        for lib in m.group(2).split():
            if lib in target and target[lib] != a \
                    and target[lib] not in rows[a][1]:
                errors.append(f"CMakeLists.txt:{line}: {t} links {lib} "
                              f"({target[lib]}), which {a} may not use "
                              f"(docs/architecture.md:{rows[a][0]})")
    return errors


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows, errors = read_table(src)
    files = source_files(src)
    folders = sorted({os.path.dirname(os.path.relpath(f, src)) for f in files})
    for f in folders:
        if f not in rows:
            errors.append(f"{f}: a layer with no row in docs/architecture.md's "
                          f"table of what each folder may use")
    for f, (line, _) in rows.items():
        if f not in folders:
            errors.append(f"docs/architecture.md:{line}: a row for {f}, "
                          f"which holds no .c or .h")
    errors += check_includes(src, rows, files)
    errors += check_links(src, rows)
    for e in errors:
        print(e)
    print(f"layers: {len(rows)} rows, {len(files)} files, "
          f"{len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
