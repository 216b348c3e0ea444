// json_reader_fuzz.cc: libFuzzer target for json::Reader, json::Writer and json::LineSplitter.
//
// Build and run (corpus outside the repository):
//   clang++-14 -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -I. fuzz/json_reader_fuzz.cc
//     src/json/json_reader.cc src/json/json_writer.cc -o /tmp/json_fuzz      (one command line)
//   mkdir -p /tmp/json_corpus && /tmp/json_fuzz -max_total_time=60 /tmp/json_corpus
//
// Each input is used four ways, each with an oracle that aborts on a violation:
// 1. A generic walk (PeekType + typed reads) that re-writes the document with Writer. A document that
//    reads must re-write to JSON that reads back and re-writes to the same bytes (compact and pretty),
//    and every number must convert consistently (uint64 / int64 / double agree with each other).
// 2. SkipValue + Finish on the same input must accept exactly what the walk accepts, and fail with the
//    same code at the same offset.
// 3. A random sequence of API calls (including misuse) driven by a seed from the input: errors are
//    sticky, positions in bounds, no crash.
// 4. LineSplitter over random chunkings (drained or not) must give the same lines as a reference split.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "src/json/json_reader.h"
#include "src/json/json_writer.h"

namespace {

using tmapgen::json::ErrorCode;
using tmapgen::json::LineSplitter;
using tmapgen::json::Reader;
using tmapgen::json::ReaderOptions;
using tmapgen::json::Type;
using tmapgen::json::Writer;
using tmapgen::json::WriterOptions;

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                          \
    }                                                                        \
  } while (0)

struct Rng {
  uint64_t s;
  uint64_t Next() {  // splitmix64
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(Next() % n); }
};

