#!/usr/bin/env bash
# Regenerates docs/rules.md from the rule table (build/tmapgen rules --format json).
set -euo pipefail
cd "$(dirname "$0")/.."
build/tmapgen rules --format json --no-gpu | python3 -c '
import json, sys
rules = json.load(sys.stdin)
print("# Rules\n")
print("Every rule tmapgen checks, generated from the rule table (`tmapgen rules`) by scripts/gen-rules-doc.sh.")
print("Severity: **error** = the driver rejects the map, the hardware faults or computes garbage for the declared use, or the")
print("documentation forbids it even though a tested driver accepts it (the message then says so); **warning** = legal but")
print("slow or risky; **note** = worth knowing. Rules marked *per target* are checked for each target.\n")
print("| id | severity | modes | field | requirement | source |")
print("|---|---|---|---|---|---|")
for r in rules:
    modes = "all" if len(r["modes"]) == 6 else ", ".join(r["modes"])
    sev = r["severity"] + (" (per target)" if r["per_target"] else "")
    print("| `%s` | %s | %s | `%s` | %s | %s |" % (r["id"], sev, modes, r["field"], r["summary"], r["source"]))
' > docs/rules.md
echo "wrote docs/rules.md"
