#include "src/trace/call_spec.h"

#include <algorithm>

#include "src/util/strings.h"

namespace tmapgen::trace {

std::string_view Name(CallKind k) {
  switch (k) {
    case CallKind::kEncodeTiled: return "cuTensorMapEncodeTiled";
    case CallKind::kEncodeIm2col: return "cuTensorMapEncodeIm2col";
    case CallKind::kEncodeIm2colWide: return "cuTensorMapEncodeIm2colWide";
    case CallKind::kReplaceAddress: return "cuTensorMapReplaceAddress";
  }
  return "cuTensorMap?";
}

void CopyTail(std::string_view s, char* field, int field_size) {
  if (field_size <= 0) return;
  const size_t room = static_cast<size_t>(field_size - 1);
  if (s.size() > room) s = s.substr(s.size() - room);
  std::memcpy(field, s.data(), s.size());
  std::memset(field + s.size(), 0, static_cast<size_t>(field_size) - s.size());
}

std::string_view FieldView(const char* field, int field_size) {
  const void* nul = std::memchr(field, 0, static_cast<size_t>(field_size));
  const size_t n = nul ? static_cast<size_t>(static_cast<const char*>(nul) - field) : static_cast<size_t>(field_size);
  return std::string_view(field, n);
}

uint64_t AddressAlignment(uint64_t a) {
  if (a == 0) return 256;
  const uint64_t low = a & (~a + 1);
  return low > 256 ? 256 : low;
}

namespace {

// Sets *out from a cuda.h value when it is one the enum defines; else marks `field` unrepresentable.
template <typename E>
void SetEnum(uint32_t v, int count, E* out, uint32_t field, uint32_t* bad) {
  if (v < static_cast<uint32_t>(count)) {
    *out = static_cast<E>(v);
  } else {
    *out = static_cast<E>(0);
    *bad |= field;
  }
}

}  // namespace

uint32_t CallToSpec(const EncodeCall& c, TensorMapSpec* s) {
  *s = TensorMapSpec();
  uint32_t bad = 0;
  switch (c.encoder) {
    case CallKind::kEncodeIm2col: s->mode = Mode::kIm2col; break;
    case CallKind::kEncodeIm2colWide: s->mode = c.wide_mode == 1 ? Mode::kIm2colW128 : Mode::kIm2colW; break;
    default: s->mode = Mode::kTiled; break;
  }
  s->set_fields = kFieldMode | kFieldDataType | kFieldRank | kFieldGlobalAddress | kFieldGlobalDim |
                  kFieldGlobalStrides | kFieldElementStrides | kFieldInterleave | kFieldSwizzle |
                  kFieldL2Promotion | kFieldOobFill;
  SetEnum(c.data_type, kNumDataTypes, &s->data_type, kFieldDataType, &bad);
  SetEnum(c.interleave, kNumInterleaves, &s->interleave, kFieldInterleave, &bad);
  SetEnum(c.swizzle, kNumSwizzles, &s->swizzle, kFieldSwizzle, &bad);
  SetEnum(c.l2_promotion, kNumL2Promotions, &s->l2_promotion, kFieldL2Promotion, &bad);
  SetEnum(c.oob_fill, kNumOobFills, &s->oob_fill, kFieldOobFill, &bad);
  if (c.rank == 0 || c.rank > static_cast<uint32_t>(kMaxRank)) bad |= kFieldRank;
  s->rank = c.rank;
  const uint32_t n = std::min<uint32_t>(c.rank, kMaxRank);
  s->global_address = c.global_address;
  for (uint32_t i = 0; i < n; ++i) {
    s->global_dim[i] = c.global_dim[i];
    s->element_strides[i] = c.element_strides[i];
    if (i + 1 < n) s->global_strides[i] = c.global_strides[i];
  }
  if (s->mode == Mode::kTiled) {
    s->set_fields |= kFieldBoxDim;
    for (uint32_t i = 0; i < n; ++i) s->box_dim[i] = c.box_dim[i];
  } else {
    s->set_fields |= kFieldChannelsPerPixel | kFieldPixelsPerColumn;
    s->channels_per_pixel = c.channels_per_pixel;
    s->pixels_per_column = c.pixels_per_column;
    if (s->mode == Mode::kIm2col) {
      s->set_fields |= kFieldLowerCorner | kFieldUpperCorner;
      for (uint32_t i = 0; i + 2 < n && i < 3; ++i) {
        s->pixel_box_lower_corner[i] = c.lower_corner[i];
        s->pixel_box_upper_corner[i] = c.upper_corner[i];
      }
    } else {
      s->set_fields |= kFieldLowerCornerWidth | kFieldUpperCornerWidth | kFieldWideMode;
      s->pixel_box_lower_corner_width = c.lower_corner_width;
      s->pixel_box_upper_corner_width = c.upper_corner_width;
      SetEnum(c.wide_mode, kNumIm2colWideModes, &s->wide_mode, kFieldWideMode, &bad);
    }
  }
  // An argument array that could not be read holds no value at all: the spec cannot stand for it.
  if (c.unreadable & kUnreadableGlobalDim) bad |= kFieldGlobalDim;
  if (c.unreadable & kUnreadableGlobalStrides) bad |= kFieldGlobalStrides;
  if (c.unreadable & kUnreadableBoxDim) bad |= kFieldBoxDim;
  if (c.unreadable & kUnreadableElementStrides) bad |= kFieldElementStrides;
  if (c.unreadable & kUnreadableLowerCorner) bad |= kFieldLowerCorner;
  if (c.unreadable & kUnreadableUpperCorner) bad |= kFieldUpperCorner;
  if ((c.flags & kHasTarget) && c.target < kNumTargets) {
    s->target = static_cast<Target>(c.target);
    s->set_fields |= kFieldTarget;
  }
  if (c.driver_version != 0) {
    s->driver_version = c.driver_version;
    s->set_fields |= kFieldDriverVersion;
  }
  return bad;
}

ConfigKey ConfigKeyOf(const EncodeCall& c) {
  ConfigKey k{};
  uint64_t* w = k.w;
  *w++ = static_cast<uint64_t>(c.kind) | static_cast<uint64_t>(c.encoder) << 8 |
         static_cast<uint64_t>(c.unreadable) << 16 | static_cast<uint64_t>(static_cast<uint32_t>(c.result)) << 32;
  *w++ = static_cast<uint64_t>(c.data_type) | static_cast<uint64_t>(c.rank) << 32;
  *w++ = static_cast<uint64_t>(c.interleave) | static_cast<uint64_t>(c.swizzle) << 32;
  *w++ = static_cast<uint64_t>(c.l2_promotion) | static_cast<uint64_t>(c.oob_fill) << 32;
  *w++ = static_cast<uint64_t>(c.wide_mode) | static_cast<uint64_t>(c.channels_per_pixel) << 32;
  *w++ = static_cast<uint64_t>(c.pixels_per_column) |
         static_cast<uint64_t>(static_cast<uint32_t>(c.lower_corner_width)) << 32;
  *w++ = static_cast<uint64_t>(static_cast<uint32_t>(c.upper_corner_width)) | AddressAlignment(c.global_address) << 32;
  for (int i = 0; i < 3; ++i)
    *w++ = static_cast<uint64_t>(static_cast<uint32_t>(c.lower_corner[i])) |
           static_cast<uint64_t>(static_cast<uint32_t>(c.upper_corner[i])) << 32;
  for (int i = 0; i < 5; ++i)
    *w++ = static_cast<uint64_t>(c.box_dim[i]) | static_cast<uint64_t>(c.element_strides[i]) << 32;
  for (int i = 0; i < 5; ++i) *w++ = c.global_dim[i];
  for (int i = 0; i < 4; ++i) *w++ = c.global_strides[i];
  *w++ = static_cast<uint64_t>(c.target) | static_cast<uint64_t>(c.flags & kHasTarget) << 8 |
         static_cast<uint64_t>(c.driver_version) << 32;
  return k;
}

uint64_t HashKey(const ConfigKey& k) {
  // 64-bit multiply-xorshift mixing over the words (a hash table index, not a checksum).
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (uint64_t v : k.w) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
  }
  return h;
}

