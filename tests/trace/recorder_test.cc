// The recorder on synthetic parameter blocks: counting, bounded memory, explanations, threads,
// cuTensorMapReplaceAddress, fork. Expected rule ids and limits are cuda.h's documented ones
// (boxDim <= 256; the inner box of a swizzled map within the swizzle span; 16-byte strides).
#include "src/trace/recorder.h"

#include <gtest/gtest.h>

#include <thread>

#include "src/trace/call_spec.h"
#include "tests/trace/trace_test_util.h"

namespace tmapgen::trace {
namespace {

using testing::Counts;
using testing::GoodTiled;
using testing::TestSink;

int g_resolved = 0;
void CountingResolver(void*, EncodeCall* c) {
  ++g_resolved;
  CopyTail("/opt/fw/libframework.so", c->caller, kCallerMax);
}

TEST(Recorder, IdenticalCallsAreOneRecordWithACount) {
  TestSink sink;
  Counts counts(64);
  Recorder r(RecorderOptions{}, counts.store(), &sink);
  g_resolved = 0;
  for (int i = 0; i < 1000; ++i) {
    EncodeCall c = GoodTiled();
    r.OnCall(&c, CountingResolver, nullptr);
  }
  ASSERT_EQ(sink.records.size(), 1u);
  EXPECT_EQ(sink.records[0].seq, 0u);
  EXPECT_EQ(r.count(0), 1000u);
  EXPECT_EQ(r.stats().calls, 1000u);
  EXPECT_EQ(g_resolved, 1) << "the caller is resolved only for calls that become records";
  EXPECT_EQ(FieldView(sink.records[0].caller, kCallerMax), "/opt/fw/libframework.so");
  EXPECT_TRUE(sink.explained.empty()) << "a valid, accepted map is not explained";
}

TEST(Recorder, TheAddressCountsOnlyByItsAlignment) {
  TestSink sink;
  Counts counts(64);
  Recorder r(RecorderOptions{}, counts.store(), &sink);
  for (uint64_t k = 1; k <= 10; ++k) {
    EncodeCall c = GoodTiled(0x7f0000000000 + 4096 * k);  // every one 256-byte aligned
    r.OnCall(&c, nullptr, nullptr);
  }
  EncodeCall odd = GoodTiled(0x7f0000000008);  // 8-byte aligned: breaks global-address-align-16
  odd.result = 1;
  odd.flags &= ~kHasBytes;
  r.OnCall(&odd, nullptr, nullptr);
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_EQ(r.count(0), 10u);
  EXPECT_EQ(r.count(1), 1u);
  EXPECT_EQ(AddressAlignment(0x7f0000000008), 8u);
  EXPECT_EQ(AddressAlignment(0x7f0000001000), 256u);
}

TEST(Recorder, AllModeRecordsEveryCall) {
  TestSink sink;
  Counts counts(16);
  RecorderOptions o;
  o.all = true;
  Recorder r(o, counts.store(), &sink);
  for (int i = 0; i < 40; ++i) {
    EncodeCall c = GoodTiled();
    r.OnCall(&c, nullptr, nullptr);
  }
  ASSERT_EQ(sink.records.size(), 40u) << "--all keeps nothing per configuration, so no capacity limit applies";
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(sink.records[i].seq, i);
  EXPECT_EQ(r.count(7), 1u);
}

TEST(Recorder, ARejectedEncodeIsExplainedAtOnceWithRuleFixAndNearestValid) {
  TestSink sink;
  Counts counts(16);
  Recorder r(RecorderOptions{}, counts.store(), &sink);
  EncodeCall c = GoodTiled();
  c.box_dim[1] = 300;  // cuda.h: boxDim[i] must be <= 256
  c.result = 1;        // CUDA_ERROR_INVALID_VALUE
  c.flags &= ~kHasBytes;
  CopyTail("/usr/lib/libfw.so", c.caller, kCallerMax);
  r.OnCall(&c, nullptr, nullptr);
  ASSERT_EQ(sink.explained.size(), 1u);
  const std::string& e = sink.explained[0];
  EXPECT_NE(e.find("cuTensorMapEncodeTiled returned CUDA_ERROR_INVALID_VALUE"), std::string::npos) << e;
  EXPECT_NE(e.find("[box-dim-range] box_dim[1]"), std::string::npos) << e;
  EXPECT_NE(e.find("fix:"), std::string::npos) << e;
  EXPECT_NE(e.find("nearest valid configuration: box_dim[1]: 300 -> 256"), std::string::npos) << e;
  EXPECT_NE(e.find("called from /usr/lib/libfw.so"), std::string::npos) << e;
  EXPECT_NE(e.find("record: {"), std::string::npos) << e;
  EXPECT_EQ(r.stats().rejected_records, 1u);
}

TEST(Recorder, AnAcceptedMapThatBreaksADocumentedRuleIsExplained) {
  TestSink sink;
  Counts counts(16);
  Recorder r(RecorderOptions{}, counts.store(), &sink);
  EncodeCall c = GoodTiled();
  c.data_type = 7;  // f32: box_dim[0] 64 x 4 B = 256 B > the 128-byte span of SWIZZLE_128B
  c.global_strides[0] = 16384;
  c.box_dim[1] = 64;
  r.OnCall(&c, nullptr, nullptr);
  ASSERT_EQ(sink.explained.size(), 1u);
  EXPECT_NE(sink.explained[0].find("accepted a map that breaks a documented rule"), std::string::npos);
  EXPECT_NE(sink.explained[0].find("[swizzle-inner-span]"), std::string::npos) << sink.explained[0];
  EXPECT_EQ(r.stats().invalid_records, 1u);
}

TEST(Recorder, ARejectionNoRuleExplainsIsSaidPlainly) {
  TestSink sink;
  Counts counts(16);
  Recorder r(RecorderOptions{}, counts.store(), &sink);
  EncodeCall c = GoodTiled();
  c.result = 201;  // CUDA_ERROR_INVALID_CONTEXT: not about the map
  c.flags &= ~kHasBytes;
  r.OnCall(&c, nullptr, nullptr);
  ASSERT_EQ(sink.explained.size(), 1u);
  EXPECT_NE(sink.explained[0].find("returned CUDA_ERROR_INVALID_CONTEXT"), std::string::npos);
  EXPECT_NE(sink.explained[0].find("finds no documented rule that this call breaks"), std::string::npos);
}

TEST(Recorder, UnrepresentableValuesAndUnreadablePointersAreNamed) {
  TestSink sink;
  Counts counts(16);
  Recorder r(RecorderOptions{}, counts.store(), &sink);
  EncodeCall c = GoodTiled();
  c.data_type = 99;
  c.unreadable = kUnreadableGlobalStrides;
  c.result = 1;
  c.flags &= ~kHasBytes;
  r.OnCall(&c, nullptr, nullptr);
  ASSERT_EQ(sink.explained.size(), 1u);
  const std::string& e = sink.explained[0];
  EXPECT_NE(e.find("tensor_data_type: 99 is not a CUtensorMapDataType value"), std::string::npos) << e;
  EXPECT_NE(e.find("error global_strides: a null pointer"), std::string::npos) << e;
}

TEST(Recorder, ExplanationsAreBoundedPerProcess) {
  TestSink sink;
  Counts counts(256);
  RecorderOptions o;
  o.max_explained = 3;
  Recorder r(o, counts.store(), &sink);
  for (uint32_t i = 0; i < 10; ++i) {
    EncodeCall c = GoodTiled();
    c.box_dim[1] = 300 + i;
    c.result = 1;
    r.OnCall(&c, nullptr, nullptr);
  }
  EXPECT_EQ(sink.records.size(), 10u);
  ASSERT_EQ(sink.explained.size(), 4u);  // three explanations and one "not explained here" line
  EXPECT_NE(sink.explained[3].find("not explained here"), std::string::npos);
}

TEST(Recorder, TheTableIsBoundedAndCountsWhatItDrops) {
  TestSink sink;
  Counts counts(16);
  RecorderOptions o;
  o.max_configs = 16;
  Recorder r(o, counts.store(), &sink);
  for (uint32_t i = 0; i < 20; ++i) {
    EncodeCall c = GoodTiled();
    c.global_dim[0] = 4096 + 64 * i;
    r.OnCall(&c, nullptr, nullptr);
    r.OnCall(&c, nullptr, nullptr);
  }
  EXPECT_EQ(sink.records.size(), 16u);
  EXPECT_EQ(r.stats().dropped_calls, 8u);  // 4 configurations beyond the table, 2 calls each
  EXPECT_EQ(r.stats().calls, 40u);
  for (uint32_t s = 0; s < 16; ++s) EXPECT_EQ(r.count(s), 2u);
}

TEST(Recorder, ThreadsCountExactly) {
  TestSink sink;
  Counts counts(64);
  Recorder r(RecorderOptions{}, counts.store(), &sink);
  std::vector<std::thread> th;
  for (int t = 0; t < 8; ++t)
    th.emplace_back([&r, t] {
      for (int i = 0; i < 10000; ++i) {
        EncodeCall c = GoodTiled();
        c.global_dim[0] = 4096 + 64 * static_cast<uint64_t>(t % 4);
        c.tid = 1000 + t;
        r.OnCall(&c, nullptr, nullptr);
      }
    });
  for (auto& x : th) x.join();
  ASSERT_EQ(sink.records.size(), 4u);
  uint64_t total = 0;
  for (uint32_t s = 0; s < 4; ++s) {
    EXPECT_EQ(r.count(s), 20000u);
    total += r.count(s);
  }
  EXPECT_EQ(total, 80000u);
  EXPECT_EQ(r.stats().calls, 80000u);
}

TEST(Recorder, ReplaceAddressTakesTheParametersOfTheEncodeItCameFrom) {
  TestSink sink;
  Counts counts(16);
  Recorder r(RecorderOptions{}, counts.store(), &sink);
  EncodeCall e = GoodTiled();
  r.OnCall(&e, nullptr, nullptr);
  EncodeCall rep;
  rep.kind = CallKind::kReplaceAddress;
  rep.global_address = 0x7f0000100000;
  std::memcpy(rep.bytes_before, e.bytes, sizeof(rep.bytes_before));
  rep.flags = kHasBytesBefore | kHasBytes | kHasTarget;
  rep.target = e.target;
  r.OnCall(&rep, nullptr, nullptr);
  ASSERT_EQ(sink.records.size(), 2u);
  const EncodeCall& got = sink.records[1];
  EXPECT_TRUE(got.flags & kHasSource);
  EXPECT_EQ(got.source_seq, 0u);
  EXPECT_EQ(got.encoder, CallKind::kEncodeTiled);
  EXPECT_EQ(got.global_address, 0x7f0000100000u);
  EXPECT_EQ(got.box_dim[1], 128u);
  EXPECT_EQ(got.data_type, 9u);

  EncodeCall foreign;
  foreign.kind = CallKind::kReplaceAddress;
  foreign.global_address = 0x7f0000200000;
  std::memset(foreign.bytes_before, 0x5a, sizeof(foreign.bytes_before));
  foreign.flags = kHasBytesBefore;
  r.OnCall(&foreign, nullptr, nullptr);
  ASSERT_EQ(sink.records.size(), 3u);
  EXPECT_FALSE(sink.records[2].flags & kHasSource);
}

TEST(Recorder, AfterAForkTheChildStartsItsOwnStream) {
  TestSink sink;
  Counts parent(16), child(16);
  Recorder r(RecorderOptions{}, parent.store(), &sink);
  EncodeCall c = GoodTiled();
  r.OnCall(&c, nullptr, nullptr);
  r.OnCall(&c, nullptr, nullptr);
  r.ResetAfterFork(child.store());
  EncodeCall d = GoodTiled();
  d.pid = 200;
  r.OnCall(&d, nullptr, nullptr);
  ASSERT_EQ(sink.records.size(), 2u);
  EXPECT_EQ(sink.records[1].seq, 0u) << "the child's stream numbers its records from 0";
  EXPECT_EQ(parent.v[0].load(), 2u) << "the child never counts into the parent's counts";
  EXPECT_EQ(child.v[0].load(), 1u);
}

}  // namespace
}  // namespace tmapgen::trace
