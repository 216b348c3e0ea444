#include "src/gpu/check/mcast_plan.h"

#include <algorithm>

#include "kernels/mcast_params.h"
#include "src/util/strings.h"

namespace tmapgen::gpu {
namespace {

uint64_t BufferOffset(const plan::GemmPlan& p, const std::string& name) {
  for (const plan::SmemBuffer& b : p.smem)
    if (b.name == name) return b.offset;
  return 0;
}

std::string Range(uint64_t a, uint64_t b) { return a == b ? StrCat(a) : StrCat(a, "-", b); }

}  // namespace

std::string PlanMcastTitle(const plan::GemmPlan& p) {
  const plan::GemmRequest& r = p.request;
  std::string mc;
  if (r.multicast_a) mc += StrCat(", A multicast (", plan::Name(r.mcast_issue), ")");
  if (r.multicast_b) mc += StrCat(", B multicast (", plan::Name(r.mcast_issue), ")");
  return StrCat("plan gemm ", r.m, "x", r.n, "x", r.k, " ", desc::Name(r.a_type), "/", desc::Name(r.b_type), " (A ",
                desc::Name(r.a_major), "-major, B ", desc::Name(r.b_major), "-major), tile ", r.bm, "x", r.bn, "x", r.bk,
                ", cluster ", r.cluster_m, "x", r.cluster_n, mc, ", ", p.stages, " stage(s)");
}

absl::StatusOr<std::vector<McastJob>> PlanMcastJobs(const plan::GemmPlan& p, uint32_t k_tiles) {
  const plan::GemmRequest& r = p.request;
  if (!p.valid) return absl::InvalidArgumentError("plan: the plan has errors (run tmapgen plan gemm with the same flags)");
  if (r.target != Target::kSm90a)
    return absl::InvalidArgumentError(StrCat("target: ", Name(r.target),
                                             " plans are not run here (the multicast check runs sm_90a plans)"));
  if (r.cta_group != 1) return absl::InvalidArgumentError("cta_group: 2-CTA plans are not run (sm_100a)");
  const uint32_t cm = r.cluster_m, cn = r.cluster_n, C = cm * cn;
  if (C > kMcastMaxCluster) return absl::InvalidArgumentError(StrCat("cluster: ", C, " CTAs; the check runs at most 8"));
  if (p.ctas.size() != C) return absl::InvalidArgumentError("cluster: the plan has no copies per CTA");
  if (k_tiles == 0 || k_tiles > kMcastMaxRounds)
    return absl::InvalidArgumentError(StrCat("k-tiles: 1 to ", static_cast<int>(kMcastMaxRounds), ", not ", k_tiles));

  // The A and B maps (whole tiles and slices); C and D are the epilogue's.
  McastJob base;
  base.cluster = C;
  base.tensor_bytes = {0, 0};
  std::vector<int> index(p.maps.size(), -1);
  for (size_t i = 0; i < p.maps.size(); ++i) {
    const std::string& op = p.maps[i].operand;
    if (op != "A" && op != "B") continue;
    index[i] = static_cast<int>(base.maps.size());
    base.maps.push_back(p.maps[i].spec);
    base.map_tensor.push_back(op == "A" ? 0 : 1);
  }
  const uint64_t a_buf = BufferOffset(p, "A[0]"), b_buf = BufferOffset(p, "B[0]");
  const uint64_t tiles_m = p.edges.tiles_m, tiles_n = p.edges.tiles_n, ktiles = p.edges.k_tiles;
  const uint64_t grid_cm = (tiles_m + cm - 1) / cm, grid_cn = (tiles_n + cn - 1) / cn;
  const uint32_t R = static_cast<uint32_t>(std::min<uint64_t>(k_tiles, ktiles));

  auto origin = [&](bool is_a, uint64_t mn0, uint64_t k0, int32_t* c) {
    const desc::Major major = is_a ? r.a_major : r.b_major;
    c[0] = static_cast<int32_t>(major == desc::Major::kK ? k0 : mn0);
    c[1] = static_cast<int32_t>(major == desc::Major::kK ? mn0 : k0);
  };
  auto make_job = [&](uint64_t mt0, uint64_t nt0, uint64_t kfirst, const std::string& what) -> absl::StatusOr<McastJob> {
    McastJob job = base;
    const uint64_t mt1 = mt0 + cm - 1, nt1 = nt0 + cn - 1;
    job.label = StrCat(what, " (m tiles ", Range(mt0, mt1), ", n tiles ", Range(nt0, nt1), "), K tiles ",
                       Range(kfirst, kfirst + R - 1), " of ", ktiles);
    for (uint64_t kt = kfirst; kt < kfirst + R; ++kt) {
      const uint32_t s = static_cast<uint32_t>(kt % p.stages);
      const uint64_t k0 = kt * r.bk;
      McastRound round;
      round.label = StrCat("K tile ", kt, " (stage ", s, ")");
      round.loads.assign(C, {});
      round.reference.assign(C, {});
      round.expect_tx.assign(C, 0);
      for (uint32_t rank = 0; rank < C; ++rank) {
        const plan::CtaPlan& cta = p.ctas[rank];
        const uint64_t m0 = (mt0 + cta.x) * r.bm, n0 = (nt0 + cta.y) * r.bn;
        round.expect_tx[rank] = cta.expect_tx;
        for (const plan::PlannedCopy& pc : cta.copies) {
          if (pc.map >= index.size() || index[pc.map] < 0)
            return absl::InvalidArgumentError(StrCat("plan: CTA ", rank, " copies with map ", pc.map, ", not A or B"));
          const bool is_a = p.maps[pc.map].operand == "A";
          McastLoad l;
          l.map = static_cast<uint32_t>(index[pc.map]);
          l.in.mode = model::CopyMode::kTile;
          l.in.direction = p.maps[pc.map].spec.direction;
          int32_t c[2];
          origin(is_a, is_a ? m0 : n0, k0, c);
          l.in.coords[0] = c[0] + static_cast<int32_t>(pc.coord0_offset);
          l.in.coords[1] = c[1] + static_cast<int32_t>(pc.coord1_offset);
          l.in.smem_address = (is_a ? a_buf + s * p.a_stage_stride : b_buf + s * p.b_stage_stride) + pc.smem_offset;
          l.mask = pc.mask;
          round.loads[rank].push_back(l);
        }
        // The model's tiles: every slab of A and B with the whole-tile maps, no multicast.
        for (int op = 0; op < 2; ++op) {
          const plan::OperandPlan& o = op == 0 ? p.a : p.b;
          for (uint32_t j = 0; j < o.slabs; ++j) {
            McastLoad l;
            l.map = static_cast<uint32_t>(index[o.map]);
            l.in.mode = model::CopyMode::kTile;
            l.in.direction = p.maps[o.map].spec.direction;
            int32_t c[2];
            origin(op == 0, op == 0 ? m0 : n0, k0, c);
            l.in.coords[0] = c[0] + static_cast<int32_t>(uint64_t{j} * o.slab_elems);
            l.in.coords[1] = c[1];
            l.in.smem_address = (op == 0 ? a_buf + s * p.a_stage_stride : b_buf + s * p.b_stage_stride) +
                                uint64_t{j} * o.slab_bytes;
            round.reference[rank].push_back(l);
          }
        }
      }
      job.rounds.push_back(std::move(round));
    }
    if (absl::Status st = FinishMcastJob(&job); !st.ok()) return st;
    return job;
  };
  std::vector<McastJob> jobs;
  absl::StatusOr<McastJob> first = make_job(0, 0, 0, "first cluster");
  if (!first.ok()) return first.status();
  jobs.push_back(*std::move(first));
  if (grid_cm * grid_cn > 1 || ktiles > R) {
    absl::StatusOr<McastJob> last = make_job((grid_cm - 1) * cm, (grid_cn - 1) * cn, ktiles - R, "last cluster");
    if (!last.ok()) return last.status();
    jobs.push_back(*std::move(last));
  }
  jobs.push_back(NegativeControl(jobs.front(), C - 1));
  return jobs;
}

}  // namespace tmapgen::gpu
