// plan_codegen.cc: the generated header of a plan (plan_codegen.h).
#include "src/plan/plan_codegen.h"

#include <algorithm>
#include <string>
#include <vector>

#include "src/codegen/codegen.h"
#include "src/codegen/emit_cpp.h"
#include "src/util/strings.h"

namespace tmapgen::plan {

namespace {

std::string U(uint64_t v) { return StrCat(v, "u"); }
std::string Ull(uint64_t v) { return StrCat("0x", absl::Hex(v), "ull"); }

template <typename T, typename F>
std::string List(const std::vector<T>& v, F f) {
  std::string o = "{";
  for (size_t i = 0; i < v.size(); ++i) StrAppend(&o, i ? ", " : "", f(v[i]));
  return o + "}";
}

void DescBlock(const GemmPlan& p, const OperandPlan& o, uint64_t stride, std::string* s) {
  const std::string n = o.name;
  StrAppend(s, "// ", n, ": ", desc::Name(o.type), " ", desc::Name(o.major), "-major, swizzle ", desc::Name(o.swizzle),
            ", LBO ", o.facts.lbo, " B, SBO ", o.facts.sbo, " B. Entry i = ",
            n == "A" && p.arch == desc::DescArch::kWgmma ? "m64 slice x kKSteps + K step" : "K step",
            ", for stage 0 at smem base 0 with the start field clear;\n// Desc", n,
            "() adds the start address (the field is 14 bits of 16-byte units).\n");
  StrAppend(s, "constexpr unsigned kNumDesc", n, " = ", U(o.steps.size()), ";\n");
  const std::string desc = List(o.steps, [](const KStepDesc& k) { return Ull(k.desc.bits() & ~uint64_t{0x3FFF}); });
  const std::string start = List(o.steps, [](const KStepDesc& k) { return U(k.start_offset); });
  StrAppend(s, "constexpr unsigned long long kDesc", n, "[", o.steps.size(), "] = ", desc, ";\n");
  StrAppend(s, "constexpr unsigned kDesc", n, "Start[", o.steps.size(), "] = ", start, ";  // bytes from the smem base\n");
  // The function holds its own copy of the tables: device code cannot index a namespace-scope constexpr array.
  StrAppend(s, "TMAPGEN_GEN_HD constexpr unsigned long long Desc", n,
            "(unsigned smem_base, unsigned stage, unsigned i) {\n  constexpr unsigned long long desc[", o.steps.size(), "] = ",
            desc, ";\n  constexpr unsigned start[", o.steps.size(), "] = ", start,
            ";\n  return desc[i] | (((static_cast<unsigned long long>(smem_base) + start[i] + 1ull * stage * ", U(stride),
            ") >> 4) & 0x3FFFull);\n}\n");
}

}  // namespace

absl::StatusOr<std::string> GeneratePlanHeader(const GemmPlan& p, const std::string& name_space) {
  if (!p.valid) return absl::FailedPreconditionError("the plan is invalid: nothing generated (tmapgen plan ... shows why)");
  codegen::Input in;
  for (const PlannedMap& m : p.maps) in.specs.push_back(m.spec);
  codegen::Options opt;
  opt.name_space = name_space.empty() ? "tmapgen_plan" : name_space;
  opt.sources = {"tmapgen plan"};
  absl::StatusOr<codegen::Plan> planned = codegen::MakePlan(in, opt);
  if (!planned.ok()) return planned.status();
  const codegen::Plan& cp = *planned;
  if (!cp.valid) return absl::FailedPreconditionError(ToAbsl(codegen::RenderRejection(cp)));
  std::string h = codegen::GenerateCpp(cp, opt);
  const size_t guard_end = h.rfind("#endif");
  if (guard_end == std::string::npos) return absl::InternalError("the generated maps have no header guard");
  const std::string tail = h.substr(guard_end);
  h.resize(guard_end);

  const GemmRequest& r = p.request;
  const uint32_t ctas = static_cast<uint32_t>(p.ctas.size());
  size_t max_copies = 1;
  for (const CtaPlan& c : p.ctas) max_copies = std::max(max_copies, c.copies.size());
  auto offset_of = [&](const std::string& name) -> uint64_t {
    for (const SmemBuffer& b : p.smem)
      if (b.name == name) return b.offset;
    return 0;
  };
  std::string s;
  StrAppend(&s, "\n// ---- the plan (tmapgen plan; docs/plan.md): every constant a kernel needs, checked together.\n");
  StrAppend(&s, "namespace ", cp.name_space, " {\nnamespace plan {\n");
  StrAppend(&s, "// Problem and tile.\nconstexpr unsigned long long kM = ", r.m, "ull, kN = ", r.n, "ull, kK = ", r.k, "ull;\n");
  StrAppend(&s, "constexpr unsigned kBM = ", U(r.bm), ", kBN = ", U(r.bn), ", kBK = ", U(r.bk), ";\n");
  StrAppend(&s, "constexpr unsigned kClusterM = ", U(r.cluster_m), ", kClusterN = ", U(r.cluster_n),
            ", kClusterSize = ", U(ctas), ", kCtaGroup = ", U(static_cast<uint64_t>(r.cta_group)), ";\n");
  StrAppend(&s, "constexpr unsigned long long kTilesM = ", p.edges.tiles_m, "ull, kTilesN = ", p.edges.tiles_n,
            "ull, kKTiles = ", p.edges.k_tiles, "ull;  // grid: ", p.edges.grid_m, " x ", p.edges.grid_n, " CTAs\n");
  StrAppend(&s, "\n// Shared memory: offsets from a base aligned to kSmemBaseAlignment (declare the dynamic shared memory\n"
                "// __align__(", std::max(p.a.repeat, p.b.repeat), ") and launch with kSmemBytes).\n");
  StrAppend(&s, "constexpr unsigned kStages = ", U(p.stages), ";  // the largest count that fits: ", p.max_stages, "\n");
  StrAppend(&s, "constexpr unsigned kSmemBytes = ", U(p.smem_total), ";  // of ", p.smem_limit, " per block on ",
            Name(r.target), "\n");
  StrAppend(&s, "constexpr unsigned kSmemBaseAlignment = ", U(std::max(p.a.repeat, p.b.repeat)), ";\n");
  StrAppend(&s, "constexpr unsigned kSmemA = ", U(offset_of("A[0]")), ", kSmemAStageStride = ", U(p.a_stage_stride),
            ", kSmemAStageBytes = ", U(p.a.stage_bytes), ";  // CuTe: ", p.a.cute_swizzle, "\n");
  StrAppend(&s, "constexpr unsigned kSmemB = ", U(offset_of("B[0]")), ", kSmemBStageStride = ", U(p.b_stage_stride),
            ", kSmemBStageBytes = ", U(p.b.stage_bytes), ";  // CuTe: ", p.b.cute_swizzle, "\n");
  StrAppend(&s, "constexpr char kCuteLayoutA[] = \"", p.a.cute_swizzle, "\";\nconstexpr char kCuteLayoutB[] = \"",
            p.b.cute_swizzle, "\";\n");
  if (p.d_map >= 0) StrAppend(&s, "constexpr unsigned kSmemD = ", U(offset_of("D")), ";\n");
  if (p.c_map >= 0) StrAppend(&s, "constexpr unsigned kSmemC = ", U(offset_of("C")), ";\n");
  StrAppend(&s, "constexpr unsigned kFullBarrier = ", U(offset_of("full_barrier[0]")), ", kEmptyBarrier = ",
            U(offset_of("empty_barrier[0]")), ", kBarrierBytes = 8u;  // one per stage each\n");
  if (p.arch == desc::DescArch::kTcgen05)
    StrAppend(&s, "constexpr unsigned kTmemFullBarrier = ", U(offset_of("tmem_full_barrier")), ", kTmemAddress = ",
              U(offset_of("tmem_address")), ";\n");
  StrAppend(&s, "TMAPGEN_GEN_HD constexpr unsigned SmemA(unsigned stage) { return kSmemA + stage * kSmemAStageStride; }\n"
                "TMAPGEN_GEN_HD constexpr unsigned SmemB(unsigned stage) { return kSmemB + stage * kSmemBStageStride; }\n"
                "TMAPGEN_GEN_HD constexpr unsigned FullBarrier(unsigned stage) { return kFullBarrier + 8u * stage; }\n"
                "TMAPGEN_GEN_HD constexpr unsigned EmptyBarrier(unsigned stage) { return kEmptyBarrier + 8u * stage; }\n");

  StrAppend(&s, "\n// Maps, in the order of this header's map namespaces (each has Encode(), kMap, ...).\nenum MapId : unsigned {");
  for (size_t i = 0; i < cp.maps.size(); ++i) StrAppend(&s, i ? ", " : " ", "kMap_", cp.maps[i].ident, " = ", i, "u");
  StrAppend(&s, " };\n");
  std::string operands;
  for (const PlannedMap& m : p.maps) operands += m.operand;
  StrAppend(&s, "constexpr unsigned kNumMaps = ", U(cp.maps.size()), ";\n");
  StrAppend(&s, "constexpr char kMapOperand[] = \"", operands,
            "\";  // by MapId: the operand each map copies (A, B, C or D)\n");
  StrAppend(&s, "TMAPGEN_GEN_HD constexpr char MapOperand(unsigned id) { return \"", operands, "\"[id]; }\n");
  StrAppend(&s, "// Triton TensorDescriptor block_shape of each map (outermost first: the map's box reversed; im2col: 0).\n");
  for (size_t i = 0; i < cp.maps.size(); ++i) {
    const TensorMapSpec& m = cp.maps[i].spec;
    std::vector<uint32_t> bs;
    for (uint32_t d = m.rank; d-- > 0;) bs.push_back(m.mode == Mode::kTiled ? m.box_dim[d] : 0);
    StrAppend(&s, "constexpr unsigned kTritonBlockShape_", cp.maps[i].ident, "[", m.rank, "] = ",
              List(bs, [](uint32_t v) { return U(v); }), ";\n");
  }

  StrAppend(&s, "\n// Per CTA of the cluster (index = %cluster_ctarank = x + y * kClusterM) and per stage. One copy:\n"
                "// map, slab, coordinate offsets from the tile origin (contiguous dimension, strided dimension), shared\n"
                "// memory offset from the stage's buffer, bytes, .multicast::cluster ctaMask (0: none), and whether it\n"
                "// signals the CTA pair's even CTA (.cta_group::2).\n");
  StrAppend(&s, "struct Copy {\n  unsigned map, slab, coord0, coord1, smem_offset, bytes, mask;\n  bool to_leader_barrier;\n};\n");
  StrAppend(&s, "constexpr unsigned kMaxCopies = ", U(max_copies), ";\n");
  // Device code cannot index a namespace-scope constexpr array (CUDA keeps it in host memory): each table also
  // gets an accessor that holds its own copy (usable in host, device and constant expressions).
  std::string accessors;
  auto accessor = [&](const std::string& type, const std::string& fn, const std::string& params, const std::string& dims,
                      const std::string& init, const std::string& index) {
    StrAppend(&accessors, "TMAPGEN_GEN_HD constexpr ", type, " ", fn, "(", params, ") {\n  constexpr ", type, " t", dims,
              " = ", init, ";\n  return t", index, ";\n}\n");
  };
  const std::string num_copies = List(p.ctas, [](const CtaPlan& c) { return U(c.copies.size()); });
  StrAppend(&s, "constexpr unsigned kNumCopies[", ctas, "] = ", num_copies, ";\n");
  accessor("unsigned", "NumCopies", "unsigned rank", StrCat("[", ctas, "]"), num_copies, "[rank]");
  std::string copies = "{\n";
  for (const CtaPlan& c : p.ctas) {
    StrAppend(&copies, "    {");
    for (size_t i = 0; i < c.copies.size(); ++i) {
      const PlannedCopy& pc = c.copies[i];
      StrAppend(&copies, i ? ", " : "", "{", U(pc.map), ", ", U(pc.slab), ", ", U(pc.coord0_offset), ", ", U(pc.coord1_offset), ", ",
                U(pc.smem_offset), ", ", U(pc.bytes), ", ", U(pc.mask), ", ", pc.to_leader_barrier ? "true" : "false", "}");
    }
    StrAppend(&copies, "},\n");
  }
  StrAppend(&copies, "}");
  StrAppend(&s, "constexpr Copy kCopies[", ctas, "][", max_copies, "] = ", copies, ";\n");
  accessor("Copy", "CopyOf", "unsigned rank, unsigned i", StrCat("[", ctas, "][", max_copies, "]"), copies, "[rank][i]");
  StrAppend(&s, "// What each CTA's full barrier is armed with per stage (mbarrier.arrive.expect_tx), and the arrival counts\n"
                "// its barriers are initialised with; its consumers arrive on the empty barrier of every CTA in kReleaseMask.\n");
  accessor("unsigned", "ExpectTx", "unsigned rank", StrCat("[", ctas, "]"), List(p.ctas, [](const CtaPlan& c) { return U(c.expect_tx); }), "[rank]");
  StrAppend(&s, "constexpr unsigned kExpectTx[", ctas, "] = ", List(p.ctas, [](const CtaPlan& c) { return U(c.expect_tx); }),
            ";\n");
  accessor("unsigned", "FullArrivals", "unsigned rank", StrCat("[", ctas, "]"), List(p.ctas, [](const CtaPlan& c) { return U(c.full_arrivals); }), "[rank]");
  StrAppend(&s, "constexpr unsigned kFullArrivals[", ctas, "] = ",
            List(p.ctas, [](const CtaPlan& c) { return U(c.full_arrivals); }), ";\n");
  accessor("unsigned", "EmptyArrivals", "unsigned rank", StrCat("[", ctas, "]"), List(p.ctas, [](const CtaPlan& c) { return U(c.empty_arrivals); }), "[rank]");
  StrAppend(&s, "constexpr unsigned kEmptyArrivals[", ctas, "] = ",
            List(p.ctas, [](const CtaPlan& c) { return U(c.empty_arrivals); }), ";  // per consumer ",
            p.arch == desc::DescArch::kWgmma ? "warpgroup (one elected thread each)" : "MMA thread", "\n");
  accessor("unsigned", "ReleaseMask", "unsigned rank", StrCat("[", ctas, "]"), List(p.ctas, [](const CtaPlan& c) { return U(c.release_mask); }), "[rank]");
  StrAppend(&s, "constexpr unsigned kReleaseMask[", ctas, "] = ",
            List(p.ctas, [](const CtaPlan& c) { return U(c.release_mask); }), ";\n");
  StrAppend(&s, "constexpr unsigned kStageBytes = ", U(p.stage_bytes), ";  // A + B of one stage, as every CTA receives it\n");
  if (!p.epilogue_copies.empty()) {
    StrAppend(&s, "constexpr unsigned kNumEpilogueCopies = ", U(p.epilogue_copies.size()), ";\n");
    const std::string epi = List(p.epilogue_copies, [](const PlannedCopy& pc) {
      return StrCat("{", U(pc.map), ", ", U(pc.slab), ", ", U(pc.coord0_offset), ", ", U(pc.coord1_offset), ", ",
                    U(pc.smem_offset), ", ", U(pc.bytes), ", 0u, false}");
    });
    accessor("Copy", "EpilogueCopy", "unsigned i", StrCat("[", p.epilogue_copies.size(), "]"), epi, "[i]");
    StrAppend(&s, "constexpr Copy kEpilogueCopies[", p.epilogue_copies.size(), "] = ", epi,
              ";  // from kSmemD, a bulk group\n");
  }

  StrAppend(&s, "\n// Matrix descriptors (", desc::Name(p.arch), ").\nconstexpr unsigned kKSteps = ", U(p.mma.k_steps), ";\n");
  DescBlock(p, p.a, p.a_stage_stride, &s);
  DescBlock(p, p.b, p.b_stage_stride, &s);
  StrAppend(&s, "\n// The MMA: ", p.mma.instruction, "\n");
  StrAppend(&s, "constexpr char kMmaInstruction[] = \"", p.mma.instruction, "\";\n");
  StrAppend(&s, "constexpr unsigned kMmaM = ", U(p.mma.m), ", kMmaN = ", U(p.mma.n), ", kMmaK = ", U(p.mma.k), ";\n");
  if (p.arch == desc::DescArch::kWgmma)
    StrAppend(&s, "constexpr unsigned kConsumerWarpgroups = ", U(p.mma.warpgroups), ", kRowsPerWarpgroup = ",
              U(p.mma.rows_per_warpgroup), ", kMmaPerKStep = ", U(p.mma.per_k_step), ";\nconstexpr bool kTransA = ",
              p.mma.trans_a ? "true" : "false", ", kTransB = ", p.mma.trans_b ? "true" : "false", ";\n");
  else
    StrAppend(&s, "constexpr unsigned kIdesc = 0x", absl::Hex(p.mma.idesc), "u;  // tcgen05 instruction descriptor (modelled, not run)\n");

  StrAppend(&s, "\n// The per-CTA and epilogue tables for device code (the same values as the arrays above).\n", accessors);
  StrAppend(&s, "\n// What the plan checked, kept true by the build.\n");
  StrAppend(&s, "static_assert(kSmemAStageBytes + kSmemBStageBytes == kStageBytes, \"the stage is A + B\");\n");
  StrAppend(&s, "static_assert(kSmemBytes <= ", U(p.smem_limit), ", \"the layout fits the target's shared memory\");\n");
  StrAppend(&s, "static_assert(kSmemAStageStride % ", U(p.a.repeat), " == 0u && kSmemBStageStride % ", U(p.b.repeat),
            " == 0u, \"every stage stays on its swizzle repeat (descriptor base offset 0)\");\n");
  if (r.cta_group == 1)
    StrAppend(&s, "static_assert(kExpectTx[0] == kStageBytes, \"every CTA's barrier expects the whole stage\");\n");
  else
    StrAppend(&s, "static_assert(kExpectTx[0] == 2u * kStageBytes, \"the pair's even CTA expects both CTAs' bytes\");\n");
  StrAppend(&s, "\n#if !defined(TMAPGEN_GEN_NO_HOST) && !defined(__CUDACC_RTC__)\n"
                "// Host: encodes map `id` (a MapId) for the tensor at `global_address` with its namespace's Encode(), or\n"
                "// PatchedMap() (the offline bytes pointed at the tensor), so a kernel can build its maps in a loop.\n");
  for (const char* fn : {"EncodeMap", "PatchedMapById"}) {
    StrAppend(&s, "inline CUresult ", fn, "(unsigned id, CUtensorMap* map, void* global_address) {\n  switch (id) {\n");
    for (size_t i = 0; i < cp.maps.size(); ++i) {
      if (std::string(fn) == "PatchedMapById" && !codegen::EmitsOfflineMap(cp.maps[i].spec)) {
        // The map's namespace has no kMap/PatchedMap() for this target (emit_cpp.h): EncodeMap() only.
        StrAppend(&s, "    // kMap_", cp.maps[i].ident, ": no offline bytes for this target; use EncodeMap()\n");
        continue;
      }
      StrAppend(&s, "    case kMap_", cp.maps[i].ident, ": return ", cp.maps[i].ident, "::",
                std::string(fn) == "EncodeMap" ? "Encode" : "PatchedMap", "(map, global_address);\n");
    }
    StrAppend(&s, "  }\n  return CUDA_ERROR_INVALID_VALUE;\n}\n");
  }
  StrAppend(&s, "#endif  // host part\n");
  StrAppend(&s, "}  // namespace plan\n}  // namespace ", cp.name_space, "\n\n");
  return h + s + tail;
}

namespace {

uint64_t SmemAt(const WideForm& f, const std::string& name) {
  for (const SmemBuffer& b : f.smem)
    if (b.name == name) return b.offset;
  return 0;
}

// The constants of one sm_100 im2col::w form (conv_plan.h), in namespace conv::<ident>.
std::string WideBlock(const ConvPlan& p, const WideForm& f, const std::string& ident) {
  const uint32_t nb = static_cast<uint32_t>(f.buffers.size());
  const uint32_t nt = static_cast<uint32_t>(f.taps.size());
  const uint32_t ks = nt == 0 ? 0 : static_cast<uint32_t>(f.taps[0].steps.size());
  std::string s = StrCat("// .", f.name, " (modelled, not run): a tile is kBM pixels of one output row from q0; a stage is one\n"
                         "// filter row (t, r) and one channel block, all S taps. A copies: per buffer b and slab, map ",
                         f.map.name, " at\n// ", f.coords, ",\n// into SmemA(stage) + kBufferOffset[b] + slab * kSlabPitch[b]. ",
                         "B copies: per tap s and slab, the filter map at\n// {c0 + slab x ", f.slab_elems,
                         ", s, r, (t,) k0} into SmemB(stage) + (s * kSlabs + slab) * kBTapSlabBytes.\n");
  StrAppend(&s, "namespace ", ident, " {\n");
  StrAppend(&s, "constexpr unsigned kPixels = ", U(f.pixels), ", kSlabs = ", U(f.slabs), ", kChannelsPerPixel = ",
            U(f.slab_elems), ";\n");
  StrAppend(&s, "constexpr unsigned kNumBuffers = ", U(nb), ";\n");
  StrAppend(&s, "constexpr unsigned short kWOffset[", nb, "] = ", List(f.buffers, [](const WideBuffer& b) { return StrCat(b.w_offset); }),
            ";\n");
  StrAppend(&s, "constexpr unsigned short kWHalo[", nb, "] = ", List(f.buffers, [](const WideBuffer& b) { return StrCat(b.w_halo); }),
            ";\n");
  StrAppend(&s, "constexpr unsigned kBufferRows[", nb, "] = ", List(f.buffers, [](const WideBuffer& b) { return U(b.rows); }),
            ";  // pixels one copy writes\n");
  StrAppend(&s, "constexpr unsigned kBufferOffset[", nb, "] = ",
            List(f.buffers, [](const WideBuffer& b) { return U(b.smem_offset); }), ";  // from SmemA(stage)\n");
  const uint32_t row = f.slab_elems == 0 ? 0 : static_cast<uint32_t>(p.gemm.a.slab_bytes / std::max<uint32_t>(1, p.gemm.a.strided));
  StrAppend(&s, "constexpr unsigned kSlabPitch[", nb, "] = ",
            List(f.buffers, [&](const WideBuffer& b) { return U(uint64_t{b.rows_padded} * row); }), ";\n");
  StrAppend(&s, "constexpr unsigned kCopyBytes[", nb, "] = ", List(f.buffers, [](const WideBuffer& b) { return U(b.copy_bytes); }),
            ";  // complete_tx of one copy\n");
  StrAppend(&s, "constexpr unsigned kNumTaps = ", U(nt), ";  // S: the filter columns of one stage\n");
  StrAppend(&s, "constexpr unsigned kTapBuffer[", nt, "] = ", List(f.taps, [](const WideTap& t) { return U(t.buffer); }), ";\n");
  StrAppend(&s, "constexpr unsigned kTapRow[", nt, "] = ", List(f.taps, [](const WideTap& t) { return U(t.row); }), ";\n");
  StrAppend(&s, "constexpr unsigned kTapStart[", nt, "] = ", List(f.taps, [](const WideTap& t) { return U(t.start_offset); }),
            ";  // from SmemA(stage), slab 0\n");
  StrAppend(&s, "constexpr unsigned kBTapSlabBytes = ", U(p.gemm.b.slab_bytes), ";\n");
  // The same tables as functions for device code (each holds its own copy: device code cannot index a
  // namespace-scope constexpr array at run time).
  auto accessor = [&](const char* type, const char* name, const char* arg, const std::string& table, size_t n) {
    StrAppend(&s, "TMAPGEN_GEN_HD constexpr ", type, " ", name, "(unsigned ", arg, ") {\n  constexpr ", type, " t[", n, "] = ", table,
              ";\n  return t[", arg, "];\n}\n");
  };
  accessor("unsigned short", "WOffset", "b", List(f.buffers, [](const WideBuffer& b) { return StrCat(b.w_offset); }), nb);
  accessor("unsigned short", "WHalo", "b", List(f.buffers, [](const WideBuffer& b) { return StrCat(b.w_halo); }), nb);
  accessor("unsigned", "BufferOffset", "b", List(f.buffers, [](const WideBuffer& b) { return U(b.smem_offset); }), nb);
  accessor("unsigned", "SlabPitch", "b", List(f.buffers, [&](const WideBuffer& b) { return U(uint64_t{b.rows_padded} * row); }), nb);
  accessor("unsigned", "CopyBytes", "b", List(f.buffers, [](const WideBuffer& b) { return U(b.copy_bytes); }), nb);
  accessor("unsigned", "TapBuffer", "s", List(f.taps, [](const WideTap& t) { return U(t.buffer); }), nt);
  accessor("unsigned", "TapRow", "s", List(f.taps, [](const WideTap& t) { return U(t.row); }), nt);
  accessor("unsigned", "TapStart", "s", List(f.taps, [](const WideTap& t) { return U(t.start_offset); }), nt);
  if (ks != 0) {
    StrAppend(&s, "// The MMA: ", f.mma, ".\nconstexpr unsigned kIdesc = 0x", absl::Hex(f.idesc), "u;\n");
    StrAppend(&s, "constexpr unsigned kRunsPerTap = ", U(f.runs_per_tap), ", kKSteps = ", U(p.gemm.mma.k_steps),
              ", kDescsPerTap = ", U(ks), ";\n");
    if (f.runs_per_tap > 1) {
      StrAppend(&s, "constexpr unsigned kRunRow[", nt, "][", f.runs_per_tap, "] = {");
      for (size_t i = 0; i < nt; ++i)
        StrAppend(&s, i ? ", " : "", List(f.taps[i].runs, [](uint32_t v) { return U(v); }));
      StrAppend(&s, "};  // the first row of each run of 32 pixels\n");
    }
    StrAppend(&s, "// The A descriptor of tap s, entry run * kKSteps + K step (stage 0 at smem base 0, start field clear);\n"
                  "// DescA() adds the start (with its own copy of the tables, for device code).\n");
    std::string desc = "{", start = "{";
    for (size_t i = 0; i < nt; ++i) {
      StrAppend(&desc, i ? ", " : "", List(f.taps[i].steps, [](const KStepDesc& k) { return Ull(k.desc.bits() & ~uint64_t{0x3FFF}); }));
      StrAppend(&start, i ? ", " : "", List(f.taps[i].steps, [](const KStepDesc& k) { return U(k.start_offset); }));
    }
    desc += "}";
    start += "}";
    StrAppend(&s, "constexpr unsigned long long kDescA[", nt, "][", ks, "] = ", desc, ";\n");
    StrAppend(&s, "constexpr unsigned kDescAStart[", nt, "][", ks, "] = ", start, ";  // bytes from the smem base\n");
    StrAppend(&s, "TMAPGEN_GEN_HD constexpr unsigned long long DescA(unsigned smem_base, unsigned stage, unsigned tap, unsigned i) {\n"
                  "  constexpr unsigned long long desc[", nt, "][", ks, "] = ", desc, ";\n  constexpr unsigned start[", nt, "][", ks, "] = ",
              start, ";\n  return desc[tap][i] | (((static_cast<unsigned long long>(smem_base) + start[tap][i] + 1ull * stage * ",
              U(f.a_stage_bytes), ") >> 4) & 0x3FFFull);\n}\n");
    StrAppend(&s, "static_assert(DescA(0u, 0u, ", nt - 1, "u, ", ks - 1, "u) == (kDescA[", nt - 1, "][", ks - 1, "] | (kDescAStart[",
              nt - 1, "][", ks - 1, "] >> 4)), \"DescA and its tables agree\");\n");
  }
  StrAppend(&s, "constexpr unsigned kKIterations = ", U(f.k_iterations), ", kCopiesA = ", U(f.copies_a), ", kCopiesB = ", U(f.copies_b),
            ", kMmas = ", U(f.mmas), ";  // per tile, per stage, per stage, per stage\n");
  StrAppend(&s, "constexpr unsigned kStageBytesA = ", U(f.a_stage_bytes), ", kStageBytesB = ", U(f.b_stage_bytes), ";\n");
  StrAppend(&s, "constexpr unsigned kExpectTx = ", U(f.expect_tx), ";  // A + B copies of one stage\n");
  StrAppend(&s, "constexpr unsigned kStages = ", U(f.stages), ", kSmemBytes = ", U(f.smem_total), ";  // at most ", f.max_stages,
            " stages fit\n");
  StrAppend(&s, "constexpr unsigned kSmemA = ", U(SmemAt(f, "A[0]")), ", kSmemB = ", U(SmemAt(f, "B[0]")), ", kSmemD = ",
            U(SmemAt(f, "D")), ", kFullBarrier = ", U(SmemAt(f, "full_barrier[0]")), ", kEmptyBarrier = ",
            U(SmemAt(f, "empty_barrier[0]")), ", kTmemFullBarrier = ", U(SmemAt(f, "tmem_full_barrier")),
            ", kTmemAddress = ", U(SmemAt(f, "tmem_address")), ";\n");
  StrAppend(&s, "TMAPGEN_GEN_HD constexpr unsigned SmemA(unsigned stage) { return kSmemA + stage * kStageBytesA; }\n"
                "TMAPGEN_GEN_HD constexpr unsigned SmemB(unsigned stage) { return kSmemB + stage * kStageBytesB; }\n");
  StrAppend(&s, "constexpr unsigned long long kQTilesPerRow = ", f.q_tiles, "ull, kMTiles = ", f.m_tiles, "ull;\n");
  std::string sum = "0u";
  for (uint32_t b = 0; b < nb; ++b) sum += StrCat(" + kSlabs * kCopyBytes[", b, "]");
  StrAppend(&s, "static_assert(", sum, " + kStageBytesB == kExpectTx, \"the stage's barrier expects every copy\");\n");
  StrAppend(&s, "static_assert(kSmemBytes <= ", U(p.gemm.smem_limit), ", \"the layout fits the target's shared memory\");\n");
  StrAppend(&s, "}  // namespace ", ident, "\n");
  return s;
}

}  // namespace

absl::StatusOr<std::string> GenerateConvHeader(const ConvPlan& p, const std::string& name_space) {
  // The maps of the sm_100 forms that apply join the header's maps (after the GEMM's: its map ids stay).
  GemmPlan g = p.gemm;
  bool d_rows = false;
  for (const WideForm& f : p.wide) {
    if (!f.applies) continue;
    g.maps.push_back(f.map);
    if (!d_rows && !f.d_map.name.empty()) {
      g.maps.push_back(f.d_map);
      d_rows = true;
    }
  }
  absl::StatusOr<std::string> gemm = GeneratePlanHeader(g, name_space);
  if (!gemm.ok()) return gemm.status();
  std::string h = *std::move(gemm);
  const ConvRequest& r = p.request;
  const size_t guard_end = h.rfind("#endif");
  const std::string tail = h.substr(guard_end);
  h.resize(guard_end);
  const std::string ns = name_space.empty() ? "tmapgen_plan" : codegen::SanitizeIdentifier(name_space, "tmapgen_plan");
  std::string s = StrCat("// ---- the convolution: output size, the taps' im2col offsets (W, H, D) in the K loop's order.\n",
                         "namespace ", ns, " {\nnamespace conv {\n");
  StrAppend(&s, "constexpr unsigned kSpatial = ", U(static_cast<uint64_t>(r.spatial)), ";\n");
  StrAppend(&s, "constexpr unsigned long long kOutQ = ", p.out[0], "ull, kOutP = ", p.out[1], "ull, kOutO = ", p.out[2], "ull;\n");
  StrAppend(&s, "constexpr unsigned kStrideW = ", U(r.stride[0]), ", kStrideH = ", U(r.stride[1]), ", kStrideD = ", U(r.stride[2]),
            ";\nconstexpr unsigned kPadW = ", U(r.pad[0]), ", kPadH = ", U(r.pad[1]), ", kPadD = ", U(r.pad[2]), ";\n");
  StrAppend(&s, "constexpr unsigned kDilationW = ", U(r.dilation[0]), ", kDilationH = ", U(r.dilation[1]), ", kDilationD = ",
            U(r.dilation[2]), ";\n");
  StrAppend(&s, "// The problem: batch, channels, filters (output channels), input W, H, D and filter S, R, T (unused: 1).\n");
  StrAppend(&s, "constexpr unsigned long long kBatch = ", r.n, "ull, kChannels = ", r.c, "ull, kFilters = ", r.k, "ull;\n");
  StrAppend(&s, "constexpr unsigned long long kInW = ", r.in[0], "ull, kInH = ", r.in[1], "ull, kInD = ", r.in[2], "ull;\n");
  StrAppend(&s, "constexpr unsigned kFilterS = ", U(r.filter[0]), ", kFilterR = ", U(r.filter[1]), ", kFilterT = ",
            U(r.filter[2]), ";\n");
  StrAppend(&s, "constexpr unsigned kChannelBlocks = ", U(p.channel_blocks), ", kNumTaps = ", U(p.taps.size()), ";\n");
  StrAppend(&s, "// K tile j: tap j / kChannelBlocks, channels from (j % kChannelBlocks) * kBK.\n");
  std::string offsets = "{", filter = "{";
  for (size_t i = 0; i < p.taps.size(); ++i) {
    StrAppend(&offsets, i ? ", " : "", "{", p.taps[i].offsets[0], ", ", p.taps[i].offsets[1], ", ", p.taps[i].offsets[2], "}");
    StrAppend(&filter, i ? ", " : "", "{", p.taps[i].trs[0], ", ", p.taps[i].trs[1], ", ", p.taps[i].trs[2], "}");
  }
  offsets += "}";
  filter += "}";
  StrAppend(&s, "constexpr unsigned short kTapOffsets[", p.taps.size(), "][3] = ", offsets, ";\n");
  StrAppend(&s, "// The filter position {s, r, t} of each tap: the filter map's coordinates {c0, s, r, (t,) k0}.\n");
  StrAppend(&s, "constexpr unsigned short kTapFilter[", p.taps.size(), "][3] = ", filter, ";\n");
  StrAppend(&s, "// For device code (the same values): offset or filter position d (0 W/s, 1 H/r, 2 D/t) of a tap.\n");
  StrAppend(&s, "TMAPGEN_GEN_HD constexpr unsigned short TapOffset(unsigned tap, unsigned d) {\n  constexpr unsigned short t[",
            p.taps.size(), "][3] = ", offsets, ";\n  return t[tap][d];\n}\n");
  StrAppend(&s, "TMAPGEN_GEN_HD constexpr unsigned short TapFilter(unsigned tap, unsigned d) {\n  constexpr unsigned short t[",
            p.taps.size(), "][3] = ", filter, ";\n  return t[tap][d];\n}\n");
  StrAppend(&s, "// ", p.origin, "\n");
  for (const WideForm& f : p.wide) {
    if (f.applies)
      s += WideBlock(p, f, f.mode == Mode::kIm2colW128 ? "im2col_w128" : "im2col_w");
    else
      StrAppend(&s, "// .", f.name, " does not apply (tmapgen plan conv ... says why): no constants.\n");
  }
  StrAppend(&s, "}  // namespace conv\n}  // namespace ", ns, "\n\n");
  return h + s + tail;
}

}  // namespace tmapgen::plan
