#include "src/codegen/codegen.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "src/blob/blob.h"
#include "src/tmap/derived_facts.h"
#include "src/json/json_writer.h"
#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"

#ifndef TMAPGEN_VERSION
#define TMAPGEN_VERSION "0.1.0"
#endif

namespace tmapgen::codegen {
namespace {

using desc::DescArch;
using desc::Major;
using desc::Operand;

constexpr std::string_view kKeywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char16_t", "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield", "compl", "concept",
    "const", "const_cast", "consteval", "constexpr", "constinit", "continue", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
    "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    // Names the header itself uses at namespace scope, and the standard macros that would break them.
    "std", "assert", "NULL", "errno", "main",
};

bool IsKeyword(std::string_view s) {
  for (std::string_view k : kKeywords)
    if (s == k) return true;
  return false;
}

std::string Upper(std::string_view s) {
  std::string o(s);
  for (char& c : o)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return o;
}

// Identifiers taken so far, and for each base name the first suffix not yet known to be taken.
struct UsedNames {
  std::set<std::string> ids;
  std::map<std::string, int> next_suffix;
};

// Unique within `used` (which it extends): `base`, else the first of base_2, base_3, ... not taken. The
// search for a base starts where its previous search stopped (names are only ever added, so every
// suffix below that is still taken): N specs of one name cost O(N log N), not O(N^2).
std::string Unique(const std::string& base, UsedNames* used) {
  if (used->ids.insert(base).second) return base;
  int& i = used->next_suffix.try_emplace(base, 2).first->second;
  std::string id = StrCat(base, "_", i);
  while (used->ids.count(id) != 0) id = StrCat(base, "_", ++i);
  ++i;
  used->ids.insert(id);
  return id;
}

std::string U(uint64_t v) { return StrCat(v, "u"); }
std::string Ull(uint64_t v) { return StrCat(v, "ull"); }
std::string HexU(uint64_t v, int digits, std::string_view suffix) {
  std::string h = Hex(v).substr(2);
  while (static_cast<int>(h.size()) < digits) h.insert(h.begin(), '0');
  return StrCat("0x", h, suffix);
}

uint32_t GlobalAlignment(const TensorMapSpec& s) {
  return (s.interleave == Interleave::k32B || IsAlign16BPacked(s.data_type)) ? 32 : 16;
}

std::string SpecJsonLine(const TensorMapSpec& s) {
  json::Writer w;
  WriteSpecJson(s, &w);
  return w.Take();
}

// "comment" text safe inside a // comment (no newlines, no trailing backslash).
std::string CommentSafe(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == '\\') s.pop_back();
  return s;
}

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

uint32_t Rank(const TensorMapSpec& s) { return std::min<uint32_t>(s.rank, kMaxRank); }
uint32_t CornerCount(const TensorMapSpec& s) { return Rank(s) >= 2 ? std::min<uint32_t>(Rank(s) - 2, 3) : 0; }

std::string DescIdent(const DescRequest& r) {
  std::string id = StrCat("k", r.arch == DescArch::kWgmma ? "Wgmma" : "Tcgen05", "Desc", desc::Name(r.operand));
  if (r.major == Major::kMN) id += "_MN";
  return id;
}

bool ParseBoolValue(std::string_view v, bool* out) {
  if (v.empty() || v == "1" || v == "true") { *out = true; return true; }
  if (v == "0" || v == "false") { *out = false; return true; }
  return false;
}

bool ParseU32Value(std::string_view v, uint32_t* out) {
  if (v.empty()) return false;
  uint32_t x = 0;
  auto r = std::from_chars(v.data(), v.data() + v.size(), x);
  if (r.ec != std::errc() || r.ptr != v.data() + v.size()) return false;
  *out = x;
  return true;
}

