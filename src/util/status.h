// status.h: tmapgen's one error vocabulary, on absl::Status.
//
// Contract
// - Every fallible operation of the parsers (spec files, flags, messages) and of the driver layer returns
//   absl::Status or absl::StatusOr<T>; the service maps the same codes to gRPC status codes one for one
//   (absl and gRPC share the numbering). Validation results are not errors: a spec that breaks rules is
//   data (Validation, Finding, Diagnostic) and comes back with an OK status.
// - Which code means what (docs/design.md, "Errors", says the same):
//     kInvalidArgument    the input is wrong: a spec field, a flag, a request field, a blob. The message
//                         names the field ("line 3, column 17: global_dim[2]: expected ...").
//     kNotFound           a named file, device or driver entry point does not exist.
//     kPermissionDenied   a named file exists but may not be read or written.
//     kResourceExhausted  an input over one of tmapgen's bounds (a JSON Lines line over 64 MiB, ...),
//                         or memory (host or device) ran out.
//     kUnavailable        the CUDA driver or a GPU is not there (no libcuda, no device, no context).
//     kFailedPrecondition the call is valid but the state it needs is missing (an encode of a spec the
//                         validator rejects, a kernel image the device cannot load).
//     kDeadlineExceeded   a GPU operation did not finish in time (a hung copy, the watchdog fired).
//     kUnimplemented      this build lacks the feature (the text format without Protobuf).
//     kDataLoss           a read or write failed part way (an I/O error on a file or pipe).
//     kInternal           a driver call failed in a way tmapgen does not expect; a bug to report.
// - Messages are complete sentences without a trailing period, lower case first, and carry their own
//   context ("cannot open specs.jsonl: No such file or directory"); callers add a prefix with Annotate.
#ifndef TMAPGEN_SRC_UTIL_STATUS_H_
#define TMAPGEN_SRC_UTIL_STATUS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/util/strings.h"

namespace tmapgen {

// The message of a status as std::string_view (absl::string_view in Debian's Abseil, see strings.h).
inline std::string_view StatusMessage(const absl::Status& s) { return FromAbsl(s.message()); }

// The same code and payloads with "prefix: " in front of the message (an OK status stays OK).
absl::Status Annotate(const absl::Status& s, std::string_view prefix);

// The status for a failed system call on `what` (a file name), from errno: ENOENT -> kNotFound,
// EACCES/EPERM -> kPermissionDenied, ENOMEM -> kResourceExhausted, EIO -> kDataLoss, others
// kInvalidArgument (EISDIR, ENOTDIR, ENAMETOOLONG: the name is wrong) or kUnavailable.
// The message is "<verb> <what>: <strerror>".
absl::Status ErrnoStatus(int err, std::string_view verb, std::string_view what);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_UTIL_STATUS_H_
