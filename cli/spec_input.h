// spec_input.h: reading spec files for every command that takes them (validate, codegen, --remote).
//
// Contract
// - ReadSpecs() reads one input (a file name, or "-" for standard input) and hands every spec, or the
//   input error in its place, to a SpecSink, in input order. JSON Lines stream in 1 MiB chunks, so files
//   of millions of specs are never held at once; JSON (one object or an array) and the Protobuf text
//   format ("---" lines between specs) are read whole.
// - The format comes from `fmt`, else the file name (.jsonl/.ndjson, .json, .textproto/.txtpb/.pbtxt/.txt),
//   else the first bytes: '[' a JSON array, '{' JSON Lines when the first line is a whole JSON value (else
//   one pretty-printed document), anything else the text format.
// - A spec that cannot be parsed is an input error carrying its place, compiler style: "FILE:LINE:COLUMN",
//   1-based, with the file as named (standard input is "<stdin>"); every spec carries its place too (the line
//   it starts on). Reading goes on with the next spec wherever the format allows it.
// - An input that holds no spec at all (empty, or only blank lines) is an input error, not "0 specs": a
//   CI job must not take an empty file for a pass.
// - Returns false only when the input cannot be opened or read (*error says why).
#ifndef TMAPGEN_CLI_SPEC_INPUT_H_
#define TMAPGEN_CLI_SPEC_INPUT_H_

#include <cstdio>
#include <string>
#include <string_view>

#include "src/schema/spec_json.h"
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

bool ReadSpecs(const std::string& name, InputFormat fmt, SpecSink* sink, std::string* error);

// The pieces, for callers that need one.
bool ReadAll(FILE* f, std::string* out);
InputFormat FormatForName(std::string_view name);
InputFormat Sniff(std::string_view head);

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_SPEC_INPUT_H_