uint64_t Hash(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

void CheckErrorState(const Reader& r, size_t size) {
  CHECK(!r.ok());
  const auto& e = r.error();
  CHECK(e.code != ErrorCode::kNone);
  CHECK(e.line >= 1 && e.column >= 1 && e.offset <= size);
  CHECK(!e.message.empty());
  CHECK(!r.ErrorAt("x").empty());
}

// Converts a validated number token three ways and checks that the results agree.
void WriteNumber(std::string_view text, Writer* w) {
  Reader ru(text), ri(text), rd(text);
  uint64_t u = 0;
  int64_t i = 0;
  double d = 0;
  const bool ok_u = ru.ReadUint64(&u) && ru.Finish();
  const bool ok_i = ri.ReadInt64(&i) && ri.Finish();
  const bool ok_d = rd.ReadDouble(&d) && rd.Finish();
  for (const Reader* r : {&ru, &ri, &rd}) {
    CHECK(r->error().code != ErrorCode::kSyntax && r->error().code != ErrorCode::kTruncated);
    CHECK(r->error().code != ErrorCode::kUnexpectedType && r->error().code != ErrorCode::kUsage);
  }
  CHECK((ru.error().code == ErrorCode::kNotInteger) == (ri.error().code == ErrorCode::kNotInteger));
  if (ok_u && ok_i) CHECK(i >= 0 && static_cast<uint64_t>(i) == u);
  if (ok_u) CHECK(ok_d && d == static_cast<double>(u));
  if (ok_i) CHECK(ok_d && d == static_cast<double>(i));
  if (!ok_d) CHECK(rd.error().code == ErrorCode::kOutOfRange && !ok_u && !ok_i);
  if (ru.error().code == ErrorCode::kNegative) CHECK(text[0] == '-');
  if (ok_d) {
    // The writer's shortest form reads back bit for bit.
    Writer dw;
    dw.Double(d);
    Reader back(dw.str());
    double d2 = 1;
    CHECK(back.ReadDouble(&d2) && back.Finish());
    CHECK(std::memcmp(&d, &d2, sizeof d) == 0);
  }
  if (ok_d && d == 0 && std::signbit(d)) {
    w->Double(d);  // "-0" and "-0.0" are the integer 0 but keep their sign as doubles
  } else if (ok_u) {
    w->Uint(u);
  } else if (ok_i) {
    w->Int(i);
  } else if (ok_d) {
    w->Double(d);
  } else {
    w->Null();
  }
}

bool Walk(Reader* r, Writer* w) {
  switch (r->PeekType()) {
    case Type::kObject: {
      if (!r->BeginObject()) return false;  // the depth limit
      w->BeginObject();
      std::string_view key;
      while (r->NextKey(&key)) {
        w->Key(key);
        if (!Walk(r, w)) return false;
      }
      if (!r->ok()) return false;
      w->EndObject();
      return true;
    }
    case Type::kArray: {
      if (!r->BeginArray()) return false;
      w->BeginArray();
      while (r->NextElement()) {
        if (!Walk(r, w)) return false;
      }
      if (!r->ok()) return false;
      w->EndArray();
      return true;
    }
    case Type::kString: {
      std::string s;
      if (!r->ReadString(&s)) return false;
      w->String(s);
      return true;
    }
    case Type::kNumber: {
      std::string_view t;
      if (!r->ReadNumberText(&t)) return false;
      WriteNumber(t, w);
      return true;
    }
    case Type::kBool: {
      bool b;
      if (!r->ReadBool(&b)) return false;
      w->Bool(b);
      return true;
    }
    case Type::kNull:
      if (!r->ReadNull()) return false;
      w->Null();
      return true;
    case Type::kEnd:
      CHECK(false);  // a value is always pending where Walk is called
      return false;
    case Type::kError:
      return false;
  }
  return false;
}

// Reads `text` with Walk; returns whether it is a valid document, with its re-written form in *out.
bool ReadAndRewrite(std::string_view text, std::string* out, Reader* r, bool pretty = false) {
  WriterOptions wo;
  wo.pretty = pretty;
  Writer w(wo);
  const bool ok = Walk(r, &w) && r->Finish();
  if (ok) {
    CHECK(w.complete());
    CHECK(r->AtEnd());
    *out = w.str();
  } else {
    CheckErrorState(*r, text.size());
  }
  return ok;
}

void WalkOracle(std::string_view text) {
  Reader r(text);
  std::string w1;
  const bool ok = ReadAndRewrite(text, &w1, &r);

  // SkipValue must agree with the walk.
  Reader s(text);
  const bool ok_skip = s.SkipValue() && s.Finish();
  CHECK(ok == ok_skip);
  if (!ok) {
    CHECK(s.error().code == r.error().code);
    CHECK(s.error().offset == r.error().offset);
    return;
  }
  // Re-written text reads back, and a second rewrite is a fixed point, compact and pretty. (The first
  // rewrite may change a number's form: "9099999999.9999999999" is the double 9.1e9, written "9.1e+09",
  // which reads back as the integer 9100000000 and is then written as one.)
  Reader r2(w1);
  std::string w2;
  CHECK(ReadAndRewrite(w1, &w2, &r2));
  Reader r2b(w2);
  std::string w2b;
  CHECK(ReadAndRewrite(w2, &w2b, &r2b));
  CHECK(w2 == w2b);
  Reader r3(w2);
  std::string p1;
  CHECK(ReadAndRewrite(w2, &p1, &r3, /*pretty=*/true));
  Reader r4(p1);
  std::string w3;
  CHECK(ReadAndRewrite(p1, &w3, &r4));
  CHECK(w3 == w2);
}

void RandomCalls(std::string_view text, Rng* rng) {
  ReaderOptions opt;
  opt.max_depth = static_cast<int>(rng->Below(10));
  opt.first_line = 1 + rng->Below(3);
  Reader r(text, opt);
  std::string str;
  std::string_view view;
  bool saw_error = false;
  ErrorCode code = ErrorCode::kNone;
  size_t offset = 0;
  for (int step = 0; step < 64; ++step) {
    bool res = false;
    bool b;
    uint64_t u;
    int64_t i;
    double d;
    switch (rng->Below(18)) {
      case 0: res = r.PeekType() != Type::kError; break;
      case 1: res = r.BeginObject(); break;
      case 2: res = r.BeginArray(); break;
      case 3:
        res = r.NextKey(&view);
        if (res) CHECK(view.size() <= text.size());
        break;
      case 4: res = r.NextElement(); break;
      case 5: res = r.ReadString(&str); break;
      case 6: res = r.ReadStringView(&view, &b); break;
      case 7: res = r.ReadUint64(&u); break;
      case 8: res = r.ReadInt64(&i); break;
      case 9: res = r.ReadDouble(&d); break;
      case 10: res = r.ReadBool(&b); break;
      case 11: res = r.ReadNull(); break;
      case 12: res = r.ReadNumberText(&view); break;
      case 13: res = r.SkipValue(); break;
      case 14: res = r.AtEnd(); break;
      case 15: res = r.Finish(); break;
      case 16: {
        const size_t off = rng->Below(text.size() + 2);
        const auto loc = r.LocationOf(off);
        CHECK(loc.line >= opt.first_line && loc.column >= 1 && loc.offset <= text.size());
        CHECK(r.line() >= opt.first_line && r.column() >= 1 && r.offset() <= text.size());
        res = r.ok();
        break;
      }
      case 17:
        if (rng->Below(8) == 0) r.Fail(ErrorCode::kNone, "caller says no");
        res = r.ok();
        break;
    }
    CHECK(r.depth() >= 0 && r.depth() <= opt.max_depth);
    CHECK(r.offset() <= text.size());
    if (saw_error) {
      CHECK(!res);
      CHECK(r.error().code == code && r.error().offset == offset);
    } else if (!r.ok()) {
      saw_error = true;
      CheckErrorState(r, text.size());
      code = r.error().code;
      offset = r.error().offset;
      CHECK(r.error().line >= opt.first_line);
    }
  }
}

struct Line {
  std::string text;
  size_t no;
  bool operator==(const Line& o) const { return text == o.text && no == o.no; }
};

// Straightforward model of LineSplitter. *too_long_line: the line that exceeded max (0 if none).
std::vector<Line> ReferenceLines(std::string_view s, size_t max, size_t* too_long_line) {
  std::vector<Line> lines;
  *too_long_line = 0;
  size_t no = 0;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t nl = s.find('\n', pos);
    const bool has_nl = nl != std::string_view::npos;
    if (!has_nl) nl = s.size();
    std::string_view l = s.substr(pos, nl - pos);
    ++no;
    if (max != 0 && l.size() > max) {
      *too_long_line = no;
      return lines;
    }
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (l.find_first_not_of(" \t\r") != std::string_view::npos) lines.push_back({std::string(l), no});
    pos = nl + 1;
  }
  return lines;
}

