#include "src/model/element_ops.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tmapgen::model {
namespace {

// ---- floating point helpers for reductions
uint16_t RoundToHalfLike(double v, int mant_bits, int exp_bits) {
  // Round-to-nearest-even conversion of a double to an IEEE-like format with `mant_bits` fraction bits and
  // `exp_bits` exponent bits (binary16: 10, 5; bfloat16: 7, 8). Exact for every value a sum of two such
  // numbers can take, since double has more than 2p+2 bits.
  const int bias = (1 << (exp_bits - 1)) - 1;
  const uint16_t exp_all = static_cast<uint16_t>((1u << exp_bits) - 1);
  uint16_t sign = std::signbit(v) ? static_cast<uint16_t>(1u << (mant_bits + exp_bits)) : 0;
  if (std::isnan(v)) return static_cast<uint16_t>((exp_all << mant_bits) | ((1u << mant_bits) - 1));  // 0x7fff
  double a = std::fabs(v);
  if (std::isinf(a)) return static_cast<uint16_t>(sign | (exp_all << mant_bits));
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int unbiased = e - 1;
  const int min_normal = 1 - bias;
  int shift = unbiased < min_normal ? min_normal - mant_bits : unbiased - mant_bits;  // ulp exponent
  double scaled = std::ldexp(a, -shift);  // integer significand (possibly with fraction)
  double r = std::nearbyint(scaled);      // FE_TONEAREST (ties to even)
  uint64_t sig = static_cast<uint64_t>(r);
  // Re-normalise after rounding.
  int biased;
  if (unbiased < min_normal) {
    biased = 0;
    if (sig >= (1ull << mant_bits)) { biased = 1; sig -= (1ull << mant_bits); }
  } else {
    biased = unbiased + bias;
    if (sig >= (2ull << mant_bits)) { sig >>= 1; ++biased; }
    sig -= (1ull << mant_bits);
  }
  if (biased >= exp_all) return static_cast<uint16_t>(sign | (exp_all << mant_bits));
  return static_cast<uint16_t>(sign | (static_cast<uint16_t>(biased) << mant_bits) | static_cast<uint16_t>(sig));
}
double HalfLikeToDouble(uint16_t h, int mant_bits, int exp_bits) {
  const int bias = (1 << (exp_bits - 1)) - 1;
  const uint32_t exp_all = (1u << exp_bits) - 1;
  const bool neg = (h >> (mant_bits + exp_bits)) & 1u;
  const uint32_t ex = (h >> mant_bits) & exp_all;
  const uint32_t m = h & ((1u << mant_bits) - 1);
  double v;
  if (ex == exp_all) v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (ex == 0) v = std::ldexp(static_cast<double>(m), 1 - bias - mant_bits);
  else v = std::ldexp(static_cast<double>(m | (1u << mant_bits)), static_cast<int>(ex) - bias - mant_bits);
  return neg ? -v : v;
}

template <typename T>
T Load(const uint8_t* p) { T v; std::memcpy(&v, p, sizeof(T)); return v; }
template <typename T>
void Store(uint8_t* p, T v) { std::memcpy(p, &v, sizeof(T)); }

template <typename T>
bool IntReduce(ReduceOp op, uint8_t* dst, const uint8_t* src, bool inc_dec) {
  const T a = Load<T>(dst), b = Load<T>(src);
  T r;
  switch (op) {
    case ReduceOp::kAdd: r = static_cast<T>(a + b); break;
    case ReduceOp::kMin: r = std::min(a, b); break;
    case ReduceOp::kMax: r = std::max(a, b); break;
    case ReduceOp::kInc: if (!inc_dec) return false; r = a >= b ? T(0) : static_cast<T>(a + 1); break;
    case ReduceOp::kDec: if (!inc_dec) return false; r = (a == 0 || a > b) ? b : static_cast<T>(a - 1); break;
    case ReduceOp::kAnd: r = a & b; break;
    case ReduceOp::kOr: r = a | b; break;
    case ReduceOp::kXor: r = a ^ b; break;
    default: return false;
  }
  Store<T>(dst, r);
  return true;
}

// min/max of PTX: a NaN operand yields the other operand; -0 is below +0.
double PtxMin(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
double PtxMax(double a, double b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

}  // namespace

int OobFillBytes(DataType t, OobFill fill, uint8_t out[8]) {
  const int bits = DataTypeBits(t);
  if (bits < 8) return 0;
  const int n = bits / 8;
  std::memset(out, 0, 8);
  if (fill == OobFill::kNanRequestZeroFma && IsFloat(t)) {
    // Measured on an H200 (docs/model.md M3): every float type is filled with the 16-bit pattern 0x7ff7
    // repeated: f16/bf16 0x7ff7, f32/tf32 0x7ff77ff7, f64 0x7ff77ff77ff77ff7 (all NaNs).
    for (int i = 0; i < n; i += 2) {
      out[i] = 0xf7;
      out[i + 1] = 0x7f;
    }
  }
  return n;
}

uint16_t FloatToHalf(double v) { return RoundToHalfLike(v, 10, 5); }
double HalfToFloat(uint16_t h) { return HalfLikeToDouble(h, 10, 5); }
uint16_t FloatToBf16(double v) { return RoundToHalfLike(v, 7, 8); }
double Bf16ToFloat(uint16_t h) { return HalfLikeToDouble(h, 7, 8); }

bool ReduceElement(DataType t, ReduceOp op, uint8_t* dst, const uint8_t* src) {
  const bool bitwise = op == ReduceOp::kAnd || op == ReduceOp::kOr || op == ReduceOp::kXor;
  switch (t) {
    case DataType::kUint32: return IntReduce<uint32_t>(op, dst, src, true);
    case DataType::kInt32:
      if (op == ReduceOp::kInc || op == ReduceOp::kDec) return false;
      return IntReduce<int32_t>(op, dst, src, false);
    case DataType::kUint64:
      if (op == ReduceOp::kInc || op == ReduceOp::kDec) return false;
      return IntReduce<uint64_t>(op, dst, src, false);
    case DataType::kInt64:
      if (op == ReduceOp::kAdd || op == ReduceOp::kInc || op == ReduceOp::kDec) return false;
      return IntReduce<int64_t>(op, dst, src, false);
    case DataType::kFloat16: case DataType::kBfloat16: {
      if (op != ReduceOp::kAdd && op != ReduceOp::kMin && op != ReduceOp::kMax) return false;
      const bool half = t == DataType::kFloat16;
      const uint16_t ha = Load<uint16_t>(dst), hb = Load<uint16_t>(src);
      const double a = half ? HalfToFloat(ha) : Bf16ToFloat(ha);
      const double b = half ? HalfToFloat(hb) : Bf16ToFloat(hb);
      if (op == ReduceOp::kAdd) {
        const double r = a + b;
        Store<uint16_t>(dst, half ? FloatToHalf(r) : FloatToBf16(r));
      } else {
        // The result is one of the operands: keep its exact bits (NaN only when both are NaN).
        const double r = op == ReduceOp::kMin ? PtxMin(a, b) : PtxMax(a, b);
        uint16_t bits;
        if (std::isnan(r)) bits = 0x7fff;
        else if (!std::isnan(a) && r == a && std::signbit(r) == std::signbit(a)) bits = ha;
        else bits = hb;
        Store<uint16_t>(dst, bits);
      }
      return true;
    }
    case DataType::kFloat32: {
      if (bitwise) return IntReduce<uint32_t>(op, dst, src, false);
      if (op != ReduceOp::kAdd) return false;
      const float a = Load<float>(dst), b = Load<float>(src);
      float r = static_cast<float>(static_cast<double>(a) + static_cast<double>(b));
      if (std::isnan(r)) r = std::numeric_limits<float>::quiet_NaN();
      uint32_t bits;
      std::memcpy(&bits, &r, 4);
      if (std::isnan(r)) bits = 0x7fffffffu;  // reading: canonical NaN of PTX
      Store<uint32_t>(dst, bits);
      return true;
    }
    default:
      if (bitwise && !IsSubByte(t)) {
        if (DataTypeBits(t) == 32) return IntReduce<uint32_t>(op, dst, src, false);
        if (DataTypeBits(t) == 64) return IntReduce<uint64_t>(op, dst, src, false);
      }
      return false;
  }
}

}  // namespace tmapgen::model
