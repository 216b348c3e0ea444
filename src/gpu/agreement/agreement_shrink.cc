// agreement_shrink.cc: see agreement_shrink.h.
#include "src/gpu/agreement/agreement_shrink.h"

#include "src/gpu/agreement/agreement_util.h"
#include "src/util/strings.h"

namespace tmapgen::gpu {


std::vector<Mutation> Mutations() {
  std::vector<Mutation> m;
  m.push_back({"l2_promotion", [](TensorMapSpec* s) {
                 if (s->l2_promotion == L2Promotion::k128B) return false;
                 s->l2_promotion = L2Promotion::k128B;
                 return true;
               }});
  m.push_back({"oob_fill", [](TensorMapSpec* s) {
                 if (s->oob_fill == OobFill::kNone) return false;
                 s->oob_fill = OobFill::kNone;
                 return true;
               }});
  m.push_back({"global_address", [](TensorMapSpec* s) {
                 if (!s->Has(kFieldGlobalAddress)) return false;
                 s->set_fields &= ~kFieldGlobalAddress;
                 s->global_address = 0;
                 return true;
               }});
  m.push_back({"direction", [](TensorMapSpec* s) {
                 if (s->direction == NaturalDirection(s->mode)) return false;
                 s->direction = NaturalDirection(s->mode);
                 return true;
               }});
  for (int i = 0; i < kMaxRank; ++i) {
    m.push_back({StrCat("element_strides[", i, "]"), [i](TensorMapSpec* s) {
                   if (s->element_strides[i] == 1) return false;
                   s->element_strides[i] = 1;
                   return true;
                 }});
  }
  m.push_back({"interleave", [](TensorMapSpec* s) {
                 if (s->interleave == Interleave::kNone) return false;
                 s->interleave = Interleave::kNone;
                 return true;
               }});
  m.push_back({"swizzle(none)", [](TensorMapSpec* s) {
                 if (s->swizzle == Swizzle::kNone || IsWideMode(s->mode)) return false;
                 s->swizzle = Swizzle::kNone;
                 return true;
               }});
  m.push_back({"swizzle(128B)", [](TensorMapSpec* s) {
                 if (s->swizzle == Swizzle::k128B) return false;
                 s->swizzle = Swizzle::k128B;
                 return true;
               }});
  m.push_back({"strides(dense)", [](TensorMapSpec* s) {
                 TensorMapSpec t = *s;
                 const uint64_t align = (s->interleave == Interleave::k32B || IsAlign16BPacked(s->data_type)) ? 32 : 16;
                 uint64_t st = RoundUp(RowBytes(t), align);
                 for (uint32_t i = 0; i + 1 < std::min<uint32_t>(t.rank, kMaxRank); ++i) {
                   t.global_strides[i] = st;
                   st = SatMul(st, t.global_dim[i + 1]);
                 }
                 if (t.global_strides == s->global_strides) return false;
                 *s = t;
                 return true;
               }});
  for (int i = 0; i < kMaxRank; ++i) {
    m.push_back({StrCat("global_dim[", i, "]"), [i](TensorMapSpec* s) {
                   const uint64_t small = (i == 0 && IsSubByte(s->data_type)) ? 256 : 64;
                   if (s->global_dim[i] == small || i >= static_cast<int>(s->rank)) return false;
                   s->global_dim[i] = small;
                   return true;
                 }});
  }
  for (int i = 0; i < kMaxRank; ++i) {
    m.push_back({StrCat("box_dim[", i, "]"), [i](TensorMapSpec* s) {
                   if (IsIm2colMode(s->mode) || i >= static_cast<int>(s->rank)) return false;
                   const uint32_t want = i == 0 ? std::max<uint32_t>(1, 128u * 8u / static_cast<uint32_t>(DataTypeBits(s->data_type)) / 4)
                                                : 1;
                   if (s->box_dim[i] == want) return false;
                   s->box_dim[i] = want;
                   return true;
                 }});
  }
  m.push_back({"pixel_box_corners", [](TensorMapSpec* s) {
                 if (s->pixel_box_lower_corner == std::array<int32_t, 3>{} &&
                     s->pixel_box_upper_corner == std::array<int32_t, 3>{})
                   return false;
                 s->pixel_box_lower_corner = {};
                 s->pixel_box_upper_corner = {};
                 return true;
               }});
  m.push_back({"pixel_box_lower_corner_width", [](TensorMapSpec* s) {
                 if (s->pixel_box_lower_corner_width == 0) return false;
                 s->pixel_box_lower_corner_width = 0;
                 return true;
               }});
  m.push_back({"pixel_box_upper_corner_width", [](TensorMapSpec* s) {
                 if (s->pixel_box_upper_corner_width == 0) return false;
                 s->pixel_box_upper_corner_width = 0;
                 return true;
               }});
  m.push_back({"pixels_per_column", [](TensorMapSpec* s) {
                 if (!IsIm2colMode(s->mode) || s->pixels_per_column == 128) return false;
                 s->pixels_per_column = 128;
                 return true;
               }});
  m.push_back({"channels_per_pixel", [](TensorMapSpec* s) {
                 if (!IsIm2colMode(s->mode)) return false;
                 const uint32_t want = std::max<uint32_t>(1, 32u * 8u / static_cast<uint32_t>(DataTypeBits(s->data_type)));
                 if (s->channels_per_pixel == want) return false;
                 s->channels_per_pixel = want;
                 return true;
               }});
  m.push_back({"tensor_data_type", [](TensorMapSpec* s) {
                 if (s->data_type == DataType::kFloat16) return false;
                 s->data_type = DataType::kFloat16;
                 return true;
               }});
  return m;
}

// Shrinks `s` while `keep` holds; returns the names of the mutations that were applicable but broke it.
std::vector<std::string> Shrink(TensorMapSpec* s, const std::function<bool(const TensorMapSpec&)>& keep) {
  static const std::vector<Mutation> kMut = Mutations();
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (const Mutation& m : kMut) {
      TensorMapSpec t = *s;
      if (!m.apply(&t)) continue;
      if (keep(t)) {
        *s = t;
        changed = true;
      }
    }
    if (!changed) break;
  }
  std::vector<std::string> essential;
  for (const Mutation& m : kMut) {
    TensorMapSpec t = *s;
    if (m.apply(&t) && !keep(t)) essential.push_back(m.name);
  }
  return essential;
}

}  // namespace tmapgen::gpu
