#include "src/codegen/emit_ptx.h"

#include "absl/status/status.h"
#include "src/codegen/emit_common.h"
#include "src/util/strings.h"

namespace tmapgen::codegen {

using internal::Header;
using internal::Rank;

namespace {
// Whether the sequence of a map sets .swizzle_atomicity (Blackwell targets, or an atomicity swizzle).
bool EmitsAtomicity(const TensorMapSpec& s) {
  return (s.has_target() && IsBlackwellOrLater(s.target)) || IsAtomicitySwizzle(s.swizzle);
}
std::string MaskText(uint32_t mask) {
  std::string o;
  for (int t = 0; t < kNumTargets; ++t)
    if (mask & (1u << t)) o += StrCat(o.empty() ? "" : " ", Name(static_cast<Target>(t)));
  return o;
}
}  // namespace

uint32_t PtxReplaceTargets(bool atomicity) {
  uint32_t mask = 0;
  for (int t = 0; t < kNumTargets; ++t) {
    const TargetInfo& i = Info(static_cast<Target>(t));
    if (i.variant != ' ' && i.cc >= (atomicity ? 100 : 90)) mask |= 1u << t;
  }
  return mask;
}

uint32_t PtxTargets(const PlannedMap& m) {
  const uint32_t valid = m.spec.has_target() ? (1u << static_cast<int>(m.spec.target)) : m.validation.valid_targets;
  return valid & PtxReplaceTargets(EmitsAtomicity(m.spec));
}

absl::StatusOr<std::string> GeneratePtx(const Plan& plan, const Options& opt) {
  if (!plan.valid) return absl::FailedPreconditionError("the specs are invalid");
  for (const PlannedMap& m : plan.maps) {
    if (EncoderFor(m.spec.mode) != Encoder::kTiled)
      return absl::InvalidArgumentError(ToAbsl(StrCat(m.ident, ": tensormap.replace builds tiled maps only (mode ",
                                                      Name(m.spec.mode), " needs ", Name(EncoderFor(m.spec.mode)),
                                                      " on the host)")));
    if (PtxTargets(m) == 0) {
      const uint32_t wanted = m.spec.has_target() ? (1u << static_cast<int>(m.spec.target)) : m.validation.valid_targets;
      const bool atom = EmitsAtomicity(m.spec) && (wanted & PtxReplaceTargets(false)) != 0;
      return absl::InvalidArgumentError(
          ToAbsl(StrCat(m.ident, ": tensormap.replace", atom ? ".swizzle_atomicity" : "", " does not assemble for ",
                        m.spec.has_target() ? std::string(Name(m.spec.target)) : MaskText(m.validation.valid_targets),
                        ": ptxas accepts it only on the architecture-specific and family targets (",
                        MaskText(PtxReplaceTargets(atom)), "); compile for one of them")));
    }
  }
  std::string o = Header(plan, opt, "ptx", "//");
  o += "//\n"
       "// tensormap.replace (PTX ISA 9.7.9.26, PTX 8.3) sequences that turn a 128-byte tensor map in shared memory\n"
       "// into each map below. ptxas accepts tensormap.replace only on the architecture-specific and family targets\n"
       "// (sm_90a, sm_100a/f and the a/f targets after it; .swizzle_atomicity from sm_100a/f on), never on sm_90, sm_100,\n"
       "// ...; each map lists the targets its sequence assembles for. Operands: %tmap = .shared::cta address of the\n"
       "// 128-byte map (.b32 or .b64 register); %gaddr = .b64 global address of the tensor. Start from a map encoded on the host (any\n"
       "// tiled map) or, on sm_90a, from 128 zero bytes. What no tensormap.replace field sets (L2 promotion, and\n"
       "// driver-computed words) is kept from the starting map; from a host map of the same shape the result\n"
       "// equals cuTensorMapEncodeTiled's bytes (measured on an H200, docs/codegen.md).\n"
       "// Units: dims and element strides in elements; .global_stride in BYTES (the PTX text does not state the\n"
       "// unit, tma-spec.md 2.5; CUTLASS passes bytes with CUDA 12.5+, and the H200 measurement agrees). Stride\n"
       "// ord i is cuda.h's globalStrides[i], the stride of dimension i+1.\n"
       "// Then publish it: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned\n"
       "// [%gmap], [%tmap], 128; and before use: fence.proxy.tensormap::generic.acquire.gpu [%gmap], 128;\n\n";
  for (const PlannedMap& m : plan.maps) {
    const TensorMapSpec& s = m.spec;
    const uint32_t r = Rank(s);
    const std::string p = "tensormap.replace.tile.";
    const std::string q = ".shared::cta.b1024.";
    o += StrCat("// ", m.ident, ": ", Name(s.mode), ", ", FullName(s.data_type), ", ", FullName(s.swizzle),
             "; assembles for: ", MaskText(PtxTargets(m)), "\n");
    o += StrCat(p, "global_address", q, "b64 [%tmap], %gaddr;\n");
    o += StrCat(p, "rank", q, "b32 [%tmap], ", s.rank - 1, ";  // rank - 1\n");
    for (uint32_t i = 0; i < r; ++i) o += StrCat(p, "global_dim", q, "b32 [%tmap], ", i, ", ", s.global_dim[i], ";\n");
    for (uint32_t i = 0; i + 1 < r; ++i)
      o += StrCat(p, "global_stride", q, "b64 [%tmap], ", i, ", ", s.global_strides[i], ";  // bytes\n");
    for (uint32_t i = 0; i < r; ++i) o += StrCat(p, "box_dim", q, "b32 [%tmap], ", i, ", ", s.box_dim[i], ";\n");
    for (uint32_t i = 0; i < r; ++i) o += StrCat(p, "element_stride", q, "b32 [%tmap], ", i, ", ", s.element_strides[i], ";\n");
    o += StrCat(p, "elemtype", q, "b32 [%tmap], ", PtxElemTypeValue(s.data_type), ";  // ", PtxElemType(s.data_type), "\n");
    o += StrCat(p, "interleave_layout", q, "b32 [%tmap], ", static_cast<int>(s.interleave), ";  // ", FullName(s.interleave), "\n");
    o += StrCat(p, "swizzle_mode", q, "b32 [%tmap], ", PtxSwizzleModeValue(s.swizzle), ";  // ", FullName(s.swizzle), "\n");
    if (EmitsAtomicity(s))
      o += StrCat(p, "swizzle_atomicity", q, "b32 [%tmap], ", PtxSwizzleAtomicityValue(s.swizzle),
               ";  // PTX 8.6, sm_100a and later\n");
    o += StrCat(p, "fill_mode", q, "b32 [%tmap], ", static_cast<int>(s.oob_fill), ";  // ", FullName(s.oob_fill), "\n\n");
  }
  return o;
}

}  // namespace tmapgen::codegen
