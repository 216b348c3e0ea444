// spec_input.cc: see spec_input.h for the contract.
#include "cli/spec_input.h"

#include <cerrno>
#include <cstdio>
#include <vector>

#include "cli/textproto.h"
#include "src/io/file.h"
#include "src/schema/json_diagnostics.h"
#include "src/schema/spec_json.h"
#include "src/schema/spec_stream.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::cli {
namespace {

bool EndsWith(std::string_view s, std::string_view suf) {
  return s.size() >= suf.size() && s.substr(s.size() - suf.size()) == suf;
}

constexpr size_t kChunk = size_t{1} << 20;

SpecPlace Place(const std::string& name, size_t line, size_t column = 0) {
  SpecPlace p;
  p.file = name;
  p.line = line;
  p.column = column;
  return p;
}
// The place of an error: its own position when the parser knows it, else the spec's start.
SpecPlace ErrorPlace(const std::string& name, const InputError& e, size_t spec_line) {
  return e.line != 0 ? Place(name, e.line, e.column) : Place(name, spec_line);
}

// Counts what was read, to tell an input with no spec at all (an error) from one with specs.
class CountingSink : public SpecSink {
 public:
  explicit CountingSink(SpecSink* inner) : inner_(inner) {}
  void Spec(const TensorMapSpec& s) override { ++n_; inner_->Spec(s); }
  void Error(const InputError& e, const std::string& where) override { ++n_; inner_->Error(e, where); }
  void SpecAt(const TensorMapSpec& s, const SpecPlace& p) override { ++n_; inner_->SpecAt(s, p); }
  void ErrorAt(const InputError& e, const SpecPlace& p) override { ++n_; inner_->ErrorAt(e, p); }
  void Tick() override { inner_->Tick(); }
  size_t count() const { return n_; }

 private:
  SpecSink* inner_;
  size_t n_ = 0;
};

// Hands the pieces of one input to the sink, each with its place (the file as shown: "<stdin>" for -).
class Reader {
 public:
  Reader(const std::string& name, InputFormat fmt, SpecSink* sink)
      : name_(name),
        fmt_(fmt),
        split_(fmt == InputFormat::kJsonl       ? StreamFormat::kJsonLines
               : fmt == InputFormat::kTextproto ? StreamFormat::kTextproto
                                                : StreamFormat::kJson),
        sink_(sink) {}

  void Feed(std::string_view bytes) {
    split_.Feed(bytes);
    Drain();
  }
  // Reads up to n bytes of `in` straight into the splitter's buffer; the count read (0: end or error).
  size_t FeedFrom(FILE* in, size_t n) {
    const size_t got = std::fread(split_.Room(n), 1, n, in);
    split_.Commit(got);
    Drain();
    return got;
  }
  void Finish() {
    split_.Finish();
    Drain();
  }

 private:
  void Drain() {
    SpecPiece p;
    while (split_.Next(&p)) {
      absl::Status st;
      switch (p.kind) {
        case SpecPiece::kSpec:
          if (fmt_ == InputFormat::kTextproto) st = ParseSpecTextproto(p.text, p.at.line, &spec_);
          else if (fmt_ == InputFormat::kJson && split_.is_array()) st = parser_.Parse(p.text, p.at, true, &spec_);
          else st = parser_.ParseSpecOrWrapped(p.text, p.at, true, &spec_);  // decode's output too
          if (st.ok()) {
            place_.line = p.at.line;  // the file name is set once, not copied for every spec
            sink_->SpecAt(spec_, place_);
          } else {
            const InputError e = InputErrorOf(st);
            sink_->ErrorAt(e, ErrorPlace(name_, e, p.at.line));
          }
          break;
        case SpecPiece::kTooLong:
        case SpecPiece::kError: {
          InputError e;
          e.line = p.at.line;
          e.column = p.at.column;
          e.message = StrCat("line ", e.line, ", column ", e.column, ": ", p.message);
          sink_->ErrorAt(e, Place(name_, e.line, e.column));
          break;
        }
      }
      sink_->Tick();
    }
  }