desc::ElemType DefaultIdescType(desc::MmaKind k) {
  switch (k) {
    case desc::MmaKind::kF16: return desc::ElemType::kBF16;
    case desc::MmaKind::kTf32: return desc::ElemType::kTF32;
    case desc::MmaKind::kF8f6f4: case desc::MmaKind::kMxf8f6f4: return desc::ElemType::kE4M3;
    case desc::MmaKind::kI8: return desc::ElemType::kS8;
    default: return desc::ElemType::kE2M1;
  }
}

void BuildSmemCheck(const PlannedDesc& d, desc::SmemCheck* c) {
  c->desc = d.derivation.desc;
  c->user_value = false;
  c->layout = &d.derivation.layout;
  c->facts = &d.derivation.facts;
  c->has_target = d.derivation.use.has_target;
  c->target = d.derivation.use.target;
  c->map = &d.derivation;
}

std::string RenderDescDiagnostics(const desc::DescContext& ctx, const desc::DescValidation& v) {
  std::string o;
  for (const desc::DescDiagnostic& d : desc::MakeDescDiagnostics(ctx, v)) {
    if (d.severity != Severity::kError) continue;
    o += StrCat("  error ", d.rule, d.field.empty() ? "" : StrCat(" (", d.field, ")"), ": ", d.message, "\n");
    if (!d.fix.empty()) o += StrCat("    fix: ", d.fix, "\n");
  }
  return o;
}

std::string Header(const Plan& plan, const Options& opt, std::string_view lang, std::string_view comment) {
  const std::string version = opt.tool_version.empty() ? ToolVersion() : opt.tool_version;
  std::string o = StrCat(comment, " Generated by tmapgen ", version, " (tmapgen codegen --lang ", lang, "). Do not edit.\n");
  o += StrCat(comment, " Same specs and flags give the same bytes; regenerate instead of editing.\n");
  if (!opt.sources.empty()) {
    o += StrCat(comment, " From:");
    for (const std::string& s : opt.sources) o += StrCat(" ", CommentSafe(s));
    o += "\n";
  }
  for (const PlannedMap& m : plan.maps)
    o += StrCat(comment, " spec ", m.ident, ": ", CommentSafe(SpecJsonLine(m.spec)), "\n");
  return o;
}

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

const char* ToolVersion() { return TMAPGEN_VERSION; }

bool ParseLang(std::string_view s, Lang* out) {
  if (s == "cpp" || s == "c++" || s == "h" || s == "hpp") { *out = Lang::kCpp; return true; }
  if (s == "json") { *out = Lang::kJson; return true; }
  if (s == "ptx") { *out = Lang::kPtx; return true; }
  return false;
}

std::string_view Name(Lang l) {
  switch (l) {
    case Lang::kCpp: return "cpp";
    case Lang::kJson: return "json";
    case Lang::kPtx: return "ptx";
  }
  return "cpp";
}

std::string SanitizeIdentifier(std::string_view name, std::string_view fallback) {
  std::string o;
  for (char ch : name) {
    const unsigned char c = static_cast<unsigned char>(ch);
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    const char x = ok ? ch : '_';
    if (x == '_' && (o.empty() || o.back() == '_')) continue;  // no leading '_', no "__"
    o.push_back(x);
  }
  if (o.empty()) o = std::string(fallback);
  if (o[0] >= '0' && o[0] <= '9') o = "map_" + o;
  if (IsKeyword(o)) o += "_";
  return o;
}

namespace {

bool DescRequestTo(std::string_view text, DescRequest* out, std::string* err) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t c = text.find(':', start);
    parts.push_back(text.substr(start, c == std::string_view::npos ? std::string_view::npos : c - start));
    if (c == std::string_view::npos) break;
    start = c + 1;
  }
  if (parts.size() < 4 || parts.size() > 5 || parts[0].empty()) {
    *err = StrCat("--desc: expected MAP:ARCH:OPERAND:MAJOR[:TYPE] (e.g. tile_a:wgmma:A:K), got \"", text, "\"");
    return false;
  }
  DescRequest r;
  r.map = std::string(parts[0]);
  if (!desc::Parse(parts[1], &r.arch)) { *err = StrCat("--desc: unknown family \"", parts[1], "\"; expected wgmma or tcgen05"); return false; }
  if (!desc::Parse(parts[2], &r.operand)) { *err = StrCat("--desc: unknown operand \"", parts[2], "\"; expected A or B"); return false; }
  if (!desc::Parse(parts[3], &r.major)) { *err = StrCat("--desc: unknown major-ness \"", parts[3], "\"; expected K or MN"); return false; }
  if (parts.size() == 5) {
    if (!desc::Parse(parts[4], &r.type)) { *err = StrCat("--desc: unknown element type \"", parts[4], "\""); return false; }
    r.has_type = true;
  }
  *out = r;
  return true;
}

