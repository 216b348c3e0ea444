#include "src/codegen/emit_cpp.h"

#include <algorithm>

#include "src/blob/blob.h"
#include "src/codegen/emit_common.h"
#include "src/tmap/derived_facts.h"
#include "src/util/strings.h"

namespace tmapgen::codegen {
namespace {

using desc::DescArch;
using desc::Operand;
using internal::GlobalAlignment;
using internal::Header;
using internal::HexU;
using internal::Rank;

std::string Upper(std::string_view s) {
  std::string o(s);
  for (char& c : o)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return o;
}

std::string U(uint64_t v) { return StrCat(v, "u"); }
std::string Ull(uint64_t v) { return StrCat(v, "ull"); }

std::string ArrayInit(const uint64_t* v, uint32_t n, bool ull) {
  std::string o = "{";
  for (uint32_t i = 0; i < n; ++i) o += StrCat(i ? ", " : "", ull ? Ull(v[i]) : U(v[i]));
  return o + "}";
}
template <typename T>
std::string ArrayInitOf(const T* v, uint32_t n, bool ull) {
  uint64_t tmp[kMaxRank] = {};
  for (uint32_t i = 0; i < n && i < kMaxRank; ++i) tmp[i] = static_cast<uint64_t>(v[i]);
  return ArrayInit(tmp, n, ull);
}
std::string IntArrayInit(const int32_t* v, uint32_t n) {
  std::string o = "{";
  for (uint32_t i = 0; i < n; ++i) o += StrCat(i ? ", " : "", v[i]);
  return o + "}";
}

uint32_t CornerCount(const TensorMapSpec& s) { return Rank(s) >= 2 ? std::min<uint32_t>(Rank(s) - 2, 3) : 0; }

std::string TargetsText(const PlannedMap& m) {
  if (m.spec.has_target()) return std::string(Name(m.spec.target));
  std::string o;
  for (int t = 0; t < kNumTargets; ++t)
    if (m.validation.valid_targets & (1u << t)) o += StrCat(o.empty() ? "" : " ", Name(static_cast<Target>(t)));
  return o;
}

// The number of elements one copy moves, as a C++ expression of the constants (so that editing a box
// constant breaks the static_assert against kTransactionBytes or kBytesPerCopy).
std::string ElementsExpr(const TensorMapSpec& s) {
  if (IsIm2colMode(s.mode))
    return s.mode == Mode::kIm2colW128 ? "128ull * kChannelsPerPixel" : "1ull * kPixelsPerColumn * kChannelsPerPixel";
  if (IsGatherScatter(s.mode)) return "4ull * kBoxDim[0]";
  std::string e;
  for (uint32_t i = 0; i < Rank(s); ++i) {
    const bool ignore = (i == 0 && s.interleave == Interleave::kNone) || s.element_strides[i] <= 1;
    const std::string f = ignore ? StrCat("kBoxDim[", i, "]")
                                 : StrCat("((kBoxDim[", i, "] + kElementStrides[", i, "] - 1u) / kElementStrides[", i, "])");
    e += StrCat(i ? " * " : "1ull * ", f);
  }
  return e;
}

// Where PatchGlobalAddress() is defined. tensormap.replace (PTX ISA 8.3, so CUDA 12.3) assembles only for the
// architecture-specific and family-specific targets (sm_90a, sm_100a/f, ...; PtxReplaceTargets), and
// `nvcc -arch=sm_90a` compiles the device code twice: for compute_90 PTX (no feature macro) and for sm_90a SASS
// (nvcc 13.0 --dryrun: "-arch compute_90" then "-arch compute_90a" with -D__CUDA_ARCH_FEAT_SM90_ALL). The
// macro is 1 exactly in the passes that define a feature macro: __CUDA_ARCH_FAMILY_SPECIFIC__ (nvcc 12.9 and
// later, for "a" and "f" targets) or, before 12.9, __CUDA_ARCH_FEAT_SMxx_ALL (as CCCL's tensormap_replace.h).
constexpr char kTensormapReplaceGuard[] =
    "// TMAPGEN_GEN_TENSORMAP_REPLACE is 1 in the device passes where the tensormap.replace instruction exists:\n"
    "// architecture- and family-specific targets (sm_90a, sm_100a, sm_100f, ...) with nvcc 12.3 or later. It is 0\n"
    "// on the host and for plain targets, including the compute_90 PTX that `nvcc -arch=sm_90a` also embeds.\n"
    "#ifndef TMAPGEN_GEN_TENSORMAP_REPLACE\n"
    "#if defined(__CUDA_ARCH__) && defined(__CUDACC_VER_MAJOR__) && \\\n"
    "    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 3)) && \\\n"
    "    (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) || defined(__CUDA_ARCH_SPECIFIC__) || \\\n"
    "     defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL) || \\\n"
    "     defined(__CUDA_ARCH_FEAT_SM101_ALL) || defined(__CUDA_ARCH_FEAT_SM103_ALL) || \\\n"
    "     defined(__CUDA_ARCH_FEAT_SM110_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL) || \\\n"
    "     defined(__CUDA_ARCH_FEAT_SM121_ALL))\n"
    "#define TMAPGEN_GEN_TENSORMAP_REPLACE 1\n"
    "#else\n"
    "#define TMAPGEN_GEN_TENSORMAP_REPLACE 0\n"
    "#endif\n"
    "#endif\n\n";

// The whole 128-byte map, encoded offline (src/blob, docs/tensormap-layout.md), with global address 0: a build
// farm without a GPU gets the exact bytes; the address is patched at run time.
void EmitFullMap(const PlannedMap& m, std::string* o) {
  TensorMapSpec s = m.spec;
  s.global_address = 0;
  s.set_fields |= kFieldGlobalAddress;
  const absl::StatusOr<blob::Encoded> e = blob::Encode(s);
  if (!e.ok()) {
    *o += StrCat("// kMap (the whole 128-byte map) is not emitted: ", FromAbsl(e.status().message()), "\n");
    return;
  }
  const blob::Evidence& ev = blob::MeasuredEvidence();
  *o += StrCat("// The whole map: the 128 bytes driver ", ev.driver, " writes on ", ev.device,
               " for these parameters with global\n// address 0, computed without a driver (docs/tensormap-layout.md). "
               "Point it at the tensor at run time:\n// PatchedMap() on the host (cuTensorMapReplaceAddress), "
               "PatchGlobalAddress() on the device (tensormap.replace).\n");
  for (const std::string& c : e->caveats)
    if (c.find("global_address not given") == std::string::npos) *o += StrCat("// Note: ", c, "\n");
  uint64_t w[16];
  blob::ToWords(e->bytes, w);
  *o += "struct alignas(64) MapBytes {\n  unsigned long long words[16];\n};\n";
  *o += "constexpr MapBytes kMap = {{\n";
  for (int i = 0; i < 16; i += 4)
    *o += StrCat("    ", HexU(w[i], 16, "ull"), ", ", HexU(w[i + 1], 16, "ull"), ", ", HexU(w[i + 2], 16, "ull"), ", ",
                 HexU(w[i + 3], 16, "ull"), i < 12 ? ",\n" : "}};\n");
  *o += "static_assert(sizeof(MapBytes) == 128u && alignof(MapBytes) == 64u, \"a CUtensorMap is 128 bytes, 64-byte aligned\");\n";
  *o += StrCat("static_assert((kMap.words[0] & 0x1FFFFFFFFFFFFFFull) == 0ull, \"", m.ident,
               ": the address field (bits 0-56) is left for the run time\");\n");
  if (EncoderFor(m.spec.mode) != Encoder::kTiled) {
    *o += "// Device: tensormap.replace has only the .tile mode (PTX ISA 9.7.9.26), so this im2col map is patched on\n"
          "// the host (PatchedMap) and passed as a __grid_constant__ parameter.\n";
    return;
  }
  *o += "#if TMAPGEN_GEN_TENSORMAP_REPLACE\n"
        "// Device, in the passes where tensormap.replace exists (see TMAPGEN_GEN_TENSORMAP_REPLACE above; guard calls\n"
        "// with the same #if): sets the global address of a copy of kMap in global memory (128-byte aligned) with\n"
        "// tensormap.replace (PTX ISA 9.7.9.26). Make the write visible to the tensormap proxy before a copy uses\n"
        "// the map: fence.proxy.tensormap::generic.release.gpu after it, ...acquire.gpu [map], 128 where used.\n"
        "__device__ inline void PatchGlobalAddress(void* map_in_global, const void* global_address) {\n"
        "  asm volatile(\"tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;\"\n"
        "               :: \"l\"(map_in_global), \"l\"(global_address) : \"memory\");\n"
        "}\n"
        "#endif\n";
}

void EmitMapConstants(const PlannedMap& m, std::string* o) {
  const TensorMapSpec& s = m.spec;
  const DerivedFacts& f = m.validation.facts;
  const uint32_t r = Rank(s);
  *o += StrCat("// ---- ", m.ident, ": ", Name(s.mode), ", ", Name(s.direction), ", ", Name(EncoderFor(s.mode)),
            "; valid for: ", TargetsText(m), "\n");
  *o += StrCat("namespace ", m.ident, " {\n");
  *o += "// Validated parameters (cuda.h units: dims in elements, strides in bytes, dim 0 innermost).\n";
  *o += StrCat("constexpr unsigned kRank = ", U(s.rank), ";\n");
  *o += StrCat("constexpr unsigned kDataType = ", U(static_cast<unsigned>(s.data_type)), ";  // ", FullName(s.data_type), "\n");
  *o += StrCat("constexpr unsigned kElementBits = ", U(f.element_bits), ";  // in global memory\n");
  *o += StrCat("constexpr unsigned kSmemElementBits = ", U(f.smem_element_bits), ";  // in shared memory\n");
  *o += StrCat("constexpr unsigned long long kGlobalDim[", r, "] = ", ArrayInitOf(s.global_dim.data(), r, true), ";\n");
  if (r > 1)
    *o += StrCat("constexpr unsigned long long kGlobalStrides[", r - 1, "] = ", ArrayInitOf(s.global_strides.data(), r - 1, true),
              ";  // bytes\n");
  if (EncoderFor(s.mode) == Encoder::kTiled)
    *o += StrCat("constexpr unsigned kBoxDim[", r, "] = ", ArrayInitOf(s.box_dim.data(), r, false), ";\n");
  *o += StrCat("constexpr unsigned kElementStrides[", r, "] = ", ArrayInitOf(s.element_strides.data(), r, false), ";\n");
  if (EncoderFor(s.mode) == Encoder::kIm2col) {
    const uint32_t n = CornerCount(s);
    if (n > 0) {
      *o += StrCat("constexpr int kLowerCorner[", n, "] = ", IntArrayInit(s.pixel_box_lower_corner.data(), n), ";\n");
      *o += StrCat("constexpr int kUpperCorner[", n, "] = ", IntArrayInit(s.pixel_box_upper_corner.data(), n), ";\n");
    }
  }
  if (EncoderFor(s.mode) == Encoder::kIm2colWide) {
    *o += StrCat("constexpr int kLowerCornerWidth = ", s.pixel_box_lower_corner_width, ";\n");
    *o += StrCat("constexpr int kUpperCornerWidth = ", s.pixel_box_upper_corner_width, ";\n");
    *o += StrCat("constexpr unsigned kWideMode = ", U(static_cast<unsigned>(s.wide_mode)), ";  // ", FullName(s.wide_mode), "\n");
  }
  if (IsIm2colMode(s.mode)) {
    *o += StrCat("constexpr unsigned kChannelsPerPixel = ", U(s.channels_per_pixel), ";\n");
    *o += StrCat("constexpr unsigned kPixelsPerColumn = ", U(s.pixels_per_column), ";\n");
  }
  *o += StrCat("constexpr unsigned kInterleave = ", U(static_cast<unsigned>(s.interleave)), ";  // ", FullName(s.interleave), "\n");
  *o += StrCat("constexpr unsigned kSwizzle = ", U(static_cast<unsigned>(s.swizzle)), ";  // ", FullName(s.swizzle), "\n");
  *o += StrCat("constexpr unsigned kL2Promotion = ", U(static_cast<unsigned>(s.l2_promotion)), ";  // ", FullName(s.l2_promotion), "\n");
  *o += StrCat("constexpr unsigned kOobFill = ", U(static_cast<unsigned>(s.oob_fill)), ";  // ", FullName(s.oob_fill), "\n");
  if (EncoderFor(s.mode) == Encoder::kTiled) {
    *o += "// Scalar copies of the box for device code (no array access needed there).\n";
    for (uint32_t i = 0; i < r; ++i) *o += StrCat("constexpr unsigned kBoxDim", i, " = ", U(s.box_dim[i]), ";\n");
  }
  *o += "// Derived facts (src/tmap/derived_facts.h), checked below.\n";
  *o += StrCat("constexpr unsigned long long kElementsPerCopy = ", Ull(f.elements_per_copy), ";\n");
  // The bytes of one copy, named for what they are in the map's direction (PTX ISA 9.2 sections 9.7.9.25.5.2-
  // 9.7.9.25.5.4): a load's are the count its mbarrier waits for; a store or reduction completes through a bulk
  // async-group and a prefetch through nothing, so theirs are only the bytes moved.
  const bool load = IsLoad(s.direction), prefetch = s.direction == Direction::kPrefetch;
  const std::string packed = f.element_bits != f.smem_element_bits
                                 ? StrCat(" (packed: ", f.element_bits, " bits per element", load ? ", as CUTLASS and DeepGEMM "
                                          "arm it" : "", "; the shared-memory image is kSmemFootprintBytes)")
                                 : std::string();
  const std::string halo =
      f.halo_adds_bytes ? StrCat(", plus ", s.mode == Mode::kIm2colW128 ? "4 x " : "", "kBytesPerHaloPixel per halo pixel (wHalo)")
                        : std::string();
  const char* bytes_name = load ? "kTransactionBytes" : "kBytesPerCopy";
  if (load) {
    *o += StrCat("constexpr unsigned kTransactionBytes = ", U(f.transaction_bytes), ";  // mbarrier expect_tx bytes of one copy",
                 packed, halo, "\n");
  } else if (prefetch) {
    *o += StrCat("constexpr unsigned kBytesPerCopy = ", U(f.bytes_per_copy), ";  // bytes of the box one prefetch brings into "
                 "L2 (at most: the part inside the tensor)", halo, "; no shared memory, no completion to wait for\n");
  } else {
    *o += StrCat("constexpr unsigned kBytesPerCopy = ", U(f.bytes_per_copy), ";  // bytes one ",
                 s.direction == Direction::kStore ? "store writes" : "reduction combines", " from shared memory (the source) "
                 "into global memory", packed, "\n");
    *o += "// Completion: a bulk async-group, not an mbarrier. After the copy: cp.async.bulk.commit_group; before the\n"
          "// source is written again: cp.async.bulk.wait_group.read N; before the global writes are relied on:\n"
          "// cp.async.bulk.wait_group N.\n";
  }
  if (f.halo_adds_bytes) *o += StrCat("constexpr unsigned kBytesPerHaloPixel = ", U(f.bytes_per_halo_pixel), ";\n");
  *o += StrCat("constexpr unsigned kSmemFootprintBytes = ", U(f.smem_footprint_bytes), ";  // shared memory one box occupies",
               load ? "" : prefetch ? " (none: a prefetch does not use shared memory)" : " (the copy's source)", "\n");
  *o += StrCat("constexpr unsigned kSmemAlignmentRecommended = ", U(f.smem_alignment_recommended),
            ";  // align the box to this (swizzle repeat: phase 0, descriptors with base offset 0)\n");
  *o += StrCat("constexpr unsigned kSmemAlignmentRequired = ", U(f.smem_alignment_required),
            ";  // hardware minimum of the copy's address; the swizzle phase may then be non-zero\n");
  *o += StrCat("constexpr unsigned kSmemRowPitch = ", U(f.smem_row_pitch), ";  // bytes from one box row to the next\n");
  *o += StrCat("constexpr unsigned kInnerBoxBytes = ", U(f.inner_box_bytes), ";\n");
  *o += StrCat("constexpr unsigned kSwizzleSpanBytes = ", U(f.swizzle_span), ";\n");
  *o += StrCat("constexpr unsigned kSwizzleRepeatBytes = ", U(f.swizzle_repeat), ";\n");
  *o += StrCat("constexpr unsigned kCoord0Multiple = ", U(f.coord0_multiple), ";  // the dim-0 coordinate must be a multiple (elements)\n");
  *o += StrCat("constexpr unsigned kGlobalAddressAlignment = ", U(GlobalAlignment(s)), ";  // bytes, for Encode and ReplaceAddress\n");
  *o += "// Invariants: an edited constant that breaks the validated configuration stops the build.\n";
  const std::string id = m.ident;
  *o += StrCat("static_assert(kElementsPerCopy == ", ElementsExpr(s), ", \"", id, ": box and ", load ? "transaction count" :
               "bytes per copy", " disagree\");\n");
  *o += StrCat("static_assert(", bytes_name, " == (kElementsPerCopy * kElementBits + 7u) / 8u, \"", id, ": ",
               load ? "transaction bytes" : "bytes per copy", " are the box's data in its global (packed) size\");\n");
  if (prefetch)
    *o += StrCat("static_assert(kSmemFootprintBytes == 0u, \"", id, ": a prefetch uses no shared memory\");\n");
  else
    *o += StrCat("static_assert(kSmemFootprintBytes >= ", bytes_name, ", \"", id, ": the footprint holds the box\");\n");
  *o += StrCat("static_assert(kSmemAlignmentRecommended >= kSmemAlignmentRequired && (kSmemAlignmentRecommended & (kSmemAlignmentRecommended - 1u)) == 0u && "
            "kSmemAlignmentRecommended % 128u == 0u, \"", id, ": shared-memory alignment is a power of two >= 128\");\n");
  *o += StrCat("static_assert(kSwizzleRepeatBytes == 0u || kSmemAlignmentRecommended % kSwizzleRepeatBytes == 0u, \"", id,
            ": a swizzled box is aligned to the swizzle repeat\");\n");
  *o += StrCat("static_assert(kGlobalAddressAlignment == 16u || kGlobalAddressAlignment == 32u, \"", id, ": global alignment\");\n");
  if (r > 1) {
    for (uint32_t i = 0; i + 1 < r; ++i)
      *o += StrCat("static_assert(kGlobalStrides[", i, "] % kGlobalAddressAlignment == 0u, \"", id,
                ": global strides are multiples of the global alignment\");\n");
  }
  if (EncoderFor(s.mode) == Encoder::kTiled) {
    for (uint32_t i = 0; i < r; ++i)
      *o += StrCat("static_assert(kBoxDim", i, " == kBoxDim[", i, "] && kBoxDim[", i, "] >= 1u && kBoxDim[", i, "] <= 256u, \"", id,
                ": box_dim in 1..256\");\n");
    *o += StrCat("static_assert(kInnerBoxBytes == (kBoxDim[0] * kSmemElementBits + 7u) / 8u, \"", id, ": inner box bytes\");\n");
  } else {
    *o += StrCat("static_assert(kInnerBoxBytes == (kChannelsPerPixel * kSmemElementBits + 7u) / 8u, \"", id, ": inner box bytes\");\n");
  }
  if (s.interleave == Interleave::kNone)
    *o += StrCat("static_assert(kInnerBoxBytes % 16u == 0u, \"", id, ": the inner box is a multiple of 16 bytes\");\n");
  if (s.swizzle != Swizzle::kNone && s.interleave == Interleave::kNone)
    *o += StrCat("static_assert(kInnerBoxBytes <= kSwizzleSpanBytes, \"", id, ": the inner box fits the swizzle span\");\n");
  EmitFullMap(m, o);
  *o += StrCat("}  // namespace ", m.ident, "\n\n");
}

void EmitDesc(const Plan& plan, const PlannedDesc& d, std::string* o) {
  const PlannedMap& m = plan.maps[d.map_index];
  const desc::MapDerivation& dv = d.derivation;
  const std::string fn = d.ident.substr(1);
  const bool wg = d.request.arch == DescArch::kWgmma;
  *o += StrCat("namespace ", m.ident, " {\n");
  *o += StrCat("// ", desc::Name(d.request.arch), " shared-memory matrix descriptor: operand ", desc::Name(d.request.operand), ", ",
            desc::Name(d.request.major), "-major, ", desc::Name(dv.layout.type), ", swizzle ", desc::Name(dv.layout.swizzle),
            ", tile ", dv.layout.mn, " (", d.request.operand == Operand::kA ? "M" : "N", ") x ", dv.layout.k, " (K),\n");
  *o += StrCat("// as this map writes its box. LBO ", dv.facts.lbo, " B, SBO ", dv.facts.sbo, " B, base offset ",
            dv.desc.base_offset(), ". The start-address field (bits 0-13) is clear: ", fn, "(addr) adds it.\n");
  *o += StrCat("// The tile must start on a kSmemAlignmentRecommended (", m.validation.facts.smem_alignment_recommended,
            " B) boundary for base offset ", dv.desc.base_offset(), " to hold.\n");
  *o += StrCat("constexpr unsigned long long ", d.ident, " = ", HexU(d.value, 16, "ull"), ";\n");
  *o += StrCat("TMAPGEN_GEN_HD constexpr unsigned long long ", fn, "(unsigned smem_address) {\n");
  *o += StrCat("  return ", d.ident, " | ((static_cast<unsigned long long>(smem_address) & 0x3FFFFull) >> 4);\n}\n");
  *o += StrCat("static_assert((", d.ident, " & 0x3FFFull) == 0ull, \"", m.ident, ": the start-address field is clear\");\n");
  if (!wg)
    *o += StrCat("static_assert(((", d.ident, " >> 46) & 0x7ull) == 1ull, \"", m.ident, ": tcgen05 descriptors carry 0b001 at bits 46-48\");\n");
  *o += StrCat("}  // namespace ", m.ident, "\n\n");
}

void EmitIdesc(const PlannedIdesc& d, std::string* o) {
  const desc::IdescSpec& s = d.spec;
  *o += StrCat("// tcgen05 instruction descriptor: .kind::", desc::Name(s.kind), ", M ", s.m, ", N ", s.n, ", K ", d.k, ", A ",
            desc::Name(s.a_type), " (", desc::Name(s.a_major), "-major), B ", desc::Name(s.b_type), " (", desc::Name(s.b_major),
            "-major)", desc::IsBlockScaled(s.kind) ? std::string() : StrCat(", D ", desc::Name(s.d_type)), ", cta_group::",
            s.cta_group, s.sparse ? ", sparse" : "", s.ws ? ", .ws" : "", "\n");
  *o += StrCat("namespace ", d.ident, " {\n");
  *o += StrCat("constexpr unsigned kValue = ", HexU(d.value, 8, "u"), ";\n");
  *o += StrCat("constexpr unsigned kM = ", U(s.m), ";\nconstexpr unsigned kN = ", U(s.n), ";\nconstexpr unsigned kK = ", U(d.k), ";\n");
  *o += StrCat("constexpr unsigned kCtaGroup = ", U(static_cast<unsigned>(s.cta_group)), ";\n");
  *o += StrCat("}  // namespace ", d.ident, "\n\n");
}

void EmitHost(const PlannedMap& m, std::string* o) {
  const TensorMapSpec& s = m.spec;
  const uint32_t r = Rank(s);
  *o += StrCat("namespace ", m.ident, " {\n");
  *o += StrCat("static_assert(kDataType == static_cast<unsigned>(", FullName(s.data_type), ") && kSwizzle == static_cast<unsigned>(",
            FullName(s.swizzle), "), \"", m.ident, ": constants and cuda.h enumerators agree\");\n");
  *o += StrCat("// Encodes the map for the tensor at `global_address` (aligned to kGlobalAddressAlignment bytes) with\n"
            "// exactly the validated parameters. `map` must be 64-byte aligned (CUtensorMap is).\n");
  *o += "inline CUresult Encode(CUtensorMap* map, void* global_address) {\n";
  std::string dims = "{", strides = "{", es = "{", box = "{";
  for (uint32_t i = 0; i < r; ++i) {
    dims += StrCat(i ? ", " : "", "static_cast<cuuint64_t>(kGlobalDim[", i, "])");
    es += StrCat(i ? ", " : "", "static_cast<cuuint32_t>(kElementStrides[", i, "])");
    box += StrCat(i ? ", " : "", "static_cast<cuuint32_t>(kBoxDim[", i, "])");
    if (i + 1 < r) strides += StrCat(i ? ", " : "", "static_cast<cuuint64_t>(kGlobalStrides[", i, "])");
  }
  *o += StrCat("  const cuuint64_t global_dim[", r, "] = ", dims, "};\n");
  if (r > 1) *o += StrCat("  const cuuint64_t global_strides[", r - 1, "] = ", strides, "};  // bytes\n");
  else *o += "  const cuuint64_t* global_strides = nullptr;\n";
  *o += StrCat("  const cuuint32_t element_strides[", r, "] = ", es, "};\n");
  const std::string tail = StrCat("      ", FullName(s.interleave), ", ", FullName(s.swizzle), ",\n      ", FullName(s.l2_promotion),
                               ", ", FullName(s.oob_fill));
  switch (EncoderFor(s.mode)) {
    case Encoder::kTiled:
      *o += StrCat("  const cuuint32_t box_dim[", r, "] = ", box, "};\n");
      *o += StrCat("  return cuTensorMapEncodeTiled(map, ", FullName(s.data_type), ", kRank, global_address, global_dim,\n"
                "      global_strides, box_dim, element_strides,\n", tail, ");\n");
      break;
    case Encoder::kIm2col: {
      const uint32_t n = CornerCount(s);
      if (n > 0) {
        std::string lo = "{", hi = "{";
        for (uint32_t i = 0; i < n; ++i) {
          lo += StrCat(i ? ", " : "", "kLowerCorner[", i, "]");
          hi += StrCat(i ? ", " : "", "kUpperCorner[", i, "]");
        }
        *o += StrCat("  const int lower_corner[", n, "] = ", lo, "};\n  const int upper_corner[", n, "] = ", hi, "};\n");
      } else {
        *o += "  const int* lower_corner = nullptr;\n  const int* upper_corner = nullptr;\n";
      }
      *o += StrCat("  return cuTensorMapEncodeIm2col(map, ", FullName(s.data_type), ", kRank, global_address, global_dim,\n"
                "      global_strides, lower_corner, upper_corner, kChannelsPerPixel, kPixelsPerColumn, element_strides,\n",
                tail, ");\n");
      break;
    }
    case Encoder::kIm2colWide:
      *o += StrCat("  return cuTensorMapEncodeIm2colWide(map, ", FullName(s.data_type), ", kRank, global_address, global_dim,\n"
                "      global_strides, kLowerCornerWidth, kUpperCornerWidth, kChannelsPerPixel, kPixelsPerColumn,\n"
                "      element_strides, ", FullName(s.interleave), ", ", FullName(s.wide_mode), ", ", FullName(s.swizzle),
                ",\n      ", FullName(s.l2_promotion), ", ", FullName(s.oob_fill), ");\n");
      break;
  }
  *o += "}\n";
  {
    TensorMapSpec zero = s;
    zero.global_address = 0;
    zero.set_fields |= kFieldGlobalAddress;
    if (blob::Encode(zero).ok()) {
      *o += "// The map without the encode call: kMap (computed offline) pointed at `global_address` by the driver's\n"
            "// cuTensorMapReplaceAddress. The same bytes as Encode() where the driver writes the measured layout.\n";
      *o += "inline CUresult PatchedMap(CUtensorMap* map, void* global_address) {\n"
            "  std::memcpy(map, &kMap, sizeof(kMap));\n"
            "  return cuTensorMapReplaceAddress(map, global_address);\n}\n";
    }
  }
  *o += "// Re-points an encoded map at another tensor of the same shape (the same alignment rules apply).\n";
  *o += "inline CUresult ReplaceAddress(CUtensorMap* map, void* global_address) {\n"
        "  return cuTensorMapReplaceAddress(map, global_address);\n}\n";
  *o += StrCat("}  // namespace ", m.ident, "\n\n");
}

bool NeedsCuda128(const TensorMapSpec& s) {
  return IsSubByte(s.data_type) || IsWideMode(s.mode) || IsAtomicitySwizzle(s.swizzle);
}

}  // namespace

std::string GenerateCpp(const Plan& plan, const Options& opt) {
  if (!plan.valid) return "";
  std::string guard = opt.guard;
  if (guard.empty()) {
    guard = Upper(plan.name_space);
    if (guard.rfind("TMAPGEN", 0) != 0) guard = "TMAPGEN_GEN_" + guard;
    if (!plan.maps.empty()) guard += "_" + Upper(plan.maps[0].ident);
    guard += "_H_";
    guard = SanitizeIdentifier(guard, "TMAPGEN_GEN_H_");
  }
  std::string o = Header(plan, opt, "cpp", "//");
  o += "//\n"
       "// Host part: needs <cuda.h> (CUDA 12.x/13.x driver API; link with -lcuda). Define TMAPGEN_GEN_NO_HOST\n"
       "// before including to get only the constexpr part (device-only code, NVRTC).\n";
  o += StrCat("#ifndef ", guard, "\n#define ", guard, "\n\n");
  o += "#ifndef TMAPGEN_GEN_HD\n#if defined(__CUDACC__)\n#define TMAPGEN_GEN_HD __host__ __device__\n#else\n"
       "#define TMAPGEN_GEN_HD\n#endif\n#endif\n\n";
  bool patches = false;
  for (const PlannedMap& m : plan.maps) patches = patches || EncoderFor(m.spec.mode) == Encoder::kTiled;
  if (patches) o += kTensormapReplaceGuard;
  o += StrCat("namespace ", plan.name_space, " {\n\n");
  const auto over = [&opt, &o] { return opt.max_output_bytes != 0 && o.size() > opt.max_output_bytes; };
  for (const PlannedMap& m : plan.maps) {
    EmitMapConstants(m, &o);
    if (over()) return o;
  }
  for (const PlannedDesc& d : plan.descs) EmitDesc(plan, d, &o);
  for (const PlannedIdesc& d : plan.idescs) EmitIdesc(d, &o);
  o += StrCat("}  // namespace ", plan.name_space, "\n\n");
  bool needs128 = false;
  for (const PlannedMap& m : plan.maps) needs128 = needs128 || NeedsCuda128(m.spec);
  o += "#if !defined(TMAPGEN_GEN_NO_HOST) && !defined(__CUDACC_RTC__)\n#include <cuda.h>\n\n#include <cstring>\n\n";
  o += "static_assert(sizeof(CUtensorMap) == 128, \"CUtensorMap is 128 bytes\");\n";
  o += "static_assert(alignof(CUtensorMap) >= 64, \"CUtensorMap is at least 64-byte aligned\");\n";
  if (needs128)
    o += "static_assert(CUDA_VERSION >= 12080, \"these maps use CUDA 12.8 driver features (sub-byte types, im2col::w, "
         "128B atomicity swizzles)\");\n";
  o += StrCat("\nnamespace ", plan.name_space, " {\n\n");
  for (const PlannedMap& m : plan.maps) {
    EmitHost(m, &o);
    if (over()) return o;
  }
  o += StrCat("}  // namespace ", plan.name_space, "\n#endif  // host part\n\n");
  o += StrCat("#endif  // ", guard, "\n");
  return o;
}

std::string GenerateCpp(const Input& in, const Options& opt) {
  const absl::StatusOr<Plan> plan = MakePlan(in, opt);
  if (!plan.ok()) return "";
  return GenerateCpp(*plan, opt);
}

bool EmitsOfflineMap(const TensorMapSpec& spec) {
  TensorMapSpec s = spec;
  s.global_address = 0;
  s.set_fields |= kFieldGlobalAddress;
  return blob::Encode(s).ok();
}

}  // namespace tmapgen::codegen