  const std::string name_;
  SpecPlace place_ = Place(name_, 0);
  InputFormat fmt_;
  SpecSplitter split_;
  SpecSink* sink_;
  SpecJsonParser parser_;
  TensorMapSpec spec_;
};

}  // namespace

InputFormat FormatForName(std::string_view name) {
  if (EndsWith(name, ".jsonl") || EndsWith(name, ".ndjson")) return InputFormat::kJsonl;
  if (EndsWith(name, ".json")) return InputFormat::kJson;
  if (EndsWith(name, ".textproto") || EndsWith(name, ".txtpb") || EndsWith(name, ".pbtxt") || EndsWith(name, ".txt"))
    return InputFormat::kTextproto;
  return InputFormat::kAuto;
}

InputFormat Sniff(std::string_view head) {
  size_t i = 0;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) ++i;
  if (i == head.size()) return InputFormat::kJsonl;
  if (head[i] == '[') return InputFormat::kJson;
  if (head[i] != '{') return InputFormat::kTextproto;
  // '{': JSON Lines when the first line is a whole JSON value, else one pretty-printed JSON document.
  const size_t nl = head.find('\n', i);
  if (nl == std::string_view::npos) return InputFormat::kJsonl;
  return json::IsJson(head.substr(i, nl - i)) ? InputFormat::kJsonl : InputFormat::kJson;
}

std::string SpecPlace::Text() const {
  if (line == 0) return file;
  if (column == 0) return StrCat(file, ":", line);
  return StrCat(file, ":", line, ":", column);
}

absl::Status ReadSpecs(const std::string& name, InputFormat fmt, SpecSink* out_sink) {
  CountingSink counting(out_sink);
  SpecSink* sink = &counting;
  const std::string shown = name == "-" ? std::string("<stdin>") : name;
  io::InputFile in(name);
  if (in.get() == nullptr) return ErrnoStatus(in.open_errno(), "cannot open", name);
  if (fmt == InputFormat::kAuto) fmt = FormatForName(name);
  std::vector<char> buf(size_t{1} << 16);  // the sniffed head; the rest is read into the splitter
  size_t n = 0;
  if (fmt == InputFormat::kAuto) {  // sniff the first 64 KiB
    while (n < (size_t{1} << 16)) {
      const size_t got = std::fread(buf.data() + n, 1, (size_t{1} << 16) - n, in.get());
      if (got == 0) break;
      n += got;
    }
    fmt = Sniff(std::string_view(buf.data(), n));
  }
  Reader reader(shown, fmt, sink);
  reader.Feed(std::string_view(buf.data(), n));
  while (reader.FeedFrom(in.get(), kChunk) > 0) {
  }
  if (std::ferror(in.get())) return ErrnoStatus(errno == 0 ? EIO : errno, "cannot read", name);
  reader.Finish();
  if (counting.count() == 0) {
    InputError e;
    e.message = "the input holds no spec (it is empty or blank): nothing was validated";
    sink->ErrorAt(e, Place(shown, 0));
  }
  return absl::OkStatus();
}

absl::StatusOr<TensorMapSpec> ReadOneSpec(const std::string& name) {
  absl::StatusOr<std::string> text = io::ReadWholeFile(name, kMaxSpecBytes, "one spec");
  if (!text.ok()) return text.status();
  InputFormat fmt = FormatForName(name);
  if (fmt == InputFormat::kAuto || fmt == InputFormat::kJsonl)
    fmt = Sniff(*text) == InputFormat::kTextproto ? InputFormat::kTextproto : InputFormat::kJson;
  TensorMapSpec spec;
  absl::Status st;
  if (fmt == InputFormat::kTextproto) {
    st = ParseSpecTextproto(*text, 1, &spec);
  } else {
    absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(*text);
    if (parsed.ok()) spec = *std::move(parsed);
    st = parsed.status();
  }
  if (!st.ok()) return Annotate(st, name);
  return spec;
}

}  // namespace tmapgen::cli
