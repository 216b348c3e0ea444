// trace_stream_fuzz.cc: the record stream and state files `tmapgen trace` reads back from its trace
// directory (src/trace/stream.h), then everything it does with each record: judge, explain, write JSON,
// summarise. Any bytes must give whole records or nothing, never a crash or an out-of-bounds read.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "src/trace/explain.h"
#include "src/trace/record_json.h"
#include "src/trace/stream.h"
#include "src/trace/summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmapgen::trace;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<ProcessInfo> state = ParseState(bytes);
  std::vector<EncodeCall> calls;
  ParseCalls(bytes, &calls);
  // Frames with random contents (the checksum is recomputed, so every field takes arbitrary values).
  for (size_t off = 0; off + sizeof(EncodeCall) <= size && calls.size() < 8; off += sizeof(EncodeCall)) {
    EncodeCall c;
    std::memcpy(&c, data + off, sizeof(c));
    c.caller[kCallerMax - 1] = 0;
    c.caller_symbol[kSymbolMax - 1] = 0;
    char frame[kFrameSize];
    MakeFrame(c, frame);
    std::vector<EncodeCall> back;
    ParseCalls(std::string_view(frame, kFrameSize), &back);
    if (back.size() != 1) __builtin_trap();
    calls.push_back(back[0]);
  }
  Summary sum;
  sum.AddProcess(state.ok() ? *state : ProcessInfo());
  for (const EncodeCall& c : calls) {
    Verdict v;
    JudgeCall(c, &v);
    std::string line;
    AppendRecordJson(c, 1, &line);
    ExplainCall(c, v, 2);
    sum.AddRecord(c, 3);
  }
  sum.RenderText(SummaryOptions{});
  tmapgen::json::Writer w;
  sum.WriteJson(&w);
  return 0;
}
