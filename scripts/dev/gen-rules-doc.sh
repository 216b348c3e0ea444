#!/usr/bin/env bash
# Regenerates docs/rules.md from the rule catalogue (src/tmap/rule_catalogue.h, through build/tmapgen rules
# --format json): the tensor-map rules and the descriptor rules (desc-*, map-*, idesc-*), each with its example
# (`tmapgen explain ID` runs it), and the retired ids with what each became.
set -euo pipefail
cd "$(dirname "$0")/../.."
build/tmapgen rules --format json --no-gpu | python3 -c '
import json, sys
rules = json.load(sys.stdin)
def cell(s):
    return s.replace("|", "\\|")
print("# Rules\n")
print("Every rule tmapgen can emit, generated from the rule tables (`tmapgen rules`) by scripts/dev/gen-rules-doc.sh.")
print("`tmapgen rules ID` (or `tmapgen explain ID`) shows one rule with its statement, source and what its example")
print("says. Severity: **error** = the driver rejects the map, the hardware faults or computes garbage for the declared")
print("use, or the documentation forbids it even though a tested driver accepts it (the message then says so);")
print("**warning** = legal but slow or risky; **note** = worth knowing. Rules marked *per target* are checked for each")
print("target. Sources name the documentation, production code, or the project record of a measurement")
print("(docs/hardware.md: D1-D9 driver observations, B1-B5 driver boundaries, and the GPU check sections).\n")
active = [r for r in rules if r.get("state", "active") == "active"]
retired = [r for r in rules if r.get("state") == "retired"]
tm = [r for r in active if r["family"] == "tensor-map"]
ds = [r for r in active if r["family"] == "descriptor"]
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
print("\n## Retired rule ids (%d)\n" % len(retired))
print("An id is never reused: a rule that is withdrawn stays in the catalogue as retired, and `tmapgen explain ID`")
print("says what it became. A configuration or script that names one of these ids gets its answer there.\n")
print("| id | was | became | replaced by |")
print("|---|---|---|---|")
for r in retired:
    was = "%s %s rule: %s" % (r["severity"], r["family"], r["summary"])
    by = ("`%s`" % r["replaced_by"]) if r["replaced_by"] else "no rule"
    print("| `%s` | %s | %s | %s |" % (r["id"], cell(was), cell(r["became"]), by))
' > docs/rules.md
# What the table cannot hold: the evidence behind rules whose verdicts others get wrong.
cat >> docs/rules.md <<'NOTES'

## Evidence behind three rules

**`box-exceeds-tensor`: a box larger than the tensor is legal and runs.** The driver encodes it (docs/hardware.md
D2: a 64 x 8 box on a 16 x 4 tensor). On the H200 (sm_90, driver 580.159.04) `tmapgen sweep --matrix --count
100000` checked 100,000 copies byte for byte against the model with no mismatch, timeout or fault (docs/hardware.md,
GPU checks); 44,464 of them are tiled copies whose box is larger than the tensor along some dimension (the matrix,
seed 1, draws `global_dim[0]` in 1..3 x `box_dim[0]` and the other extents in 1..12 against boxes of 1..8):
27,258 loads (to `.shared::cta` and `.shared::cluster`), which filled every element outside the tensor (zeros, or
the NaN pattern), and 13,465 stores and 3,741 reductions, which wrote nothing outside it except, along dimension
0, the rest of the 16-byte chunk that holds the last element (docs/model.md M7). Some libraries believe
otherwise: CCCL's `cuda::make_tma_descriptor` (NVIDIA/cccl, libcudacxx/include/cuda/__tma/make_tma_descriptor.h,
`__get_box_sizes`, at commit 4fa0f0e4) throws "box_sizes[i] must be between 1 and min(tensor.shape[rank - 1 - i],
256)" for such a box. The driver and the hardware need no such limit: `cuTensorMapEncodeTiled` called directly
takes the box.

**`driver-oob-address-bug`: which tensors and which drivers.** NVIDIA's Data Center driver release notes 595.71.05
(https://docs.nvidia.com/datacenter/tesla/tesla-release-notes-595-71-05/index.html#known-issues, quoted in
triton-lang/triton#10442) list as a known issue: "Applications using cuTensorMapEncodeTiled() or
cuTensorMapEncodeIm2col*() on Blackwell GPUs may encounter sporadic illegal memory accesses (IMA) or MMU faults
(like XID 13) due to driver incorrectly configuring TMA descriptors when the tensor's backing memory allocation is
less than 128KB and it is not a dense non-overlapping tensor", with the work-around of clearing bit 85 of the map
(bit 21 of its second 64-bit word), to be "removed once updated drivers with the fix are deployed"; CUTLASS 4.8.1
points to the same known issue in the 595.91.07 notes. So dense, non-overlapping tensors are not affected (the
rule is quiet for them), every encoder is (im2col::w included), and no fixed driver is named: r595 drivers are
CUDA 13.2 drivers (`cuDriverGetVersion` 13020; CUDA 13.2 GA needs 595.45.04 or later). The library work-arounds
stop at 13.2 and test no density: CUTLASS 4.3.4 (commit b7ecaa605, `copy_traits_sm90_tma.hpp`: `driver_version
<= 13010` and the tensor's cosize under 131072 bytes), CCCL PR 6985 (`driver_api.h`, nvbug 5736804:
`__version_below(13, 2)`), Triton PR 9235 (`third_party/nvidia/backend/driver.c`: `driver_version <= 13010`, the
tensor's last byte under 128 KiB). triton-lang/triton#11011 (open) reports that CUDA 13.2 and 13.3
forward-compatibility drivers, which report 13020 and 13030, are still affected. So the rule warns for every
driver version given, on Blackwell targets, for tensors that are not dense and non-overlapping and span under 128
KiB (the span is a lower bound of the allocation, which tmapgen does not know).

**`global-stride-max` on a dimension of extent 1.** Such a stride never addresses anything (coordinate 0 is the
only one inside the tensor), and an oversized one is usually a 32-bit overflow in the code that computed it; but
the driver checks it. In the driver corpus (/work/shared/data/driver-encodings: 200,000 calls on the H200, driver
580.159.04) the 12 tiled maps whose only broken rule is a stride of 2^40 or more on an extent-1 dimension were all
rejected, and the otherwise valid map with stride 0 there (drv_2.jsonl.gz line 20272) was accepted, as stride 0
was in docs/hardware.md D1. The fix gives the dense value when that is a legal stride, else 0, and the nearest
valid configuration takes it.
NOTES
echo "wrote docs/rules.md"
