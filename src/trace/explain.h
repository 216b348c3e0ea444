// explain.h: a traced call explained for people, in the few lines `tmapgen trace` prints on standard
// error next to whatever the program prints.
//
// Contract
// - Verdict() validates the call's spec (call_spec.h) with the rule table for the call's target (every
//   target when it has none) and says which kind of finding the call is: rejected by the driver,
//   accepted but breaking a documented rule (error), accepted with warnings, or clean.
// - ExplainCall() renders: a header (entry point, driver result, pid/tid, the calling library), the
//   parameters in one line, every error and warning (rule id, field, message, fix), the nearest valid
//   configuration where the rules' patches reach one, and the spec as one JSON line to replay. A
//   rejection that no rule explains says so plainly (a gap in tmapgen's rules, or a driver condition
//   tmapgen does not model). Unrepresentable values and unreadable pointers are named first.
// - Pure: allocates the text, no I/O.
#ifndef TMAPGEN_SRC_TRACE_EXPLAIN_H_
#define TMAPGEN_SRC_TRACE_EXPLAIN_H_

#include <cstdint>
#include <string>

#include "src/tmap/validator.h"
#include "src/trace/call.h"

namespace tmapgen::trace {

enum class Outcome : uint8_t {
  kClean = 0,     // accepted, no error or warning
  kWarning = 1,   // accepted, warnings only
  kInvalid = 2,   // accepted by the driver, but breaks a documented rule (a validator error)
  kRejected = 3,  // the driver returned an error
};
const char* Name(Outcome f);  // "clean", "warning", "invalid", "rejected"

struct Verdict {
  Outcome outcome = Outcome::kClean;
  bool replayable = false;       // the call carries parameters (record_json.h)
  uint32_t unrepresentable = 0;  // Field bits (call_spec.h)
  Validation validation;         // of CallToSpec(call) when replayable
};

void JudgeCall(const EncodeCall& call, Verdict* out);

// `count` is how many calls of this configuration were seen (0 = do not mention it).
std::string ExplainCall(const EncodeCall& call, const Verdict& verdict, uint64_t count);

// One line: "tiled bf16 rank 2, global_dim [..], global_strides [..], box_dim [..], swizzle 128B, ...".
std::string DescribeParams(const EncodeCall& call);

}  // namespace tmapgen::trace

#endif  // TMAPGEN_SRC_TRACE_EXPLAIN_H_