void SplitterOracle(std::string_view text, Rng* rng) {
  const size_t max = rng->Below(3) == 0 ? 1 + rng->Below(40) : 0;
  size_t ref_too_long = 0;
  const std::vector<Line> ref = ReferenceLines(text, max, &ref_too_long);

  LineSplitter split(max);
  std::vector<Line> got;
  std::string_view line;
  size_t no = 0;
  // Chunks must stay valid until drained: keep them in `storage` (heap copies that do not move, so that
  // a stale view into a chunk is caught by ASan once the chunk is freed).
  std::deque<std::string> storage;
  const bool sometimes_undrained = rng->Below(2) == 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t n = 1 + rng->Below(rng->Below(4) == 0 ? text.size() : 8);
    const std::string_view piece = text.substr(pos, n);
    pos += piece.size();
    storage.emplace_back(piece);
    storage.back().reserve(32);  // always on the heap, never in the small-string buffer
    split.Feed(storage.back());
    if (sometimes_undrained && rng->Below(3) == 0) {
      // Take one line at most, then feed again without draining.
      if (split.Next(&line, &no)) got.push_back({std::string(line), no});
      continue;
    }
    while (split.Next(&line, &no)) got.push_back({std::string(line), no});
    // The drained chunk is no longer referenced: free it.
    storage.back().clear();
    storage.back().shrink_to_fit();
  }
  split.Finish();
  while (split.Next(&line, &no)) got.push_back({std::string(line), no});
  CHECK(!split.Next(&line, &no));
  CHECK(got == ref);
  CHECK(split.line_too_long() == (ref_too_long != 0));
  CHECK(split.error_line() == ref_too_long);

  // Each line is a JSON text of its own, with positions in file lines.
  for (const Line& l : got) {
    ReaderOptions opt;
    opt.first_line = l.no;
    Reader r(l.text, opt);
    if (!(r.SkipValue() && r.Finish())) {
      CHECK(r.error().line == l.no);  // a line holds no LF
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Rng rng{Hash(text)};
  WalkOracle(text);
  RandomCalls(text, &rng);
  SplitterOracle(text, &rng);
  return 0;
}
