// file.h: reading whole files and standard input, for the programs around the core (the command line,
// tmapd): the core itself does no I/O (docs/design.md).
//
// Contract
// - "-" names standard input; any other name is opened with fopen(name, "rb").
// - Errors are absl::Status values whose message names the file and the system's reason, in the words the
//   command line prints ("cannot open FILE: No such file or directory"); the code follows errno
//   (src/util/status.h, ErrnoStatus): kNotFound, kPermissionDenied, kResourceExhausted, ...
#ifndef TMAPGEN_SRC_IO_FILE_H_
#define TMAPGEN_SRC_IO_FILE_H_

#include <cstddef>
#include <cstdio>
#include <limits>
#include <string>

#include "absl/status/statusor.h"

namespace tmapgen::io {

// A file opened for reading ("-": standard input, which is not closed), closed on destruction.
class InputFile {
 public:
  explicit InputFile(const std::string& name);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  FILE* get() const { return f_; }
  // errno of the failed open (0 when it opened).
  int open_errno() const { return err_; }

 private:
  FILE* f_;
  int err_ = 0;
};

// The whole of a file ("-": standard input). More than max_bytes is kResourceExhausted ("NAME is longer
// than N bytes, the limit for WHAT"), read no further; `what` names the limit in that message.
absl::StatusOr<std::string> ReadWholeFile(const std::string& name,
                                          size_t max_bytes = std::numeric_limits<size_t>::max(),
                                          const char* what = "one file");

}  // namespace tmapgen::io

#endif  // TMAPGEN_SRC_IO_FILE_H_