std::string CuResultName(int32_t r) {
  // cuda.h (CUDA 13.0), enum cudaError_enum.
  switch (r) {
    case 0: return "CUDA_SUCCESS";
    case 1: return "CUDA_ERROR_INVALID_VALUE";
    case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
    case 3: return "CUDA_ERROR_NOT_INITIALIZED";
    case 4: return "CUDA_ERROR_DEINITIALIZED";
    case 34: return "CUDA_ERROR_STUB_LIBRARY";
    case 100: return "CUDA_ERROR_NO_DEVICE";
    case 101: return "CUDA_ERROR_INVALID_DEVICE";
    case 201: return "CUDA_ERROR_INVALID_CONTEXT";
    case 304: return "CUDA_ERROR_OPERATING_SYSTEM";
    case 400: return "CUDA_ERROR_INVALID_HANDLE";
    case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
    case 709: return "CUDA_ERROR_CONTEXT_IS_DESTROYED";
    case 800: return "CUDA_ERROR_NOT_PERMITTED";
    case 801: return "CUDA_ERROR_NOT_SUPPORTED";
    case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
    case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
    case 999: return "CUDA_ERROR_UNKNOWN";
    default: return StrCat("CUDA_ERROR_", r);
  }
}

}  // namespace tmapgen::trace
