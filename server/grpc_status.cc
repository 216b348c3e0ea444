// grpc_status.cc: see grpc_status.h.
#include "server/grpc_status.h"

#include "server/api_convert.h"

namespace tmapgen::server {

grpc::StatusCode ToGrpcCode(absl::StatusCode c) {
  switch (c) {
    case absl::StatusCode::kOk: return grpc::OK;
    case absl::StatusCode::kCancelled: return grpc::CANCELLED;
    case absl::StatusCode::kUnknown: return grpc::UNKNOWN;
    case absl::StatusCode::kInvalidArgument: return grpc::INVALID_ARGUMENT;
    case absl::StatusCode::kDeadlineExceeded: return grpc::DEADLINE_EXCEEDED;
    case absl::StatusCode::kNotFound: return grpc::NOT_FOUND;
    case absl::StatusCode::kAlreadyExists: return grpc::ALREADY_EXISTS;
    case absl::StatusCode::kPermissionDenied: return grpc::PERMISSION_DENIED;
    case absl::StatusCode::kResourceExhausted: return grpc::RESOURCE_EXHAUSTED;
    case absl::StatusCode::kFailedPrecondition: return grpc::FAILED_PRECONDITION;
    case absl::StatusCode::kAborted: return grpc::ABORTED;
    case absl::StatusCode::kOutOfRange: return grpc::OUT_OF_RANGE;
    case absl::StatusCode::kUnimplemented: return grpc::UNIMPLEMENTED;
    case absl::StatusCode::kInternal: return grpc::INTERNAL;
    case absl::StatusCode::kUnavailable: return grpc::UNAVAILABLE;
    case absl::StatusCode::kDataLoss: return grpc::DATA_LOSS;
    case absl::StatusCode::kUnauthenticated: return grpc::UNAUTHENTICATED;
    default: return grpc::UNKNOWN;
  }
}

grpc::Status ToGrpc(const absl::Status& s, std::string* field) {
  if (field != nullptr) *field = s.ok() ? "" : FieldOf(s);
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(ToGrpcCode(s.code()), std::string(s.message()));
}

const char* CodeName(grpc::StatusCode c) {
  static const char* const kNames[] = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
                                       "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
                                       "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
  const int i = static_cast<int>(c);
  return i >= 0 && i <= 16 ? kNames[i] : "UNKNOWN";
}

}  // namespace tmapgen::server
