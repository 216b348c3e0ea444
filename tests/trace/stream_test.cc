// The per-process stream files: frames survive a torn tail and corruption; the state file is checked.
#include "src/trace/stream.h"

#include <gtest/gtest.h>

#include <cstring>

#include "tests/trace/trace_test_util.h"

namespace tmapgen::trace {
namespace {

std::string Frames(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    EncodeCall c = testing::GoodTiled();
    c.seq = static_cast<uint32_t>(i);
    char buf[kFrameSize];
    MakeFrame(c, buf);
    s.append(buf, kFrameSize);
  }
  return s;
}

TEST(Stream, WholeFramesRoundTrip) {
  std::vector<EncodeCall> calls;
  EXPECT_EQ(ParseCalls(Frames(3), &calls), 0u);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[2].seq, 2u);
  EXPECT_EQ(calls[0].box_dim[1], 128u);
}

TEST(Stream, ATornLastFrameIsSkipped) {
  std::string s = Frames(3);
  s.resize(s.size() - 10);
  std::vector<EncodeCall> calls;
  EXPECT_EQ(ParseCalls(s, &calls), kFrameSize - 10);
  EXPECT_EQ(calls.size(), 2u);
}

TEST(Stream, ACorruptFrameIsDroppedAndTheNextOneFound) {
  std::string s = Frames(3);
  s[kFrameSize + 100] ^= 0x40;  // inside the second record
  std::vector<EncodeCall> calls;
  EXPECT_EQ(ParseCalls(s, &calls), kFrameSize);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].seq, 0u);
  EXPECT_EQ(calls[1].seq, 2u);
}

TEST(Stream, GarbageYieldsNothing) {
  std::string s(5000, '\x54');
  std::vector<EncodeCall> calls;
  EXPECT_EQ(ParseCalls(s, &calls), s.size());
  EXPECT_TRUE(calls.empty());
}

TEST(Stream, StateFileRoundTripAndErrors) {
  std::string bytes(StateFileSize(4), '\0');
  StateHeader* h = reinterpret_cast<StateHeader*>(bytes.data());
  std::memcpy(h->magic, kStateMagic, sizeof(kStateMagic));
  h->version = kStreamVersion;
  h->capacity = 4;
  h->pid = 1234;
  h->state = static_cast<uint32_t>(ProcessState::kNotTracing);
  h->calls.store(7);
  std::strcpy(h->message, "CUPTI not found");
  uint64_t counts[4] = {5, 2, 0, 0};
  std::memcpy(bytes.data() + sizeof(StateHeader), counts, sizeof(counts));
  const absl::StatusOr<ProcessInfo> parsed = ParseState(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const ProcessInfo& p = *parsed;
  EXPECT_EQ(p.pid, 1234);
  EXPECT_EQ(p.state, ProcessState::kNotTracing);
  EXPECT_EQ(p.calls, 7u);
  EXPECT_EQ(p.message, "CUPTI not found");
  EXPECT_EQ(p.counts, std::vector<uint64_t>({5, 2, 0, 0}));

  // A file cut short lost data (status.h: kDataLoss); one that is not a state file is wrong input.
  absl::Status st = ParseState(bytes.substr(0, 100)).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(st.message().find("too short"), absl::string_view::npos) << st;
  st = ParseState(bytes.substr(0, bytes.size() - 8)).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(st.message().find("truncated"), absl::string_view::npos) << st;
  std::string bad = bytes;
  bad[0] = 'X';
  st = ParseState(bad).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("magic"), absl::string_view::npos) << st;
}

}  // namespace
}  // namespace tmapgen::trace