bool IdescRequestTo(std::string_view text, IdescRequest* out, std::string* err) {
  IdescRequest r;
  r.name = "idesc";
  desc::IdescSpec& s = r.spec;
  // First pass: the kind decides the default types.
  std::vector<std::pair<std::string_view, std::string_view>> kv;
  size_t start = 0;
  while (start <= text.size()) {
    size_t c = text.find(',', start);
    if (c == std::string_view::npos) c = text.size();
    std::string_view item = text.substr(start, c - start);
    start = c + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    kv.emplace_back(item.substr(0, eq), eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1));
  }
  for (const auto& [k, v] : kv)
    if (k == "kind" && !desc::Parse(v, &s.kind)) { *err = StrCat("--idesc: kind: unknown value \"", v, "\""); return false; }
  s.a_type = s.b_type = DefaultIdescType(s.kind);
  s.d_type = s.kind == desc::MmaKind::kI8 ? desc::DType::kS32 : desc::DType::kF32;
  for (const auto& [k, v] : kv) {
    bool ok = true;
    if (k == "kind") continue;
    else if (k == "name") { r.name = std::string(v); ok = !v.empty(); }
    else if (k == "m") ok = ParseU32Value(v, &s.m);
    else if (k == "n") ok = ParseU32Value(v, &s.n);
    else if (k == "a-type" || k == "a") ok = desc::Parse(v, &s.a_type);
    else if (k == "b-type" || k == "b") ok = desc::Parse(v, &s.b_type);
    else if (k == "d-type" || k == "d") ok = desc::Parse(v, &s.d_type);
    else if (k == "a-major") ok = desc::Parse(v, &s.a_major);
    else if (k == "b-major") ok = desc::Parse(v, &s.b_major);
    else if (k == "negate-a") ok = ParseBoolValue(v, &s.negate_a);
    else if (k == "negate-b") ok = ParseBoolValue(v, &s.negate_b);
    else if (k == "sparse") ok = ParseBoolValue(v, &s.sparse);
    else if (k == "saturate") ok = ParseBoolValue(v, &s.saturate);
    else if (k == "ws") ok = ParseBoolValue(v, &s.ws);
    else if (k == "a-source") { ok = v == "smem" || v == "tmem"; s.a_tmem = v == "tmem"; }
    else if (k == "cta-group") {
      uint32_t g = 0;
      ok = ParseU32Value(v, &g) && (g == 1 || g == 2);
      s.cta_group = static_cast<int>(g);
    } else if (k == "target") {
      ok = Parse(v, &s.target);
      s.has_target = ok;
    } else {
      *err = StrCat("--idesc: unknown key \"", k, "\"; expected kind, m, n, a-type, b-type, d-type, a-major, b-major, "
                 "negate-a, negate-b, sparse, saturate, ws, a-source, cta-group, target, name");
      return false;
    }
    if (!ok) { *err = StrCat("--idesc: ", k, ": bad value \"", v, "\""); return false; }
  }
  *out = r;
  return true;
}

}  // namespace

absl::StatusOr<DescRequest> ParseDescRequest(std::string_view text) {
  DescRequest r;
  std::string err;
  if (!DescRequestTo(text, &r, &err)) return absl::InvalidArgumentError(ToAbsl(err));
  return r;
}

