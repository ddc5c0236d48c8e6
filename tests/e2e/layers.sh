#!/bin/bash
# SPDX-License-Identifier: MIT
# The layer rule is in the repository and checked: tests/layers.py finds no
# include and no link that docs/architecture.md's "may use" table forbids,
# and no folder without a row; and on a small copy it does fail, naming the
# file, the line and the forbidden layer (an include, a link, a folder
# without a row).
set -eu
. "$(dirname "$0")/lib/common.sh"
src=$XRUN_SOURCE_DIR
xr_need python3
out=$(python3 "$src/tests/layers.py" "$src" 2>&1) || fail "layer rule broken: $out"
echo "$out" | grep -qE '^layers: [0-9]+ rows, [0-9]+ files, 0 violations$' ||
	fail "summary: $out"

# Every C source names its licence in its head comment (issue 39 item 7;
# LICENSE holds the MIT text).
missing=$(cd "$src" && find runner reports tests bench -name '*.[ch]' |
	while read -r f; do
		sed -n '1,/\*\//p' "$f" | grep -q 'SPDX-License-Identifier: MIT' ||
			echo "$f"
	done)
[ -z "$missing" ] || fail "no SPDX line in the head comment of: $missing"
grep -q '^MIT License' "$src/LICENSE" || fail "LICENSE is not the MIT text"
echo "ok - every C source carries SPDX-License-Identifier: MIT"

# A tree of three layers: base may use nothing, plan base, cli everything
# above. plan includes cli's header (upward), base links plan, and the
# folder runner/extra has no row.
xr_tmpdir T
mkdir -p docs runner/base runner/plan runner/cli runner/extra
cat >docs/architecture.md <<'MD'
| folder | job | may use |
| --- | --- | --- |
| `runner/base` | b | libc only |
| `runner/plan` | p | base |
| `runner/cli` | c | everything above |
MD
printf '#include "buf.h"\n' >runner/base/buf.c
: >runner/base/buf.h
printf '#include "buf.h"\n#include "cmd.h"\n' >runner/plan/plan.c
: >runner/cli/cmd.h
printf '#include "buf.h"\n#include "plan.h"\n' >runner/cli/main.c
: >runner/plan/plan.h
: >runner/extra/x.c
cat >CMakeLists.txt <<'CM'
xr_layer(xr_base runner/base)
xr_layer(xr_plan runner/plan)
xr_layer(xr_cli runner/cli)
target_link_libraries(xr_base PRIVATE xr_plan)
target_link_libraries(xr_cli PRIVATE xr_plan xr_base)
CM
if out=$(python3 "$src/tests/layers.py" "$T" 2>&1); then
	fail "an upward include passed: $out"
fi
want='runner/plan/plan.c:2: includes "cmd.h" of the layer runner/cli, which runner/plan may not use (docs/architecture.md:4: runner/base)'
echo "$out" | grep -qxF "$want" || fail "include not named: $out"
want="CMakeLists.txt:4: xr_base links xr_plan (runner/plan), which runner/base may not use (docs/architecture.md:3)"
echo "$out" | grep -qxF "$want" || fail "link not named: $out"
echo "$out" | grep -q "^runner/extra: a layer with no row" || fail "row: $out"
echo "$out" | grep -qx "layers: 3 rows, 7 files, 3 violations" || fail "count: $out"
echo "ok - the layer table holds; a wrong include, link and folder are named"
