#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The inputs of a blind mutation session (tests/MUTATION.md, "How new code
# is mutated"): what the mutator may see of an issue's work, and nothing of
# its tests.
#
#   bash tests/blind_inputs.sh ISSUE BASE [HEAD] [DIR]
#
# BASE: the commit the work started from (e.g. `git merge-base main
# BRANCH`); HEAD: its last commit (default HEAD); DIR: where to put them
# (default /tmp/xrun-blind-ISSUE). Writes there:
#   code.diff   the diff of the code: every changed file but tests/ and
#               bench/ (C, headers, the far-side shell text, CMake)
#   docs/       README.md, docs/*.md and schema/*.md as they are at HEAD,
#               the documented behaviour the code must have
#   list.txt    the changed files, tests/ and bench/ left out
#   prompt.txt  the brief to give the mutator session, word for word
# and prints DIR. Nothing under tests/ is copied: the mutator must not
# learn where the tests look.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 ISSUE BASE [HEAD] [DIR]" >&2; exit 2; }
issue=$1 base=$2 head=${3:-HEAD}
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${4:-/tmp/xrun-blind-$issue}
rm -rf "$dir"
mkdir -p "$dir/docs/docs" "$dir/docs/schema"
cd "$top"
excl=(':(exclude)tests' ':(exclude)bench')
git diff "$base" "$head" -- . "${excl[@]}" >"$dir/code.diff"
git diff --name-only "$base" "$head" -- . "${excl[@]}" >"$dir/list.txt"
[ -s "$dir/code.diff" ] || { echo "no code changed in $base..$head" >&2; exit 1; }
git show "$head:README.md" >"$dir/docs/README.md"
for f in $(git ls-tree --name-only "$head" docs/ schema/ | grep '\.md$'); do
	git show "$head:$f" >"$dir/docs/$f"
done
cat >"$dir/prompt.txt" <<PROMPT
You are a blind mutator for xrun (a C11 network-benchmark runner), issue
$issue. You get only what an issue changed in the code and the documents
that say what it must do; you must not read any test: nothing under
tests/, bench/, nor tests/mutations.tsv or tests/MUTATION.md, in any
repository or worktree.

Inputs (read all of them):
- $dir/code.diff: the code the issue added or changed;
- $dir/docs/: README.md, docs/*.md and schema/*.md, the behaviour the
  code must have (units, percentiles, verdicts, messages, files);
- $dir/list.txt: the changed files.

Task: write at least 10 mutations of the changed lines (lines a + adds in
code.diff, or lines the change made matter), each one meaningful bug a
careful programmer could make and a user would notice: a wrong number
(a unit, a scale, an off-by-one, a percentile, a sum taken as a max, a
sign, a boundary < for <=), a wrong choice (first for newest, bidir for
one direction, a dropped check, a retry not taken), a lost guard (a
permission, a race re-check, a refusal). Spread them over the changed
modules, at most 3 in one function. No mutation that cannot compile, that
changes only a comment, a message's wording or a log line, or that only
slows the code down.

Output: one line a mutation, 7 fields separated by one TAB each, nothing
else, in a file $dir/mutations.tsv:
  NAME (lowercase words joined by -, unique, starting with "b$issue-"),
  MODULE (the folder under runner/ or reports/: host, exec, base, engine,
  explain, reference, ...), FILE (path from the repository's root),
  TEXT (text copied exactly from FILE at HEAD, on one line, that occurs
  in FILE; its FIRST occurrence is what gets replaced: pick a text unique
  in the file), REPLACEMENT (on one line; the code must still compile
  with -Werror), KILLER (write -: you do not know the tests),
  WHAT (what a user would see wrong, one sentence, with the numbers if
  you can: "25% lost reads 0.25%").
Check each TEXT with: grep -cF -- 'TEXT' FILE (must be >= 1; the first
hit must be the line you mean). Do not build or run anything else.
PROMPT
echo "$dir"