absl::StatusOr<IdescRequest> ParseIdescRequest(std::string_view text) {
  IdescRequest r;
  std::string err;
  if (!IdescRequestTo(text, &r, &err)) return absl::InvalidArgumentError(ToAbsl(err));
  return r;
}

bool MakePlan(const Input& in, const Options& opt, Plan* plan, std::string* err) {
  *plan = Plan();
  UsedNames used;
  plan->name_space = SanitizeIdentifier(opt.name_space, "tmapgen_gen");
  used.ids.insert(plan->name_space);
  plan->valid = true;
  for (size_t i = 0; i < in.specs.size(); ++i) {
    PlannedMap m;
    m.spec = in.specs[i];
    if (!m.spec.has_target() && opt.has_target) {
      m.spec.target = opt.target;
      m.spec.set_fields |= kFieldTarget;
    }
    m.ident = Unique(SanitizeIdentifier(m.spec.name, StrCat("map", i)), &used);
    Validate(m.spec, &m.validation);
    if (!m.validation.valid) plan->valid = false;
    plan->maps.push_back(std::move(m));
  }
  for (const DescRequest& r : in.descs) {
    PlannedDesc d;
    d.request = r;
    bool found = false;
    if (!r.map.empty() && r.map[0] == '#') {
      uint32_t idx = 0;
      if (ParseU32Value(std::string_view(r.map).substr(1), &idx) && idx < plan->maps.size()) {
        d.map_index = idx;
        found = true;
      }
    } else {
      for (size_t i = 0; i < plan->maps.size() && !found; ++i)
        if (in.specs[i].name == r.map || plan->maps[i].ident == r.map) { d.map_index = i; found = true; }
    }
    if (!found) {
      *err = StrCat("--desc ", r.map, ": no spec has this name (use the spec's \"name\" or #INDEX)");
      return false;
    }
    d.ident = DescIdent(r);
    for (const PlannedDesc& o : plan->descs)
      if (o.map_index == d.map_index && o.ident == d.ident) {
        *err = StrCat("--desc ", r.map, ": ", desc::Name(r.arch), " operand ", desc::Name(r.operand), " ", desc::Name(r.major),
                   "-major is asked for twice");
        return false;
      }
    const TensorMapSpec& spec = plan->maps[d.map_index].spec;
    desc::MapUse use;
    use.arch = r.arch;
    use.operand = r.operand;
    use.major = r.major;
    use.has_type = r.has_type;
    use.type = r.type;
    if (spec.has_target()) {
      use.has_target = true;
      use.target = spec.target;
    }
    desc::DeriveFromMap(spec, use, &d.derivation);
    d.value = d.derivation.desc.bits() & ~desc::FieldMask(desc::wgmma_field::kStart);
    plan->descs.push_back(std::move(d));
  }
  // Validate after the vector stops moving (the checks point into it).
  for (PlannedDesc& d : plan->descs) {
    desc::SmemCheck c;
    BuildSmemCheck(d, &c);
    desc::ValidateSmem(c, &d.validation);
    if (!d.validation.valid) plan->valid = false;
  }
  for (const IdescRequest& r : in.idescs) {
    PlannedIdesc d;
    d.spec = r.spec;
    d.ident = Unique(SanitizeIdentifier(r.name, "idesc"), &used);
    d.value = desc::EncodeIdesc(r.spec);
    d.k = desc::InstrK(r.spec);
    desc::IdescCheck c;
    c.spec = r.spec;
    c.fields = desc::DecodeIdescFields(d.value, r.spec.kind);
    desc::ValidateIdesc(c, &d.validation);
    if (!d.validation.valid) plan->valid = false;
    plan->idescs.push_back(std::move(d));
  }
  return true;
}

