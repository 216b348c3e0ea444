// json_sink.h: one body of code for both forms of a JSON value of fixed shape (a spec, a report's members):
// the body is a template over a sink, and each sink writes the body's keys and values in its own way.
//
// - CompactSink writes compact bytes through a json::RawText (straight into a buffer with room asked
//   beforehand): each key as the literal of its compact bytes, punctuation included, no state per call.
// - WriterSink makes json::Writer calls (pretty output, and a writer in an error state): the writer's state
//   decides commas and indentation.
// The body names each key with one of the TMAPGEN_JSON_* macros below, which spell the key's compact bytes
// at compile time (",\"valid\":", "{\"rule\":", ...); WriterSink takes the key and its brackets back out of
// those bytes, so the two forms cannot drift apart: there is one list of members.
//
// Room: CompactSink::Room(n) asks the RawText's writer for n more bytes; WriterSink ignores it.
// Str: text that may hold any byte (quoted and escaped); Plain: text that needs no escaping (tmapgen's own
// table names; CompactSink copies it as it is).
#ifndef TMAPGEN_SRC_JSON_JSON_SINK_H_
#define TMAPGEN_SRC_JSON_JSON_SINK_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "src/json/json_writer.h"

#define TMAPGEN_JSON_K(key) ",\"" key "\":"      // a member after the first of its object
#define TMAPGEN_JSON_KO(key) ",\"" key "\":{"    // ... whose value is an object
#define TMAPGEN_JSON_KA(key) ",\"" key "\":["    // ... whose value is an array
#define TMAPGEN_JSON_FK(key) "\"" key "\":"      // the first member of an object just begun
#define TMAPGEN_JSON_FKA(key) "\"" key "\":["    // ... whose value is an array
#define TMAPGEN_JSON_OK(key) "{\"" key "\":"     // an object (an array's element, a value) and its first member

namespace tmapgen::json {

class CompactSink {
 public:
  // Writes from where o stands; raw() is where it stands now (a copy of o: held by value, so that its position
  // stays in a register across the body).
  explicit CompactSink(const RawText& o) : o_(o) {}
  void Room(size_t n) { o_.Room(n); }
  template <size_t N>
  void M(const char (&member)[N]) { o_.Lit(member); }
  void Sep(bool* first) {  // before an element of an array
    if (!*first) o_.Lit(",");
    *first = false;
  }
  void EndObject() { o_.Lit("}"); }
  void EndArray() { o_.Lit("]"); }
  void Str(std::string_view v) { o_.Str(v); }
  void Plain(std::string_view v) { o_.Plain(v); }
  void Bool(bool b) {
    if (b) o_.Lit("true"); else o_.Lit("false");
  }
  void Null() { o_.Lit("null"); }
  void U(uint64_t x) { o_.U(x); }
  void I(int64_t x) { o_.I(x); }
  void HexStr(uint64_t x) { o_.HexStr(x); }  // "0x..." lowercase, as RawText::HexStr
  template <typename T>
  void Arr(const T* v, uint32_t n) { o_.Arr(v, n); }
  RawText* raw() { return &o_; }

 private:
  RawText o_;
};

class WriterSink {
 public:
  explicit WriterSink(Writer* w) : w_(w) {}
  void Room(size_t) {}
  template <size_t N>
  void M(const char (&member)[N]) {  // undoes the framing of the TMAPGEN_JSON_* macros
    const char* k = member;
    size_t n = N - 1;
    if (*k == ',') ++k, --n;
    if (*k == '{') w_->BeginObject(), ++k, --n;
    const char open = k[n - 1];  // ':' or the bracket after it
    if (open != ':') --n;
    w_->Key(std::string_view(k + 1, n - 3));  // without the quotes and the colon
    if (open == '{') w_->BeginObject();
    if (open == '[') w_->BeginArray();
  }
  void Sep(bool* first) { *first = false; }
  void EndObject() { w_->EndObject(); }
  void EndArray() { w_->EndArray(); }
  void Str(std::string_view v) { w_->String(v); }
  void Plain(std::string_view v) { w_->String(v); }
  void Bool(bool b) { w_->Bool(b); }
  void Null() { w_->Null(); }
  void U(uint64_t x) { w_->Uint(x); }
  void I(int64_t x) { w_->Int(x); }
  void HexStr(uint64_t x) {  // the same text as CompactSink's
    char buf[24 + 32];         // RawText::HexStr writes at most 20 bytes
    RawText t(buf);
    t.HexStr(x);
    w_->String(std::string_view(buf + 1, static_cast<size_t>(t.end() - buf) - 2));
  }
  template <typename T>
  void Arr(const T* v, uint32_t n) {
    w_->BeginArray();
    for (uint32_t i = 0; i < n; ++i) {
      if constexpr (std::is_signed_v<T>) w_->Int(v[i]); else w_->Uint(v[i]);
    }
    w_->EndArray();
  }
  Writer* writer() { return w_; }

 private:
  Writer* w_;
};

}  // namespace tmapgen::json

#endif  // TMAPGEN_SRC_JSON_JSON_SINK_H_
