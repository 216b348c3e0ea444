// fast_path_fuzz.cc: libFuzzer target: Validate's fast path (src/tmap/fast_path.h) against the rule table.
// The input edits a valid default spec of some mode, field by field (each edit: a field, then a value drawn
// near the rules' boundaries or taken raw), so that most inputs stay close to valid, where the fast path
// decides; every spec is then checked with a target and without, and with other directions and targets.
// Oracle: identical Validations (fuzz/validation_compare.h). Also run on spec_json_fuzz's parsed specs.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "fuzz/fuzz_util.h"
#include "fuzz/validation_compare.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"

namespace {

using namespace tmapgen;

struct Input {
  const uint8_t* p;
  size_t n;
  uint8_t Byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  uint64_t Raw() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | Byte();
    return v;
  }
  // A value near the boundaries the rules use, or raw bits.
  uint64_t Value(uint64_t current) {
    static const uint64_t kNear[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 31, 32, 64, 127, 128, 129, 255, 256, 257,
                                     512, 1023, 1024, 1025, 4096, 8192, 32767, 32768, 131072, 232448, 233472,
                                     2147483647, 2147483648ull, 4294967296ull, 4294967297ull, 1ull << 40,
                                     (1ull << 40) - 16, ~0ull};
    const uint8_t k = Byte();
    switch (k % 6) {
      case 0: return kNear[Byte() % (sizeof(kNear) / sizeof(kNear[0]))];
      case 1: return current + (Byte() % 33) - 16;
      case 2: return current * 2;
      case 3: return current / 2;
      case 4: return static_cast<uint64_t>(-static_cast<int64_t>(Byte() % 40));
      default: return Raw();
    }
  }
};

void Edit(Input& in, TensorMapSpec* s) {
  const uint8_t field = in.Byte();
  const uint8_t i = in.Byte() % kMaxRank;
  switch (field % 24) {
    case 0: s->rank = static_cast<uint32_t>(in.Value(s->rank)); break;
    case 1: s->global_dim[i] = in.Value(s->global_dim[i]); break;
    case 2: s->global_strides[i % 4] = in.Value(s->global_strides[i % 4]); break;
    case 3: s->box_dim[i] = static_cast<uint32_t>(in.Value(s->box_dim[i])); break;
    case 4: s->element_strides[i] = static_cast<uint32_t>(in.Value(s->element_strides[i])); break;
    case 5: s->data_type = static_cast<DataType>(in.Byte() % kNumDataTypes); break;
    case 6: s->swizzle = static_cast<Swizzle>(in.Byte() % kNumSwizzles); break;
    case 7: s->interleave = static_cast<Interleave>(in.Byte() % kNumInterleaves); break;
    case 8: s->direction = static_cast<Direction>(in.Byte() % kNumDirections); break;
    case 9: s->reduce_op = static_cast<ReduceOp>(in.Byte() % kNumReduceOps); break;
    case 10: s->oob_fill = static_cast<OobFill>(in.Byte() % kNumOobFills); break;
    case 11: s->pixel_box_lower_corner[i % 3] = static_cast<int32_t>(in.Value(static_cast<uint64_t>(s->pixel_box_lower_corner[i % 3]))); break;
    case 12: s->pixel_box_upper_corner[i % 3] = static_cast<int32_t>(in.Value(static_cast<uint64_t>(s->pixel_box_upper_corner[i % 3]))); break;
    case 13: s->pixel_box_lower_corner_width = static_cast<int32_t>(in.Value(static_cast<uint64_t>(s->pixel_box_lower_corner_width))); break;
    case 14: s->pixel_box_upper_corner_width = static_cast<int32_t>(in.Value(static_cast<uint64_t>(s->pixel_box_upper_corner_width))); break;
    case 15: s->channels_per_pixel = static_cast<uint32_t>(in.Value(s->channels_per_pixel)); break;
    case 16: s->pixels_per_column = static_cast<uint32_t>(in.Value(s->pixels_per_column)); break;
    case 17: s->wide_mode = static_cast<Im2colWideMode>(in.Byte() % kNumIm2colWideModes); break;
    case 18: s->target = static_cast<Target>(in.Byte() % kNumTargets); break;
    case 19: s->smem_address = in.Value(s->smem_address); s->set_fields |= kFieldSmemAddress; break;
    case 20: s->smem_alignment = static_cast<uint32_t>(in.Value(s->smem_alignment)); s->set_fields |= kFieldSmemAlignment; break;
    case 21: s->global_address = in.Value(s->global_address); s->set_fields |= kFieldGlobalAddress; break;
    case 22: s->driver_version = static_cast<uint32_t>(in.Value(s->driver_version)); break;
    default: s->set_fields ^= 1u << (in.Byte() % 26); break;
  }
  if (in.Byte() & 1) FillPaddedStrides(s);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in{data, size};
  const Mode mode = static_cast<Mode>(in.Byte() % kNumModes);
  TensorMapSpec s = DefaultSpec(mode);
  s.target = mode == Mode::kTiled || mode == Mode::kIm2col ? Target::kSm90a : Target::kSm100a;
  s.set_fields |= kFieldTarget;
  CHECK(fuzz::FastPathAgrees(s));
  for (int edits = 0; in.n > 0 && edits < 64; ++edits) {
    Edit(in, &s);
    CHECK(fuzz::FastPathAgrees(s));
  }
  TensorMapSpec none = s;
  none.set_fields &= ~kFieldTarget;
  CHECK(fuzz::FastPathAgrees(none));
  for (int t = 0; t < kNumTargets; t += 3) {
    TensorMapSpec other = s;
    other.target = static_cast<Target>(t);
    CHECK(fuzz::FastPathAgrees(other));
  }
  return 0;
}