std::string RenderRejection(const Plan& plan) {
  std::string o;
  ReportOptions ro;
  ro.show_code = false;
  for (size_t i = 0; i < plan.maps.size(); ++i) {
    const PlannedMap& m = plan.maps[i];
    if (m.validation.valid) continue;
    o += RenderReportText(static_cast<int>(i), m.spec, m.validation, Encoding(), ro);
    o += "\n";
  }
  for (const PlannedDesc& d : plan.descs) {
    if (d.validation.valid) continue;
    desc::SmemCheck c;
    BuildSmemCheck(d, &c);
    desc::DescContext ctx;
    ctx.smem = &c;
    o += StrCat("descriptor ", plan.maps[d.map_index].ident, "::", d.ident, " (", desc::Name(d.request.arch), " operand ",
             desc::Name(d.request.operand), ", ", desc::Name(d.request.major), "-major): invalid\n");
    o += RenderDescDiagnostics(ctx, d.validation);
    o += "\n";
  }
  for (const PlannedIdesc& d : plan.idescs) {
    if (d.validation.valid) continue;
    desc::IdescCheck c;
    c.spec = d.spec;
    c.fields = desc::DecodeIdescFields(d.value, d.spec.kind);
    desc::DescContext ctx;
    ctx.idesc = &c;
    o += StrCat("instruction descriptor ", d.ident, " (", Hex(d.value), "): invalid\n");
    o += RenderDescDiagnostics(ctx, d.validation);
    o += "\n";
  }
  return o;
}

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
  Plan plan;
  std::string err;
  if (!MakePlan(in, opt, &plan, &err)) return "";
  return GenerateCpp(plan, opt);
}

bool Generate(const Input& in, const Options& opt, Lang lang, Plan* plan, Output* out, std::string* err) {
  *out = Output();
  if (!MakePlan(in, opt, plan, err)) return false;
  if (!plan->valid) {
    out->rejection = RenderRejection(*plan);
    return true;
  }
  switch (lang) {
    case Lang::kCpp: out->text = GenerateCpp(*plan, opt); break;
    case Lang::kJson: out->text = GenerateJson(*plan, opt); break;
    case Lang::kPtx: {
      std::string why;
      if (!GeneratePtx(*plan, opt, &out->text, &why)) {
        *err = StrCat("--lang ptx: ", why);
        out->text.clear();
        return false;
      }
      break;
    }
  }
  out->generated = true;
  return true;
}

std::vector<desc::DescDiagnostic> Diagnostics(const PlannedDesc& d) {
  desc::SmemCheck c;
  BuildSmemCheck(d, &c);
  desc::DescContext ctx;
  ctx.smem = &c;
  return desc::MakeDescDiagnostics(ctx, d.validation);
}

std::vector<desc::DescDiagnostic> Diagnostics(const PlannedIdesc& d) {
  desc::IdescCheck c;
  c.spec = d.spec;
  c.fields = desc::DecodeIdescFields(d.value, d.spec.kind);
  desc::DescContext ctx;
  ctx.idesc = &c;
  return desc::MakeDescDiagnostics(ctx, d.validation);
}

std::string DefaultFileName(const Plan& plan, Lang lang) {
  return StrCat(plan.name_space, lang == Lang::kCpp ? ".h" : lang == Lang::kJson ? ".json" : ".ptx");
}

