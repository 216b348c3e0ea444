// Tests for src/io/file.h: whole files, standard input, the size limit and the errors' codes and words.
#include "src/io/file.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace tmapgen::io {
namespace {

std::string TempFile(const std::string& bytes) {
  char name[] = "/tmp/tmapgen_io_test_XXXXXX";
  const int fd = ::mkstemp(name);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fd);
  return name;
}

TEST(ReadWholeFile, ReadsEveryByteOfAFileLargerThanOneReadBuffer) {
  std::string bytes;
  for (int i = 0; i < 200000; ++i) bytes.push_back(static_cast<char>(i * 7 + (i >> 9)));  // includes NULs
  const std::string name = TempFile(bytes);
  absl::StatusOr<std::string> got = ReadWholeFile(name);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, bytes);
  ::unlink(name.c_str());
}

TEST(ReadWholeFile, AnEmptyFileIsEmptyText) {
  const std::string name = TempFile("");
  absl::StatusOr<std::string> got = ReadWholeFile(name);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, "");
  ::unlink(name.c_str());
}

TEST(ReadWholeFile, AMissingFileIsNotFoundAndSaysWhich) {
  absl::StatusOr<std::string> got = ReadWholeFile("/nonexistent/dir/spec.json");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(std::string(got.status().message()), "cannot open /nonexistent/dir/spec.json: No such file or directory");
}

TEST(ReadWholeFile, ADirectoryIsAReadErrorNotAnEmptyFile) {
  absl::StatusOr<std::string> got = ReadWholeFile("/tmp");
  ASSERT_FALSE(got.ok());  // fopen of a directory succeeds on Linux; reading it fails with EISDIR
  EXPECT_NE(std::string(got.status().message()).find("/tmp"), std::string::npos) << got.status();
  EXPECT_NE(std::string(got.status().message()).find("Is a directory"), std::string::npos) << got.status();
}

TEST(ReadWholeFile, MoreThanTheLimitIsResourceExhaustedAndNamesTheLimit) {
  const std::string name = TempFile(std::string(1001, 'x'));
  absl::StatusOr<std::string> over = ReadWholeFile(name, 1000, "--token-file");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(std::string(over.status().message()), name + " is longer than 1000 bytes, the limit for --token-file");
  absl::StatusOr<std::string> at = ReadWholeFile(name, 1001);  // exactly the limit is allowed
  ASSERT_TRUE(at.ok()) << at.status();
  EXPECT_EQ(at->size(), 1001u);
  ::unlink(name.c_str());
}

TEST(ReadWholeFile, AnEndlessFileStopsAtTheLimit) {
  absl::StatusOr<std::string> got = ReadWholeFile("/dev/zero", 1 << 20, "one file");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(ReadWholeFile, DashIsStandardInput) {
  const std::string name = TempFile("from stdin\n");
  // Standard input of this process, for this test: the file, then back.
  const int saved = ::dup(STDIN_FILENO);
  ASSERT_NE(std::freopen(name.c_str(), "rb", stdin), nullptr);
  absl::StatusOr<std::string> got = ReadWholeFile("-");
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
  std::clearerr(stdin);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, "from stdin\n");
  ::unlink(name.c_str());
}

}  // namespace
}  // namespace tmapgen::io
