// grpc_status.h: the one place where the service's errors (absl::Status, from server/engine.h and
// src/rpc) become gRPC statuses, and where the client names a gRPC code. The codes map 1:1 (gRPC and
// Abseil share the canonical code space); the field a message starts with ("spec.mode: ...") also goes
// into the trailing metadata entry "tmapgen-field", for programs.
#ifndef TMAPGEN_SRC_NET_GRPC_STATUS_H_
#define TMAPGEN_SRC_NET_GRPC_STATUS_H_

#include <grpcpp/grpcpp.h>

#include <string>

#include "absl/status/status.h"

namespace tmapgen::net {

grpc::StatusCode ToGrpcCode(absl::StatusCode c);
// The status, its message capped by CapEchoes; *field (when given) receives the field path it starts with.
grpc::Status ToGrpc(const absl::Status& s, std::string* field = nullptr);
// Error messages quote what the request said ("unknown value \"...\""), and a request string can be
// megabytes. Every quoted part longer than kMaxEcho bytes keeps its first kMaxEcho bytes, then "..."
// and its full length ("\"xxxx...\" (100000 bytes)"); a message still longer than kMaxMessage (an
// unquoted echo) is cut the same way. Cuts fall on UTF-8 character boundaries.
constexpr size_t kMaxEcho = 200;
constexpr size_t kMaxMessage = 1024;
std::string CapEchoes(const std::string& message);
// "OK", "INVALID_ARGUMENT", ... for logs and client messages.
const char* CodeName(grpc::StatusCode c);

}  // namespace tmapgen::net

#endif  // TMAPGEN_SRC_NET_GRPC_STATUS_H_
