#include "cli/spec_input.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "cli/textproto.h"
#include "src/json/json_reader.h"
#include "src/util/strings.h"

namespace tmapgen::cli {
namespace {

bool EndsWith(std::string_view s, std::string_view suf) {
  return s.size() >= suf.size() && s.substr(s.size() - suf.size()) == suf;
}

// A spec, or an object that carries one under "spec" (the output of `tmapgen decode --format json`), so that
// decoded maps can be validated again; the spec's own error is kept when neither form parses.
bool ParseSpecOrWrapped(std::string_view text, size_t line_no, TensorMapSpec* spec, InputError* err) {
  if (ParseSpecJson(text, line_no, spec, err)) return true;
  if (text.find("\"spec\"") == std::string_view::npos) return false;
  json::ReaderOptions ro;
  ro.first_line = line_no;
  ro.max_depth = 16;
  json::Reader r(text, ro);
  if (!r.BeginObject()) return false;
  std::string_view key;
  while (r.NextKey(&key)) {
    if (key != "spec" || r.PeekType() != json::Type::kObject) continue;
    InputError inner;
    if (!ReadSpecObject(&r, spec, &inner)) { *err = inner; return false; }
    return true;
  }
  return false;
}

void ReadJsonLines(const std::string& name, std::string_view head, FILE* f, SpecSink* sink) {
  json::LineSplitter split;
  std::string_view line;
  size_t line_no = 0;
  TensorMapSpec spec;
  InputError err;
  auto drain = [&]() {
    while (split.Next(&line, &line_no)) {
      if (ParseSpecOrWrapped(line, line_no, &spec, &err)) sink->Spec(spec);
      else sink->Error(err, StrCat(name, ":", line_no));
      sink->Tick();
    }
  };
  split.Feed(head);
  drain();
  std::vector<char> buf(1 << 20);
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
    split.Feed(std::string_view(buf.data(), n));
    drain();
  }
  split.Finish();
  drain();
  if (split.line_too_long()) {
    InputError e;
    e.line = split.error_line();
    e.message = StrCat("line ", e.line, ": longer than ", json::LineSplitter::kDefaultMaxLineBytes, " bytes");
    sink->Error(e, StrCat(name, ":", e.line));
  }
}

void ReadJsonDocument(const std::string& name, const std::string& text, SpecSink* sink) {
  json::ReaderOptions ro;
  ro.max_depth = 8;
  json::Reader r(text, ro);
  TensorMapSpec spec;
  InputError err;
  if (r.PeekType() != json::Type::kArray) {
    if (ParseSpecOrWrapped(text, 1, &spec, &err)) sink->Spec(spec);
    else sink->Error(err, name);
    sink->Tick();
    return;
  }
  r.BeginArray();
  int i = 0;
  while (r.NextElement()) {
    if (ReadSpecObject(&r, &spec, &err)) sink->Spec(spec);
    else sink->Error(err, StrCat(name, "[", i, "]"));
    sink->Tick();
    ++i;
    if (!r.ok()) break;
  }
  if (!r.ok() && err.message.empty()) {
    err.message = r.ErrorAt("");
    sink->Error(err, name);
  }
  if (r.ok() && !r.Finish()) {
    InputError e;
    e.message = r.ErrorAt("");
    sink->Error(e, name);
  }
}

// Text format: specs separated by lines holding only "---".
void ReadTextproto(const std::string& name, const std::string& text, SpecSink* sink) {
  size_t start = 0, line = 1;
  while (start <= text.size()) {
    size_t sep = start, cur_line = line, end = text.size(), next = text.size() + 1;
    while (sep < text.size()) {
      const size_t nl = text.find('\n', sep);
      const size_t le = nl == std::string::npos ? text.size() : nl;
      std::string_view l(text.data() + sep, le - sep);
      while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.remove_suffix(1);
      if (l == "---") {
        end = sep;
        next = le + 1;
        break;
      }
      ++cur_line;
      sep = le + 1;
    }
    std::string_view chunk(text.data() + start, std::min(end, text.size()) - start);
    if (chunk.find_first_not_of(" \t\r\n") != std::string_view::npos) {
      TensorMapSpec spec;
      InputError err;
      if (ParseSpecTextproto(chunk, line, &spec, &err)) sink->Spec(spec);
      else sink->Error(err, StrCat(name, ":", line));
      sink->Tick();
    }
    line = cur_line + 1;
    start = next;
    if (next > text.size()) break;
  }
}

}  // namespace

bool ReadAll(FILE* f, std::string* out) {
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  return std::ferror(f) == 0;
}

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
  json::Reader r(head.substr(i, nl - i));
  return (r.SkipValue() && r.Finish()) ? InputFormat::kJsonl : InputFormat::kJson;
}

bool ReadSpecs(const std::string& name, InputFormat fmt, SpecSink* sink, std::string* error) {
  FILE* f = name == "-" ? stdin : std::fopen(name.c_str(), "rb");
  if (f == nullptr) {
    *error = StrCat("cannot open ", name, ": ", std::strerror(errno));
    return false;
  }
  if (fmt == InputFormat::kAuto) fmt = FormatForName(name);
  std::string head;
  if (fmt == InputFormat::kAuto) {
    char buf[1 << 16];
    const size_t n = std::fread(buf, 1, sizeof buf, f);
    head.assign(buf, n);
    fmt = Sniff(head);
  }
  bool ok = true;
  if (fmt == InputFormat::kJsonl) {
    ReadJsonLines(name, head, f, sink);
    ok = std::ferror(f) == 0;
  } else {
    std::string text = std::move(head);
    ok = ReadAll(f, &text);
    if (fmt == InputFormat::kJson) ReadJsonDocument(name, text, sink);
    else ReadTextproto(name, text, sink);
  }
  if (f != stdin) std::fclose(f);
  if (!ok) *error = StrCat("cannot read ", name);
  return ok;
}

}  // namespace tmapgen::cli
