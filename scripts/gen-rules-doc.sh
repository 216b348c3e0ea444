#!/usr/bin/env bash
# Regenerates docs/rules.md from the rule tables (build/tmapgen rules --format json): the tensor-map rules and
# the descriptor rules (desc-*, map-*, idesc-*), each with its example (`tmapgen explain ID` runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
build/tmapgen rules --format json --no-gpu | python3 -c '
import json, sys
rules = json.load(sys.stdin)
def cell(s):
    return s.replace("|", "\\|")
print("# Rules\n")
print("Every rule tmapgen can emit, generated from the rule tables (`tmapgen rules`) by scripts/gen-rules-doc.sh.")
print("`tmapgen rules ID` (or `tmapgen explain ID`) shows one rule with its statement, source and what its example")
print("says. Severity: **error** = the driver rejects the map, the hardware faults or computes garbage for the declared")
print("use, or the documentation forbids it even though a tested driver accepts it (the message then says so);")
print("**warning** = legal but slow or risky; **note** = worth knowing. Rules marked *per target* are checked for each")
print("target. Sources name the documentation, production code, or the project record of a measurement")
print("(docs/hardware.md: D1-D9 driver observations, B1-B5 driver boundaries, and the GPU check sections).\n")
tm = [r for r in rules if r["family"] == "tensor-map"]
ds = [r for r in rules if r["family"] == "descriptor"]
print("## Tensor-map rules (%d)\n" % len(tm))
print("| id | severity | modes | field | requirement | source | example |")
print("|---|---|---|---|---|---|---|")
for r in tm:
    modes = "all" if len(r["modes"]) == 6 else ", ".join(r["modes"])
    sev = r["severity"] + (" (per target)" if r["per_target"] else "")
    ex = ("`%s`" % r["example"]) if r["example"] else "(not reachable from the command line)"
    print("| `%s` | %s | %s | `%s` | %s | %s | %s |" % (r["id"], sev, modes, cell(r["field"]), cell(r["summary"]), cell(r["source"]), cell(ex)))
print("\n## Descriptor rules (%d): shared-memory descriptors (desc-*), their agreement with the map (map-*), the tcgen05 instruction descriptor (idesc-*)\n" % len(ds))
print("| id | severity | scope | field | requirement | source | example |")
print("|---|---|---|---|---|---|---|")
for r in ds:
    ex = ("`%s`" % r["example"]) if r["example"] else ""
    print("| `%s` | %s | %s | `%s` | %s | %s | %s |" % (r["id"], r["severity"], r["scope"], cell(r["field"]), cell(r["summary"]), cell(r["source"]), cell(ex)))
' > docs/rules.md
echo "wrote docs/rules.md"
