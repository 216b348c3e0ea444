#include "src/blob/blob.h"

#include <array>
#include <cstring>

#include "absl/status/status.h"
#include "src/util/strings.h"

namespace tmapgen::blob {
namespace {

int64_t SignExtend(uint64_t raw, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((raw ^ sign) - sign);
}

// The swizzle repeat field's value for a swizzle the layout can hold (0..3).
uint32_t SwizzleRepeatRaw(Swizzle s) {
  switch (s) {
    case Swizzle::kNone: return 1;       // 16 bytes
    case Swizzle::k32B: return 16;       // 256
    case Swizzle::k64B: return 32;       // 512
    case Swizzle::k128B: return 64;      // 1024
    default: return 0;
  }
}


// Bytes of one box as the driver computes it (tiled: floor per dimension, element strides included).
uint64_t BoxBytes(const TensorMapSpec& s, bool im2col) {
  const uint64_t eb = static_cast<uint64_t>(DataTypeBits(s.data_type)) / 8;
  if (im2col) return eb * s.channels_per_pixel * s.pixels_per_column;
  uint64_t v = eb;
  for (uint32_t i = 0; i < s.rank && i < static_cast<uint32_t>(kMaxRank); ++i) {
    const uint32_t es = s.element_strides[i] ? s.element_strides[i] : 1;
    v *= s.box_dim[i] / es;
  }
  return v;
}

// Outside the evidence, or outside what a field can hold: the field, the value and why (kInvalidArgument).
absl::Status Fail(const MapField& f, std::string_view value, std::string_view reason) {
  return absl::InvalidArgumentError(ToAbsl(StrCat(f.name, " = ", value, ": ", reason)));
}

// The value the spec gives the field (signed, so that corners fit).
int64_t SpecValue(const TensorMapSpec& s, const MapField& f, bool wide) {
  const int i = f.index;
  switch (f.ref) {
    case Ref::kGlobalAddress: return static_cast<int64_t>(s.global_address);
    case Ref::kIm2col: return IsIm2colMode(s.mode) ? 1 : 0;
    case Ref::kRank: return s.rank;
    case Ref::kDataType: return static_cast<int64_t>(s.data_type);
    case Ref::kInterleave: return static_cast<int64_t>(s.interleave);
    case Ref::kSwizzle: return static_cast<int64_t>(s.swizzle);
    case Ref::kOobFill: return static_cast<int64_t>(s.oob_fill);
    case Ref::kTf32: return s.data_type == DataType::kTfloat32 || s.data_type == DataType::kTfloat32Ftz;
    case Ref::kL2Promotion: return static_cast<int64_t>(s.l2_promotion);
    case Ref::kBit85: return 0;
    case Ref::kGlobalStride: return static_cast<int64_t>(s.global_strides[i]);
    case Ref::kGlobalDim: return static_cast<int64_t>(s.global_dim[i]);
    case Ref::kElementStride: return s.element_strides[i];
    case Ref::kBoxDim: return s.box_dim[i];
    case Ref::kChannels: return s.channels_per_pixel;
    case Ref::kPixels: return s.pixels_per_column;
    case Ref::kLowerCorner: return wide ? (i == 0 ? s.pixel_box_lower_corner_width : 0) : s.pixel_box_lower_corner[i];
    case Ref::kUpperCorner: return wide ? (i == 0 ? s.pixel_box_upper_corner_width : 0) : s.pixel_box_upper_corner[i];
    case Ref::kBoxBytes: return static_cast<int64_t>(BoxBytes(s, IsIm2colMode(s.mode)));
    case Ref::kSwizzleRepeat: return SwizzleRepeatRaw(s.swizzle) * 16;
  }
  return 0;
}

// Value -> raw bits for the field's coding, with the range check.
absl::Status ToRaw(const MapField& f, int64_t value, uint64_t* raw) {
  const int w = FieldWidth(f);
  const uint64_t max_raw = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  const uint64_t u = static_cast<uint64_t>(value);
  switch (f.coding) {
    case FieldCoding::kPlain:
    case FieldCoding::kFlag:
      if (f.ref == Ref::kGlobalAddress && u > max_raw)
        return Fail(f, Hex(u), StrCat("at or above 2^", w, ": the driver rejects it (measured)"));
      if (value < 0 || u > max_raw) return Fail(f, StrCat(value), StrCat("does not fit the field (", w, " bits)"));
      *raw = u;
      return absl::OkStatus();
    case FieldCoding::kMinusOne:
      if (value < 1 || u - 1 > max_raw)
        return Fail(f, StrCat(value), StrCat("outside 1..", max_raw + 1, " (the field holds value - 1 in ", w,
                                             " bits; the driver rejects it)"));
      *raw = u - 1;
      return absl::OkStatus();
    case FieldCoding::kUnits16:
      if (value < 0 || u % 16 != 0 || (u >> 4) > max_raw)
        return Fail(f, StrCat(value), StrCat("not a multiple of 16 below 2^", w + 4,
                                             " (the field holds bytes / 16 in ", w, " bits; the driver rejects it)"));
      *raw = u >> 4;
      return absl::OkStatus();
    case FieldCoding::kSigned: {
      const int64_t lo = -(int64_t{1} << (w - 1)), hi = (int64_t{1} << (w - 1)) - 1;
      if (value < lo || value > hi)
        return Fail(f, StrCat(value), StrCat("outside ", lo, "..", hi, " (", w, "-bit field at this rank)"));
      *raw = u & max_raw;
      return absl::OkStatus();
    }
    case FieldCoding::kDataTypeCode: {
      uint32_t code = 0;
      bool tf32 = false;
      if (!DataTypeCode(static_cast<uint8_t>(value), &code, &tf32))
        return Fail(f, FullName(static_cast<DataType>(value)),
                    "outside the measured evidence: the sm_90 driver rejects this type, so its code is unknown");
      *raw = code;
      return absl::OkStatus();
    }
    case FieldCoding::kBoxBytes:
      if (u > max_raw)
        return Fail(f, StrCat(value), StrCat("outside the measured evidence (the field is ", w, " bits)"));
      *raw = u;
      return absl::OkStatus();
    case FieldCoding::kSwizzleRepeat:
      *raw = u / 16;
      return absl::OkStatus();
  }
  return absl::InternalError(ToAbsl(StrCat(f.name, ": a coding without a case")));
}

// The evidence checks that do not depend on one field.
absl::Status CheckEvidence(const TensorMapSpec& s, uint8_t* layout) {
  if (IsAtomicitySwizzle(s.swizzle) || static_cast<int>(s.swizzle) >= kNumSwizzles) {
    return absl::InvalidArgumentError(
        ToAbsl(StrCat("swizzle = ", ShortName(s.swizzle),
                      ": outside the measured evidence: the sm_90 driver rejects the 128B_ATOM_* swizzles, so their "
                      "encoding is unknown (a Blackwell driver writes them)")));
  }
  if (static_cast<int>(s.interleave) >= kNumInterleaves || static_cast<int>(s.l2_promotion) >= kNumL2Promotions ||
      static_cast<int>(s.oob_fill) >= kNumOobFills) {
    return absl::InvalidArgumentError("interleave, l2_promotion or oob_fill: not a cuda.h value");
  }
  if (s.has_target() && s.target != Target::kSm90 && s.target != Target::kSm90a) {
    return absl::InvalidArgumentError(
        ToAbsl(StrCat("target = ", Name(s.target),
                      ": outside the measured evidence: the layout was measured with driver ", MeasuredEvidence().driver,
                      " on sm_90 only; drivers for other architectures may write other bits (Blackwell drivers set "
                      "bit 85, triton#10442)")));
  }
  const bool im2col = IsIm2colMode(s.mode);
  if (s.rank < (im2col ? 3u : 1u) || s.rank > 5) {
    return absl::InvalidArgumentError(
        ToAbsl(StrCat("tensor_rank = ", s.rank, ": the driver encodes ranks ", im2col ? "3..5" : "1..5", " only")));
  }
  *layout = LayoutFor(im2col, s.rank);
  return absl::OkStatus();
}

}  // namespace

const Evidence& MeasuredEvidence() {
  static const Evidence e{
      "580.159.04", 13000, "NVIDIA H200 (sm_90)",
      "shared corpus: 200,000 calls, 17,595 accepted (2026-11-29); tmapgen corpora from tools/tmap_corpus "
      "(2026-12-01), see docs/tensormap-layout.md"};
  return e;
}

namespace {
absl::Status EncodeWords(const TensorMapSpec& spec, MapWords* out) {
  uint8_t layout = 0;
  if (absl::Status st = CheckEvidence(spec, &layout); !st.ok()) return st;
  const bool wide = IsWideMode(spec.mode);
  const LayoutPlan& plan = PlanFor(layout, spec.rank);
  int n = 0;
  const MapField* fields = Fields(&n);
  MapWords w{};
  for (int k = 0; k < plan.count; ++k) {
    const MapField& f = fields[plan.index[k]];
    uint64_t raw = 0;
    if (absl::Status st = ToRaw(f, SpecValue(spec, f, wide), &raw); !st.ok()) return st;
    ScatterWords(&w, f, raw);
  }
  *out = w;
  return absl::OkStatus();
}
}  // namespace

absl::Status EncodeInto(const TensorMapSpec& spec, MapBytes* out) {
  MapWords w;
  if (absl::Status st = EncodeWords(spec, &w); !st.ok()) return st;
  *out = FromMapWords(w);
  return absl::OkStatus();
}

absl::StatusOr<Encoded> Encode(const TensorMapSpec& spec) {
  Encoded e;
  if (absl::Status st = EncodeInto(spec, &e.bytes); !st.ok()) return st;
  if (!spec.Has(kFieldGlobalAddress))
    e.caveats.push_back(
        "global_address not given: word 0 holds 0; set it at run time with cuTensorMapReplaceAddress (host) or "
        "tensormap.replace (device)");
  if (IsWideMode(spec.mode))
    e.caveats.push_back(StrCat(
        Name(spec.mode), ": these are the bytes driver ", MeasuredEvidence().driver,
        " writes on sm_90, where it ignores the wide mode (W and W128 give the bytes of an im2col map with these "
        "W corners); the mode runs only on sm_100 and later, whose drivers' layout is not measured"));
  if (IsGatherScatter(spec.mode))
    e.caveats.push_back(StrCat(
        Name(spec.mode),
        " uses a tiled 2D map: these are its bytes (a map does not record the mode); the mode runs only on sm_100 "
        "and later, whose drivers' layout is not measured"));
  return e;
}

void Decode(const MapBytes& m, Decoded* out) {
  out->fields.clear();
  out->recognised.clear();
  out->unexplained.clear();
  out->findings.clear();
  out->maybe_wide = false;
  out->reencodes = false;
  TensorMapSpec& s = out->spec;
  s = TensorMapSpec{};
  const MapWords words = ToMapWords(m);
  int n = 0;
  const MapField* fields = Fields(&n);

  const bool im2col = GatherWords(words, Im2colField()) != 0;
  const uint32_t rank = static_cast<uint32_t>(GatherWords(words, RankField())) + 1;
  const uint8_t layout = LayoutFor(im2col, rank);
  out->layout = layout;
  s.mode = im2col ? Mode::kIm2col : Mode::kTiled;
  s.rank = rank;
  s.set_fields = kFieldMode | kFieldRank;
  bool ok = layout != 0;
  if (!ok)
    out->findings.push_back(
        {"tensor_rank", StrCat("tensor_rank = ", rank, " with im2col = ", im2col ? 1 : 0,
                               ": no measured driver writes this (tiled 1..5, im2col 3..5); only the fields every "
                               "layout shares are decoded")});

  const LayoutPlan& rec = RecognisedPlan();
  for (int k = 0; k < rec.count; ++k) {
    const MapField& f = fields[rec.index[k]];
    const uint64_t raw = GatherWords(words, f);
    if (raw) out->recognised.push_back({&f, raw, static_cast<int64_t>(raw)});
  }
  const LayoutPlan& plan = PlanFor(layout, rank);
  if (out->fields.capacity() < static_cast<size_t>(plan.count)) out->fields.reserve(64);
  uint32_t dt_code = 0;
  bool tf32 = false;
  uint64_t box_bytes_raw = 0, repeat_raw = 0;
  int dt_index = -1;
  for (int k = 0; k < plan.count; ++k) {
    const MapField& f = fields[plan.index[k]];
    const uint64_t raw = GatherWords(words, f);
    int64_t value = static_cast<int64_t>(raw);
    const int i = f.index;
    switch (f.coding) {
      case FieldCoding::kMinusOne: value = static_cast<int64_t>(raw + 1); break;
      case FieldCoding::kUnits16: value = static_cast<int64_t>(raw << 4); break;
      case FieldCoding::kSigned: value = SignExtend(raw, FieldWidth(f)); break;
      default: break;
    }
    switch (f.ref) {
      case Ref::kGlobalAddress: s.global_address = raw; s.set_fields |= kFieldGlobalAddress; break;
      case Ref::kIm2col: case Ref::kRank: case Ref::kBit85: break;
      case Ref::kDataType: dt_code = static_cast<uint32_t>(raw); dt_index = static_cast<int>(out->fields.size()); break;
      case Ref::kTf32: tf32 = raw != 0; break;
      case Ref::kInterleave:
        if (raw >= kNumInterleaves) {
          out->findings.push_back({"interleave", StrCat("interleave = ", raw, ": not a CUtensorMapInterleave value")});
          ok = false;
        } else {
          s.interleave = static_cast<Interleave>(raw);
          s.set_fields |= kFieldInterleave;
        }
        break;
      case Ref::kSwizzle: s.swizzle = static_cast<Swizzle>(raw); s.set_fields |= kFieldSwizzle; break;
      case Ref::kOobFill: s.oob_fill = static_cast<OobFill>(raw); s.set_fields |= kFieldOobFill; break;
      case Ref::kL2Promotion: s.l2_promotion = static_cast<L2Promotion>(raw); s.set_fields |= kFieldL2Promotion; break;
      case Ref::kGlobalStride: s.global_strides[i] = static_cast<uint64_t>(value); s.set_fields |= kFieldGlobalStrides; break;
      case Ref::kGlobalDim: s.global_dim[i] = static_cast<uint64_t>(value); s.set_fields |= kFieldGlobalDim; break;
      case Ref::kElementStride: s.element_strides[i] = static_cast<uint32_t>(value); s.set_fields |= kFieldElementStrides; break;
      case Ref::kBoxDim: s.box_dim[i] = static_cast<uint32_t>(value); s.set_fields |= kFieldBoxDim; break;
      case Ref::kChannels: s.channels_per_pixel = static_cast<uint32_t>(value); s.set_fields |= kFieldChannelsPerPixel; break;
      case Ref::kPixels: s.pixels_per_column = static_cast<uint32_t>(value); s.set_fields |= kFieldPixelsPerColumn; break;
      case Ref::kLowerCorner: s.pixel_box_lower_corner[i] = static_cast<int32_t>(value); s.set_fields |= kFieldLowerCorner; break;
      case Ref::kUpperCorner: s.pixel_box_upper_corner[i] = static_cast<int32_t>(value); s.set_fields |= kFieldUpperCorner; break;
      case Ref::kBoxBytes: box_bytes_raw = raw; break;
      case Ref::kSwizzleRepeat: repeat_raw = raw; value = static_cast<int64_t>(raw * 16); break;
    }
    out->fields.push_back({&f, raw, value});
  }

  // The data type: code and TF32 flag together.
  uint8_t dt = 0;
  if (DataTypeFromCode(dt_code, tf32, &dt)) {
    s.data_type = static_cast<DataType>(dt);
    s.set_fields |= kFieldDataType;
    if (dt_index >= 0) out->fields[dt_index].value = dt;
  } else {
    if (dt_index >= 0) out->fields[dt_index].value = -1;
    out->findings.push_back(
        {"tensor_data_type",
         StrCat("data-type code ", dt_code, tf32 ? " with the TF32 bit (80)" : "",
                ": no measured driver writes it (codes 0..10; TF32 only with the FLOAT32 and FLOAT32_FTZ codes 7, 8)")});
    ok = false;
  }

  if (ok) {
    // The derived fields must be what the parameters give.
    const uint64_t want_box = BoxBytes(s, im2col);
    const uint64_t want_repeat = SwizzleRepeatRaw(s.swizzle);
    const bool zeros = box_bytes_raw == 0 && repeat_raw == 0;
    const std::string_view why =
        zeros ? "; both derived fields are 0, as in a map built with tensormap.replace from zeros (it never writes them; "
                "a TMA load through such a map was correct on the H200)"
              : "; tensormap.replace does not update this field, so a map changed on the device keeps the driver's old value";
    if (box_bytes_raw != want_box)
      out->findings.push_back({"box_bytes",
                               StrCat("box_bytes = ", box_bytes_raw, ", but the parameters give ", want_box,
                                      " (what the driver writes)", why),
                               true});
    if (repeat_raw != want_repeat)
      out->findings.push_back({"swizzle_repeat",
                               StrCat("swizzle_repeat = ", repeat_raw * 16, " bytes, but swizzle ", ShortName(s.swizzle),
                                      " gives ", want_repeat * 16, " (what the driver writes)", why),
                               true});
    if (im2col) {
      bool rest_zero = true;
      for (uint32_t i = 1; i + 2 < rank; ++i)
        rest_zero = rest_zero && s.pixel_box_lower_corner[i] == 0 && s.pixel_box_upper_corner[i] == 0;
      out->maybe_wide = rest_zero;
    }
  }
  out->spec_ok = ok;

  // Every set bit not covered is unexplained.
  for (int w = 0; w < 16; ++w) {
    uint64_t rest = words[w] & ~plan.covered[w] & ~rec.covered[w];
    while (rest) {
      const int bit = w * 64 + __builtin_ctzll(rest);
      rest &= rest - 1;
      std::string_view other;
      for (int k = 0; k < n && other.empty(); ++k)
        for (const Piece& p : fields[k].pieces)
          if (bit >= p.lo && bit < p.lo + p.width) { other = fields[k].name; break; }
      out->unexplained.push_back({bit, other});
    }
  }

  // Every field's raw bits are a value its coding maps back to the same bits (the widths above), so the
  // recovered spec re-encodes to these bytes exactly when nothing is left over: no finding, no unexplained
  // and no recognised bit. (tests/blob BlobDecode.ReencodesIsExactlyWhetherEncodeGivesTheBytesBack and
  // fuzz/blob_fuzz.cc hold this against a real re-encoding.)
  out->reencodes = ok && out->findings.empty() && out->unexplained.empty() && out->recognised.empty();
}

Decoded Decode(const MapBytes& bytes) {
  Decoded d;
  Decode(bytes, &d);
  return d;
}

std::string ToHex(const MapBytes& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s(2 * kMapBytes, '0');
  for (int i = 0; i < kMapBytes; ++i) {
    s[2 * i] = kDigits[bytes[i] >> 4];
    s[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return s;
}

void ToWords(const MapBytes& bytes, uint64_t words[16]) {
  for (int w = 0; w < 16; ++w) {
    uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= uint64_t{bytes[w * 8 + b]} << (8 * b);
    words[w] = v;
  }
}

MapBytes FromWords(const uint64_t words[16]) {
  MapBytes m{};
  for (int w = 0; w < 16; ++w)
    for (int b = 0; b < 8; ++b) m[w * 8 + b] = static_cast<uint8_t>(words[w] >> (8 * b));
  return m;
}

std::vector<int> DifferingBits(const MapBytes& a, const MapBytes& b) {
  std::vector<int> v;
  for (int i = 0; i < kMapBytes; ++i) {
    uint8_t x = a[i] ^ b[i];
    while (x) {
      v.push_back(i * 8 + __builtin_ctz(x));
      x &= static_cast<uint8_t>(x - 1);
    }
  }
  return v;
}

}  // namespace tmapgen::blob
