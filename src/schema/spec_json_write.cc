// spec_json_write.cc: WriteSpecJson (see spec_json.h). Apart from the reader (spec_json.cc) so that what
// only writes specs (the trace injection library, cmake/trace_inject.cmake) does not pull in simdjson.
#include "src/schema/spec_json.h"

#include <charconv>
#include <cstring>
#include <string>
#include <type_traits>

#include "src/util/strings.h"

namespace tmapgen {

namespace {

void WriteSpecJsonWithCalls(const TensorMapSpec& s, json::Writer* w);

template <size_t N>
void WriteU64Array(json::Writer* w, const char (&key)[N], const uint64_t* v, uint32_t n) {
  w->Key(key).BeginArray();
  for (uint32_t i = 0; i < n; ++i) w->Uint(v[i]);
  w->EndArray();
}
template <size_t N>
void WriteU32Array(json::Writer* w, const char (&key)[N], const uint32_t* v, uint32_t n) {
  w->Key(key).BeginArray();
  for (uint32_t i = 0; i < n; ++i) w->Uint(v[i]);
  w->EndArray();
}
template <size_t N>
void WriteI32Array(json::Writer* w, const char (&key)[N], const int32_t* v, uint32_t n) {
  w->Key(key).BeginArray();
  for (uint32_t i = 0; i < n; ++i) w->Int(v[i]);
  w->EndArray();
}

}  // namespace

// The compact form, written through a pointer into the writer's buffer and appended as one value: the same
// bytes as the Writer calls below (tests/schema: WriteSpecJson compact vs pretty, and
// scripts/check-same-output.sh), a fifth of the instructions (docs/perf.md, section 13).
// Room for the compact form: every key and punctuation (under 600 bytes), 14 integers of at most 21
// bytes each plus 5 arrays of 5, and the strings' QuotedBound (the table names are under 48 bytes).
size_t CompactSpecJsonBound(const TensorMapSpec& s) {
  return 1024 + 40 * 21 + 12 * json::Writer::QuotedBound(48) + json::Writer::QuotedBound(s.name.size());
}

void WriteCompactSpecJson(const TensorMapSpec& s, json::RawText* out) {
  json::RawText& o = *out;
  const uint32_t rank = s.rank > kMaxRank ? kMaxRank : s.rank;
  o.Lit("{");
  if (!s.name.empty()) {
    o.Lit("\"name\":");
    o.Str(s.name);
    o.Lit(",");
  }
  o.Lit("\"mode\":");
  o.Plain(Name(s.mode));
  o.Lit(",\"direction\":");
  o.Plain(Name(s.direction));
  if (s.direction == Direction::kReduce || s.Has(kFieldReduceOp)) {
    o.Lit(",\"reduce_op\":");
    o.Plain(Name(s.reduce_op));
  }
  o.Lit(",\"tensor_data_type\":");
  o.Plain(FullName(s.data_type));
  o.Lit(",\"tensor_rank\":");
  o.U(s.rank);
  if (s.Has(kFieldGlobalAddress)) {
    o.Lit(",\"global_address\":");
    o.HexStr(s.global_address);
  }
  o.Lit(",\"global_dim\":");
  o.Arr(s.global_dim.data(), rank);
  o.Lit(",\"global_strides\":");
  o.Arr(s.global_strides.data(), rank > 0 ? rank - 1 : 0);
  if (!IsIm2colMode(s.mode) || s.Has(kFieldBoxDim)) {
    o.Lit(",\"box_dim\":");
    o.Arr(s.box_dim.data(), rank);
  }
  o.Lit(",\"element_strides\":");
  o.Arr(s.element_strides.data(), rank);
  o.Lit(",\"interleave\":");
  o.Plain(FullName(s.interleave));
  o.Lit(",\"swizzle\":");
  o.Plain(FullName(s.swizzle));
  o.Lit(",\"l2_promotion\":");
  o.Plain(FullName(s.l2_promotion));
  o.Lit(",\"oob_fill\":");
  o.Plain(FullName(s.oob_fill));
  const uint32_t ncorner = rank >= 2 ? rank - 2 : 0;
  if (s.mode == Mode::kIm2col || s.Has(kFieldLowerCorner)) {
    o.Lit(",\"pixel_box_lower_corner\":");
    o.Arr(s.pixel_box_lower_corner.data(), ncorner > 3 ? 3 : ncorner);
  }
  if (s.mode == Mode::kIm2col || s.Has(kFieldUpperCorner)) {
    o.Lit(",\"pixel_box_upper_corner\":");
    o.Arr(s.pixel_box_upper_corner.data(), ncorner > 3 ? 3 : ncorner);
  }
  if (IsWideMode(s.mode) || s.Has(kFieldLowerCornerWidth)) {
    o.Lit(",\"pixel_box_lower_corner_width\":");
    o.I(s.pixel_box_lower_corner_width);
  }
  if (IsWideMode(s.mode) || s.Has(kFieldUpperCornerWidth)) {
    o.Lit(",\"pixel_box_upper_corner_width\":");
    o.I(s.pixel_box_upper_corner_width);
  }
  if (IsIm2colMode(s.mode) || s.Has(kFieldChannelsPerPixel)) {
    o.Lit(",\"channels_per_pixel\":");
    o.U(s.channels_per_pixel);
  }
  if (IsIm2colMode(s.mode) || s.Has(kFieldPixelsPerColumn)) {
    o.Lit(",\"pixels_per_column\":");
    o.U(s.pixels_per_column);
  }
  if (IsWideMode(s.mode) || s.Has(kFieldWideMode)) {
    o.Lit(",\"wide_mode\":");
    o.Plain(FullName(s.wide_mode));
  }
  if (s.has_target()) {
    o.Lit(",\"target\":");
    o.Plain(Name(s.target));
  }
  if (s.Has(kFieldSmemAddress)) {
    o.Lit(",\"smem_address\":");
    o.HexStr(s.smem_address);
  }
  if (s.Has(kFieldSmemAlignment)) {
    o.Lit(",\"smem_alignment\":");
    o.U(s.smem_alignment);
  }
  if (s.Has(kFieldDriverVersion)) {
    o.Lit(",\"driver_version\":");
    o.U(s.driver_version);
  }
  o.Lit("}");
}

void WriteSpecJson(const TensorMapSpec& s, json::Writer* w) {
  if (w->pretty()) return WriteSpecJsonWithCalls(s, w);
  char* const begin = w->RawBegin(CompactSpecJsonBound(s));  // written in the writer's buffer, no copy
  if (begin == nullptr) return;
  json::RawText o(begin);
  WriteCompactSpecJson(s, &o);
  w->RawEnd(o.end());
}

namespace {

void WriteSpecJsonWithCalls(const TensorMapSpec& s, json::Writer* w) {
  const uint32_t rank = s.rank > kMaxRank ? kMaxRank : s.rank;
  w->BeginObject();
  if (!s.name.empty()) w->Key("name").String(s.name);
  w->Key("mode").String(Name(s.mode));
  w->Key("direction").String(Name(s.direction));
  if (s.direction == Direction::kReduce || s.Has(kFieldReduceOp)) w->Key("reduce_op").String(Name(s.reduce_op));
  w->Key("tensor_data_type").String(FullName(s.data_type));
  w->Key("tensor_rank").Uint(s.rank);
  if (s.Has(kFieldGlobalAddress)) w->Key("global_address").String(Hex(s.global_address));
  WriteU64Array(w, "global_dim", s.global_dim.data(), rank);
  WriteU64Array(w, "global_strides", s.global_strides.data(), rank > 0 ? rank - 1 : 0);
  if (!IsIm2colMode(s.mode) || s.Has(kFieldBoxDim)) WriteU32Array(w, "box_dim", s.box_dim.data(), rank);
  WriteU32Array(w, "element_strides", s.element_strides.data(), rank);
  w->Key("interleave").String(FullName(s.interleave));
  w->Key("swizzle").String(FullName(s.swizzle));
  w->Key("l2_promotion").String(FullName(s.l2_promotion));
  w->Key("oob_fill").String(FullName(s.oob_fill));
  const uint32_t ncorner = rank >= 2 ? rank - 2 : 0;
  if (s.mode == Mode::kIm2col || s.Has(kFieldLowerCorner))
    WriteI32Array(w, "pixel_box_lower_corner", s.pixel_box_lower_corner.data(), ncorner > 3 ? 3 : ncorner);
  if (s.mode == Mode::kIm2col || s.Has(kFieldUpperCorner))
    WriteI32Array(w, "pixel_box_upper_corner", s.pixel_box_upper_corner.data(), ncorner > 3 ? 3 : ncorner);
  if (IsWideMode(s.mode) || s.Has(kFieldLowerCornerWidth))
    w->Key("pixel_box_lower_corner_width").Int(s.pixel_box_lower_corner_width);
  if (IsWideMode(s.mode) || s.Has(kFieldUpperCornerWidth))
    w->Key("pixel_box_upper_corner_width").Int(s.pixel_box_upper_corner_width);
  if (IsIm2colMode(s.mode) || s.Has(kFieldChannelsPerPixel)) w->Key("channels_per_pixel").Uint(s.channels_per_pixel);
  if (IsIm2colMode(s.mode) || s.Has(kFieldPixelsPerColumn)) w->Key("pixels_per_column").Uint(s.pixels_per_column);
  if (IsWideMode(s.mode) || s.Has(kFieldWideMode)) w->Key("wide_mode").String(FullName(s.wide_mode));
  if (s.has_target()) w->Key("target").String(Name(s.target));
  if (s.Has(kFieldSmemAddress)) w->Key("smem_address").String(Hex(s.smem_address));
  if (s.Has(kFieldSmemAlignment)) w->Key("smem_alignment").Uint(s.smem_alignment);
  if (s.Has(kFieldDriverVersion)) w->Key("driver_version").Uint(s.driver_version);
  w->EndObject();
}

}  // namespace

}  // namespace tmapgen
