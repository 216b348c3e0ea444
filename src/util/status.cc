// status.cc: see status.h for the contract.
#include "src/util/status.h"

#include <cerrno>
#include <cstring>

namespace tmapgen {

absl::Status Annotate(const absl::Status& s, std::string_view prefix) {
  if (s.ok() || prefix.empty()) return s;
  absl::Status out(s.code(), StrCat(prefix, ": ", StatusMessage(s)));
  s.ForEachPayload([&out](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  return out;
}

absl::Status ErrnoStatus(int err, std::string_view verb, std::string_view what) {
  const std::string message = StrCat(verb, " ", what, ": ", std::strerror(err));
  switch (err) {
    case ENOENT:
    case ENXIO:
    case ENODEV: return absl::NotFoundError(message);
    case EACCES:
    case EPERM:
    case EROFS: return absl::PermissionDeniedError(message);
    case ENOMEM:
    case ENOSPC:
    case EMFILE:
    case ENFILE:
    case EFBIG: return absl::ResourceExhaustedError(message);
    case EIO: return absl::DataLossError(message);
    case EISDIR:
    case ENOTDIR:
    case ENAMETOOLONG:
    case ELOOP:
    case EINVAL: return absl::InvalidArgumentError(message);
    default: return absl::UnavailableError(message);
  }
}

}  // namespace tmapgen
