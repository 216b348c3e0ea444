// `tmapgen rules` and `tmapgen explain ID`: every rule the tool can emit is listed, every rule's example trips
// it, and a retired id says what it became.
#include <gtest/gtest.h>

#include <string>

#include "cli/rule_examples.h"
#include "src/desc/desc_rules.h"
#include "src/tmap/rule.h"
#include "src/tmap/rule_catalogue.h"
#include "tests/cli/cli_test_util.h"

namespace {

using namespace tmapgen::cli_test;  // NOLINT

bool Has(const std::string& s, const std::string& x) { return s.find(x) != std::string::npos; }

TEST(RulesCommand, ListsTensorMapAndDescriptorRules) {
  const Result r = RunTool("rules --format json");
  ASSERT_EQ(r.code, 0) << r.out;
  size_t n = 0;
  for (size_t p = r.out.find("\"id\":"); p != std::string::npos; p = r.out.find("\"id\":", p + 1)) ++n;
  EXPECT_EQ(n, static_cast<size_t>(tmapgen::NumCatalogueEntries()));
  EXPECT_GT(tmapgen::NumCatalogueEntries(), tmapgen::NumRules() + tmapgen::desc::NumDescRules());
  for (const char* id : {"global-stride-overlap", "desc-lbo-align-16", "map-chunks-disagree", "idesc-n",
                         "idesc-a-tmem-transpose"})
    EXPECT_TRUE(Has(r.out, std::string("\"id\":\"") + id + "\"")) << id;
  const Result t = RunTool("rules --color never");
  EXPECT_TRUE(Has(t.out, "descriptor rules (desc-*, map-*, idesc-*)")) << t.out;
}

// Each example, run in this process, produces a finding of its rule; the one rule without an example is the
// one no reader lets through (tensor_rank outside 1..5 is refused by the JSON, text-format and flag readers).
TEST(RulesCommand, EveryExampleTripsItsRule) {
  int examples = 0;
  auto check = [&](std::string_view id) {
    const std::string_view* cmd = tmapgen::cli::RuleExample(id);
    ASSERT_NE(cmd, nullptr) << "no example entry for " << id;
    if (cmd->empty()) {
      EXPECT_EQ(id, "rank-range");
      return;
    }
    ++examples;
    const tmapgen::cli::ExampleResult r = tmapgen::cli::RunExample(id);
    EXPECT_TRUE(r.ran) << id << ": " << r.error;
    EXPECT_TRUE(r.fired) << id << ": tmapgen " << *cmd;
    EXPECT_FALSE(r.message.empty()) << id;
  };
  for (int i = 0; i < tmapgen::NumRules(); ++i) check(tmapgen::Rules()[i].id);
  for (int i = 0; i < tmapgen::desc::NumDescRules(); ++i) check(tmapgen::desc::DescRules()[i].id);
  EXPECT_EQ(examples, tmapgen::NumRules() + tmapgen::desc::NumDescRules() - 1);
}

TEST(RulesCommand, ExplainShowsStatementSourceAndExample) {
  const Result r = RunTool("explain idesc-n --color never");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "statement  N is valid for the form")) << r.out;
  EXPECT_TRUE(Has(r.out, "source     PTX ISA 9.2 section 9.7.16.2.1")) << r.out;
  EXPECT_TRUE(Has(r.out, "example    tmapgen idesc --n 260")) << r.out;
  EXPECT_TRUE(Has(r.out, "says       n: N = 260 is not valid")) << r.out;
  const Result j = RunTool("rules global-stride-overlap --format json");
  EXPECT_TRUE(Has(j.out, "\"example_result\":{\"ran\":true,\"fired\":true")) << j.out;
  EXPECT_EQ(RunTool("explain no-such-rule").code, 2);
  EXPECT_EQ(RunTool("explain").code, 2);
}

// desc-advance-carry was a warning of the descriptor rules until it was folded into desc-advance-range (commit
// 44792b1 removed the row when the advance check found that adding the step carries into reserved bit 14
// exactly when the start address leaves its 14-bit field). Its id stays known.
TEST(RulesCommand, RetiredIdSaysWhatItBecame) {
  const Result r = RunTool("explain desc-advance-carry --color never");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "desc-advance-carry (retired; was a warning descriptor rule")) << r.out;
  EXPECT_TRUE(Has(r.out, "replaced   by desc-advance-range (tmapgen explain desc-advance-range)")) << r.out;
  EXPECT_FALSE(Has(r.out, "example")) << r.out;
  const Result j = RunTool("rules desc-advance-carry --format json");
  ASSERT_EQ(j.code, 0) << j.out;
  EXPECT_TRUE(Has(j.out, "\"state\":\"retired\"")) << j.out;
  EXPECT_TRUE(Has(j.out, "\"replaced_by\":\"desc-advance-range\"")) << j.out;
  const Result list = RunTool("rules --color never");
  const size_t section = list.out.find("retired rule ids");
  ASSERT_NE(section, std::string::npos) << list.out;
  EXPECT_GT(list.out.find("desc-advance-carry", section), section);
  EXPECT_LT(list.out.find("idesc-target"), section);  // after every active rule
}

// Every active row of the catalogue is a row of its family's table, and every table row is in the catalogue.
TEST(RuleCatalogue, ActiveRowsAreTheTablesRows) {
  int active = 0;
  for (int i = 0; i < tmapgen::NumCatalogueEntries(); ++i) {
    const tmapgen::RuleEntry& e = tmapgen::RuleCatalogue()[i];
    EXPECT_EQ(tmapgen::FindCatalogueEntry(e.id), &e);
    if (e.state == tmapgen::RuleState::kRetired) {
      EXPECT_LT(tmapgen::FindRule(e.id), 0) << e.id;
      EXPECT_LT(tmapgen::desc::FindDescRule(e.id), 0) << e.id;
      EXPECT_FALSE(e.became.empty()) << e.id;
      continue;
    }
    ++active;
    if (e.family == tmapgen::RuleFamily::kTensorMap) {
      ASSERT_GE(tmapgen::FindRule(e.id), 0) << e.id;
      const tmapgen::Rule& r = tmapgen::Rules()[tmapgen::FindRule(e.id)];
      EXPECT_EQ(r.severity, e.severity) << e.id;
      EXPECT_EQ(r.summary, e.statement) << e.id;
    } else {
      ASSERT_GE(tmapgen::desc::FindDescRule(e.id), 0) << e.id;
      EXPECT_EQ(tmapgen::desc::DescRules()[tmapgen::desc::FindDescRule(e.id)].source, e.source) << e.id;
    }
  }
  EXPECT_EQ(active, tmapgen::NumRules() + tmapgen::desc::NumDescRules());
  EXPECT_EQ(tmapgen::FindCatalogueEntry("no-such-rule"), nullptr);
}

}  // namespace
