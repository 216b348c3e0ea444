// Every derived fact in the words of the map's direction, in the derived facts, the text report and the JSON
// report. Expected values from the PTX ISA 9.2 (sections 9.7.9.25.5.2-9.7.9.25.5.4, tma-spec.md 2.4):
// - cp.async.bulk.tensor into .shared::cta / .shared::cluster completes with .mbarrier::complete_tx::bytes: the
//   mbarrier counts the bytes written (64 x 128 f16 = 16,384).
// - cp.async.bulk.tensor into .global (a store) and cp.reduce.async.bulk.tensor complete with .bulk_group: no
//   mbarrier, so no transaction count; shared memory (.shared::cta) is their source.
// - cp.async.bulk.prefetch.tensor goes to .L2: no shared memory, no completion mechanism.
#include <gtest/gtest.h>

#include <simdjson.h>

#include <string>

#include "src/report/report.h"
#include "src/tmap/validator.h"

namespace tmapgen {
namespace {

TensorMapSpec Tile(Direction d) {
  TensorMapSpec s = DefaultSpec(Mode::kTiled);  // f16 [4096, 4096], box 64 x 128, SWIZZLE_128B
  s.direction = d;
  if (d == Direction::kReduce) {
    s.reduce_op = ReduceOp::kAdd;
    s.set_fields |= kFieldReduceOp;
  }
  return s;
}

Validation ValidateOne(const TensorMapSpec& s) {
  Validation v;
  Validate(s, &v);
  return v;
}

std::string Text(const TensorMapSpec& s) { return RenderReportText(0, s, ValidateOne(s), Encoding(), ReportOptions()); }

std::string Json(const TensorMapSpec& s) {
  json::Writer w;
  WriteReportJson(0, s, ValidateOne(s), Encoding(), ReportOptions(), &w);
  return w.str();
}

TEST(DirectionFacts, DerivedFactsPerDirection) {
  ASSERT_EQ(DefaultSpec(Mode::kTiled).box_dim[0], 64u);
  for (Direction d : {Direction::kLoadCta, Direction::kLoadCluster}) {
    const Validation v = ValidateOne(Tile(d));
    EXPECT_EQ(v.facts.bytes_per_copy, 16384u);
    EXPECT_EQ(v.facts.transaction_bytes, 16384u);  // what complete_tx counts
    EXPECT_EQ(CompletionOf(d), Completion::kMbarrierCompleteTx);
    EXPECT_EQ(SmemRoleOf(d), SmemRole::kDestination);
  }
  for (Direction d : {Direction::kStore, Direction::kReduce}) {
    const Validation v = ValidateOne(Tile(d));
    EXPECT_EQ(v.facts.bytes_per_copy, 16384u);
    EXPECT_EQ(v.facts.transaction_bytes, 0u) << Name(d);  // .bulk_group: no mbarrier to count them
    EXPECT_EQ(v.facts.smem_footprint_bytes, 16384u);      // the source
    EXPECT_EQ(CompletionOf(d), Completion::kBulkGroup);
    EXPECT_EQ(SmemRoleOf(d), SmemRole::kSource);
  }
  const Validation p = ValidateOne(Tile(Direction::kPrefetch));
  EXPECT_EQ(p.facts.bytes_per_copy, 16384u);
  EXPECT_EQ(p.facts.transaction_bytes, 0u);
  EXPECT_EQ(p.facts.smem_footprint_bytes, 0u);
  EXPECT_EQ(CompletionOf(Direction::kPrefetch), Completion::kNone);
  EXPECT_EQ(SmemRoleOf(Direction::kPrefetch), SmemRole::kNone);
  EXPECT_EQ(Name(Completion::kMbarrierCompleteTx), "mbarrier::complete_tx::bytes");
  EXPECT_EQ(Name(Completion::kBulkGroup), "bulk_group");
  // .im2col_no_offs (the store form of im2col::w maps) takes no im2colInfo, so no wHalo.
  TensorMapSpec w = DefaultSpec(Mode::kIm2colW);
  EXPECT_TRUE(ValidateOne(w).facts.halo_adds_bytes);
  w.direction = Direction::kStore;
  EXPECT_FALSE(ValidateOne(w).facts.halo_adds_bytes);
}

TEST(DirectionFacts, TextReportWordsEachDirection) {
  const std::string load = Text(Tile(Direction::kLoadCta));
  EXPECT_NE(load.find("transaction bytes     16384 B per copy (mbarrier expect_tx)"), std::string::npos) << load;
  EXPECT_NE(load.find("destination aligned to 128 B (required)"), std::string::npos) << load;
  for (Direction d : {Direction::kStore, Direction::kReduce}) {
    const std::string t = Text(Tile(d));
    SCOPED_TRACE(t);
    EXPECT_EQ(t.find("expect_tx"), std::string::npos);
    EXPECT_EQ(t.find("transaction bytes"), std::string::npos);
    EXPECT_EQ(t.find("destination"), std::string::npos);
    EXPECT_NE(t.find("bytes per copy        16384 B per copy from shared memory"), std::string::npos);
    EXPECT_NE(t.find("completion            a bulk async-group, no mbarrier: cp.async.bulk.commit_group"),
              std::string::npos);
    EXPECT_NE(t.find("cp.async.bulk.wait_group.read"), std::string::npos);
    EXPECT_NE(t.find("shared memory         16384 B per copy; source aligned to 128 B (required)"), std::string::npos);
  }
  EXPECT_NE(Text(Tile(Direction::kReduce)).find("combined into global memory (.add)"), std::string::npos);
  const std::string p = Text(Tile(Direction::kPrefetch));
  EXPECT_EQ(p.find("transaction bytes"), std::string::npos) << p;
  EXPECT_EQ(p.find("destination"), std::string::npos) << p;
  EXPECT_NE(p.find("bytes per copy        up to 16384 B per copy brought into L2"), std::string::npos) << p;
  EXPECT_NE(p.find("completion            none"), std::string::npos) << p;
  EXPECT_NE(p.find("shared memory         none"), std::string::npos) << p;
}

TEST(DirectionFacts, JsonReportCarriesCompletionAndRole) {
  struct Case {
    Direction d;
    uint64_t tx;
    const char* completion;
    const char* role;
  };
  const Case cases[] = {
      {Direction::kLoadCta, 16384, "mbarrier::complete_tx::bytes", "destination"},
      {Direction::kLoadCluster, 16384, "mbarrier::complete_tx::bytes", "destination"},
      {Direction::kStore, 0, "bulk_group", "source"},
      {Direction::kReduce, 0, "bulk_group", "source"},
      {Direction::kPrefetch, 0, "none", "none"},
  };
  simdjson::dom::parser parser;
  for (const Case& c : cases) {
    const std::string j = Json(Tile(c.d));
    SCOPED_TRACE(j);
    simdjson::dom::element doc;
    ASSERT_FALSE(parser.parse(j).get(doc));
    simdjson::dom::element derived = doc["derived"];
    uint64_t bytes = 0, tx = 1;
    std::string_view completion, role;
    ASSERT_FALSE(derived["bytes_per_copy"].get_uint64().get(bytes));
    ASSERT_FALSE(derived["transaction_bytes"].get_uint64().get(tx));
    ASSERT_FALSE(derived["completion"].get_string().get(completion));
    ASSERT_FALSE(derived["smem_role"].get_string().get(role));
    EXPECT_EQ(bytes, 16384u);
    EXPECT_EQ(tx, c.tx);
    EXPECT_EQ(completion, c.completion);
    EXPECT_EQ(role, c.role);
  }
}

}  // namespace
}  // namespace tmapgen
