// diagnostics_test.cc: MakeDiagnostics writes every text of every finding into one arena and hands out views.
// These tests check that bookkeeping: each view is the text the rule writes for that finding alone
// (MessageText / FixText / FieldPath, one RuleText per call), in the documented order, through reuse, growth,
// copies and moves. What the texts say is checked by the rule tests of tests/tmap.
#include "src/report/diagnostics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/specgen/random_spec.h"
#include "src/tmap/rule.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

namespace tmapgen {
namespace {

// The texts of v's findings, one RuleText each, in MakeDiagnostics' documented order (errors, warnings, notes;
// each in the order of the findings).
struct Expected {
  std::string rule, field, message, fix;
  Severity severity;
};
std::vector<Expected> OneByOne(const TensorMapSpec& s, const Validation& v) {
  std::vector<Expected> out;
  for (Severity sev : {Severity::kError, Severity::kWarning, Severity::kNote}) {
    for (const Finding& f : v.findings) {
      const Rule& r = Rules()[f.rule];
      if (r.severity != sev) continue;
      out.push_back({std::string(r.id), FieldPath(r, s, f), MessageText(r, s, f).str(), FixText(r, s, f).str(), sev});
    }
  }
  return out;
}

void ExpectSame(const Diagnostics& got, const std::vector<Expected>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].rule, want[i].rule) << what << " #" << i;
    EXPECT_EQ(got[i].severity, want[i].severity) << what << " #" << i;
    EXPECT_EQ(got[i].field, want[i].field) << what << " #" << i;
    EXPECT_EQ(got[i].message, want[i].message) << what << " #" << i;
    EXPECT_EQ(got[i].fix, want[i].fix) << what << " #" << i;
  }
}

// The validator_vs_driver "several" recipe: 8 findings, about 2.3 KB of text.
TensorMapSpec ManyFindings() {
  TensorMapSpec s = DefaultSpec(Mode::kIm2col);
  s.global_strides[0] += 8;
  s.channels_per_pixel = 300;
  s.pixels_per_column = 2000;
  s.target = Target::kSm90a;
  return s;
}

TEST(Diagnostics, OneReusedArenaGivesEachFindingItsOwnTexts) {
  specgen::Rng r(20261202);
  Diagnostics reused;
  int explained = 0;
  for (int i = 0; i < 3000; ++i) {
    const TensorMapSpec s = i % 7 == 0 ? ManyFindings() : specgen::RandomSpec(r);
    Validation v;
    Validate(s, &v);
    MakeDiagnostics(s, v, &reused);
    const std::vector<Expected> want = OneByOne(s, v);
    ExpectSame(reused, want, "spec " + std::to_string(i));
    ExpectSame(MakeDiagnostics(s, v), want, "fresh, spec " + std::to_string(i));
    explained += static_cast<int>(want.size());
    if (HasFailure()) return;
  }
  EXPECT_GT(explained, 3000);  // the random specs do have findings to explain
}

TEST(Diagnostics, ViewsSurviveTheArenaGrowing) {
  // More text than the arena's first 4 KiB: several specs' findings in one Validation would not happen, so
  // the findings of ManyFindings are repeated (a FindingList holds up to 96) to make about 25 KB of text.
  const TensorMapSpec s = ManyFindings();
  Validation v;
  Validate(s, &v);
  const int n = v.findings.size();
  ASSERT_GE(n, 8);
  while (v.findings.size() + n <= kMaxFindings) {
    for (int i = 0; i < n; ++i) {
      const Finding f = v.findings[i];
      if (f.value_unsigned) v.findings.AddU(f.rule, f.index, f.uvalue(), f.limit, static_cast<Target>(f.target));
      else v.findings.Add(f.rule, f.index, f.value, f.limit, static_cast<Target>(f.target));
    }
  }
  v.errors = v.warnings = v.notes = 0;
  for (const Finding& f : v.findings) {
    const Severity sev = Rules()[f.rule].severity;
    (sev == Severity::kError ? v.errors : sev == Severity::kWarning ? v.warnings : v.notes)++;
  }
  Diagnostics d;
  MakeDiagnostics(s, v, &d);
  size_t bytes = 0;
  for (const Diagnostic& x : d) bytes += x.message.size() + x.fix.size();
  EXPECT_GT(bytes, 16384u);
  ExpectSame(d, OneByOne(s, v), "grown");
}

TEST(Diagnostics, CountsThatDisagreeWithTheFindingsAreRecounted) {
  const TensorMapSpec s = ManyFindings();
  Validation v;
  Validate(s, &v);
  const std::vector<Expected> want = OneByOne(s, v);
  ASSERT_GT(v.warnings + v.notes, 0);  // the recipe has errors and a warning: a wrong split shows
  for (auto [e, w, n] : {std::tuple{0, 0, v.findings.size()}, std::tuple{v.findings.size(), 0, 0},
                         std::tuple{v.errors - 1, v.warnings + 1, v.notes}, std::tuple{-1, 2, 5},
                         std::tuple{100, 0, 0}}) {
    Validation bad = v;
    bad.errors = e;
    bad.warnings = w;
    bad.notes = n;
    ExpectSame(MakeDiagnostics(s, bad), want, "counts " + std::to_string(e) + "/" + std::to_string(w) + "/" +
                                                  std::to_string(n));
  }
}

TEST(Diagnostics, ACopyHasTextsOfItsOwnAndAMoveKeepsThem) {
  const TensorMapSpec s = ManyFindings();
  Validation v;
  Validate(s, &v);
  const std::vector<Expected> want = OneByOne(s, v);
  Diagnostics original;
  MakeDiagnostics(s, v, &original);
  const Diagnostics copy = original;
  Diagnostics assigned;
  assigned = original;
  // Remake the original for another spec: the copies must not change with it.
  TensorMapSpec other = DefaultSpec(Mode::kTiled);
  other.box_dim[0] = 300;
  other.target = Target::kSm90a;
  Validation vo;
  Validate(other, &vo);
  MakeDiagnostics(other, vo, &original);
  ExpectSame(copy, want, "copy");
  ExpectSame(assigned, want, "assigned");
  ExpectSame(original, OneByOne(other, vo), "remade");
  Diagnostics moved = std::move(assigned);
  ExpectSame(moved, want, "moved");
  Diagnostics move_assigned;
  move_assigned = std::move(moved);
  ExpectSame(move_assigned, want, "move-assigned");
}

TEST(Diagnostics, FieldPathsOfEveryIndexMatchTheTablesPattern) {
  // global_dim[i] of the table (docs/rules.md): index 0-7 come from static text, larger ones are written.
  const int rule = FindRule("global-dim-range");
  ASSERT_GE(rule, 0);
  const Rule& r = Rules()[rule];
  ASSERT_EQ(r.field, "global_dim[i]");
  const TensorMapSpec s = DefaultSpec(Mode::kTiled);
  for (int i = -1; i < 12; ++i) {
    Finding f{static_cast<uint16_t>(rule), static_cast<int8_t>(i), 0, 0, 0, false};
    const std::string want = i < 0 ? "global_dim" : "global_dim[" + std::to_string(i) + "]";
    EXPECT_EQ(FieldPath(r, s, f), want);
    std::string_view sv;
    if (StaticField(r, s, f, &sv)) EXPECT_EQ(sv, want);
    else EXPECT_GE(i, 8) << "index " << i << " should be static";
  }
}

}  // namespace
}  // namespace tmapgen
