#include "src/trace/record_json.h"

#include <algorithm>
#include <type_traits>

#include "src/schema/spec_json.h"
#include "src/tmap/types.h"
#include "src/trace/call_spec.h"
#include "src/util/strings.h"

namespace tmapgen::trace {
namespace {

// The raw parameter writer for calls the spec cannot represent: the schema's keys, enums by short name
// where cuda.h defines the value, else the integer the driver got.
template <typename E>
void RawEnum(json::Writer* w, std::string_view key, uint32_t v, int count) {
  w->Key(key);
  if (v < static_cast<uint32_t>(count)) {
    w->String(ShortName(static_cast<E>(v)));
  } else {
    w->Uint(v);
  }
}

// An argument array: its entries, or null when it could not be read.
template <typename T>
void RawArray(json::Writer* w, std::string_view key, const T* v, uint32_t n, bool unreadable) {
  w->Key(key);
  if (unreadable) {
    w->Null();
    return;
  }
  w->BeginArray();
  for (uint32_t i = 0; i < n; ++i) {
    if constexpr (std::is_signed_v<T>) w->Int(v[i]);
    else w->Uint(v[i]);
  }
  w->EndArray();
}

void WriteRawParams(const EncodeCall& c, json::Writer* w) {
  TensorMapSpec s;
  CallToSpec(c, &s);
  const uint32_t n = std::min<uint32_t>(c.rank, kMaxRank);
  const uint32_t k = n >= 2 ? std::min<uint32_t>(n - 2, 3) : 0;
  w->Key("mode").String(Name(s.mode));
  RawEnum<DataType>(w, "tensor_data_type", c.data_type, kNumDataTypes);
  w->Key("tensor_rank").Uint(c.rank);
  w->Key("global_address").String(Hex(c.global_address));
  RawArray(w, "global_dim", c.global_dim, n, c.unreadable & kUnreadableGlobalDim);
  RawArray(w, "global_strides", c.global_strides, n > 0 ? n - 1 : 0, c.unreadable & kUnreadableGlobalStrides);
  if (s.mode == Mode::kTiled) RawArray(w, "box_dim", c.box_dim, n, c.unreadable & kUnreadableBoxDim);
  RawArray(w, "element_strides", c.element_strides, n, c.unreadable & kUnreadableElementStrides);
  RawEnum<Interleave>(w, "interleave", c.interleave, kNumInterleaves);
  RawEnum<Swizzle>(w, "swizzle", c.swizzle, kNumSwizzles);
  RawEnum<L2Promotion>(w, "l2_promotion", c.l2_promotion, kNumL2Promotions);
  RawEnum<OobFill>(w, "oob_fill", c.oob_fill, kNumOobFills);
  if (s.mode == Mode::kIm2col) {
    RawArray(w, "pixel_box_lower_corner", c.lower_corner, k, c.unreadable & kUnreadableLowerCorner);
    RawArray(w, "pixel_box_upper_corner", c.upper_corner, k, c.unreadable & kUnreadableUpperCorner);
  }
  if (IsWideMode(s.mode)) {
    w->Key("pixel_box_lower_corner_width").Int(c.lower_corner_width);
    w->Key("pixel_box_upper_corner_width").Int(c.upper_corner_width);
    RawEnum<Im2colWideMode>(w, "wide_mode", c.wide_mode, kNumIm2colWideModes);
  }
  if (IsIm2colMode(s.mode)) {
    w->Key("channels_per_pixel").Uint(c.channels_per_pixel);
    w->Key("pixels_per_column").Uint(c.pixels_per_column);
  }
  if (s.has_target()) w->Key("target").String(Name(s.target));
  if (s.Has(kFieldDriverVersion)) w->Key("driver_version").Uint(s.driver_version);
}

constexpr std::string_view kUnreadableNames[] = {"global_dim", "global_strides", "box_dim", "element_strides",
                                                 "pixel_box_lower_corner", "pixel_box_upper_corner", "tensor_map"};

void WriteTrace(const EncodeCall& c, uint64_t count, json::Writer* w) {
  w->Key("trace").BeginObject();
  w->Key("call").String(Name(c.kind));
  w->Key("result").String(CuResultName(c.result));
  w->Key("cu_result").Int(c.result);
  w->Key("count").Uint(count);
  w->Key("pid").Int(c.pid);
  w->Key("tid").Int(c.tid);
  w->Key("seq").Uint(c.seq);
  const std::string_view caller = FieldView(c.caller, kCallerMax);
  w->Key("caller").String(caller.empty() ? std::string_view("unknown") : caller);
  const std::string_view sym = FieldView(c.caller_symbol, kSymbolMax);
  if (!sym.empty()) w->Key("caller_symbol").String(sym);
  if (!caller.empty()) w->Key("caller_offset").String(Hex(c.caller_offset));
  if (c.unreadable != 0) {
    w->Key("unreadable").BeginArray();
    for (int i = 0; i < 7; ++i)
      if (c.unreadable & (1u << i)) w->String(kUnreadableNames[i]);
    w->EndArray();
  }
  if (c.kind == CallKind::kReplaceAddress) {
    w->Key("new_address").String(Hex(c.global_address));
    if (c.flags & kHasSource) w->Key("replaced_from_seq").Uint(c.source_seq);
    if (c.flags & kHasBytesBefore) w->Key("bytes_before").String(BytesHex(c.bytes_before));
  }
  w->EndObject();
}

}  // namespace

bool IsReplayable(const EncodeCall& c) { return c.kind != CallKind::kReplaceAddress || (c.flags & kHasSource); }

std::string BytesHex(const uint64_t (&words)[16]) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(256, '0');
  for (int i = 0; i < 128; ++i) {
    const unsigned b = static_cast<unsigned>((words[i / 8] >> (8 * (i % 8))) & 0xff);
    out[2 * i] = kDigits[b >> 4];
    out[2 * i + 1] = kDigits[b & 15];
  }
  return out;
}

void AppendRecordJson(const EncodeCall& c, uint64_t count, std::string* out) {
  json::Writer w;
  if (IsReplayable(c)) {
    TensorMapSpec spec;
    if (CallToSpec(c, &spec) == 0) {
      // The canonical spec object, reopened to add the record's members.
      json::Writer sw;
      WriteSpecJson(spec, &sw);
      std::string text = sw.Take();
      text.pop_back();  // the closing brace
      out->append(text);
    } else {
      w.BeginObject();
      WriteRawParams(c, &w);
      std::string text = w.Take();
      out->append(text);
    }
    out->push_back(',');
  } else {
    out->push_back('{');
  }
  json::Writer tw;
  tw.BeginObject();
  if (c.flags & kHasBytes) tw.Key("bytes").String(BytesHex(c.bytes));
  WriteTrace(c, count, &tw);
  tw.EndObject();
  std::string t = tw.Take();
  out->append(t, 1, std::string::npos);  // the members and the closing brace
}

}  // namespace tmapgen::trace
