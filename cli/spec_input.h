// spec_input.h: reading spec files for every command that takes them (validate, codegen, --remote).
//
// Contract
// - ReadSpecs() reads one input (a file name, or "-" for standard input) and hands every spec, or the
//   input error in its place, to a SpecSink, in input order. Every format streams in 1 MiB chunks
//   (src/schema/spec_stream.h): JSON Lines line by line, a JSON array element by element, the text
//   format block by block, so memory stays at one spec plus one chunk whatever the file's size. One
//   spec's text may be at most kMaxSpecBytes (64 MiB); a longer one is an input error for that spec and
//   reading goes on with the next (docs/schema.md, "Limits").
// - The format comes from `fmt`, else the file name (.jsonl/.ndjson, .json, .textproto/.txtpb/.pbtxt/.txt),
//   else the first bytes: '[' a JSON array, '{' JSON Lines when the first line is a whole JSON value (else
//   one pretty-printed document), anything else the text format.
// - A spec that cannot be parsed is an input error carrying its place, compiler style: "FILE:LINE:COLUMN",
//   1-based, with the file as named (standard input is "<stdin>"); every spec carries its place too (the line
//   it starts on). Reading goes on with the next spec wherever the format allows it. Where it does not (a
//   JSON array whose own syntax is broken), the error is the last thing handed to the sink.
// - An input that holds no spec at all (empty, or only blank lines) is an input error, not "0 specs": a
//   CI job must not take an empty file for a pass.
// - Returns a non-OK status only when the input cannot be opened or read (src/util/status.h: kNotFound,
//   kPermissionDenied, kDataLoss, ...); everything about the specs goes to the sink.
#ifndef TMAPGEN_CLI_SPEC_INPUT_H_
#define TMAPGEN_CLI_SPEC_INPUT_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/schema/input_error.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::cli {

enum class InputFormat { kAuto, kJson, kJsonl, kTextproto };

// Where a spec (or an input error) is: the file as the user named it ("<stdin>" for -), and the 1-based line
// and column (0 = unknown). Text() is the compiler-style "FILE:LINE:COLUMN" (or "FILE:LINE", "FILE").
struct SpecPlace {
  std::string file;
  size_t line = 0;
  size_t column = 0;
  std::string Text() const;
};

class SpecSink {
 public:
  virtual ~SpecSink() = default;
  virtual void Spec(const TensorMapSpec& spec) = 0;
  // `where` is the place of the error (SpecPlace::Text()).
  virtual void Error(const InputError& error, const std::string& where) = 0;
  // With the place of the spec or error; by default forwarded to Spec() / Error().
  virtual void SpecAt(const TensorMapSpec& spec, const SpecPlace&) { Spec(spec); }
  virtual void ErrorAt(const InputError& error, const SpecPlace& place) { Error(error, place.Text()); }
  // Called after each spec or error (progress displays).
  virtual void Tick() {}
};

absl::Status ReadSpecs(const std::string& name, InputFormat fmt, SpecSink* sink);

// The one spec in a file (--spec FILE): JSON or the text format, by name or by its first bytes. Errors
// are prefixed with the file's name.
absl::StatusOr<TensorMapSpec> ReadOneSpec(const std::string& name);

// The pieces, for callers that need one.
InputFormat FormatForName(std::string_view name);
InputFormat Sniff(std::string_view head);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_SPEC_INPUT_H_
