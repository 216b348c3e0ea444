// gemm_plan.cc: the GEMM plan (gemm_plan.h): maps, shared memory, per-CTA copies and barriers, descriptors,
// the MMA and the edges.
#include "src/plan/gemm_plan.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "src/desc/desc_render.h"
#include "src/desc/map_consistency.h"
#include "src/report/diagnostics.h"
#include "src/util/strings.h"

namespace tmapgen::plan {

namespace {

using desc::DescArch;
using desc::DescSwizzle;
using desc::ElemType;
using desc::Major;

constexpr uint64_t kBarrierBytes = 8;  // one mbarrier object: .b64 (PTX ISA 9.7.13.15.1)

uint64_t CeilDiv(uint64_t a, uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
uint64_t RoundUp(uint64_t a, uint64_t b) { return b == 0 ? a : CeilDiv(a, b) * b; }

absl::Status Bad(std::string_view field, std::string_view what) {
  return absl::InvalidArgumentError(StrCat(field, ": ", what));
}

DataType MapTypeFor(ElemType t) {
  switch (t) {
    case ElemType::kF16: return DataType::kFloat16;
    case ElemType::kBF16: return DataType::kBfloat16;
    case ElemType::kTF32: return DataType::kTfloat32;
    default: return DataType::kUint8;
  }
}

int Bits(ElemType t) { return desc::SmemBits(t, false); }

bool IsF16Like(ElemType t) { return t == ElemType::kF16 || t == ElemType::kBF16; }

// K of one MMA instruction: 32 bytes of K (wgmma m64nNk16 for 16-bit, k8 for tf32, k32 for 8-bit types: PTX ISA
// 9.7.15.2; tcgen05 the same per kind: InstrK).
uint32_t MmaK(ElemType t) { return static_cast<uint32_t>(256 / Bits(t)); }

desc::MmaKind KindFor(ElemType t) {
  if (IsF16Like(t)) return desc::MmaKind::kF16;
  if (t == ElemType::kTF32) return desc::MmaKind::kTf32;
  if (desc::IsInt8(t)) return desc::MmaKind::kI8;
  return desc::MmaKind::kF8f6f4;
}

DescSwizzle Widest(uint64_t contiguous_bytes) {
  for (DescSwizzle s : {DescSwizzle::k128B, DescSwizzle::k64B, DescSwizzle::k32B})
    if (contiguous_bytes >= static_cast<uint64_t>(desc::RowBytes(s)) &&
        contiguous_bytes % static_cast<uint64_t>(desc::RowBytes(s)) == 0)
      return s;
  return DescSwizzle::kNone;
}

std::string Hex(uint64_t v) { return StrCat("0x", absl::Hex(v)); }

std::string CuteAtom(DescSwizzle s, Major major, int bits) {
  // CuTe's canonical GMMA atoms (mma_traits_sm90_gmma.hpp): K-major Swizzle<B,4,3> o (8, W):(W, 1) in bits with
  // W = the swizzle row in bits; MN-major (W, 8):(1, W). Typed: W / element bits elements.
  const int row_bits = desc::RowBytes(s) * 8;
  const int w = row_bits / bits;
  const std::string sw(desc::CuteSwizzle(s));
  if (major == Major::kK) return StrCat(sw, " o (8,", w, "):(", w, ",1)");
  return StrCat(sw, " o (", w, ",8):(1,", w, ")");
}

void AddIssue(GemmPlan* p, std::string id, Severity sev, std::string field, std::string message, std::string source) {
  p->issues.push_back({std::move(id), sev, std::move(field), std::move(message), std::move(source)});
}

std::vector<std::string> MapMessages(const TensorMapSpec& spec, const Validation& v) {
  std::vector<std::string> out;
  for (const Diagnostic& d : MakeDiagnostics(spec, v))
    out.push_back(StrCat(Name(d.severity), "[", d.rule, "] ", d.field, ": ", d.message));
  return out;
}

// A 2D tiled map over a matrix whose dimension 0 (contiguous) has `contig` elements and dimension 1 `strided`,
// rows `ld` elements apart.
TensorMapSpec MatrixMap(std::string name, DataType type, uint64_t contig, uint64_t strided, uint64_t ld,
                        uint32_t box0, uint32_t box1, Swizzle sw, Direction dir, Target target, uint64_t smem) {
  TensorMapSpec s;
  s.name = std::move(name);
  s.mode = Mode::kTiled;
  s.direction = dir;
  s.data_type = type;
  s.rank = 2;
  s.global_dim = {contig, strided, 1, 1, 1};
  s.global_strides = {ld * static_cast<uint64_t>(DataTypeSmemBits(type)) / 8, 0, 0, 0};
  s.box_dim = {box0, box1, 1, 1, 1};
  s.swizzle = sw;
  s.oob_fill = OobFill::kNone;
  s.target = target;
  s.smem_address = smem;
  s.set_fields = kFieldName | kFieldMode | kFieldDirection | kFieldDataType | kFieldRank | kFieldGlobalDim |
                 kFieldGlobalStrides | kFieldBoxDim | kFieldSwizzle | kFieldOobFill | kFieldTarget | kFieldSmemAddress;
  return s;
}

uint32_t AddMap(GemmPlan* p, std::string operand, std::string coords, TensorMapSpec spec) {
  PlannedMap m;
  m.name = spec.name;
  m.operand = std::move(operand);
  m.coords = std::move(coords);
  m.spec = std::move(spec);
  Validate(m.spec, &m.validation);
  m.messages = MapMessages(m.spec, m.validation);
  p->maps.push_back(std::move(m));
  return static_cast<uint32_t>(p->maps.size() - 1);
}

// The operand tile (per CTA) before the shared-memory plan places it.
void ShapeOperand(const GemmRequest& r, bool is_a, DescArch arch, GemmPlan* p, OperandPlan* o) {
  o->name = is_a ? "A" : "B";
  o->type = is_a ? r.a_type : r.b_type;
  o->major = is_a ? r.a_major : r.b_major;
  o->rows = is_a ? r.bm : (r.cta_group == 2 ? r.bn / 2 : r.bn);
  const int bits = Bits(o->type);
  const uint64_t contig_elems = o->major == Major::kK ? r.bk : o->rows;
  o->strided = o->major == Major::kK ? o->rows : r.bk;
  o->contiguous_bytes = contig_elems * static_cast<uint64_t>(bits) / 8;
  const bool given = is_a ? r.has_swizzle_a : r.has_swizzle_b;
  o->swizzle = given ? (is_a ? r.swizzle_a : r.swizzle_b) : Widest(o->contiguous_bytes);
  o->swizzle_chosen = !given;
  const uint32_t row_bytes = static_cast<uint32_t>(desc::RowBytes(o->swizzle));
  o->slab_elems = static_cast<uint32_t>(row_bytes * 8 / static_cast<uint32_t>(bits));
  o->slabs = static_cast<uint32_t>(CeilDiv(o->contiguous_bytes, row_bytes));
  o->slab_bytes = static_cast<uint64_t>(o->strided) * row_bytes;
  o->stage_bytes = o->slab_bytes * o->slabs;
  o->repeat = o->swizzle == DescSwizzle::kNone ? 128u : static_cast<uint32_t>(desc::RepeatBytes(o->swizzle));
  o->cute_swizzle = CuteAtom(o->swizzle, o->major, bits);
  if (o->contiguous_bytes % row_bytes != 0)
    AddIssue(p, "plan-swizzle-row", Severity::kError, is_a ? "swizzle_a" : "swizzle_b",
             StrCat(o->name, "'s tile has ", o->contiguous_bytes, " B along its contiguous dimension, not a multiple of the ",
                    desc::Name(o->swizzle), " swizzle row (", row_bytes, " B): its last slab would be partly written"),
             "PTX ISA 9.7.15.5.1.2.1 (canonical layouts: whole swizzle rows)");
  if (arch == DescArch::kWgmma && o->swizzle == DescSwizzle::k128BAtom32B)
    AddIssue(p, "plan-swizzle-family", Severity::kError, is_a ? "swizzle_a" : "swizzle_b",
             "128B_atom_32B has no wgmma descriptor encoding", "PTX ISA 9.7.15.5.1.2.2 (layout type: 0-3)");
  if (o->slab_bytes % o->repeat != 0)
    AddIssue(p, "plan-slab-repeat", Severity::kWarning, is_a ? "bm" : "bn",
             StrCat(o->name, "'s slab of ", o->strided, " rows is ", o->slab_bytes, " B, not a multiple of the ",
                    o->repeat, "-byte swizzle repeat: later slabs start mid-pattern (base offset != 0)"),
             "PTX ISA 9.7.15.5.1.2.2 (matrix base offset)");
}

// The whole-tile map of an operand and its multicast slice map.
void OperandMaps(const GemmRequest& r, bool is_a, GemmPlan* p, OperandPlan* o, uint64_t buffer, uint32_t group,
                 const OperandMapOverride& ov) {
  const bool mcast_ov = group > 1;
  const bool pair_ov = r.cta_group == 2;
  if (ov.given) {
    TensorMapSpec s = ov.spec;
    s.direction = mcast_ov || pair_ov ? Direction::kLoadCluster : Direction::kLoadCta;
    s.target = r.target;
    s.smem_address = buffer;
    s.oob_fill = OobFill::kNone;
    s.set_fields |= kFieldDirection | kFieldTarget | kFieldSmemAddress | kFieldOobFill | kFieldName;
    s.name = o->name;
    o->map = AddMap(p, o->name, ov.coords, s);
    o->mcast_group = group;
    if (mcast_ov && r.mcast_issue == McastIssue::kSlice) {
      if (s.mode != Mode::kTiled || ov.strided_dim >= s.rank || s.box_dim[ov.strided_dim] % group != 0) {
        AddIssue(p, "plan-mcast-slice", Severity::kError, is_a ? "multicast_a" : "multicast_b",
                 StrCat(o->name, "'s map cannot be split into ", group, " slices (an im2col walk, or rows not divisible)"),
                 "CUTLASS make_tma_copy_desc (the box is truncated by the multicast count)");
        return;
      }
      const uint32_t rows = s.box_dim[ov.strided_dim] / group;
      TensorMapSpec sl = s;
      sl.name = o->name + "_slice";
      sl.box_dim[ov.strided_dim] = rows;
      sl.smem_address = buffer + static_cast<uint64_t>(rows) * desc::RowBytes(o->swizzle);
      p->maps[o->map].note = StrCat("the tile as it lands in every CTA of the group; the copies use ", o->name, "_slice");
      o->slice_map = static_cast<int>(AddMap(p, o->name, StrCat(ov.coords, " + i x ", rows, " along dimension ", ov.strided_dim), sl));
    }
    return;
  }
  const uint64_t mn_total = is_a ? r.m : r.n;
  const uint64_t contig = o->major == Major::kK ? r.k : mn_total;
  const uint64_t strided = o->major == Major::kK ? mn_total : r.k;
  const uint64_t ld_given = is_a ? r.lda : r.ldb;
  const uint64_t ld = ld_given != 0 ? ld_given : contig;
  const DataType t = MapTypeFor(o->type);
  const Swizzle sw = desc::MapSwizzleFor(o->swizzle);
  const bool mcast = group > 1;
  const bool pair = r.cta_group == 2;
  const Direction dir = mcast || pair ? Direction::kLoadCluster : Direction::kLoadCta;
  const std::string mn = is_a ? "m" : "n";
  const std::string coords =
      o->major == Major::kK ? StrCat("{k0 + slab x ", o->slab_elems, ", ", mn, "0}")
                            : StrCat("{", mn, "0 + slab x ", o->slab_elems, ", k0}");
  o->map = AddMap(p, o->name, coords,
                  MatrixMap(o->name, t, contig, strided, ld, o->slab_elems, o->strided, sw, dir, r.target, buffer));
  o->mcast_group = group;
  if (mcast && r.mcast_issue == McastIssue::kSlice) {
    if (o->strided % group != 0) {
      AddIssue(p, "plan-mcast-slice", Severity::kError, is_a ? "multicast_a" : "multicast_b",
               StrCat(o->name, "'s box has ", o->strided, " rows, not divisible among the ", group,
                      " CTAs that each issue a slice"),
               "CUTLASS make_tma_copy_desc (the box is truncated by the multicast count)");
      return;
    }
    const uint32_t rows = o->strided / group;
    const uint64_t second = buffer + static_cast<uint64_t>(rows) * desc::RowBytes(o->swizzle);
    const std::string scoords =
        o->major == Major::kK ? StrCat("{k0 + slab x ", o->slab_elems, ", ", mn, "0 + i x ", rows, "}")
                              : StrCat("{", mn, "0 + slab x ", o->slab_elems, ", k0 + i x ", rows, "}");
    // Validated at the second slice's destination: the least aligned of the slices.
    p->maps[o->map].note = StrCat("the tile as it lands in every CTA of the group; the copies use ", o->name, "_slice");
    o->slice_map = static_cast<int>(AddMap(
        p, o->name, scoords, MatrixMap(o->name + "_slice", t, contig, strided, ld, o->slab_elems, rows, sw, dir, r.target,
                                       second)));
  }
}

// Lays out the shared memory for `stages` stages; returns the total.
uint64_t LayOut(const GemmPlan& p, uint32_t stages, uint64_t epi_c, uint64_t epi_d, uint32_t epi_align,
                std::vector<SmemBuffer>* out, uint64_t* a_stride, uint64_t* b_stride) {
  uint64_t at = 0;
  const uint64_t as = RoundUp(p.a.stage_bytes, p.a.repeat), bs = RoundUp(p.b.stage_bytes, p.b.repeat);
  if (a_stride) *a_stride = as;
  if (b_stride) *b_stride = bs;
  auto put = [&](std::string name, uint64_t bytes, uint32_t align, std::string cute) {
    at = RoundUp(at, align);
    if (out) out->push_back({std::move(name), at, bytes, align, std::move(cute)});
    at += bytes;
  };
  // CUTLASS's TensorStorage: every stage of A, then every stage of B (smem_A, smem_B), then the pipeline's
  // barriers (PipelineTmaAsync::SharedStorage: full_barrier_[Stages], empty_barrier_[Stages]).
  for (uint32_t s = 0; s < stages; ++s) put(StrCat("A[", s, "]"), p.a.stage_bytes, p.a.repeat, p.a.cute_swizzle);
  for (uint32_t s = 0; s < stages; ++s) put(StrCat("B[", s, "]"), p.b.stage_bytes, p.b.repeat, p.b.cute_swizzle);
  if (epi_c != 0) put("C", epi_c, epi_align, "");
  if (epi_d != 0) put("D", epi_d, epi_align, "");
  for (uint32_t s = 0; s < stages; ++s) put(StrCat("full_barrier[", s, "]"), kBarrierBytes, 8, "");
  for (uint32_t s = 0; s < stages; ++s) put(StrCat("empty_barrier[", s, "]"), kBarrierBytes, 8, "");
  if (p.arch == DescArch::kTcgen05) {
    // The accumulator lives in tensor memory: a barrier for "accumulator ready" and the slot tcgen05.alloc
    // writes the tensor-memory address to (PTX ISA 9.7.16.7.1).
    put("tmem_full_barrier", kBarrierBytes, 8, "");
    put("tmem_address", 4, 4, "");
  }
  return at;
}

// The K-step descriptors of one operand; `mn_offsets` are the m64 slices whose descriptors are listed.
void Descriptors(const GemmRequest& r, GemmPlan* p, OperandPlan* o, uint64_t buffer, const std::vector<uint32_t>& mn_offsets) {
  desc::OperandLayout& l = o->layout;
  l.arch = p->arch;
  l.operand = o->name == "A" ? desc::Operand::kA : desc::Operand::kB;
  l.major = o->major;
  l.type = o->type;
  l.swizzle = o->swizzle;
  l.mn = o->rows;
  l.k = r.bk;
  l.smem_address = buffer;
  l.mma_k = MmaK(o->type);
  l.has_target = true;
  l.target = r.target;
  o->facts = desc::ComputeLayoutFacts(l);
  const desc::SmemDesc base = desc::BuildSmemDesc(l, o->facts);

  // The tile as the slab copies write it: one box of every slab, stacked (a 3D box stacks box_dim[2] slabs,
  // map_consistency.h), at the buffer. An im2col map is compared as it is (its first slab).
  TensorMapSpec whole = p->maps[o->map].spec;
  if (whole.mode == Mode::kTiled) {
    const uint64_t row = static_cast<uint64_t>(desc::RowBytes(o->swizzle));
    whole.rank = 3;
    whole.global_dim = {o->slab_elems, o->strided, o->slabs, 1, 1};
    whole.global_strides = {row, row * o->strided, 0, 0};
    whole.box_dim = {o->slab_elems, o->strided, o->slabs, 1, 1};
    whole.element_strides = {1, 1, 1, 1, 1};
  }
  desc::MapUse use;
  use.arch = p->arch;
  use.operand = l.operand;
  use.major = l.major;
  use.has_type = true;
  use.type = l.type;
  use.has_smem_address = true;
  use.smem_address = buffer;
  use.mma_k = l.mma_k;
  use.has_target = true;
  use.target = r.target;

  desc::MapDerivation map;  // the map rules place K slices of the box's first rows
  desc::DeriveFromMap(whole, use, &map);
  for (uint32_t mn : mn_offsets)
    for (uint32_t s = 0; s < o->facts.k_slices; ++s)
      o->steps.push_back(PlanKStep(l, o->facts, base, r.target, mn, s, mn == 0 ? &map : nullptr, true));
}

// wgmma N values (PTX ISA 9.2 section 9.7.15.2): multiples of 8 from 8 to 256; for .s8/.u8 8, 16, 24, 32 and
// multiples of 16 from 48 to 256.
bool WgmmaN(ElemType t, uint32_t n) {
  if (n < 8 || n > 256 || n % 8 != 0) return false;
  if (desc::IsInt8(t)) return n <= 32 || n % 16 == 0;
  return true;
}

void PlanWgmma(const GemmRequest& r, GemmPlan* p) {
  MmaPlan& m = p->mma;
  const ElemType at = r.a_type, bt = r.b_type;
  const uint32_t wgs = r.math_warpgroups != 0 ? r.math_warpgroups : std::max<uint32_t>(1, std::min<uint32_t>(r.bm / 64, 2));
  m.warpgroups = wgs;
  m.rows_per_warpgroup = r.bm / wgs;
  m.m = 64;
  m.n = r.bn;
  m.k = MmaK(at);
  m.k_steps = r.bk / m.k;
  m.per_k_step = m.rows_per_warpgroup / 64;
  m.trans_a = r.a_major == Major::kMN;
  m.trans_b = r.b_major == Major::kMN;
  const desc::DType acc = p->request.accumulator;
  const bool acc32 = acc != desc::DType::kF16;
  m.accum_regs = m.per_k_step * (acc32 ? r.bn / 2 : r.bn / 4);
  m.instruction = StrCat("wgmma.mma_async.sync.aligned.m64n", r.bn, "k", m.k, ".", desc::Name(acc), ".", desc::Name(at), ".",
                         desc::Name(bt));
  const char* kShapes = "PTX ISA 9.2 section 9.7.15.2 (wgmma matrix shapes)";
  const char* kTypes = "PTX ISA 9.2 section 9.7.15.5.1 (wgmma.mma_async: .atype/.btype, imm-trans)";
  // Types.
  const bool fp8 = desc::IsFloat8(at) && desc::IsFloat8(bt);
  const bool i8 = desc::IsInt8(at) && desc::IsInt8(bt);
  if (!(at == bt || fp8 || i8) || desc::IsSubByte(at) || desc::IsSubByte(bt))
    AddIssue(p, "plan-mma-types", Severity::kError, "b_type",
             StrCat("wgmma has no form with A ", desc::Name(at), " and B ", desc::Name(bt),
                    ": .atype and .btype are equal except for e4m3/e5m2 and s8/u8"),
             kTypes);
  else
    m.why.push_back(StrCat("A ", desc::Name(at), " x B ", desc::Name(bt), " is a wgmma type pair (", kTypes, ")"));
  // Accumulator.
  bool acc_ok;
  if (IsF16Like(at)) acc_ok = acc == desc::DType::kF32 || (at == ElemType::kF16 && acc == desc::DType::kF16);
  else if (at == ElemType::kTF32) acc_ok = acc == desc::DType::kF32;
  else if (desc::IsFloat8(at)) acc_ok = acc == desc::DType::kF32 || acc == desc::DType::kF16;
  else acc_ok = acc == desc::DType::kS32;
  if (!acc_ok)
    AddIssue(p, "plan-mma-accumulator", Severity::kError, "accumulator",
             StrCat("wgmma with ", desc::Name(at), " operands has no ", desc::Name(acc), " accumulator"), kTypes);
  // Transpose.
  if ((m.trans_a && !IsF16Like(at)) || (m.trans_b && !IsF16Like(bt)))
    AddIssue(p, "plan-mma-major", Severity::kError, m.trans_a && !IsF16Like(at) ? "a_major" : "b_major",
             "an MN-major (transposed) operand is supported only for f16 and bf16; other types must be K-major", kTypes);
  else
    m.why.push_back(StrCat("imm-trans-a ", m.trans_a ? 1 : 0, ", imm-trans-b ", m.trans_b ? 1 : 0,
                           m.trans_a || m.trans_b ? " (f16/bf16 may be transposed)" : " (both K-major)"));
  // M.
  if (r.bm % wgs != 0 || m.rows_per_warpgroup % 64 != 0 || m.rows_per_warpgroup == 0)
    AddIssue(p, "plan-mma-m", Severity::kError, "bm",
             StrCat("BM ", r.bm, " over ", wgs, " warpgroup(s) is not a whole number of m64 rows per warpgroup"), kShapes);
  else
    m.why.push_back(StrCat("M: every wgmma is m64; BM ", r.bm, " = ", wgs, " warpgroup(s) x ", m.per_k_step, " x 64"));
  // N.
  if (!WgmmaN(at, r.bn))
    AddIssue(p, "plan-mma-n", Severity::kError, "bn",
             StrCat("wgmma has no m64n", r.bn, "k", m.k, " for ", desc::Name(at),
                    desc::IsInt8(at) ? ": N is 8, 16, 24, 32 or a multiple of 16 up to 256"
                                     : ": N is a multiple of 8 from 8 to 256"),
             kShapes);
  else
    m.why.push_back(StrCat("N: m64n", r.bn, "k", m.k, " is listed for ", desc::Name(at), " (", kShapes, ")"));
  // K.
  if (r.bk % m.k != 0)
    AddIssue(p, "plan-mma-k", Severity::kError, "bk",
             StrCat("BK ", r.bk, " is not a multiple of the instruction's K (", m.k, " for ", desc::Name(at), ")"), kShapes);
  else
    m.why.push_back(StrCat("K: ", m.k, " per instruction (32 bytes of ", desc::Name(at), "), ", m.k_steps,
                           " K steps per stage"));
  // Registers: each thread of a warpgroup holds N/2 32-bit accumulators per m64 (PTX ISA 9.7.15.5.1.1, register
  // fragments of D); a thread has at most 255 registers.
  if (m.accum_regs > 255)
    AddIssue(p, "plan-mma-registers", Severity::kError, "bn",
             StrCat("each consumer thread would hold ", m.accum_regs,
                    " accumulator registers; a thread has at most 255 (add warpgroups or shrink the tile)"),
             "PTX ISA 9.7.15.5.1.1 (wgmma D fragments); CUDA C++ Programming Guide, technical specifications");
}

void PlanTcgen05(const GemmRequest& r, GemmPlan* p) {
  MmaPlan& m = p->mma;
  desc::IdescSpec s;
  s.kind = KindFor(r.a_type);
  s.cta_group = r.cta_group;
  s.a_type = r.a_type;
  s.b_type = r.b_type;
  s.d_type = p->request.accumulator;
  s.a_major = r.a_major;
  s.b_major = r.b_major;
  s.m = r.bm * static_cast<uint32_t>(r.cta_group);
  s.n = r.bn;
  s.has_target = true;
  s.target = r.target;
  desc::IdescCheck c;
  c.spec = s;
  c.fields = desc::DecodeIdescFields(desc::EncodeIdesc(s), s.kind);
  m.idesc = desc::EncodeIdesc(s);
  desc::ValidateIdesc(c, &m.idesc_validation);
  m.m = s.m;
  m.n = s.n;
  m.k = desc::InstrK(s);
  m.k_steps = m.k == 0 ? 0 : r.bk / m.k;
  m.per_k_step = 1;
  m.trans_a = r.a_major == Major::kMN;
  m.trans_b = r.b_major == Major::kMN;
  m.instruction = StrCat("tcgen05.mma.cta_group::", r.cta_group, ".kind::", desc::Name(s.kind), " M ", s.m, " N ", s.n, " K ", m.k);
  desc::DescContext ctx;
  ctx.idesc = &c;
  for (const desc::DescDiagnostic& d : desc::MakeDescDiagnostics(ctx, m.idesc_validation))
    if (d.severity == Severity::kError)
      AddIssue(p, "plan-mma-idesc", Severity::kError, StrCat("idesc.", d.field), StrCat(d.rule, ": ", d.message), d.source);
  if (KindFor(r.b_type) != s.kind)
    AddIssue(p, "plan-mma-types", Severity::kError, "b_type",
             StrCat("A ", desc::Name(r.a_type), " and B ", desc::Name(r.b_type), " belong to different tcgen05 kinds"),
             "PTX ISA 9.2 section 9.7.16.4.2 (instruction descriptor types per kind)");
  if (m.k != 0 && r.bk % m.k != 0)
    AddIssue(p, "plan-mma-k", Severity::kError, "bk",
             StrCat("BK ", r.bk, " is not a multiple of the instruction's K (", m.k, ")"),
             "PTX ISA 9.2 section 9.7.16.3 (tcgen05 matrix shapes)");
  m.why.push_back(StrCat("instruction descriptor ", Hex(m.idesc), " checked by the idesc rules (M ", s.m, ", N ", s.n,
                         ", K ", m.k, ")"));
  m.why.push_back("tcgen05 plans are modelled from the PTX ISA and CUTLASS/DeepGEMM sources; not run on hardware");
}

}  // namespace

KStepDesc PlanKStep(const desc::OperandLayout& l, const desc::LayoutFacts& facts, const desc::SmemDesc& base,
                    Target target, uint32_t mn, uint32_t k_step, const desc::MapDerivation* map, bool with_warnings) {
  desc::SmemDescReport rep;
  rep.has_layout = true;
  rep.layout = l;
  rep.facts = facts;
  rep.has_target = true;
  rep.target = target;
  rep.user_value = true;
  if (mn == 0 && k_step == 0) {
    rep.desc = base;
  } else {
    rep.has_advance = true;
    rep.advance_is_sub_tile = true;
    rep.advance_mn = mn;
    rep.advance_k = k_step * l.mma_k;
    rep.advance = desc::AdvanceSubTile(l, facts, base, mn, k_step * l.mma_k);
    rep.desc = rep.advance.desc;
  }
  if (map != nullptr) {
    rep.has_map = true;
    rep.map = *map;
  }
  desc::FinishSmemReport(&rep);
  KStepDesc k;
  k.k_step = k_step;
  k.mn_offset = mn;
  k.desc = rep.desc;
  k.start_offset = rep.desc.start_bytes();
  k.base_offset = rep.desc.base_offset();
  k.validation = rep.validation;
  const desc::SmemCheck c = desc::MakeSmemCheck(rep);
  desc::DescContext ctx;
  ctx.smem = &c;
  for (const desc::DescDiagnostic& d : desc::MakeDescDiagnostics(ctx, rep.validation))
    if (d.severity == Severity::kError || (with_warnings && d.severity != Severity::kNote))
      k.messages.push_back(StrCat(Name(d.severity), "[", d.rule, "] ", d.field, ": ", d.message));
  return k;
}

DataType OperandMapType(desc::ElemType t) { return MapTypeFor(t); }
desc::DescSwizzle WidestSwizzle(uint64_t contiguous_bytes) { return Widest(contiguous_bytes); }

std::string_view Name(McastIssue v) { return v == McastIssue::kSlice ? "slice" : "leader"; }
std::string_view Name(CdLayout v) { return v == CdLayout::kRow ? "row" : "col"; }
bool Parse(std::string_view s, McastIssue* out) {
  if (s == "slice") *out = McastIssue::kSlice;
  else if (s == "leader") *out = McastIssue::kLeader;
  else return false;
  return true;
}
bool Parse(std::string_view s, CdLayout* out) {
  if (s == "row" || s == "row-major") *out = CdLayout::kRow;
  else if (s == "col" || s == "column" || s == "col-major") *out = CdLayout::kCol;
  else return false;
  return true;
}

absl::Status CheckGemmRequest(const GemmRequest& r) {
  if (r.m == 0) return Bad("m", "must be at least 1");
  if (r.n == 0) return Bad("n", "must be at least 1");
  if (r.k == 0) return Bad("k", "must be at least 1");
  if (r.bm == 0 || r.bm > 256) return Bad("bm", StrCat(r.bm, " is outside 1..256 (a box dimension holds at most 256)"));
  if (r.bn == 0 || r.bn > 256) return Bad("bn", StrCat(r.bn, " is outside 1..256"));
  if (r.bk == 0 || r.bk > 1024) return Bad("bk", StrCat(r.bk, " is outside 1..1024"));
  for (ElemType t : {r.a_type, r.b_type})
    if (desc::IsSubByte(t))
      return Bad(t == r.a_type ? "a_type" : "b_type",
                 StrCat(desc::Name(t), ": sub-byte operands (block-scaled kinds) are not planned yet"));
  const bool wgmma = desc::TargetHasWgmma(r.target), tc = desc::TargetHasTcgen05(r.target);
  if (!wgmma && !tc)
    return Bad("target", StrCat(Name(r.target), " has neither wgmma (sm_90a) nor tcgen05 (sm_100a family)"));
  if (r.cta_group != 1 && r.cta_group != 2) return Bad("cta_group", StrCat("expected 1 or 2, got ", r.cta_group));
  if (r.cta_group == 2 && !tc) return Bad("cta_group", "2-CTA MMA is a tcgen05 (sm_100a family) feature");
  if (r.cluster_m == 0 || r.cluster_n == 0) return Bad(r.cluster_m == 0 ? "cluster_m" : "cluster_n", "must be at least 1");
  if (uint64_t{r.cluster_m} * r.cluster_n > 16)  // in 64 bits: 65536 x 65536 is not 0 CTAs
    return Bad("cluster", StrCat(r.cluster_m, " x ", r.cluster_n, " CTAs: a cluster holds at most 16 (ctaMask has 16 bits)"));
  if (r.cta_group == 2 && r.cluster_m % 2 != 0)
    return Bad("cluster_m", "2-CTA MMA pairs CTAs along M: cluster_m must be even");
  if (r.cta_group == 2 && (r.multicast_a || r.multicast_b))
    return Bad("multicast", "multicast together with 2-CTA MMA is not planned yet");
  if (r.cta_group == 2 && r.bn % 2 != 0) return Bad("bn", "2-CTA MMA splits B's N between the pair: bn must be even");
  if (r.math_warpgroups > 4) return Bad("math_warpgroups", StrCat(r.math_warpgroups, " is more than 4"));
  if (r.stages > 64) return Bad("stages", StrCat(r.stages, " is more than 64"));
  const uint64_t a_contig = r.a_major == Major::kK ? r.k : r.m, b_contig = r.b_major == Major::kK ? r.k : r.n;
  const uint64_t cd_contig = r.cd_layout == CdLayout::kRow ? r.n : r.m;
  if (r.lda != 0 && r.lda < a_contig) return Bad("lda", StrCat(r.lda, " is less than A's contiguous extent ", a_contig));
  if (r.ldb != 0 && r.ldb < b_contig) return Bad("ldb", StrCat(r.ldb, " is less than B's contiguous extent ", b_contig));
  if (r.ldc != 0 && r.ldc < cd_contig) return Bad("ldc", StrCat(r.ldc, " is less than C's contiguous extent ", cd_contig));
  if (r.ldd != 0 && r.ldd < cd_contig) return Bad("ldd", StrCat(r.ldd, " is less than D's contiguous extent ", cd_contig));
  for (DataType t : {r.c_type, r.d_type})
    if (DataTypeSmemBits(t) < 8 || t == DataType::kFloat64 || t == DataType::kUint64 || t == DataType::kInt64)
      return Bad(t == r.d_type ? "d_type" : "c_type", "expected f16, bf16, f32 or s32");
  return absl::OkStatus();
}

void RunGemmPlan(const GemmRequest& req, GemmPlan* out) { RunGemmPlanWith(req, GemmOverrides(), out); }

void RunGemmPlanWith(const GemmRequest& req, const GemmOverrides& ov, GemmPlan* out) {
  GemmPlan& p = *out;
  p = GemmPlan();
  p.request = req;
  if (!req.has_accumulator)
    p.request.accumulator = desc::IsInt8(req.a_type) ? desc::DType::kS32 : desc::DType::kF32;
  const GemmRequest& r = p.request;
  p.arch = desc::TargetHasWgmma(r.target) ? DescArch::kWgmma : DescArch::kTcgen05;

  ShapeOperand(r, true, p.arch, &p, &p.a);
  ShapeOperand(r, false, p.arch, &p, &p.b);
  p.stage_bytes = p.a.stage_bytes + p.b.stage_bytes;

  // The epilogue tile: BM x BN of D (and of C when read), per CTA, in the same slab order.
  const int d_bits = DataTypeSmemBits(r.d_type), c_bits = DataTypeSmemBits(r.c_type);
  const uint32_t cd_rows = r.cd_layout == CdLayout::kRow ? r.bm : r.bn;
  const uint32_t cd_contig = r.cd_layout == CdLayout::kRow ? r.bn : r.bm;
  const uint64_t d_contig_bytes = static_cast<uint64_t>(cd_contig) * d_bits / 8;
  const DescSwizzle cd_sw = r.has_swizzle_cd ? r.swizzle_cd : Widest(d_contig_bytes);
  const uint32_t cd_row_bytes =
      cd_sw == DescSwizzle::kNone ? static_cast<uint32_t>(d_contig_bytes) : static_cast<uint32_t>(desc::RowBytes(cd_sw));
  const uint32_t cd_slabs = static_cast<uint32_t>(CeilDiv(d_contig_bytes, cd_row_bytes == 0 ? 1 : cd_row_bytes));
  const uint64_t epi_d = r.epilogue ? static_cast<uint64_t>(cd_slabs) * cd_rows * cd_row_bytes : 0;
  const uint64_t epi_c = r.has_c ? static_cast<uint64_t>(cd_slabs) * cd_rows * cd_row_bytes * c_bits / d_bits : 0;
  const uint32_t epi_align = cd_sw == DescSwizzle::kNone ? 128u : static_cast<uint32_t>(desc::RepeatBytes(cd_sw));

  // Stages: the largest count that fits the target's per-block limit (CUTLASS compute_stage_count_or_override:
  // (capacity - carveout) / (A + B + pipeline barriers) per stage; here the exact layout with its alignment).
  p.smem_limit = static_cast<uint64_t>(Info(r.target).max_smem_per_block);
  p.max_stages = 0;
  for (uint32_t s = 1; s <= 64; ++s) {
    if (LayOut(p, s, epi_c, epi_d, epi_align, nullptr, nullptr, nullptr) > p.smem_limit) break;
    p.max_stages = s;
  }
  p.stages_chosen = r.stages == 0;
  p.stages = r.stages != 0 ? r.stages : std::max<uint32_t>(1, p.max_stages);
  p.smem_total = LayOut(p, p.stages, epi_c, epi_d, epi_align, &p.smem, &p.a_stage_stride, &p.b_stage_stride);
  const char* kSmemSrc = "cuda.h / CUDA C++ Programming Guide: 227 KiB opt-in shared memory per block (sm_90, sm_100)";
  if (p.smem_total > p.smem_limit)
    AddIssue(&p, "plan-smem-limit", Severity::kError, "stages",
             StrCat(p.stages, " stage(s) need ", p.smem_total, " B of shared memory; ", Name(r.target), " allows ",
                    p.smem_limit, " B per block",
                    p.max_stages != 0 ? StrCat(" (", p.max_stages, " stages fit)") : std::string(" (not even one stage fits)")),
             kSmemSrc);
  else if (p.stages == 1)
    AddIssue(&p, "plan-one-stage", Severity::kWarning, "stages",
             "one stage: the copies of the next K tile cannot overlap the MMAs of this one", "");

  const uint64_t a_buf = p.smem.empty() ? 0 : p.smem[0].offset;
  uint64_t b_buf = 0, c_buf = 0, d_buf = 0;
  for (const SmemBuffer& b : p.smem) {
    if (b.name == "B[0]") b_buf = b.offset;
    if (b.name == "C") c_buf = b.offset;
    if (b.name == "D") d_buf = b.offset;
  }

  // Multicast groups.
  const uint32_t cm = r.cluster_m, cn = r.cluster_n;
  const uint32_t group_a = r.multicast_a ? cn : 1, group_b = r.multicast_b ? cm : 1;
  const char* kMcastSrc = "CUTLASS sm90_mma_tma_gmma_ss_warpspecialized.hpp load(): mcast_mask_a over n, mcast_mask_b over m";
  if (r.multicast_a && cn == 1)
    AddIssue(&p, "plan-mcast-no-peer", Severity::kWarning, "multicast_a",
             "A is shared by the CTAs of one cluster row (same m, other n); with cluster_n 1 there is no other CTA", kMcastSrc);
  if (r.multicast_b && cm == 1)
    AddIssue(&p, "plan-mcast-no-peer", Severity::kWarning, "multicast_b",
             "B is shared by the CTAs of one cluster column (same n, other m); with cluster_m 1 there is no other CTA",
             kMcastSrc);
  if (cm * cn > 8)
    AddIssue(&p, "plan-cluster-portable", Severity::kWarning, "cluster",
             StrCat(cm * cn, " CTAs per cluster: more than the portable 8 needs cudaFuncAttributeNonPortableClusterSizeAllowed"),
             "CUDA C++ Programming Guide, thread block clusters");

  OperandMaps(r, true, &p, &p.a, a_buf, group_a, ov.a);
  OperandMaps(r, false, &p, &p.b, b_buf, group_b, ov.b);

  // The epilogue maps.
  if (r.epilogue || r.has_c) {
    const uint64_t contig = r.cd_layout == CdLayout::kRow ? r.n : r.m;
    const uint64_t strided = r.cd_layout == CdLayout::kRow ? r.m : r.n;
    const uint32_t box0 = static_cast<uint32_t>(cd_row_bytes * 8 / static_cast<uint32_t>(d_bits));
    const std::string coords = r.cd_layout == CdLayout::kRow ? StrCat("{n0 + slab x ", box0, ", m0}")
                                                             : StrCat("{m0 + slab x ", box0, ", n0}");
    if (r.has_c) {
      const uint32_t cbox0 = static_cast<uint32_t>(uint64_t{box0} * d_bits / c_bits);
      p.c_map = static_cast<int>(AddMap(&p, "C", coords,
                                        MatrixMap("C", r.c_type, contig, strided, r.ldc != 0 ? r.ldc : contig, cbox0,
                                                  cd_rows, desc::MapSwizzleFor(cd_sw), Direction::kLoadCta, r.target, c_buf)));
    }
    if (r.epilogue) {
      p.d_map = static_cast<int>(AddMap(&p, "D", coords,
                                        MatrixMap("D", r.d_type, contig, strided, r.ldd != 0 ? r.ldd : contig, box0,
                                                  cd_rows, desc::MapSwizzleFor(cd_sw), Direction::kStore, r.target, d_buf)));
      for (uint32_t j = 0; j < cd_slabs; ++j) {
        PlannedCopy c;
        c.map = static_cast<uint32_t>(p.d_map);
        c.slab = j;
        c.coord0_offset = uint64_t{j} * box0;
        c.smem_offset = uint64_t{j} * cd_rows * cd_row_bytes;
        c.bytes = uint64_t{cd_rows} * cd_row_bytes;
        p.epilogue_copies.push_back(c);
      }
    }
  }

  // Per CTA: copies, masks, bytes and barrier counts.
  const uint32_t ctas = cm * cn;
  const uint32_t consumers = p.arch == DescArch::kWgmma
                                 ? (r.math_warpgroups != 0 ? r.math_warpgroups
                                                           : std::max<uint32_t>(1, std::min<uint32_t>(r.bm / 64, 2)))
                                 : 1;  // tcgen05: the one thread that issues the MMAs commits to the empty barrier
  std::vector<uint16_t> writes(ctas, 0);  // CTAs each CTA's copies land in
  p.ctas.resize(ctas);
  for (uint32_t rank = 0; rank < ctas; ++rank) {
    CtaPlan& c = p.ctas[rank];
    c.rank = rank;
    c.x = rank % cm;
    c.y = rank / cm;
    if (group_a > 1)
      for (uint32_t n = 0; n < cn; ++n) c.mask_a |= static_cast<uint16_t>(1u << (c.x + n * cm));
    if (group_b > 1)
      for (uint32_t m = 0; m < cm; ++m) c.mask_b |= static_cast<uint16_t>(1u << (m + c.y * cm));
    writes[rank] |= static_cast<uint16_t>(1u << rank);
    for (int op = 0; op < 2; ++op) {
      const OperandPlan& o = op == 0 ? p.a : p.b;
      const uint32_t group = op == 0 ? group_a : group_b;
      const uint16_t mask = op == 0 ? c.mask_a : c.mask_b;
      const uint32_t index = op == 0 ? c.y : c.x;  // the CTA's place in the operand's group
      const uint32_t row_bytes = static_cast<uint32_t>(desc::RowBytes(o.swizzle));
      const bool slice = group > 1 && r.mcast_issue == McastIssue::kSlice && o.slice_map >= 0;
      const bool issues = group == 1 || slice || index == 0;
      if (!issues) continue;
      if (group > 1) writes[rank] |= mask;
      const uint32_t rows = slice ? o.strided / group : o.strided;
      for (uint32_t j = 0; j < o.slabs; ++j) {
        PlannedCopy pc;
        pc.map = slice ? static_cast<uint32_t>(o.slice_map) : o.map;
        pc.slab = j;
        pc.coord0_offset = uint64_t{j} * o.slab_elems;
        // 2-CTA: each CTA of the pair loads its own rows of A (m0 is the CTA's) and its half of B's N.
        pc.coord1_offset = slice ? uint64_t{index} * rows : (r.cta_group == 2 && op == 1 ? uint64_t{rank % 2} * rows : 0);
        pc.smem_offset = uint64_t{j} * o.slab_bytes + (slice ? uint64_t{index} * rows * row_bytes : 0);
        pc.bytes = uint64_t{rows} * row_bytes;
        pc.mask = group > 1 ? mask : 0;
        pc.to_leader_barrier = r.cta_group == 2;
        c.issued_bytes += pc.bytes;
        c.copies.push_back(pc);
      }
    }
    c.received_bytes = p.stage_bytes;
    c.expect_tx = p.stage_bytes;
  }
  for (uint32_t rank = 0; rank < ctas; ++rank) {
    CtaPlan& c = p.ctas[rank];
    c.empty_arrivals = static_cast<uint32_t>(__builtin_popcount(writes[rank])) * consumers;
    for (uint32_t q = 0; q < ctas; ++q)
      if (writes[q] & (1u << rank)) c.release_mask |= static_cast<uint16_t>(1u << q);
  }
  if (r.cta_group == 2) {
    // The pair's copies all signal the even CTA's barrier: it expects both CTAs' bytes and two arrivals (its own
    // arrive.expect_tx and the odd CTA's plain arrive); the odd CTA's full barrier is not used for loads.
    for (uint32_t rank = 0; rank < ctas; ++rank) {
      CtaPlan& c = p.ctas[rank];
      const bool leader = rank % 2 == 0;
      c.expect_tx = leader ? 2 * p.stage_bytes : 0;
      c.full_arrivals = leader ? 2 : 0;
      c.empty_arrivals = 1;
      // The leader's MMA commits to both CTAs' empty barriers (tcgen05.commit .multicast::cluster).
      c.release_mask = leader ? static_cast<uint16_t>(3u << rank) : 0;
    }
  }

  // Descriptors and the MMA.
  if (p.arch == DescArch::kWgmma) {
    PlanWgmma(r, &p);
    std::vector<uint32_t> a_offsets;
    if (p.mma.rows_per_warpgroup % 64 == 0 && p.mma.rows_per_warpgroup != 0)
      for (uint32_t w = 0; w < p.mma.warpgroups; ++w)
        for (uint32_t i = 0; i < p.mma.per_k_step; ++i) a_offsets.push_back(w * p.mma.rows_per_warpgroup + i * 64);
    if (a_offsets.empty()) a_offsets.push_back(0);
    Descriptors(r, &p, &p.a, a_buf, a_offsets);
  } else {
    PlanTcgen05(r, &p);
    Descriptors(r, &p, &p.a, a_buf, {0});
  }
  Descriptors(r, &p, &p.b, b_buf, {0});

  // Edges.
  EdgePlan& e = p.edges;
  e.tiles_m = CeilDiv(r.m, uint64_t{r.bm} * static_cast<uint64_t>(r.cta_group));
  e.tiles_n = CeilDiv(r.n, r.bn);
  e.k_tiles = CeilDiv(r.k, r.bk);
  const uint64_t mtile = uint64_t{r.bm} * static_cast<uint64_t>(r.cta_group);
  e.last_m = static_cast<uint32_t>(r.m - (e.tiles_m - 1) * mtile);
  e.last_n = static_cast<uint32_t>(r.n - (e.tiles_n - 1) * r.bn);
  e.last_k = static_cast<uint32_t>(r.k - (e.k_tiles - 1) * r.bk);
  const uint32_t cm_tiles = r.cta_group == 2 ? cm / 2 : cm;
  e.grid_m = RoundUp(e.tiles_m, cm_tiles) * static_cast<uint64_t>(r.cta_group);
  e.grid_n = RoundUp(e.tiles_n, cn);
  e.idle_ctas = e.grid_m * e.grid_n - e.tiles_m * e.tiles_n * static_cast<uint64_t>(r.cta_group);
  if (e.last_m != mtile)
    e.notes.push_back(StrCat("the last M tile holds ", e.last_m, " of ", mtile, " rows: A's rows ", r.m, "..",
                             e.tiles_m * mtile - 1, " are outside the tensor and load as zeros (OOB fill NONE); the barrier "
                             "still counts the whole box"));
  if (e.last_n != r.bn)
    e.notes.push_back(StrCat("the last N tile holds ", e.last_n, " of ", r.bn, " columns: B's rows ", r.n, "..",
                             e.tiles_n * r.bn - 1, " load as zeros"));
  if (e.last_k != r.bk)
    e.notes.push_back(StrCat("the last K tile holds ", e.last_k, " of ", r.bk, " K: the rest of A and B loads as zeros, ",
                             "which adds nothing to the sums (NaN fill would poison them)"));
  if (e.last_m != mtile || e.last_n != r.bn)
    e.notes.push_back("the D store of an edge tile writes only the elements inside the tensor (a TMA store skips the rest)");
  if (e.notes.empty()) e.notes.push_back("every tile is whole: no edge");
  if (e.idle_ctas != 0) {
    const bool mc = group_a > 1 || group_b > 1;
    e.notes.push_back(StrCat(e.idle_ctas, " CTA(s) of the grid (rounded up to the cluster) have no tile inside the problem",
                             mc ? ": they must still run the main loop (issue their copies and arrive on the barriers) or "
                                  "their cluster's multicast peers wait forever"
                                : ""));
    if (mc)
      AddIssue(&p, "plan-edge-idle-cta", Severity::kWarning, "cluster",
               StrCat(e.idle_ctas, " CTA(s) lie wholly outside the problem in multicast clusters: keep them in the main "
                                   "loop (CUTLASS does: its loads are then wholly out of bounds and zero-filled) or turn "
                                   "multicast off for those clusters (DeepGEMM's is_tma_multicast_valid)"),
               "CUTLASS sm90 collective load() (no residue path); DeepGEMM sm90_bf16_gemm.cuh");
  }

  // Totals.
  for (const PlannedMap& m : p.maps) {
    p.errors += m.validation.errors;
    p.warnings += m.validation.warnings;
  }
  for (const OperandPlan* o : {&p.a, &p.b})
    for (const KStepDesc& k : o->steps) {
      p.errors += k.validation.errors;
      p.warnings += k.validation.warnings;
    }
  for (const PlanIssue& i : p.issues) {
    if (i.severity == Severity::kError) ++p.errors;
    if (i.severity == Severity::kWarning) ++p.warnings;
  }
  p.valid = p.errors == 0;
}

}  // namespace tmapgen::plan
