// file.cc: see file.h for the contract.
#include "src/io/file.h"

#include <cerrno>

#include "absl/status/status.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::io {

InputFile::InputFile(const std::string& name) : f_(name == "-" ? stdin : std::fopen(name.c_str(), "rb")) {
  if (f_ == nullptr) err_ = errno;
}

InputFile::~InputFile() {
  if (f_ != nullptr && f_ != stdin) std::fclose(f_);
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& name, size_t max_bytes, const char* what) {
  InputFile in(name);
  if (in.get() == nullptr) return ErrnoStatus(in.open_errno(), "cannot open", name);
  std::string out;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, in.get())) > 0) {
    if (n > max_bytes - out.size())
      return absl::ResourceExhaustedError(StrCat(name, " is longer than ", max_bytes, " bytes, the limit for ", what));
    out.append(buf, n);
  }
  if (std::ferror(in.get())) return ErrnoStatus(errno == 0 ? EIO : errno, "cannot read", name);
  return out;
}

}  // namespace tmapgen::io
