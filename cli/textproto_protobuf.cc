// Text-format support through Protobuf (schema: proto/tmapgen.proto).
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "cli/textproto.h"
#include "proto/tmapgen.pb.h"
#include "src/schema/proto_convert.h"
#include "src/util/strings.h"

namespace tmapgen::cli {
namespace {

class Collector : public google::protobuf::io::ErrorCollector {
 public:
  explicit Collector(size_t first_line) : first_line_(first_line) {}
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
    if (!error.empty()) return;
    line_ = first_line_ + static_cast<size_t>(line);
    column_ = static_cast<size_t>(column) + 1;
    error = message;
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
  std::string error;
  size_t line_ = 0, column_ = 0;

 private:
  size_t first_line_;
};

}  // namespace

bool TextprotoAvailable() { return true; }

absl::Status ParseSpecTextproto(std::string_view text, size_t first_line, TensorMapSpec* s) {
  v1::TensorMapSpec m;
  google::protobuf::TextFormat::Parser parser;
  Collector collector(first_line > 0 ? first_line - 1 : 0);
  parser.RecordErrorsTo(&collector);
  if (!parser.ParseFromString(std::string(text), &m))
    return InputErrorAt("", collector.error, collector.line_, collector.column_);
  return SpecFromProto(m, s);
}

namespace {
std::string Print(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::TextFormat::PrintToString(m, &out);
  return out;
}
}  // namespace

std::string ReportTextproto(int index, const TensorMapSpec& s, const Validation& v, const Encoding& enc) {
  v1::Report r;
  FillReport(index, s, v, enc, &r);
  return Print(r);
}

std::string InputErrorTextproto(int index, const InputError& e) {
  v1::Report r;
  FillInputErrorReport(index, e, &r);
  return Print(r);
}

}  // namespace tmapgen::cli
