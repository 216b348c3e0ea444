// Text-format support through Protobuf (schema: proto/tmapgen.proto).
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "cli/textproto.h"
#include "proto/tmapgen.pb.h"
#include "src/report/report_proto.h"
#include "src/schema/proto_convert.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen::cli {
namespace {

// Protobuf reports 0-based lines and columns; first_line is the 1-based line of the chunk's first line.
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

// The quoted name after `marker` in a Protobuf message ('no field named "data_type"'), or "".
std::string QuotedAfter(const std::string& msg, std::string_view marker) {
  const size_t p = msg.find(marker);
  if (p == std::string::npos) return "";
  const size_t b = p + marker.size();
  const size_t q = msg.find('"', b);
  return q == std::string::npos ? std::string() : msg.substr(b, q - b);
}

// "did you mean" for the two errors users make most: a misspelled field name and an unknown enum value.
std::string Hint(const std::string& msg) {
  const google::protobuf::Descriptor* d = v1::TensorMapSpec::descriptor();
  const std::string field = QuotedAfter(msg, "has no field named \"");
  if (!field.empty()) {
    std::vector<std::string_view> names;
    for (int i = 0; i < d->field_count(); ++i) names.push_back(d->field(i)->name());
    return DidYouMean(field, names);
  }
  const std::string value = QuotedAfter(msg, "Unknown enumeration value of \"");
  const std::string of = QuotedAfter(msg, "for field \"");
  if (!value.empty() && !of.empty()) {
    const google::protobuf::FieldDescriptor* f = d->FindFieldByName(of);
    // The enum carries the cuda.h types only; a name of the data-type table (bf16, e4m3) gets the enumerator
    // that carries it (a data alias is not recorded in this format: the JSON and the command line keep it).
    const int row = of == "tensor_data_type" ? FindDataTypeName(value) : -1;
    if (row >= 0) {
      const DataTypeName& n = DataTypeNameRow(row);
      return StrCat(" (the text format takes the cuda.h enumerator: ", value,
                    n.holds.empty() ? "" : StrCat(" is ", n.holds, ", carried by"), n.holds.empty() ? " is " : " ",
                    FullName(n.type), ")");
    }
    if (f != nullptr && f->enum_type() != nullptr) {
      std::vector<std::string_view> names;
      for (int i = 0; i < f->enum_type()->value_count(); ++i) names.push_back(f->enum_type()->value(i)->name());
      return DidYouMean(value, names);
    }
  }
  return "";
}

}  // namespace

bool TextprotoAvailable() { return true; }

absl::Status ParseSpecTextproto(std::string_view text, size_t first_line, TensorMapSpec* s) {
  v1::TensorMapSpec m;
  google::protobuf::TextFormat::Parser parser;
  Collector collector(first_line > 0 ? first_line : 1);
  parser.RecordErrorsTo(&collector);
  if (!parser.ParseFromString(std::string(text), &m)) {
    size_t err_line = collector.line_, err_column = collector.column_;
    // Protobuf reports an unknown field name or enum value at the token after it; point at the token itself.
    std::string value = QuotedAfter(collector.error, "Unknown enumeration value of \"");
    if (value.empty()) value = QuotedAfter(collector.error, "has no field named \"");
    if (!value.empty()) {
      size_t offset = 0, line = first_line > 0 ? first_line : 1;
      for (size_t l = line; l < collector.line_ && offset < text.size(); ++l) {
        const size_t nl = text.find('\n', offset);
        offset = nl == std::string_view::npos ? text.size() : nl + 1;
      }
      const size_t here = std::min(text.size(), offset + (collector.column_ > 0 ? collector.column_ - 1 : 0));
      const size_t at = text.substr(0, here).rfind(value);
      if (at != std::string_view::npos) {
        size_t l = first_line > 0 ? first_line : 1, bol = 0;
        for (size_t i = 0; i < at; ++i)
          if (text[i] == '\n') { ++l; bol = i + 1; }
        err_line = l;
        err_column = at - bol + 1;
      }
    }
    return InputErrorAt(QuotedAfter(collector.error, "has no field named \""),
                        StrCat(collector.error, Hint(collector.error)), err_line, err_column);
  }
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
