// InputError <-> absl::Status: the field, line and column survive the trip and a prefix.
#include "src/schema/input_error.h"

#include <gtest/gtest.h>

#include "src/util/status.h"

namespace tmapgen {
namespace {

TEST(InputError, RoundTripThroughAStatus) {
  InputError e;
  e.field = "global dim[2] \"odd\" name";  // any bytes
  e.line = 3;
  e.column = 17;
  e.message = "line 3, column 17: global_dim[2]: expected an unsigned integer, got -4";
  const absl::Status s = InputErrorStatus(e);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(StatusMessage(s), e.message);
  EXPECT_EQ(InputErrorOf(s), e);
  EXPECT_EQ(InputErrorStatus(e, absl::StatusCode::kResourceExhausted).code(), absl::StatusCode::kResourceExhausted);
}

TEST(InputError, AtBuildsTheMessage) {
  const InputError a = InputErrorOf(InputErrorAt("box_dim[1]", "value 4294967296 does not fit in 32 bits", 2, 9));
  EXPECT_EQ(a.message, "line 2, column 9: box_dim[1]: value 4294967296 does not fit in 32 bits");
  EXPECT_EQ(a.field, "box_dim[1]");
  EXPECT_EQ(a.line, 2u);
  EXPECT_EQ(a.column, 9u);
  const InputError b = InputErrorOf(InputErrorAt("global_dim", "missing"));
  EXPECT_EQ(b.message, "global_dim: missing");
  EXPECT_EQ(b.line, 0u);
  EXPECT_EQ(InputErrorOf(InputErrorAt("", "unexpected end of input", 1, 5)).message, "line 1, column 5: unexpected end of input");
}

TEST(InputError, AnnotateKeepsTheFieldAndAPlainStatusHasNone) {
  const absl::Status s = Annotate(InputErrorAt("swizzle", "unknown value", 4, 2), "specs.jsonl");
  EXPECT_EQ(StatusMessage(s), "specs.jsonl: line 4, column 2: swizzle: unknown value");
  const InputError e = InputErrorOf(s);
  EXPECT_EQ(e.field, "swizzle");
  EXPECT_EQ(e.line, 4u);
  EXPECT_EQ(e.message, StatusMessage(s));
  const InputError plain = InputErrorOf(absl::InvalidArgumentError("no place"));
  EXPECT_EQ(plain.message, "no place");
  EXPECT_TRUE(plain.field.empty());
  EXPECT_EQ(plain.line, 0u);
  EXPECT_TRUE(Annotate(absl::OkStatus(), "x").ok());
}

TEST(Status, ErrnoCodesFollowTheVocabulary) {
  EXPECT_EQ(ErrnoStatus(ENOENT, "cannot open", "a.json").code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(StatusMessage(ErrnoStatus(ENOENT, "cannot open", "a.json")), "cannot open a.json: No such file or directory");
  EXPECT_EQ(ErrnoStatus(EACCES, "cannot open", "a").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(ErrnoStatus(EISDIR, "cannot read", "a").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrnoStatus(EIO, "cannot read", "a").code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(ErrnoStatus(ENOMEM, "cannot read", "a").code(), absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace tmapgen