std::string GenerateJson(const Plan& plan, const Options& opt) {
  if (!plan.valid) return "";
  json::WriterOptions wo;
  wo.pretty = true;
  json::Writer w(wo);
  w.BeginObject();
  w.Key("generator").String(StrCat("tmapgen ", opt.tool_version.empty() ? ToolVersion() : opt.tool_version));
  w.Key("sources").BeginArray();
  for (const std::string& s : opt.sources) w.String(s);
  w.EndArray();
  w.Key("namespace").String(plan.name_space);
  w.Key("maps").BeginArray();
  for (const PlannedMap& m : plan.maps) {
    const DerivedFacts& f = m.validation.facts;
    w.BeginObject();
    w.Key("identifier").String(m.ident);
    w.Key("encoder").String(Name(EncoderFor(m.spec.mode)));
    w.Key("spec");
    WriteSpecJson(m.spec, &w);
    w.Key("valid_targets").BeginArray();
    for (int t = 0; t < kNumTargets; ++t)
      if (m.validation.valid_targets & (1u << t)) w.String(Name(static_cast<Target>(t)));
    w.EndArray();
    w.Key("derived").BeginObject();
    w.Key("elements_per_copy").Uint(f.elements_per_copy);
    w.Key("bytes_per_copy").Uint(f.bytes_per_copy);
    w.Key("transaction_bytes").Uint(f.transaction_bytes);
    w.Key("completion").String(Name(CompletionOf(m.spec.direction)));
    w.Key("smem_role").String(Name(SmemRoleOf(m.spec.direction)));
    if (f.halo_adds_bytes) w.Key("bytes_per_halo_pixel").Uint(f.bytes_per_halo_pixel);
    w.Key("smem_footprint_bytes").Uint(f.smem_footprint_bytes);
    w.Key("smem_alignment_recommended").Uint(f.smem_alignment_recommended);
    w.Key("smem_alignment_required").Uint(f.smem_alignment_required);
    w.Key("smem_row_pitch").Uint(f.smem_row_pitch);
    w.Key("inner_box_bytes").Uint(f.inner_box_bytes);
    w.Key("swizzle_span").Uint(f.swizzle_span);
    w.Key("swizzle_repeat").Uint(f.swizzle_repeat);
    w.Key("coord0_multiple").Uint(f.coord0_multiple);
    w.Key("global_address_alignment").Uint(GlobalAlignment(m.spec));
    w.EndObject();
    w.Key("descriptors").BeginArray();
    for (const PlannedDesc& d : plan.descs) {
      if (&plan.maps[d.map_index] != &m) continue;
      w.BeginObject();
      w.Key("identifier").String(d.ident);
      w.Key("family").String(desc::Name(d.request.arch));
      w.Key("operand").String(desc::Name(d.request.operand));
      w.Key("major").String(desc::Name(d.request.major));
      w.Key("type").String(desc::Name(d.derivation.layout.type));
      w.Key("value_without_start").String(HexU(d.value, 16, ""));
      w.Key("lbo_bytes").Uint(d.derivation.facts.lbo);
      w.Key("sbo_bytes").Uint(d.derivation.facts.sbo);
      w.Key("base_offset").Uint(d.derivation.desc.base_offset());
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("instruction_descriptors").BeginArray();
  for (const PlannedIdesc& d : plan.idescs) {
    w.BeginObject();
    w.Key("identifier").String(d.ident);
    w.Key("kind").String(desc::Name(d.spec.kind));
    w.Key("value").String(HexU(d.value, 8, ""));
    w.Key("m").Uint(d.spec.m).Key("n").Uint(d.spec.n).Key("k").Uint(d.k);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.Take() + "\n";
}

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

bool GeneratePtx(const Plan& plan, const Options& opt, std::string* out, std::string* err) {
  if (!plan.valid) { *err = "the specs are invalid"; return false; }
  for (const PlannedMap& m : plan.maps) {
    if (EncoderFor(m.spec.mode) != Encoder::kTiled) {
      *err = StrCat(m.ident, ": tensormap.replace builds tiled maps only (mode ", Name(m.spec.mode),
                 " needs ", Name(EncoderFor(m.spec.mode)), " on the host)");
      return false;
    }
    if (PtxTargets(m) == 0) {
      const uint32_t wanted = m.spec.has_target() ? (1u << static_cast<int>(m.spec.target)) : m.validation.valid_targets;
      const bool atom = EmitsAtomicity(m.spec) && (wanted & PtxReplaceTargets(false)) != 0;
      *err = StrCat(m.ident, ": tensormap.replace", atom ? ".swizzle_atomicity" : "", " does not assemble for ",
                    m.spec.has_target() ? std::string(Name(m.spec.target)) : MaskText(m.validation.valid_targets),
                    ": ptxas accepts it only on the architecture-specific and family targets (",
                    MaskText(PtxReplaceTargets(atom)), "); compile for one of them");
      return false;
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
  *out = o;
  return true;
}

}  // namespace tmapgen::codegen
