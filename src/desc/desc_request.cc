// desc_request.cc: see desc_request.h. The running order is the command line's as it was before the
// request form existed (cli/desc_cmd.cc), so that its output did not change.
#include "src/desc/desc_request.h"

#include "src/desc/map_consistency.h"
#include "src/json/json_writer.h"
#include "src/util/strings.h"

namespace tmapgen::desc {
namespace {

absl::Status Bad(std::string_view field, std::string_view what) {
  return absl::InvalidArgumentError(ToAbsl(StrCat(field, ": ", what)));
}

DescArch ResolvedArch(const MatrixRequest& r) {
  if (r.op == MatrixOp::kDecode && !r.has_arch) return ((r.value >> 46) & 7) == 1 ? DescArch::kTcgen05 : DescArch::kWgmma;
  return r.arch;
}

}  // namespace

bool MatrixRequestHasTile(const MatrixRequest& r) {
  return r.has_map || r.op == MatrixOp::kBuild || (r.op == MatrixOp::kDecode && r.layout_given);
}

absl::Status CheckMatrixRequest(const MatrixRequest& r) {
  const bool decode = r.op == MatrixOp::kDecode;
  const bool with_map = r.op == MatrixOp::kDerive || r.op == MatrixOp::kCheck;
  if (!decode && !r.has_arch) return Bad("family", "required (wgmma or tcgen05) unless the operation is DECODE");
  if (with_map && !r.has_map) return Bad("map", "DERIVE and CHECK need the tensor map");
  if (r.op == MatrixOp::kBuild && r.has_map) return Bad("map", "BUILD describes the tile by its layout; use DERIVE for a map");
  if (decode && r.has_swizzle) return Bad("layout.swizzle", "DECODE takes the swizzle from the value");
  if (decode && r.has_smem_address && !r.has_map) return Bad("layout.smem_address", "DECODE takes the start address from the value");
  if (decode && (r.layout.has_lbo || r.layout.has_sbo || r.layout.has_base_offset || r.layout.lbo_absolute))
    return Bad("layout", "DECODE takes lbo, sbo, base_offset and the LBO mode from the value");
  if (r.layout.has_base_offset && r.layout.base_offset > 7) return Bad("layout.base_offset", "the field has 3 bits (0..7)");
  if (r.layout.lbo_absolute && r.arch != DescArch::kTcgen05)
    return Bad("layout.lbo_absolute", "tcgen05 descriptors only");
  if (r.layout.lbo_absolute && !r.layout.has_lbo)
    return Bad("layout.lbo_absolute", "needs layout.lbo (the second K chunk's address)");
  if (r.has_map) {
    if (r.has_swizzle) return Bad("layout.swizzle", "with a map the swizzle comes from the map");
    if (r.has_tile) return Bad("layout.tile", "with a map the tile comes from the map's box");
    if (r.layout.has_lbo || r.layout.has_sbo || r.layout.has_base_offset || r.layout.lbo_absolute)
      return Bad("layout", "with a map lbo, sbo, base_offset and the LBO mode come from the map; give your descriptor "
                           "as the value of a CHECK to compare it");
  }
  if (decode && !r.has_map && r.layout_given && !r.has_tile)
    return Bad("layout.tile", "DECODE with a layout needs the tile it reads");
  if (r.advance != AdvanceKind::kNone && !MatrixRequestHasTile(r))
    return Bad("advance", "a K slice or sub-tile needs the tile (a layout or a map)");
  if (r.max_lines < 0 || r.max_lines > 100000) return Bad("max_lines", "at most 100000");
  return absl::OkStatus();
}

void RunMatrixRequest(const MatrixRequest& q, SmemDescReport* out) {
  SmemDescReport& r = *out;
  r = SmemDescReport();
  const DescArch arch = ResolvedArch(q);
  const bool decode = q.op == MatrixOp::kDecode;
  OperandLayout l = q.layout;
  l.arch = arch;
  if (q.has_target) {
    r.has_target = true;
    r.target = q.target;
    l.has_target = true;
    l.target = q.target;
  }
  r.draw = q.draw;
  r.max_lines = q.max_lines;
  r.advance_k_slice = q.k_slice;
  r.advance_mn = q.sub_mn;
  r.advance_k = q.sub_k;
  if (q.has_map) {
    r.map_source = q.map_source;
    MapUse use;
    use.arch = arch;
    use.operand = l.operand;
    use.major = l.major;
    use.has_type = q.has_type;
    use.type = l.type;
    use.has_smem_address = q.has_smem_address;
    use.smem_address = l.smem_address;
    use.mma_k = l.mma_k;
    if (!r.has_target && q.map.has_target()) {  // the MMA runs where the copy runs
      r.has_target = true;
      r.target = q.map.target;
    }
    use.has_target = r.has_target;
    use.target = r.target;
    DeriveFromMap(q.map, use, &r.map);
    r.has_map = true;
    r.has_layout = true;
    r.layout = r.map.layout;
    r.facts = r.map.facts;
    if (decode || q.op == MatrixOp::kCheck) {
      r.desc = SmemDesc(arch, q.value);
      r.user_value = true;
    } else {
      r.desc = r.map.desc;
    }
  } else if (decode) {
    r.desc = SmemDesc(arch, q.value);
    r.user_value = true;
    if (q.layout_given) {
      DescSwizzle sw = DescSwizzle::kNone;
      l.swizzle = r.desc.swizzle(&sw) ? sw : DescSwizzle::kNone;
      l.smem_address = r.desc.start_bytes();
      l.has_lbo = l.has_sbo = l.has_base_offset = true;
      l.lbo = r.desc.lbo_bytes();
      l.sbo = r.desc.sbo_bytes();
      l.base_offset = r.desc.base_offset();
      l.lbo_absolute = r.desc.lbo_absolute();
      r.layout = l;
      r.facts = ComputeLayoutFacts(l);
      r.has_layout = true;
    }
  } else {
    if (!q.has_tile) {
      // One swizzle row of K (at least one MMA K) for K-major; 128 x 64 for MN-major.
      const int bits = SmemBits(l.type, l.padded);
      const uint32_t row_elems = static_cast<uint32_t>(RowBytes(l.swizzle) * 8 / bits);
      const uint32_t mma_k = l.mma_k != 0 ? l.mma_k : static_cast<uint32_t>(256 / bits);
      l.mn = 128;
      l.k = l.major == Major::kK ? (row_elems > mma_k ? row_elems : mma_k) : 64;
    }
    r.layout = l;
    r.facts = ComputeLayoutFacts(l);
    r.has_layout = true;
    r.desc = BuildSmemDesc(r.layout, r.facts);
  }
  if (q.advance != AdvanceKind::kNone && r.has_layout) {
    r.has_advance = true;
    r.advance_is_sub_tile = q.advance == AdvanceKind::kSubTile;
    r.advance = r.advance_is_sub_tile ? AdvanceSubTile(r.layout, r.facts, r.desc, r.advance_mn, r.advance_k)
                                      : AdvanceKSlice(r.layout, r.facts, r.desc, r.advance_k_slice);
  }
  r.arch_guessed = decode && !q.has_arch;
  FinishSmemReport(&r);
}

std::string RenderMatrixReport(const SmemDescReport& r, bool json, bool color) {
  if (json) {
    json::Writer w;
    WriteSmemJson(r, &w);
    return w.str() + "\n";
  }
  std::string o;
  if (r.arch_guessed)
    o = StrCat("(family ", Name(r.desc.arch()), ", read from bits 46-48 = ", (r.desc.bits() >> 46) & 7,
               "; --arch to choose)\n");
  return o + RenderSmemText(r, color);
}

// ---------------------------------------------------------------------------------------------- idesc

ElemType DefaultOperandType(MmaKind k) {
  switch (k) {
    case MmaKind::kF16: return ElemType::kBF16;
    case MmaKind::kTf32: return ElemType::kTF32;
    case MmaKind::kF8f6f4: case MmaKind::kMxf8f6f4: return ElemType::kE4M3;
    case MmaKind::kI8: return ElemType::kS8;
    default: return ElemType::kE2M1;
  }
}

DType DefaultAccumulator(MmaKind k) { return k == MmaKind::kI8 ? DType::kS32 : DType::kF32; }

absl::Status CheckIdescRequest(const IdescRequest& r) {
  const IdescSpec& s = r.spec;
  if (s.cta_group != 1 && s.cta_group != 2) return Bad("spec.cta_group", StrCat("expected 1 or 2, got ", s.cta_group));
  if (r.decode) return absl::OkStatus();
  if (!r.kind_given) return Bad("spec.kind", "building a descriptor needs the kind");
  if (s.sparse_selector > 3) return Bad("spec.sparse_selector", "the field has 2 bits (0..3)");
  if (s.k96 && s.kind != MmaKind::kMxf4 && s.kind != MmaKind::kMxf4nvf4)
    return Bad("spec.k", "only .kind::mxf4 and .kind::mxf4nvf4 can choose K = 96");
  return absl::OkStatus();
}

void RunIdescRequest(const IdescRequest& q, IdescResult* out) {
  IdescResult& r = *out;
  r = IdescResult();
  r.value = q.value;
  r.context = q.spec;
  if (q.decode && !q.kind_given) {
    r.all_kinds = true;
    r.valid = IdescValidForSomeKind(q.value, q.spec);
    return;
  }
  if (q.decode) {
    r.report.check.fields = DecodeIdescFields(q.value, q.spec.kind);
    r.report.check.spec = SpecFromFields(r.report.check.fields, q.spec);
    r.report.check.user_value = true;
  } else {
    r.report.check.spec = q.spec;
    r.report.check.fields = DecodeIdescFields(EncodeIdesc(q.spec), q.spec.kind);
    r.report.check.user_value = false;
    r.value = r.report.check.fields.raw;
  }
  r.report.kind_given = true;
  FinishIdescReport(&r.report);
  r.valid = r.report.validation.valid;
}

std::string RenderIdescResult(const IdescResult& r, bool json, bool color) {
  if (json) {
    json::Writer w;
    if (r.all_kinds) WriteIdescAllKindsJson(r.value, r.context, &w);
    else WriteIdescJson(r.report, &w);
    return w.str() + "\n";
  }
  return r.all_kinds ? RenderIdescAllKindsText(r.value, r.context, color) : RenderIdescText(r.report, color);
}

}  // namespace tmapgen::desc
