// record_json.h: a traced call as one line of JSON in the spec schema, so that `tmapgen validate`,
// `check`, `codegen` and `decode` replay it.
//
// Contract
// - The line is a spec object (docs/schema.md) with two more members the spec readers skip:
//   "bytes" (the 128 bytes the driver wrote, 256 lowercase hex digits in memory order, when the call
//   succeeded) and "trace" (what the driver returned and who called: docs/trace.md lists the fields).
// - Representable calls (call_spec.h) are written with the canonical spec writer (WriteSpecJson), so a
//   record parses back to exactly CallToSpec(call). A value the spec cannot hold is written as the raw
//   integer the driver got, under its schema key, so that a replay reports an input error naming it.
// - ReplaceAddress calls whose source encode is unknown carry no parameters: IsReplayable() is false,
//   and WriteRecordJson writes only "bytes" and "trace" for them (`tmapgen decode` reads those).
// - No I/O.
#ifndef TMAPGEN_SRC_TRACE_RECORD_JSON_H_
#define TMAPGEN_SRC_TRACE_RECORD_JSON_H_

#include <cstdint>
#include <string>

#include "src/json/json_writer.h"
#include "src/trace/call.h"

namespace tmapgen::trace {

// True when the call carries map parameters (every encode; a ReplaceAddress with a known source).
bool IsReplayable(const EncodeCall& call);

// 256 lowercase hex digits of 16 little-endian 64-bit words, byte 0 first.
std::string BytesHex(const uint64_t (&words)[16]);

// Appends the record (one JSON object, no newline) to *out. `count` is the number of calls of this
// configuration (1 with --all).
void AppendRecordJson(const EncodeCall& call, uint64_t count, std::string* out);

}  // namespace tmapgen::trace

#endif  // TMAPGEN_SRC_TRACE_RECORD_JSON_H_
