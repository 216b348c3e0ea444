// The validator's fast path (src/tmap/fast_path.h) against the rule table: on every spec of large corpora,
// Validate (fast path first) and ValidateByTable (the table alone) give identical Validations -- verdict,
// targets, counts, every finding and every derived fact. Corpora: the driver's own 200,000 encodings (the
// shared corpus, where present; its committed samples always), each with several directions, modes and targets;
// random specs biased to the rules' boundaries (src/specgen/random_spec), tamed and perturbed one field at a time
// around specs the fast path accepts; the spec fixtures of the repository. And the guard: the fast path's list
// of covered rules is the table.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "src/specgen/random_spec.h"
#include "src/schema/corpus_json.h"
#include "src/schema/spec_json.h"
#include "src/tmap/fast_path.h"
#include "src/tmap/rule.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"
#include "tests/blob/corpus_files.h"

namespace tmapgen {
namespace {

#define TMAPGEN_SAME(field)                                                   \
  if (!(a.field == b.field)) {                                                \
    *why = std::string(#field) + " differs";                                  \
    return false;                                                             \
  }

bool SameFacts(const DerivedFacts& a, const DerivedFacts& b, std::string* why) {
  TMAPGEN_SAME(encoder) TMAPGEN_SAME(element_bits) TMAPGEN_SAME(smem_element_bits) TMAPGEN_SAME(inner_box_bytes)
  TMAPGEN_SAME(elements_per_copy) TMAPGEN_SAME(bytes_per_copy) TMAPGEN_SAME(transaction_bytes) TMAPGEN_SAME(halo_adds_bytes)
  TMAPGEN_SAME(bytes_per_halo_pixel) TMAPGEN_SAME(smem_footprint_bytes) TMAPGEN_SAME(smem_row_pitch)
  TMAPGEN_SAME(coord0_multiple) TMAPGEN_SAME(smem_alignment_required) TMAPGEN_SAME(smem_alignment_recommended)
  TMAPGEN_SAME(swizzle_span) TMAPGEN_SAME(swizzle_repeat) TMAPGEN_SAME(swizzle_atomicity)
  TMAPGEN_SAME(swizzle_base_offset) TMAPGEN_SAME(global_extent_bytes) TMAPGEN_SAME(valid_targets)
  return true;
}

bool SameValidation(const Validation& a, const Validation& b, std::string* why) {
  TMAPGEN_SAME(valid) TMAPGEN_SAME(valid_targets) TMAPGEN_SAME(reported_target) TMAPGEN_SAME(failed_targets)
  TMAPGEN_SAME(errors) TMAPGEN_SAME(warnings) TMAPGEN_SAME(notes) TMAPGEN_SAME(findings.size())
  TMAPGEN_SAME(findings.dropped())
  for (int i = 0; i < a.findings.size(); ++i) {
    const Finding &x = a.findings[i], &y = b.findings[i];
    if (x.rule != y.rule || x.index != y.index || x.target != y.target || x.value != y.value || x.limit != y.limit ||
        x.value_unsigned != y.value_unsigned) {
      *why = "finding " + std::to_string(i) + " differs (" + std::string(Rules()[x.rule].id) + " / " +
             std::string(Rules()[y.rule].id) + ")";
      return false;
    }
  }
  return SameFacts(a.facts, b.facts, why);
}
#undef TMAPGEN_SAME

// Runs both paths on one spec (each into a Validation reused from spec to spec, as the command line does) and
// counts what happened.
struct Checker {
  Validation fast, table, alone;
  long specs = 0, fast_hits = 0, table_valid_clean = 0, failures = 0;
  long no_target_hits = 0;  // fast path taken for a spec without a target
  std::string first_failure;

  void Check(const TensorMapSpec& s, const std::string& where) {
    ++specs;
    Validate(s, &fast);
    ValidateByTable(s, &table);
    const bool hit = ValidateFastPath(s, &alone);
    fast_hits += hit;
    no_target_hits += hit && !s.has_target();
    if (table.valid && table.findings.size() == 0 && s.has_target()) ++table_valid_clean;
    std::string why;
    bool ok = SameValidation(fast, table, &why);
    if (ok && hit && !SameValidation(alone, table, &why)) ok = false;
    if (ok && hit && (!table.valid || table.findings.size() != 0)) {
      ok = false;
      why = "the fast path accepted a spec on which the table finds something";
    }
    if (!ok && failures++ == 0) first_failure = where + ": " + why;
  }
};

// The variants of one spec: its own, and other directions, targets and (tiled) gather4/scatter4.
void CheckVariants(Checker* c, TensorMapSpec s, const std::string& where) {
  c->Check(s, where);
  static const Target kTargets[] = {Target::kSm90a, Target::kSm100a, Target::kSm100, Target::kSm120a, Target::kSm103f};
  static const Direction kDirs[] = {Direction::kLoadCta, Direction::kLoadCluster, Direction::kStore,
                                    Direction::kPrefetch, Direction::kReduce};
  int k = 0;
  for (Target t : kTargets) {
    TensorMapSpec v = s;
    v.target = t;
    v.set_fields |= kFieldTarget;
    v.direction = kDirs[k++ % 5];
    c->Check(v, where + " target " + std::string(Name(t)) + " direction " + std::string(Name(v.direction)));
  }
  // Without a target the per-target rules run for all 16 targets: each direction (some fail on some targets
  // only: a cluster load with an atomicity swizzle on cc 12.x, the Blackwell-only modes).
  TensorMapSpec none = s;
  none.set_fields &= ~kFieldTarget;
  c->Check(none, where + " no target");
  for (Direction d : kDirs) {
    if (d == s.direction) continue;
    TensorMapSpec v = none;
    v.direction = d;
    c->Check(v, where + " no target, direction " + std::string(Name(d)));
  }
  if (s.mode == Mode::kTiled) {
    for (Mode m : {Mode::kGather4, Mode::kScatter4}) {
      TensorMapSpec v = s;
      v.mode = m;
      v.direction = m == Mode::kScatter4 ? Direction::kStore : Direction::kLoadCta;
      v.target = Target::kSm100a;
      v.set_fields |= kFieldTarget;
      c->Check(v, where + " as " + std::string(Name(m)));
      v.set_fields &= ~kFieldTarget;
      c->Check(v, where + " as " + std::string(Name(m)) + ", no target");
    }
  }
}

void ExpectNoFailure(const Checker& c, const char* corpus) {
  EXPECT_EQ(c.failures, 0) << corpus << ": " << c.failures << " of " << c.specs
                           << " specs differ; first: " << c.first_failure;
  std::printf("[ %s: %ld specs, fast path taken for %ld, %ld of them without a target (the table found %ld valid "
              "with a target and no finding) ]\n",
              corpus, c.specs, c.fast_hits, c.no_target_hits, c.table_valid_clean);
}

TEST(FastPath, CoversExactlyTheTable) {
  ASSERT_EQ(fast_path::kNumFastPathCovers, NumRules());
  for (int i = 0; i < NumRules(); ++i) {
    const Rule& r = Rules()[i];
    const fast_path::Covered& c = fast_path::kFastPathCovers[i];
    EXPECT_EQ(c.id, r.id) << i;
    EXPECT_EQ(c.severity, r.severity) << r.id;
    EXPECT_EQ(c.modes, r.modes) << r.id;
    EXPECT_EQ(c.per_target, r.per_target) << r.id;
    EXPECT_FALSE(c.how.empty()) << r.id;
  }
}

// The benchmarks' valid specs (DefaultSpec with the mode's target) take the fast path; so must the GEMM tiles.
TEST(FastPath, TakesTheDefaultsOfEveryMode) {
  for (int m = 0; m < kNumModes; ++m) {
    TensorMapSpec s = DefaultSpec(static_cast<Mode>(m));
    s.target = m <= 1 ? Target::kSm90a : Target::kSm100a;
    s.set_fields |= kFieldTarget;
    Validation v;
    EXPECT_TRUE(ValidateFastPath(s, &v)) << Name(s.mode);
    Checker c;
    CheckVariants(&c, s, std::string(Name(s.mode)));
    ExpectNoFailure(c, "defaults");
  }
}

TEST(FastPath, SameAsTableOnTheDriversEncodings) {
  const std::string shared = testing::SharedCorpusDir();
  const std::vector<std::string> files = testing::DriverCorpusFiles();
  Checker c;
  long lines = 0;
  for (const std::string& f : files) {
    ASSERT_TRUE(testing::ForEachLine(f, [&](const std::string& line, size_t no) {
      const absl::StatusOr<CorpusEntry> entry = ParseCorpusLine(line);
      if (!entry.ok() || entry->is_header || !entry->representable) return;
      const CorpusEntry& e = *entry;
      ++lines;
      CheckVariants(&c, e.spec, f + ":" + std::to_string(no));
    })) << f;
  }
  std::printf("[ %zu corpus files, %ld maps%s ]\n", files.size(), lines,
              shared.empty() ? " (the shared corpus is absent: samples only)" : "");
  ExpectNoFailure(c, "driver encodings");
  EXPECT_GT(c.fast_hits, 0);
  EXPECT_GT(c.no_target_hits, 0);  // the comparison covers the fast path's no-target answers too
}

TEST(FastPath, SameAsTableOnRandomSpecsAndTheirNeighbours) {
  specgen::Rng r(20261202);
  Checker c;
  std::vector<TensorMapSpec> accepted;
  for (int i = 0; i < 100000; ++i) {
    const TensorMapSpec wild = specgen::RandomSpec(r);
    CheckVariants(&c, wild, "random " + std::to_string(i));
    const TensorMapSpec tame = specgen::Tame(r, wild);
    CheckVariants(&c, tame, "tame " + std::to_string(i));
    Validation v;
    if (accepted.size() < 4000 && ValidateFastPath(tame, &v)) accepted.push_back(tame);
  }
  // Around specs the fast path accepts: one field across a boundary, then two.
  for (size_t i = 0; i < accepted.size(); ++i) {
    for (int k = 0; k < 40; ++k) {
      TensorMapSpec s = accepted[i];
      specgen::PerturbOne(r, &s);
      CheckVariants(&c, s, "perturbed " + std::to_string(i) + "." + std::to_string(k));
      specgen::PerturbOne(r, &s);
      c.Check(s, "perturbed twice " + std::to_string(i) + "." + std::to_string(k));
    }
  }
  ExpectNoFailure(c, "random");
  EXPECT_GT(accepted.size(), 100u);
}

// Optional fields one at a time on the defaults: addresses, alignments, driver versions, explicit fields.
TEST(FastPath, SameAsTableOnOptionalFields) {
  Checker c;
  const uint64_t addrs[] = {0, 16, 32, 64, 128, 256, 512, 1024, 0x1180, 4096 + 8};
  const uint32_t aligns[] = {0, 16, 64, 128, 256, 512, 1024, 2048};
  const uint32_t versions[] = {0, 11080, 12000, 12079, 12080, 13000, 13019, 13020, 13100};
  for (int m = 0; m < kNumModes; ++m) {
    for (Swizzle w : {Swizzle::kNone, Swizzle::k32B, Swizzle::k64B, Swizzle::k128B, Swizzle::k128BAtom32B,
                      Swizzle::k128BAtom32BFlip8B, Swizzle::k128BAtom64B}) {
      TensorMapSpec base = DefaultSpec(static_cast<Mode>(m));
      base.swizzle = w;
      base.target = m <= 1 ? Target::kSm90a : Target::kSm100a;
      base.set_fields |= kFieldTarget;
      for (uint64_t a : addrs) {
        TensorMapSpec s = base;
        s.smem_address = a;
        s.set_fields |= kFieldSmemAddress;
        CheckVariants(&c, s, "smem address");
        s = base;
        s.global_address = a;
        s.set_fields |= kFieldGlobalAddress;
        CheckVariants(&c, s, "global address");
      }
      for (uint32_t a : aligns) {
        TensorMapSpec s = base;
        s.smem_alignment = a;
        s.set_fields |= kFieldSmemAlignment;
        CheckVariants(&c, s, "smem alignment");
      }
      for (uint32_t ver : versions) {
        TensorMapSpec s = base;
        s.driver_version = ver;
        CheckVariants(&c, s, "driver version");
        s.global_dim = {64, 64, 1, 1, 1};
        FillPaddedStrides(&s);
        CheckVariants(&c, s, "driver version, small tensor");
        // Small and in the fast path's scope (every dimension of size > 1), so that the per-target warning
        // of the old drivers would fire on the Blackwell targets of a spec without a target.
        s = base;
        s.driver_version = ver;
        for (uint32_t i = 1; i < s.rank; ++i) {
          s.global_dim[i] = 2;
          if (s.box_dim[i] > 2) s.box_dim[i] = 2;
        }
        FillPaddedStrides(&s);
        CheckVariants(&c, s, "driver version, small tensor, dims > 1");
      }
      for (uint32_t bit = 1; bit < (1u << 26); bit <<= 1) {
        TensorMapSpec s = base;
        s.set_fields |= bit;
        CheckVariants(&c, s, "field bit " + std::to_string(bit));
      }
    }
  }
  ExpectNoFailure(c, "optional fields");
}

// The repository's spec files: the GPU checks' and the bench's specs, the examples.
TEST(FastPath, SameAsTableOnTheFixtures) {
  Checker c;
  SpecJsonParser parser;
  for (const char* f : {"/tests/gpu/specs/bench_specs.jsonl", "/tests/gpu/specs/check_specs.jsonl", "/examples/specs.jsonl"}) {
    std::ifstream in(std::string(TMAPGEN_SOURCE_DIR) + f);
    ASSERT_TRUE(in.good()) << f;
    std::string line;
    int no = 0;
    while (std::getline(in, line)) {
      ++no;
      if (line.empty() || line[0] != '{') continue;
      TensorMapSpec s;
      if (!parser.Parse(line, json::TextPos(), false, &s).ok()) continue;
      CheckVariants(&c, s, std::string(f) + ":" + std::to_string(no));
    }
  }
  ExpectNoFailure(c, "fixtures");
  EXPECT_GT(c.fast_hits, 0);
}

}  // namespace
}  // namespace tmapgen
