// grpc_status.cc: see grpc_status.h.
#include "src/net/grpc_status.h"

#include "src/rpc/common.h"

namespace tmapgen::net {

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

namespace {

// The length of the longest prefix of s[0, n) that ends on a UTF-8 character boundary.
size_t Boundary(const std::string& s, size_t n) {
  if (n >= s.size()) return s.size();
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return n;
}

}  // namespace

std::string CapEchoes(const std::string& m) {
  std::string out;
  out.reserve(m.size() < 4 * kMaxMessage ? m.size() : 4 * kMaxMessage);
  size_t i = 0;
  while (i < m.size()) {
    const size_t open = m.find('"', i);
    if (open == std::string::npos) {
      out.append(m, i, std::string::npos);
      break;
    }
    // A quote inside an echoed string ends it early; what follows is capped as a whole below.
    const size_t close = m.find('"', open + 1);
    if (close == std::string::npos) {
      out.append(m, i, std::string::npos);
      break;
    }
    out.append(m, i, open + 1 - i);
    const size_t len = close - open - 1;
    if (len > kMaxEcho) {
      out.append(m, open + 1, Boundary(m, open + 1 + kMaxEcho) - (open + 1));
      out += "...\" (";
      out += std::to_string(len);
      out += " bytes)";
    } else {
      out.append(m, open + 1, len + 1);
    }
    i = close + 1;
  }
  if (out.size() > kMaxMessage) {
    const size_t full = out.size();
    out.resize(Boundary(out, kMaxMessage));
    out += "... (";
    out += std::to_string(full);
    out += " bytes)";
  }
  return out;
}

grpc::Status ToGrpc(const absl::Status& s, std::string* field) {
  if (field != nullptr) *field = s.ok() ? "" : rpc::FieldOf(s);
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(ToGrpcCode(s.code()), CapEchoes(std::string(s.message())));
}

const char* CodeName(grpc::StatusCode c) {
  static const char* const kNames[] = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
                                       "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
                                       "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
  const int i = static_cast<int>(c);
  return i >= 0 && i <= 16 ? kNames[i] : "UNKNOWN";
}

}  // namespace tmapgen::net
