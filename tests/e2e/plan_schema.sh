#!/bin/bash
# SPDX-License-Identifier: MIT
# schema/plan.schema.json is a valid draft 2020-12 schema, every good plan
# of tests/e2e/cases and plans/ passes it, and bad plans whose fault is a
# matter of shape (unknown key, wrong type, out-of-range value) fail it:
# editors using the schema see what `xrun validate` sees.
set -eu
. "$(dirname "$0")/lib/common.sh"
src=${XRUN_SOURCE_DIR:?}
if ! python3 -c 'import jsonschema, yaml' 2>/dev/null; then
	xr_skip "python3 jsonschema and yaml modules are not installed" \
		"(Debian: python3-jsonschema python3-yaml)"
fi
xr_tmpdir work
python3 - "$src" <<'PY'
import glob, json, re, sys
import jsonschema, yaml

src = sys.argv[1]

# yaml-language-server reads YAML 1.2: only true/false are booleans
class Loader(yaml.SafeLoader):
    pass
Loader.yaml_implicit_resolvers = {
    k: [r for r in v if r[0] != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool",
    re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))

schema = json.load(open(src + "/schema/plan.schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)

def load(path):
    return yaml.load(open(path, "rb").read().decode("utf-8"), Loader=Loader)

fail = 0
good = sorted(glob.glob(src + "/tests/e2e/cases/validate-ok-*/plan.yaml"))
good += sorted(glob.glob(src + "/plans/*.yaml"))
for f in good:
    errs = list(v.iter_errors(load(f)))
    if errs:
        print("FAIL: good plan rejected by the schema:", f, errs[0].message)
        fail = 1
bad = ["misspelt-top-key", "misspelt-nested-key", "misspelt-host-key",
       "wrong-type", "empty-levels", "duplicate-level", "repeat-range",
       "repeat-not-integer", "unknown-order", "unknown-engine",
       "unsupported-version", "missing-version", "bad-name",
       "unknown-probe", "bad-metric-unit", "bad-duration", "bad-reconnect"]
for b in bad:
    f = src + "/tests/e2e/cases/validate-" + b + "/plan.yaml"
    if not list(v.iter_errors(load(f))):
        print("FAIL: bad plan accepted by the schema:", f)
        fail = 1
print("checked %d good and %d bad plans" % (len(good), len(bad)))
sys.exit(fail)
PY
# the engine type enum is the engine table: the names `xrun validate`
# lists for an unknown engine, in the table's order
known=$("$XRUN" validate "$src/tests/e2e/cases/validate-unknown-engine/plan.yaml" 2>&1 |
	sed -n 's/.*(known: \(.*\)).*/\1/p')
enum=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
print(", ".join(s["$defs"]["engine"]["properties"]["type"]["enum"]))' "$src/schema/plan.schema.json")
[ -n "$known" ] && [ "$known" = "$enum" ] ||
	fail "schema engine enum '$enum' is not the engine table '$known'"
echo "ok: the schema's engine types are the engine table's ($known)"
