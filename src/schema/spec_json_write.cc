// spec_json_write.cc: WriteSpecJson (see spec_json.h). Apart from the reader (spec_json.cc) so that what
// only writes specs (the trace injection library, cmake/trace_inject.cmake) does not pull in simdjson.
#include "src/schema/spec_json.h"

#include <charconv>
#include <cstring>
#include <string>
#include <type_traits>

#include "src/json/json_sink.h"
#include "src/util/strings.h"

namespace tmapgen {

// The compact form is written through a pointer into the writer's buffer and appended as one value (a fifth
// of the instructions of Writer calls: docs/lab/perf-history.md, section 13); pretty output makes Writer calls; both from
// one body, WriteSpec (src/json/json_sink.h; tests/schema: WriteSpecJson compact vs pretty).
// Room for the compact form: every key and punctuation (under 600 bytes), 14 integers of at most 21
// bytes each plus 5 arrays of 5, and the strings' QuotedBound (the table names are under 48 bytes).
size_t CompactSpecJsonBound(const TensorMapSpec& s) {
  return 1024 + 40 * 21 + 12 * json::Writer::QuotedBound(48) + json::Writer::QuotedBound(s.name.size());
}

namespace {

// The spec's members, one body for both forms (src/json/json_sink.h).
template <class Out>
void WriteSpec(const TensorMapSpec& s, Out& o) {
  const uint32_t rank = s.rank > kMaxRank ? kMaxRank : s.rank;
  if (!s.name.empty()) {
    o.M(TMAPGEN_JSON_OK("name"));
    o.Str(s.name);
    o.M(TMAPGEN_JSON_K("mode"));
  } else {
    o.M(TMAPGEN_JSON_OK("mode"));
  }
  o.Plain(Name(s.mode));
  o.M(TMAPGEN_JSON_K("direction"));
  o.Plain(Name(s.direction));
  if (s.direction == Direction::kReduce || s.Has(kFieldReduceOp)) {
    o.M(TMAPGEN_JSON_K("reduce_op"));
    o.Plain(Name(s.reduce_op));
  }
  o.M(TMAPGEN_JSON_K("tensor_data_type"));
  o.Plain(FullName(s.data_type));
  o.M(TMAPGEN_JSON_K("tensor_rank"));
  o.U(s.rank);
  if (s.Has(kFieldGlobalAddress)) {
    o.M(TMAPGEN_JSON_K("global_address"));
    o.HexStr(s.global_address);
  }
  o.M(TMAPGEN_JSON_K("global_dim"));
  o.Arr(s.global_dim.data(), rank);
  o.M(TMAPGEN_JSON_K("global_strides"));
  o.Arr(s.global_strides.data(), rank > 0 ? rank - 1 : 0);
  if (!IsIm2colMode(s.mode) || s.Has(kFieldBoxDim)) {
    o.M(TMAPGEN_JSON_K("box_dim"));
    o.Arr(s.box_dim.data(), rank);
  }
  o.M(TMAPGEN_JSON_K("element_strides"));
  o.Arr(s.element_strides.data(), rank);
  o.M(TMAPGEN_JSON_K("interleave"));
  o.Plain(FullName(s.interleave));
  o.M(TMAPGEN_JSON_K("swizzle"));
  o.Plain(FullName(s.swizzle));
  o.M(TMAPGEN_JSON_K("l2_promotion"));
  o.Plain(FullName(s.l2_promotion));
  o.M(TMAPGEN_JSON_K("oob_fill"));
  o.Plain(FullName(s.oob_fill));
  const uint32_t ncorner = rank >= 2 ? rank - 2 : 0;
  if (s.mode == Mode::kIm2col || s.Has(kFieldLowerCorner)) {
    o.M(TMAPGEN_JSON_K("pixel_box_lower_corner"));
    o.Arr(s.pixel_box_lower_corner.data(), ncorner > 3 ? 3 : ncorner);
  }
  if (s.mode == Mode::kIm2col || s.Has(kFieldUpperCorner)) {
    o.M(TMAPGEN_JSON_K("pixel_box_upper_corner"));
    o.Arr(s.pixel_box_upper_corner.data(), ncorner > 3 ? 3 : ncorner);
  }
  if (IsWideMode(s.mode) || s.Has(kFieldLowerCornerWidth)) {
    o.M(TMAPGEN_JSON_K("pixel_box_lower_corner_width"));
    o.I(s.pixel_box_lower_corner_width);
  }
  if (IsWideMode(s.mode) || s.Has(kFieldUpperCornerWidth)) {
    o.M(TMAPGEN_JSON_K("pixel_box_upper_corner_width"));
    o.I(s.pixel_box_upper_corner_width);
  }
  if (IsIm2colMode(s.mode) || s.Has(kFieldChannelsPerPixel)) {
    o.M(TMAPGEN_JSON_K("channels_per_pixel"));
    o.U(s.channels_per_pixel);
  }
  if (IsIm2colMode(s.mode) || s.Has(kFieldPixelsPerColumn)) {
    o.M(TMAPGEN_JSON_K("pixels_per_column"));
    o.U(s.pixels_per_column);
  }
  if (IsWideMode(s.mode) || s.Has(kFieldWideMode)) {
    o.M(TMAPGEN_JSON_K("wide_mode"));
    o.Plain(FullName(s.wide_mode));
  }
  if (s.has_target()) {
    o.M(TMAPGEN_JSON_K("target"));
    o.Plain(Name(s.target));
  }
  if (s.Has(kFieldSmemAddress)) {
    o.M(TMAPGEN_JSON_K("smem_address"));
    o.HexStr(s.smem_address);
  }
  if (s.Has(kFieldSmemAlignment)) {
    o.M(TMAPGEN_JSON_K("smem_alignment"));
    o.U(s.smem_alignment);
  }
  if (s.Has(kFieldDriverVersion)) {
    o.M(TMAPGEN_JSON_K("driver_version"));
    o.U(s.driver_version);
  }
  o.EndObject();
}

}  // namespace

void WriteCompactSpecJson(const TensorMapSpec& s, json::RawText* out) {
  json::CompactSink o(*out);
  WriteSpec(s, o);
  *out = *o.raw();
}

void WriteSpecJson(const TensorMapSpec& s, json::Writer* w) {
  if (w->pretty()) {
    json::WriterSink o(w);
    return WriteSpec(s, o);
  }
  char* const begin = w->RawBegin(CompactSpecJsonBound(s));  // written in the writer's buffer, no copy
  if (begin == nullptr) return;
  json::RawText o(begin);
  WriteCompactSpecJson(s, &o);
  w->RawEnd(o.end());
}

}  // namespace tmapgen
