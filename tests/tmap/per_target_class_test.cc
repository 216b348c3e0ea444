// per_target_class_test.cc: the validator counts a spec's per-target errors once per class of targets
// (src/tmap/rules/per_target.h, PerTargetClassKey), for specs without a target. These tests hold that to the
// definition: every per-target rule run for every one of the 16 targets, on the driver's encodings (the shared
// corpus where present, the committed samples always), boundary-biased random specs and their edits, each
// in every direction; and ValidateByTable's valid_targets, failed_targets and reported target against the
// same loop over all 16 targets written out here (the validator's loop before the classes).
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "src/specgen/random_spec.h"
#include "src/schema/corpus_json.h"
#include "src/tmap/derived_facts.h"
#include "src/tmap/rule.h"
#include "src/tmap/rules/per_target.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"
#include "tests/blob/corpus_files.h"

namespace tmapgen {
namespace {

int PerTargetErrors(const TensorMapSpec& s, const DerivedFacts& facts, Target t) {
  FindingList list;
  return RunRules(CheckContext{s, facts, t}, /*per_target=*/true, &list).errors;
}

struct Checker {
  long specs = 0, failures = 0, differing_targets = 0;
  std::string first_failure;

  bool failed_this = false;  // this spec has failed already (counted once)
  void Fail(const std::string& why) {
    if (failed_this) return;
    failed_this = true;
    if (failures++ == 0) first_failure = why;
  }

  void Check(TensorMapSpec s, const std::string& where) {
    s.set_fields &= ~kFieldTarget;
    ++specs;
    failed_this = false;
    const DerivedFacts facts = ComputeDerivedFacts(s);
    int errors[kNumTargets];
    for (int t = 0; t < kNumTargets; ++t) errors[t] = PerTargetErrors(s, facts, static_cast<Target>(t));
    // Within a class, one error count.
    for (int t = 0; t < kNumTargets; ++t) {
      const int first = rules::kPerTargetClasses.first[t];
      if (errors[t] != errors[first])
        Fail(where + ": " + std::string(Name(static_cast<Target>(t))) + " has " + std::to_string(errors[t]) +
             " per-target errors, " + std::string(Name(static_cast<Target>(first))) + " of its class " +
             std::to_string(errors[first]));
    }
    for (int t = 1; t < kNumTargets; ++t) differing_targets += errors[t] != errors[0];
    // The table's verdict over the targets, against the loop over all 16 written out.
    FindingList independent;
    const int independent_errors = RunRules(CheckContext{s, facts, s.target}, /*per_target=*/false, &independent).errors;
    uint32_t valid = 0, failed = 0;
    int best = -1, best_errors = 1 << 30;
    for (int t = 0; t < kNumTargets; ++t) {
      if (errors[t] == 0) valid |= 1u << t;
      else failed |= 1u << t;
      if (errors[t] < best_errors) {
        best_errors = errors[t];
        best = t;
      }
    }
    if (independent_errors != 0) valid = 0;
    Validation v;
    ValidateByTable(s, &v);
    if (v.valid_targets != valid || v.failed_targets != failed || static_cast<int>(v.reported_target) != best)
      Fail(where + ": the table's targets differ from every target's rules run one by one");
  }
};

void CheckDirections(Checker* c, const TensorMapSpec& s, const std::string& where) {
  c->Check(s, where);
  for (Direction d : {Direction::kLoadCta, Direction::kLoadCluster, Direction::kStore, Direction::kPrefetch,
                      Direction::kReduce}) {
    if (d == s.direction) continue;
    TensorMapSpec v = s;
    v.direction = d;
    c->Check(v, where + " direction " + std::string(Name(d)));
  }
}

void Report(const Checker& c, const char* corpus) {
  EXPECT_EQ(c.failures, 0) << corpus << ": " << c.failures << " of " << c.specs << " specs; first: " << c.first_failure;
  std::printf("[ %s: %ld specs without a target; %ld (spec, target) pairs whose errors differ from sm_90's ]\n",
              corpus, c.specs, c.differing_targets);
}

TEST(PerTargetClasses, MergeTargetsOnlyWhereTheKeySaysSo) {
  // The classes follow the key, and the key keeps apart what the targets' table (types.h) sets apart for the
  // per-target rules: sm_90 from sm_90a (arch-specific features), cc 10.x/11.x from 12.x (shared memory, the
  // Blackwell datacenter features), the plain targets from the 'a'/'f' ones.
  std::set<int> firsts;
  for (int t = 0; t < kNumTargets; ++t) {
    const int f = rules::kPerTargetClasses.first[t];
    EXPECT_LE(f, t);
    EXPECT_EQ(rules::PerTargetClassKey(static_cast<Target>(t)), rules::PerTargetClassKey(static_cast<Target>(f)));
    firsts.insert(f);
  }
  EXPECT_NE(rules::kPerTargetClasses.first[static_cast<int>(Target::kSm90a)], static_cast<int>(Target::kSm90));
  EXPECT_NE(rules::kPerTargetClasses.first[static_cast<int>(Target::kSm120a)],
            rules::kPerTargetClasses.first[static_cast<int>(Target::kSm100a)]);
  EXPECT_NE(rules::kPerTargetClasses.first[static_cast<int>(Target::kSm100)],
            rules::kPerTargetClasses.first[static_cast<int>(Target::kSm100a)]);
  EXPECT_EQ(rules::kPerTargetClasses.first[static_cast<int>(Target::kSm100f)], static_cast<int>(Target::kSm100a));
  EXPECT_LT(firsts.size(), static_cast<size_t>(kNumTargets));  // some targets share a class, or nothing is saved
}

TEST(PerTargetClasses, SameErrorsOnTheDriversEncodings) {
  const std::vector<std::string> files = testing::DriverCorpusFiles();
  Checker c;
  for (const std::string& f : files) {
    ASSERT_TRUE(testing::ForEachLine(f, [&](const std::string& line, size_t no) {
      const absl::StatusOr<CorpusEntry> entry = ParseCorpusLine(line);
      if (!entry.ok() || entry->is_header || !entry->representable) return;
      const CorpusEntry& e = *entry;
      CheckDirections(&c, e.spec, f + ":" + std::to_string(no));
      if (e.spec.mode == Mode::kTiled) {
        for (Mode m : {Mode::kGather4, Mode::kScatter4}) {
          TensorMapSpec v = e.spec;
          v.mode = m;
          c.Check(v, f + ":" + std::to_string(no) + " as " + std::string(Name(m)));
        }
      }
    })) << f;
  }
  Report(c, "driver encodings");
  EXPECT_GT(c.differing_targets, 0);  // the corpus tells targets apart, so the comparison can fail
}

TEST(PerTargetClasses, SameErrorsOnRandomSpecsAndTheirEdits) {
  specgen::Rng r(20261203);
  Checker c;
  for (int i = 0; i < 50000; ++i) {
    const TensorMapSpec wild = specgen::RandomSpec(r);
    CheckDirections(&c, wild, "random " + std::to_string(i));
    TensorMapSpec tame = specgen::Tame(r, wild);
    CheckDirections(&c, tame, "tame " + std::to_string(i));
    specgen::PerturbOne(r, &tame);
    c.Check(tame, "perturbed " + std::to_string(i));
  }
  Report(c, "random");
  EXPECT_GT(c.differing_targets, 0);
}

}  // namespace
}  // namespace tmapgen
