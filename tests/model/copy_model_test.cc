// Tests of the copy model. Expected element sets are written from the documentation by hand (PTX ISA 9.2
// sections 5.5.3-5.5.7, the Chinese seed /work/shared/seeds/000_*.txt, tma-spec.md 2.1-2.5), from the
// hardware-tested examples of Triton's TMA im2col tutorial, and from measurements on an H200
// (docs/model.md, M1-M7); none is produced by the model.
#include "src/model/copy_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "src/tmap/derived_facts.h"
#include "src/model/swizzle.h"
#include "src/tmap/validator.h"
#include "tests/model/model_test_util.h"

namespace tmapgen::model {
namespace {

using testing::Im2col;
using testing::Instr;
using testing::IotaU16;
using testing::Tiled;
using testing::U16At;
using testing::Wide;

std::vector<uint8_t> IotaBytes(size_t n) {
  std::vector<uint8_t> g(n);
  for (size_t i = 0; i < n; ++i) g[i] = static_cast<uint8_t>(i * 7 + 3);
  return g;
}

SmemImage MustLoad(const TensorMapSpec& s, const CopyInstruction& in, const std::vector<uint8_t>& g) {
  SmemImage img;
  const absl::Status st = ModelLoad(s, in, g.data(), g.size(), &img);
  EXPECT_TRUE(st.ok()) << st;
  return img;
}

std::string LoadError(const TensorMapSpec& s, const CopyInstruction& in, size_t gsize = 1 << 20) {
  std::vector<uint8_t> g(gsize);
  SmemImage img;
  const absl::Status st = ModelLoad(s, in, g.data(), g.size(), &img);
  EXPECT_FALSE(st.ok());
  return std::string(st.message());
}

// ---------------------------------------------------------------------------------------------- tiled

TEST(TiledLoad, TwoRowsCopiedInBoxOrder) {
  const TensorMapSpec s = Tiled(DataType::kUint8, {32, 4}, {16, 2});
  const std::vector<uint8_t> g = IotaBytes(128);
  const SmemImage img = MustLoad(s, Instr(CopyMode::kTile, {16, 1}), g);
  ASSERT_EQ(img.bytes.size(), 32u);
  EXPECT_EQ(img.transaction_bytes, 32u);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(img.bytes[i], g[1 * 32 + 16 + i]);
    EXPECT_EQ(img.bytes[16 + i], g[2 * 32 + 16 + i]);
    EXPECT_EQ(img.state[i], kData);
  }
}

// PTX 5.5.3.3: elements of the box outside the tensor are set to zero, or to OOB-NaN. The NaN pattern is
// the one measured on an H200 (M3): 0x7ff7 repeated.
TEST(TiledLoad, OutOfBoundsZeroAndNanFill) {
  TensorMapSpec s = Tiled(DataType::kFloat16, {16, 4}, {16, 2});
  const std::vector<uint8_t> g = IotaU16(64);
  const CopyInstruction in = Instr(CopyMode::kTile, {-8, 3});
  SmemImage z = MustLoad(s, in, g);
  for (int x = 0; x < 16; ++x) {
    const int gx = x - 8;
    if (gx < 0) {
      EXPECT_EQ(U16At(z.bytes, 2 * x), 0) << x;
      EXPECT_EQ(z.state[2 * x], kFill);
    } else {
      EXPECT_EQ(U16At(z.bytes, 2 * x), 3 * 16 + gx) << x;
    }
    EXPECT_EQ(U16At(z.bytes, 32 + 2 * x), 0) << "row y = 4 is outside the tensor";
  }
  s.oob_fill = OobFill::kNanRequestZeroFma;
  SmemImage n = MustLoad(s, in, g);
  EXPECT_EQ(U16At(n.bytes, 0), 0x7ff7);
  EXPECT_EQ(U16At(n.bytes, 2 * 8), 3 * 16 + 0);
  EXPECT_EQ(U16At(n.bytes, 32 + 2 * 15), 0x7ff7);
}

TEST(OobFill, PatternPerType) {
  uint8_t b[8];
  EXPECT_EQ(OobFillBytes(DataType::kFloat32, OobFill::kNanRequestZeroFma, b), 4);
  uint32_t f;
  std::memcpy(&f, b, 4);
  EXPECT_EQ(f, 0x7ff77ff7u);
  EXPECT_EQ(OobFillBytes(DataType::kFloat64, OobFill::kNanRequestZeroFma, b), 8);
  uint64_t d;
  std::memcpy(&d, b, 8);
  EXPECT_EQ(d, 0x7ff77ff77ff77ff7ull);
  double dv;
  std::memcpy(&dv, &d, 8);
  EXPECT_TRUE(std::isnan(dv));
  EXPECT_EQ(OobFillBytes(DataType::kBfloat16, OobFill::kNanRequestZeroFma, b), 2);
  EXPECT_EQ(b[0], 0xf7);
  EXPECT_EQ(b[1], 0x7f);
  EXPECT_EQ(OobFillBytes(DataType::kInt32, OobFill::kNone, b), 4);
  EXPECT_EQ(b[0] | b[1] | b[2] | b[3], 0);
  EXPECT_EQ(OobFillBytes(DataType::k16U4Align8B, OobFill::kNone, b), 0);
}

// elementStrides: ceil(box / stride) elements along each dimension, every stride-th one (cuda.h).
TEST(TiledLoad, TraversalStridesSkipElements) {
  TensorMapSpec s = Tiled(DataType::kFloat16, {16, 10, 6}, {8, 5, 4});
  s.element_strides = {1, 2, 3, 1, 1};
  const std::vector<uint8_t> g = IotaU16(16 * 10 * 6);
  const absl::StatusOr<CopyLayout> L = DescribeCopy(s, Instr(CopyMode::kTile, {8, 1, 0}));
  ASSERT_TRUE(L.ok()) << L.status();
  EXPECT_EQ(L->box_counts[1], 3u);  // ceil(5 / 2)
  EXPECT_EQ(L->box_counts[2], 2u);  // ceil(4 / 3)
  const SmemImage img = MustLoad(s, Instr(CopyMode::kTile, {8, 1, 0}), g);
  ASSERT_EQ(img.transaction_bytes, 8u * 3 * 2 * 2);
  // Row r = (y index i1, z index i2): y = 1 + 2 * i1, z = 3 * i2.
  for (int i2 = 0; i2 < 2; ++i2)
    for (int i1 = 0; i1 < 3; ++i1)
      for (int x = 0; x < 8; ++x)
        EXPECT_EQ(U16At(img.bytes, 16 * (i2 * 3 + i1) + 2 * x), (3 * i2) * 160 + (1 + 2 * i1) * 16 + 8 + x);
}

// element_strides[0] is ignored without interleave (cuda.h), measured on the H200 too.
TEST(TiledLoad, ElementStrideZeroIgnoredWithoutInterleave) {
  TensorMapSpec s = Tiled(DataType::kFloat16, {16, 4}, {16, 1});
  TensorMapSpec t = s;
  t.element_strides[0] = 4;
  const std::vector<uint8_t> g = IotaU16(64);
  EXPECT_EQ(MustLoad(s, Instr(CopyMode::kTile, {0, 2}), g).bytes, MustLoad(t, Instr(CopyMode::kTile, {0, 2}), g).bytes);
}

// Swizzle phase: with the destination one line past a 1024-byte boundary the 128B pattern starts at row 1.
TEST(TiledLoad, SwizzlePhaseFromDestination) {
  const TensorMapSpec s = Tiled(DataType::kUint8, {128, 8}, {128, 2}, Swizzle::k128B);
  const std::vector<uint8_t> g = IotaBytes(1024);
  const SmemImage img = MustLoad(s, Instr(CopyMode::kTile, {0, 0}, 1024 + 128), g);
  // Line 0 (pattern row 1): chunks 1 0 3 2 5 4 7 6 of box row 0. Line 1 (pattern row 2): 2 3 0 1 6 7 4 5.
  const int row1[8] = {1, 0, 3, 2, 5, 4, 7, 6}, row2[8] = {2, 3, 0, 1, 6, 7, 4, 5};
  for (int pos = 0; pos < 8; ++pos) {
    EXPECT_EQ(img.bytes[16 * pos], g[16 * row1[pos]]) << pos;
    EXPECT_EQ(img.bytes[128 + 16 * pos], g[128 + 16 * row2[pos]]) << pos;
  }
}

// M1: an inner box narrower than the swizzle span occupies a whole span per row; the rest is untouched.
TEST(TiledLoad, NarrowInnerBoxIsPaddedToTheSpan) {
  const TensorMapSpec s = Tiled(DataType::kFloat16, {128, 32}, {32, 4}, Swizzle::k128B);
  const std::vector<uint8_t> g = IotaU16(128 * 32);
  const SmemImage img = MustLoad(s, Instr(CopyMode::kTile, {0, 0}), g);
  ASSERT_EQ(img.bytes.size(), 4u * 128);
  EXPECT_EQ(img.transaction_bytes, 4u * 64);
  int data = 0, untouched = 0;
  for (uint8_t st : img.state) (st == kData ? data : untouched) += 1;
  EXPECT_EQ(data, 256);
  EXPECT_EQ(untouched, 256);
  // Row 1 lives in line 1 (pattern row 1): its chunk 0 lands at position 1.
  EXPECT_EQ(U16At(img.bytes, 128 + 16), 128);
}

// FLIP_8B: lines 1 and 3 have the two 8-byte halves of every chunk swapped.
TEST(TiledLoad, Flip8BSwapsHalves) {
  TensorMapSpec s = Tiled(DataType::kUint8, {128, 4}, {128, 2}, Swizzle::k128BAtom32BFlip8B);
  const std::vector<uint8_t> g = IotaBytes(512);
  const SmemImage img = MustLoad(s, Instr(CopyMode::kTile, {0, 0}), g);
  // Line 1 = pattern row 1 of the 32B-atom table: [2 3 | 0 1 | 6 7 | 4 5], halves flipped.
  const int row1[8] = {2, 3, 0, 1, 6, 7, 4, 5};
  for (int pos = 0; pos < 8; ++pos) {
    EXPECT_EQ(img.bytes[128 + 16 * pos], g[128 + 16 * row1[pos] + 8]) << pos;
    EXPECT_EQ(img.bytes[128 + 16 * pos + 8], g[128 + 16 * row1[pos]]) << pos;
    EXPECT_EQ(img.bytes[16 * pos], g[16 * pos]) << "line 0 unchanged";
  }
}

// M5: TFLOAT32 loads round to tf32 (values measured on an H200).
TEST(TiledLoad, Tf32LoadsRoundToNearestEven) {
  const uint32_t in[] = {0x3f801000u, 0x3f803000u, 0x3f800fffu, 0x3f801001u, 0x7f7fffffu, 0x7fc00000u, 0xffffffffu,
                         0x00000001u, 0x007fffffu, 0x00003000u, 0x80000001u, 0xff800000u};
  const uint32_t out[] = {0x3f800000u, 0x3f804000u, 0x3f800000u, 0x3f802000u, 0x7f800000u, 0x7fffe000u, 0x7fffe000u,
                          0x00000000u, 0x00800000u, 0x00004000u, 0x80000000u, 0xff800000u};
  for (DataType t : {DataType::kTfloat32, DataType::kTfloat32Ftz, DataType::kFloat32Ftz}) {
    const TensorMapSpec s = Tiled(t, {12}, {12});
    std::vector<uint8_t> g(48);
    std::memcpy(g.data(), in, 48);
    TensorMapSpec s16 = Tiled(t, {16}, {16});
    std::vector<uint8_t> g16(64, 0);
    std::memcpy(g16.data(), in, 48);
    const SmemImage img = MustLoad(s16, Instr(CopyMode::kTile, {0}), g16);
    for (int i = 0; i < 12; ++i) {
      uint32_t v;
      std::memcpy(&v, &img.bytes[4 * i], 4);
      EXPECT_EQ(v, t == DataType::kFloat32Ftz ? in[i] : out[i]) << ShortName(t) << " " << i;
    }
    (void)s;
  }
}

// M2: a box that does not start on a 16-byte boundary along dimension 0 traps on the GPU.
TEST(TiledLoad, RefusesMisalignedDimensionZeroStart) {
  const TensorMapSpec s = Tiled(DataType::kFloat16, {40, 20}, {32, 8});
  EXPECT_NE(LoadError(s, Instr(CopyMode::kTile, {-3, 0})).find("16-byte boundary"), std::string::npos);
  EXPECT_NE(LoadError(s, Instr(CopyMode::kTile, {4, 0})).find("16-byte boundary"), std::string::npos);
}

TEST(Model, RefusesSpecsThatDoNotValidate) {
  TensorMapSpec s = Tiled(DataType::kFloat16, {256, 8}, {128, 8}, Swizzle::k64B);  // 256 B inner > 64 B span
  EXPECT_NE(LoadError(s, Instr(CopyMode::kTile, {0, 0})).find("swizzle-inner-span"), std::string::npos);
  s = Tiled(DataType::kFloat16, {64, 8}, {64, 8}, Swizzle::k128B);
  EXPECT_NE(LoadError(s, Instr(CopyMode::kTile, {0, 0}, 64)).find("128-byte"), std::string::npos);
  CopyInstruction pf = Instr(CopyMode::kTile, {0, 0});
  pf.direction = Direction::kPrefetch;
  EXPECT_NE(LoadError(s, pf).find("prefetch"), std::string::npos);
  EXPECT_NE(LoadError(s, Instr(CopyMode::kIm2col, {0, 0})).find("im2col map"), std::string::npos);
  EXPECT_NE(LoadError(s, Instr(CopyMode::kTileScatter4, {0, 0})).find("store mode"), std::string::npos);
  std::vector<uint8_t> small(100);
  SmemImage img;
  const absl::Status st = ModelLoad(s, Instr(CopyMode::kTile, {0, 0}), small.data(), small.size(), &img);
  EXPECT_NE(st.message().find("global buffer"), absl::string_view::npos);
  // status.h: the input is wrong (kInvalidArgument); a copy the model does not cover is kUnimplemented.
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ModelLoad(s, pf, small.data(), small.size(), &img).code(), absl::StatusCode::kUnimplemented);
}

// ---------------------------------------------------------------------------------------------- gather4

// PTX 5.5.3.4: four rows at (col, row0..3), each box_dim[0] long, one after the other in shared memory.
TEST(Gather4, FourRows) {
  TensorMapSpec s = Tiled(DataType::kUint8, {64, 20}, {32, 1}, Swizzle::k32B);
  s.mode = Mode::kGather4;
  const std::vector<uint8_t> g = IotaBytes(64 * 20);
  CopyInstruction in = Instr(CopyMode::kTileGather4, {16});
  in.rows = {2, 5, 0, 9};
  const SmemImage img = MustLoad(s, in, g);
  EXPECT_EQ(img.transaction_bytes, 4u * 32);
  const int rows[4] = {2, 5, 0, 9};
  for (int k = 0; k < 4; ++k)
    for (int x = 0; x < 32; ++x) {
      const uint64_t lin = 32 * static_cast<uint64_t>(k) + static_cast<uint64_t>(x);
      EXPECT_EQ(img.bytes[SwizzleAddress(Swizzle::k32B, lin)], g[64 * rows[k] + 16 + x]) << k << " " << x;
    }
  in.rows = {2, 25, 0, -1};  // rows outside the tensor are filled
  const SmemImage oob = MustLoad(s, in, g);
  EXPECT_EQ(oob.state[SwizzleAddress(Swizzle::k32B, 32)], kFill);
  EXPECT_EQ(oob.state[SwizzleAddress(Swizzle::k32B, 96)], kFill);
}

// ---------------------------------------------------------------------------------------------- im2col

// Pixel p of an im2col image with channels c0 .. c0+cpp-1: element index in a dense C x W x H x N tensor.
struct Nhwc {
  int C, W, H, N;
  int Index(int c, int w, int h, int n) const { return c + C * (w + W * (h + H * n)); }
  bool In(int w, int h, int n) const { return w >= 0 && w < W && h >= 0 && h < H && n >= 0 && n < N; }
};

void ExpectPixel(const SmemImage& img, const Nhwc& t, int pixel, int row_bytes, int c0, int cpp, int w, int h, int n) {
  for (int c = 0; c < cpp; ++c) {
    const int got = U16At(img.bytes, static_cast<size_t>(pixel * row_bytes + 2 * c));
    const int want = t.In(w, h, n) ? static_cast<uint16_t>(t.Index(c0 + c, w, h, n)) : 0;
    ASSERT_EQ(got, want) << "pixel " << pixel << " channel " << c << " (w " << w << ", h " << h << ", n " << n << ")";
  }
}

// PTX 5.5.4.1 example 1 (Figure 13): C=64, W=9, H=14, N=64, 64 pixels x 8 channels, corners -1/-1 (box W
// [-1, 7], H [-1, 12]), coordinates (c, w, h, n) = (7, 7, 4, 0), offsets (0, 0). The walk: (w 7, h 4), then
// rows h = 5 .. 11 with w = -1 .. 7 (7 x 9 = 63 pixels); w = -1 is padding. The example's c = 7 is not
// 16-byte aligned for a 2-byte type (the H200 traps, M2), so c = 8 is used; c = 7 is refused.
TEST(Im2colPtxExample, Example1) {
  const TensorMapSpec s = Im2col(DataType::kFloat16, {64, 9, 14, 64}, {-1, -1}, {-1, -1}, 8, 64);
  const Nhwc t{64, 9, 14, 64};
  const std::vector<uint8_t> g = IotaU16(64 * 9 * 14 * 64);
  EXPECT_NE(LoadError(s, Instr(CopyMode::kIm2col, {7, 7, 4, 0})).find("16-byte boundary"), std::string::npos);
  const SmemImage img = MustLoad(s, Instr(CopyMode::kIm2col, {8, 7, 4, 0}), g);
  EXPECT_EQ(img.transaction_bytes, 64u * 8 * 2);
  ExpectPixel(img, t, 0, 16, 8, 8, 7, 4, 0);
  for (int p = 1; p < 64; ++p) ExpectPixel(img, t, p, 16, 8, 8, -1 + (p - 1) % 9, 5 + (p - 1) / 9, 0);
}

// Example 2 (Figure 14): corners 0 / -2 (box W [0, 6], H [0, 11]), offsets (2, 2), coordinates (7, 7, 4, 0).
// W = 7 lies outside the box; on the H200 that traps (M4), so the model refuses it. With W = 6 (the last
// column of the box) the walk is: base (6, 4), then base rows h = 5 .. 11 with w = 0 .. 6, then image n = 1
// from h = 0; every access is base + (2, 2).
TEST(Im2colPtxExample, Example2) {
  const TensorMapSpec s = Im2col(DataType::kFloat16, {64, 9, 14, 64}, {0, 0}, {-2, -2}, 8, 64);
  const Nhwc t{64, 9, 14, 64};
  CopyInstruction in = Instr(CopyMode::kIm2col, {8, 7, 4, 0});
  in.im2col_offsets = {2, 2, 0};
  EXPECT_NE(LoadError(s, in).find("outside the bounding box"), std::string::npos);
  in.coords[1] = 6;
  const SmemImage img = MustLoad(s, in, IotaU16(64 * 9 * 14 * 64));
  ExpectPixel(img, t, 0, 16, 8, 8, 8, 6, 0);
  for (int p = 1; p < 64; ++p) {
    const int q = p - 1;
    int w, h, n;
    if (q < 49) { w = q % 7; h = 5 + q / 7; n = 0; }
    else { w = (q - 49) % 7; h = (q - 49) / 7; n = 1; }
    ExpectPixel(img, t, p, 16, 8, 8, w + 2, h + 2, n);
  }
}

// Traversal-stride example (Figure 15): C=64, W=8, H=14, N=64, stride 2, 32 pixels x 16 channels, corners
// -1/-1 (box W [-1, 6] -> -1, 1, 3, 5; H [-1, 12] -> -1, 1, ..., 11), offsets (1, 1), coordinates (7, 7, 5, 0).
// W = 7 is outside the box (refused, M4); from W = 5: (5, 5), then h = 7, 9, 11 with w = -1, 1, 3, 5, then
// image 1 from h = -1. Accesses are base + (1, 1).
TEST(Im2colPtxExample, TraversalStride) {
  TensorMapSpec s = Im2col(DataType::kFloat16, {64, 8, 14, 64}, {-1, -1}, {-1, -1}, 16, 32);
  s.element_strides = {1, 2, 2, 1, 1};
  const Nhwc t{64, 8, 14, 64};
  CopyInstruction in = Instr(CopyMode::kIm2col, {8, 7, 5, 0});
  in.im2col_offsets = {1, 1, 0};
  EXPECT_NE(LoadError(s, in).find("outside the bounding box"), std::string::npos);
  in.coords[1] = 5;
  const SmemImage img = MustLoad(s, in, IotaU16(64 * 8 * 14 * 64));
  EXPECT_EQ(img.transaction_bytes, 32u * 16 * 2);
  std::vector<std::array<int, 3>> base = {{5, 5, 0}};
  for (int h : {7, 9, 11}) for (int w : {-1, 1, 3, 5}) base.push_back({w, h, 0});
  for (int h : {-1, 1, 3, 5, 7}) for (int w : {-1, 1, 3, 5}) base.push_back({w, h, 1});
  for (int p = 0; p < 32; ++p) ExpectPixel(img, t, p, 32, 8, 16, base[p][0] + 1, base[p][1] + 1, base[p][2]);
}

// Triton's TMA im2col tutorial (tests that pass on Hopper): a [N, H, W, C] = [1 or 2, 4, 4, 32] f32 tensor
// whose pixels hold 1, 2, ...; 16 pixels are loaded. Expected channel-0 values copied from the tutorial.
struct TritonCase {
  const char* name;
  int n_images, lo, hi, w, h, n, off;
  std::vector<float> expect;
};

TEST(Im2colTriton, TutorialExamples) {
  const TritonCase cases[] = {
      {"basic", 1, 0, 0, 0, 0, 0, 0, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
      {"padded", 1, -1, -1, -1, -1, 0, 0, {0, 0, 0, 0, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11}},
      {"offset", 1, -1, -1, -1, -1, 0, 1, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
      {"multi-batch", 2, 0, 0, 3, 1, 0, 0, {8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
      {"multi-batch padded", 2, -1, -1, 2, 1, 0, 0, {7, 0, 9, 10, 11, 0, 0, 0, 0, 0, 17, 18, 19, 0, 21, 22}},
  };
  for (const TritonCase& tc : cases) {
    const TensorMapSpec s = Im2col(DataType::kFloat32, {32, 4, 4, static_cast<uint64_t>(tc.n_images)}, {tc.lo, tc.lo},
                                   {tc.hi, tc.hi}, 32, 16, Swizzle::k128B);
    std::vector<uint8_t> g(static_cast<size_t>(tc.n_images) * 16 * 32 * 4);
    for (int px = 0; px < tc.n_images * 16; ++px)
      for (int c = 0; c < 32; ++c) {
        const float v = static_cast<float>(px + 1);
        std::memcpy(&g[(static_cast<size_t>(px) * 32 + c) * 4], &v, 4);
      }
    CopyInstruction in = Instr(CopyMode::kIm2col, {0, tc.w, tc.h, tc.n});
    in.im2col_offsets = {static_cast<uint16_t>(tc.off), static_cast<uint16_t>(tc.off), 0};
    const SmemImage img = MustLoad(s, in, g);
    for (int p = 0; p < 16; ++p) {
      float v;
      std::memcpy(&v, &img.bytes[SwizzleAddress(Swizzle::k128B, static_cast<uint64_t>(p) * 128)], 4);
      EXPECT_EQ(v, tc.expect[p]) << tc.name << " pixel " << p;
    }
  }
}

// ---------------------------------------------------------------------------------------------- im2col::w

std::vector<ElementPlacement> Placements(const TensorMapSpec& s, const CopyInstruction& in, CopyLayout* L) {
  std::vector<ElementPlacement> pl;
  const absl::Status st = ModelPlacements(s, in, &pl, L);
  EXPECT_TRUE(st.ok()) << st;
  return pl;
}

// First element of every row (pixel) of a copy.
std::vector<ElementPlacement> RowStarts(const TensorMapSpec& s, const CopyInstruction& in, CopyLayout* L) {
  std::vector<ElementPlacement> out;
  for (const ElementPlacement& e : Placements(s, in, L))
    if (e.index == 0) out.push_back(e);
  return out;
}

// PTX 5.5.5.3 im2col::w example: C=128, W=9, H=7, N=64, 128 pixels x 64 channels, corners 0/0, coordinates
// (c, w, h, n) = (7, 2, 3, 0), wHalo 2: "loads 128 pixels and two halo pixels", the halo right after the main
// pixels. Reading R6: only W walks (box [0, 8]); past its end the walk continues in the next image (H stays 3).
// c = 0 instead of 7 (M2).
TEST(Im2colWide, PtxExampleWHalo) {
  const TensorMapSpec s = Wide(Mode::kIm2colW, DataType::kFloat16, {128, 9, 7, 64}, 0, 0, 64, 128);
  CopyInstruction in = Instr(CopyMode::kIm2colW, {0, 2, 3, 0});
  in.w_halo = 2;
  CopyLayout L;
  const std::vector<ElementPlacement> rows = RowStarts(s, in, &L);
  ASSERT_EQ(rows.size(), 130u);
  EXPECT_EQ(L.transaction_bytes, 130u * 64 * 2);
  for (int p = 0; p < 130; ++p) {
    const int w = p < 7 ? 2 + p : (p - 7) % 9;
    const int n = p < 7 ? 0 : 1 + (p - 7) / 9;
    EXPECT_EQ(rows[p].coord[1], w) << p;
    EXPECT_EQ(rows[p].coord[2], 3) << p;
    EXPECT_EQ(rows[p].coord[3], n) << p;
    EXPECT_EQ(rows[p].halo, p >= 128) << p;
  }
  // The derived facts count the main pixels; the halo adds w_halo x bytes_per_halo_pixel.
  const DerivedFacts f = ComputeDerivedFacts(s);
  EXPECT_EQ(L.transaction_bytes, f.transaction_bytes + 2 * f.bytes_per_halo_pixel);
}

// im2col::w::128: 128 pixels; w_halo halo pixels after every 32 (reading R7: each group of 32 is followed by
// the next w_halo pixels of the walk).
TEST(Im2colWide, W128HaloAfterEvery32) {
  const TensorMapSpec s = Wide(Mode::kIm2colW128, DataType::kFloat16, {128, 300, 7, 2}, 0, 0, 64, 128);
  CopyInstruction in = Instr(CopyMode::kIm2colW128, {0, 10, 3, 0});
  in.w_halo = 2;
  CopyLayout L;
  const std::vector<ElementPlacement> rows = RowStarts(s, in, &L);
  ASSERT_EQ(rows.size(), 4u * 34);
  for (int g = 0; g < 4; ++g) {
    for (int j = 0; j < 32; ++j) {
      EXPECT_EQ(rows[g * 34 + j].coord[1], 10 + 32 * g + j);
      EXPECT_FALSE(rows[g * 34 + j].halo);
    }
    for (int j = 0; j < 2; ++j) {
      EXPECT_EQ(rows[g * 34 + 32 + j].coord[1], 10 + 32 * (g + 1) + j);
      EXPECT_TRUE(rows[g * 34 + 32 + j].halo);
    }
  }
  const DerivedFacts f = ComputeDerivedFacts(s);
  EXPECT_EQ(L.transaction_bytes, f.transaction_bytes + 4 * 2 * f.bytes_per_halo_pixel);
}

// PTX 5.5.5.4 wOffset example 1: W=67, H=9 (reading: the example lists the H size before the W size),
// corners -1 / 0, traversal stride 2, start W = -1, H = 2: buffer 1 (wHalo 1, wOffset 0) holds W = -1, 1, 3,
// ...; buffer 2 (wHalo 0, wOffset 1) holds W = 0, 2, 4, ... (box and start shifted by wOffset).
TEST(Im2colWide, PtxExampleWOffsetStride2) {
  TensorMapSpec s = Wide(Mode::kIm2colW, DataType::kFloat16, {128, 67, 9, 64}, -1, 0, 64, 128);
  s.element_strides = {1, 2, 1, 1, 1};
  CopyInstruction b1 = Instr(CopyMode::kIm2colW, {0, -1, 2, 0});
  b1.w_halo = 1;
  CopyLayout L;
  std::vector<ElementPlacement> r1 = RowStarts(s, b1, &L);
  ASSERT_EQ(r1.size(), 129u);
  // Box [-1, 66]: W = -1, 1, ..., 65 (34 pixels), then image 1 from -1.
  for (int p = 0; p < 129; ++p) {
    EXPECT_EQ(r1[p].coord[1], -1 + 2 * (p % 34)) << p;
    EXPECT_EQ(r1[p].coord[3], p / 34) << p;
  }
  EXPECT_TRUE(r1[0].oob);
  EXPECT_FALSE(r1[1].oob);
  CopyInstruction b2 = Instr(CopyMode::kIm2colW, {0, -1, 2, 0});
  b2.w_offset = 1;
  std::vector<ElementPlacement> r2 = RowStarts(s, b2, &L);
  ASSERT_EQ(r2.size(), 128u);
  // Box [0, 67]: W = 0, 2, ..., 66 (34 pixels), then image 1 from 0.
  for (int p = 0; p < 128; ++p) {
    EXPECT_EQ(r2[p].coord[1], 2 * (p % 34)) << p;
    EXPECT_EQ(r2[p].coord[3], p / 34) << p;
    EXPECT_FALSE(r2[p].oob) << p;
  }
}

// wOffset example 2: traversal stride 3, corners -1 / -1, three buffers with wOffset 0, 1, 2 start at W = -1,
// 0 and 1 and step by 3.
TEST(Im2colWide, PtxExampleWOffsetStride3) {
  TensorMapSpec s = Wide(Mode::kIm2colW, DataType::kFloat16, {128, 400, 7, 64}, -1, -1, 64, 128);
  s.element_strides = {1, 3, 1, 1, 1};
  for (int off = 0; off < 3; ++off) {
    CopyInstruction in = Instr(CopyMode::kIm2colW, {0, -1, 2, 0});
    in.w_offset = static_cast<uint16_t>(off);
    CopyLayout L;
    const std::vector<ElementPlacement> r = RowStarts(s, in, &L);
    ASSERT_EQ(r.size(), 128u);
    for (int p = 0; p < 128; ++p) EXPECT_EQ(r[p].coord[1], -1 + off + 3 * p) << off << " " << p;
  }
  CopyInstruction bad = Instr(CopyMode::kIm2colW, {0, -1, 2, 0});
  bad.w_offset = 32;
  EXPECT_NE(LoadError(s, bad).find("w_offset"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------- sub-byte types

TEST(SubByte, U4Align8BCopiesNibblesAsIs) {
  const TensorMapSpec s = Tiled(DataType::k16U4Align8B, {128, 2}, {64, 2});
  const std::vector<uint8_t> g = IotaBytes(128);
  const SmemImage img = MustLoad(s, Instr(CopyMode::kTile, {32, 0}), g);
  ASSERT_EQ(img.bytes.size(), 64u);
  EXPECT_EQ(img.transaction_bytes, 64u);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(img.bytes[i], g[16 + i]);
    EXPECT_EQ(img.bytes[32 + i], g[64 + 16 + i]);
  }
}

// .b4x16_p64: 16 nibbles (8 bytes) then 8 bytes of padding (PTX 5.5.1.1, Figure 5). The transaction count is the
// packed size, 128 x 4 bits = 64 B (CUTLASS sm100_blockscaled_mma_warpspecialized.hpp l. 294-296 counts
// sizeof_bits of the 4-bit type; DeepGEMM sm100_fp8_fp4_gemm_1d1d.cuh l. 257-258 arms half the 1-byte-per-element
// stage size), while the image is 128 B.
TEST(SubByte, U4Align16BLoadPadsEvery8Bytes) {
  const TensorMapSpec s = Tiled(DataType::k16U4Align16B, {256, 2}, {128, 1}, Swizzle::k128B);
  const std::vector<uint8_t> g = IotaBytes(512);
  const SmemImage img = MustLoad(s, Instr(CopyMode::kTile, {128, 1}), g);
  ASSERT_EQ(img.bytes.size(), 128u);
  EXPECT_EQ(img.transaction_bytes, 64u);
  for (int grp = 0; grp < 8; ++grp)
    for (int b = 0; b < 16; ++b) {
      const uint64_t at = SwizzleAddress(Swizzle::k128B, 16 * static_cast<uint64_t>(grp) + static_cast<uint64_t>(b));
      if (b < 8) {
        EXPECT_EQ(img.bytes[at], g[128 + 64 + 8 * grp + b]) << grp << " " << b;
        EXPECT_EQ(img.state[at], kData);
      } else {
        EXPECT_EQ(img.state[at], kPadding);
      }
    }
}

// .b6x16_p32: 16 six-bit values (12 bytes) then 4 bytes of padding (Figure 6).
TEST(SubByte, U6Align16BLoadPadsEvery12Bytes) {
  const TensorMapSpec s = Tiled(DataType::k16U6Align16B, {256, 2}, {128, 1});
  const std::vector<uint8_t> g = IotaBytes(512);
  const SmemImage img = MustLoad(s, Instr(CopyMode::kTile, {0, 1}), g);
  ASSERT_EQ(img.bytes.size(), 128u);
  EXPECT_EQ(img.transaction_bytes, 96u);  // 128 x 6 bits packed (CUTLASS sm120_blockscaled_mma_tma.hpp l. 256-262)
  const size_t row = 256 * 6 / 8;  // 192 bytes; the stride is rounded to 208
  const size_t stride = s.global_strides[0];
  EXPECT_EQ(row, 192u);
  for (int grp = 0; grp < 8; ++grp)
    for (int b = 0; b < 16; ++b) {
      if (b < 12) EXPECT_EQ(img.bytes[16 * grp + b], g[stride + 12 * grp + b]) << grp << " " << b;
      else EXPECT_EQ(img.state[16 * grp + b], kPadding);
    }
}

// .b6p2x16 store: one byte per element in shared memory, the 6 low bits packed into global memory.
TEST(SubByte, U6Align16BStoreDropsTwoPadBits) {
  const TensorMapSpec s = Tiled(DataType::k16U6Align16B, {128, 1}, {128, 1});
  std::vector<uint8_t> smem(128);
  for (int i = 0; i < 128; ++i) smem[i] = static_cast<uint8_t>(0xc0 | (i & 63));  // pad bits set
  std::vector<uint8_t> g(96, 0);
  CopyInstruction in = Instr(CopyMode::kTile, {0});
  in.direction = Direction::kStore;
  StoreResult r;
  const absl::Status st = ModelStore(s, in, smem.data(), smem.size(), g.data(), g.size(), nullptr, &r);
  ASSERT_TRUE(st.ok()) << st;
  for (int e = 0; e < 128; ++e) {
    uint32_t v = 0;
    for (int b = 0; b < 6; ++b) v |= ((g[(6 * e + b) / 8] >> ((6 * e + b) % 8)) & 1u) << b;
    EXPECT_EQ(v, static_cast<uint32_t>(e & 63)) << e;
  }
}

// ---------------------------------------------------------------------------------------------- stores

// M7: a store writes whole 16-byte chunks along dimension 0: with global_dim[0] = 11 bytes, bytes 11..15 of
// each row are written too; rows outside the tensor are not.
TEST(Store, WritesWhole16ByteChunksAlongDimensionZero) {
  const TensorMapSpec s = Tiled(DataType::kUint8, {11, 3, 2}, {32, 2, 2});
  std::vector<uint8_t> smem(128);
  for (int i = 0; i < 128; ++i) smem[i] = static_cast<uint8_t>(200 + i % 50);
  std::vector<uint8_t> g(16 * 3 * 2 + 16, 0xee), mask;
  CopyInstruction in = Instr(CopyMode::kTile, {0, 2, 0});
  in.direction = Direction::kStore;
  StoreResult r;
  const absl::Status st = ModelStore(s, in, smem.data(), smem.size(), g.data(), g.size(), &mask, &r);
  ASSERT_TRUE(st.ok()) << st;
  // Box rows: (y 2, z 0), (y 3 outside), (y 2, z 1), (y 3 outside).
  for (int x = 0; x < 16; ++x) {
    EXPECT_EQ(g[2 * 16 + x], smem[x]) << x;
    EXPECT_EQ(g[48 + 2 * 16 + x], smem[64 + x]) << x;
    EXPECT_EQ(mask[2 * 16 + x], 1);
  }
  EXPECT_EQ(g[0], 0xee);
  EXPECT_EQ(r.bytes_written, 32u);
  CopyInstruction neg = in;
  neg.coords[1] = -1;
  const absl::Status refused = ModelStore(s, neg, smem.data(), smem.size(), g.data(), g.size(), nullptr, &r);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("non-negative"), absl::string_view::npos);
}

// Store after load gives the box back (through any swizzle and phase).
TEST(Store, RoundTripThroughEverySwizzle) {
  for (int sw = 0; sw <= 3; ++sw) {
    const Swizzle swz = static_cast<Swizzle>(sw);
    const uint32_t inner = sw == 0 ? 128 : SwizzleSpanBytes(swz);
    const TensorMapSpec s = Tiled(DataType::kUint8, {200, 20}, {inner, 9}, swz);
    const std::vector<uint8_t> g = IotaBytes(208 * 20);
    for (uint64_t dst : {uint64_t{0}, uint64_t{384}, uint64_t{896}}) {
      const SmemImage img = MustLoad(s, Instr(CopyMode::kTile, {32, 5}, dst), g);
      CopyInstruction st = Instr(CopyMode::kTile, {32, 5}, dst);
      st.direction = Direction::kStore;
      std::vector<uint8_t> out(g.size(), 0), mask;
      StoreResult r;
      const absl::Status stored = ModelStore(s, st, img.bytes.data(), img.bytes.size(), out.data(), out.size(), &mask, &r);
      ASSERT_TRUE(stored.ok()) << stored;
      for (size_t i = 0; i < g.size(); ++i)
        if (mask[i]) {
          EXPECT_EQ(out[i], g[i]) << ShortName(swz) << " dst " << dst << " byte " << i;
        }
      EXPECT_EQ(r.elements_written, inner * 9);
    }
  }
}

// im2col_no_offs stores (reading R9): the walk of the im2col map; after the first pixel outside the tensor
// nothing more is written (PTX 5.5.5.1 for im2col_no_offs::w).
TEST(Store, Im2colNoOffsStopsAtFirstOutOfBoundsPixel) {
  const TensorMapSpec s = Im2col(DataType::kFloat16, {32, 6, 5, 2}, {0, 0}, {0, 0}, 32, 40, Swizzle::k64B);
  CopyInstruction in = Instr(CopyMode::kIm2colNoOffs, {0, 3, 4, 1});
  in.direction = Direction::kStore;
  CopyLayout L;
  const std::vector<ElementPlacement> rows = RowStarts(s, in, &L);
  // From (w 3, h 4, n 1): 3 pixels to the end of image 1, then n = 2 is outside: skipped from there on.
  EXPECT_FALSE(rows[2].skipped);
  EXPECT_TRUE(rows[3].skipped);
  EXPECT_TRUE(rows[39].skipped);
}

// ---------------------------------------------------------------------------------------------- reductions

uint16_t H(double v) { return FloatToHalf(v); }

TEST(Reduce, HalfAddRoundsToNearestEven) {
  auto add = [](DataType t, uint16_t a, uint16_t b) {
    uint8_t d[2], s[2];
    std::memcpy(d, &a, 2);
    std::memcpy(s, &b, 2);
    EXPECT_TRUE(ReduceElement(t, ReduceOp::kAdd, d, s));
    uint16_t r;
    std::memcpy(&r, d, 2);
    return r;
  };
  EXPECT_EQ(add(DataType::kFloat16, H(1.0), H(std::ldexp(1.0, -11))), H(1.0));                        // tie, even
  EXPECT_EQ(add(DataType::kFloat16, H(1.0 + std::ldexp(1.0, -10)), H(std::ldexp(1.0, -11))), 0x3c02);  // tie, up to even
  EXPECT_EQ(add(DataType::kFloat16, H(65504.0), H(65504.0)), 0x7c00);                                  // overflow
  EXPECT_EQ(add(DataType::kFloat16, 0x0001, 0x0001), 0x0002);                                          // subnormals
  EXPECT_EQ(add(DataType::kBfloat16, FloatToBf16(1.0), FloatToBf16(std::ldexp(1.0, -8))), FloatToBf16(1.0));
  EXPECT_EQ(add(DataType::kBfloat16, 0x3f81, FloatToBf16(std::ldexp(1.0, -8))), 0x3f82);
  EXPECT_EQ(HalfToFloat(0x3c00), 1.0);
  EXPECT_EQ(Bf16ToFloat(0x3f80), 1.0);
}

TEST(Reduce, IntegerOperations) {
  auto op32 = [](ReduceOp op, uint32_t a, uint32_t b) {
    uint8_t d[4], s[4];
    std::memcpy(d, &a, 4);
    std::memcpy(s, &b, 4);
    EXPECT_TRUE(ReduceElement(DataType::kUint32, op, d, s));
    uint32_t r;
    std::memcpy(&r, d, 4);
    return r;
  };
  EXPECT_EQ(op32(ReduceOp::kAdd, 0xffffffffu, 2), 1u);
  EXPECT_EQ(op32(ReduceOp::kInc, 5, 5), 0u);   // old >= src ? 0 : old + 1
  EXPECT_EQ(op32(ReduceOp::kInc, 4, 5), 5u);
  EXPECT_EQ(op32(ReduceOp::kDec, 0, 7), 7u);   // old == 0 || old > src ? src : old - 1
  EXPECT_EQ(op32(ReduceOp::kDec, 9, 7), 7u);
  EXPECT_EQ(op32(ReduceOp::kDec, 3, 7), 2u);
  EXPECT_EQ(op32(ReduceOp::kMin, 3, 7), 3u);
  EXPECT_EQ(op32(ReduceOp::kXor, 0xf0u, 0xffu), 0x0fu);
  int32_t a = -5, b = 3;
  uint8_t d[4], s[4];
  std::memcpy(d, &a, 4);
  std::memcpy(s, &b, 4);
  EXPECT_TRUE(ReduceElement(DataType::kInt32, ReduceOp::kMin, d, s));
  std::memcpy(&a, d, 4);
  EXPECT_EQ(a, -5);
  EXPECT_FALSE(ReduceElement(DataType::kInt32, ReduceOp::kInc, d, s));
  EXPECT_FALSE(ReduceElement(DataType::kInt64, ReduceOp::kAdd, d, s));
  EXPECT_FALSE(ReduceElement(DataType::kFloat64, ReduceOp::kAdd, d, s));
}

TEST(Reduce, HalfMinMaxIgnoreNan) {
  uint16_t a = 0x7e00, b = H(2.0);
  uint8_t d[2], s[2];
  std::memcpy(d, &a, 2);
  std::memcpy(s, &b, 2);
  EXPECT_TRUE(ReduceElement(DataType::kFloat16, ReduceOp::kMin, d, s));
  uint16_t r;
  std::memcpy(&r, d, 2);
  EXPECT_EQ(r, H(2.0));
}

// ---------------------------------------------------------------------------------------------- properties

// A random valid tiled spec (and instruction) from `rng`.
bool RandomTiled(std::mt19937_64& rng, TensorMapSpec* s, CopyInstruction* in) {
  auto pick = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1)); };
  *s = TensorMapSpec{};
  s->mode = Mode::kTiled;
  s->data_type = static_cast<DataType>(pick(0, 12));
  s->rank = static_cast<uint32_t>(pick(1, 5));
  s->swizzle = static_cast<Swizzle>(pick(0, 6));
  const uint32_t eb = static_cast<uint32_t>(DataTypeBits(s->data_type) / 8);
  const uint32_t span = s->swizzle == Swizzle::kNone ? 256 : static_cast<uint32_t>(SwizzleSpanBytes(s->swizzle));
  const uint32_t unit = 16 / eb;
  s->box_dim[0] = unit * static_cast<uint32_t>(pick(1, static_cast<int>(std::max<uint32_t>(1, std::min<uint32_t>(256, span / eb) / unit))));
  s->global_dim[0] = static_cast<uint64_t>(pick(1, 3 * static_cast<int>(s->box_dim[0])));
  for (uint32_t d = 1; d < s->rank; ++d) {
    s->global_dim[d] = static_cast<uint64_t>(pick(1, 9));
    s->box_dim[d] = static_cast<uint32_t>(pick(1, 6));
    s->element_strides[d] = static_cast<uint32_t>(pick(1, 3));
  }
  if (IsFloat(s->data_type) && pick(0, 1)) s->oob_fill = OobFill::kNanRequestZeroFma;
  FillPaddedStrides(s);
  *in = CopyInstruction{};
  in->mode = CopyMode::kTile;
  for (uint32_t d = 0; d < s->rank; ++d)
    in->coords[d] = pick(-static_cast<int>(s->box_dim[d]), static_cast<int>(s->global_dim[d]) + 2);
  in->coords[0] = in->coords[0] / static_cast<int>(unit) * static_cast<int>(unit);
  in->smem_address = 1024 * 4 + 128 * static_cast<uint64_t>(pick(0, 7));
  Validation v;
  Validate(*s, &v);
  return v.valid;
}

// For random specs: every element lands where its placement says, with its own bytes when inside the tensor
// and the fill pattern exactly when a coordinate is outside (computed here from the coordinates alone);
// every data or fill byte of the image belongs to exactly one element.
TEST(Property, ElementsLandWhereTheyShouldAndFillExactlyOutside) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (int iter = 0; iter < 4000 && checked < 300; ++iter) {
    TensorMapSpec s;
    CopyInstruction in;
    if (!RandomTiled(rng, &s, &in)) continue;
    ++checked;
    const absl::StatusOr<CopyLayout> layout = DescribeCopy(s, in);
    ASSERT_TRUE(layout.ok()) << layout.status();
    CopyLayout L = *layout;
    std::vector<uint8_t> g(L.required_global_bytes);
    for (auto& b : g) b = static_cast<uint8_t>(rng());
    SmemImage img;
    const absl::Status loaded = ModelLoad(s, in, g.data(), g.size(), &img);
    ASSERT_TRUE(loaded.ok()) << loaded;
    std::vector<ElementPlacement> pl;
    const absl::Status placed = ModelPlacements(s, in, &pl, &L);
    ASSERT_TRUE(placed.ok()) << placed;
    const uint32_t eb = static_cast<uint32_t>(DataTypeBits(s.data_type) / 8);
    uint8_t pat[8];
    OobFillBytes(s.data_type, s.oob_fill, pat);
    std::vector<int> owner(img.bytes.size(), 0);
    for (const ElementPlacement& e : pl) {
      bool outside = false;
      uint64_t gbyte = 0;
      for (uint32_t d = 0; d < s.rank; ++d) {
        if (e.coord[d] < 0 || e.coord[d] >= static_cast<int64_t>(s.global_dim[d])) outside = true;
        else gbyte += d == 0 ? static_cast<uint64_t>(e.coord[0]) * eb : static_cast<uint64_t>(e.coord[d]) * s.global_strides[d - 1];
      }
      ASSERT_EQ(e.oob, outside);
      const size_t at = static_cast<size_t>(e.smem_bit / 8);
      for (uint32_t b = 0; b < eb; ++b) {
        ++owner[at + b];
        if (outside) {
          ASSERT_EQ(img.state[at + b], kFill);
          ASSERT_EQ(img.bytes[at + b], pat[b]);
        } else if (s.data_type != DataType::kTfloat32 && s.data_type != DataType::kTfloat32Ftz) {
          ASSERT_EQ(img.state[at + b], kData);
          ASSERT_EQ(img.bytes[at + b], g[gbyte + b]) << "element at smem " << at;
        }
      }
    }
    for (size_t i = 0; i < img.bytes.size(); ++i) ASSERT_EQ(owner[i], img.state[i] == kUntouched ? 0 : 1) << i;
  }
  EXPECT_GE(checked, 200);
}

// A swizzled load followed by the inverse mapping (the same XOR: an involution) restores the unswizzled box.
TEST(Property, InverseSwizzleRestoresTheBox) {
  std::mt19937_64 rng(11);
  for (int sw = 1; sw < kNumSwizzles; ++sw) {
    const Swizzle swz = static_cast<Swizzle>(sw);
    TensorMapSpec s = Tiled(DataType::kFloat16, {300, 40, 3}, {static_cast<uint32_t>(SwizzleSpanBytes(swz) / 2), 21, 2}, swz);
    TensorMapSpec plain = s;
    plain.swizzle = Swizzle::kNone;
    std::vector<uint8_t> g(608 * 40 * 3);
    for (auto& b : g) b = static_cast<uint8_t>(rng());
    for (uint64_t dst : {uint64_t{2048}, uint64_t{2048 + 128}, uint64_t{2048 + 640}}) {
      const CopyInstruction in = Instr(CopyMode::kTile, {16, 30, 1}, dst);
      const SmemImage a = MustLoad(s, in, g);
      const SmemImage b = MustLoad(plain, in, g);
      ASSERT_EQ(a.transaction_bytes, b.transaction_bytes);
      std::vector<uint8_t> back(a.bytes.size());
      for (size_t i = 0; i < a.bytes.size(); ++i) back[SwizzleAddress(swz, dst + i) - dst] = a.bytes[i];
      back.resize(b.bytes.size());
      EXPECT_EQ(back, b.bytes) << ShortName(swz) << " dst " << dst;
    }
  }
}

// The transaction byte count agrees with the validator's derived facts for many valid specs of every mode.
TEST(Property, TransactionBytesAgreeWithDerivedFacts) {
  std::mt19937_64 rng(3);
  int checked = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    TensorMapSpec s;
    CopyInstruction in;
    if (!RandomTiled(rng, &s, &in)) continue;
    const absl::StatusOr<CopyLayout> L = DescribeCopy(s, in);
    ASSERT_TRUE(L.ok()) << L.status();
    EXPECT_EQ(L->transaction_bytes, ComputeDerivedFacts(s).transaction_bytes);
    ++checked;
  }
  // im2col, wide and gather4 defaults with varied sizes.
  for (int cpp : {8, 16, 32, 64}) {
    for (int ppc : {1, 7, 64, 256, 1024}) {
      TensorMapSpec s = Im2col(DataType::kFloat16, {64, 20, 20, 4}, {-1, -1}, {-1, -1}, static_cast<uint32_t>(cpp),
                               static_cast<uint32_t>(ppc), Swizzle::k128B);
      absl::StatusOr<CopyLayout> L = DescribeCopy(s, Instr(CopyMode::kIm2col, {0, 0, 0, 0}));
      ASSERT_TRUE(L.ok()) << L.status();
      EXPECT_EQ(L->transaction_bytes, ComputeDerivedFacts(s).transaction_bytes);
      TensorMapSpec w = Wide(Mode::kIm2colW, DataType::kFloat16, {64, 200, 3, 2}, -1, -1, static_cast<uint32_t>(cpp),
                             static_cast<uint32_t>(ppc));
      CopyInstruction wi = Instr(CopyMode::kIm2colW, {0, 0, 0, 0});
      wi.w_halo = 3;
      L = DescribeCopy(w, wi);
      ASSERT_TRUE(L.ok()) << L.status();
      const DerivedFacts f = ComputeDerivedFacts(w);
      EXPECT_EQ(L->transaction_bytes, f.transaction_bytes + 3 * f.bytes_per_halo_pixel);
      ++checked;
    }
  }
  TensorMapSpec g4 = DefaultSpec(Mode::kGather4);
  const absl::StatusOr<CopyLayout> L = DescribeCopy(g4, DefaultInstruction(g4));
  ASSERT_TRUE(L.ok()) << L.status();
  EXPECT_EQ(L->transaction_bytes, ComputeDerivedFacts(g4).transaction_bytes);
  EXPECT_GE(checked, 300);
}

// Every mode's embedded default runs through the model.
TEST(Model, DefaultSpecsOfEveryMode) {
  for (int m = 0; m < kNumModes; ++m) {
    const TensorMapSpec s = DefaultSpec(static_cast<Mode>(m));
    const CopyInstruction in = DefaultInstruction(s);
    const absl::StatusOr<CopyLayout> L = DescribeCopy(s, in);
    ASSERT_TRUE(L.ok()) << Name(static_cast<Mode>(m)) << ": " << L.status();
    EXPECT_GT(L->transaction_bytes, 0u);
  }
  CopyMode cm;
  EXPECT_TRUE(Parse(".im2col::w::128", &cm));
  EXPECT_EQ(cm, CopyMode::kIm2colW128);
  EXPECT_TRUE(Parse("gather4", &cm));
  EXPECT_EQ(Name(CopyMode::kIm2colNoOffs), ".im2col_no_offs");
  EXPECT_FALSE(Parse("tile::foo", &cm));
}

// Interleaved .tile copies are modelled (tests/model/interleave_test.cc); OOB-NaN fill with them is not.
TEST(Model, InterleaveWithNanFillIsRefusedWithAReason) {
  TensorMapSpec s = Tiled(DataType::kFloat16, {8, 10, 6}, {8, 4, 3});
  s.interleave = Interleave::k16B;
  s.oob_fill = OobFill::kNanRequestZeroFma;
  EXPECT_NE(LoadError(s, Instr(CopyMode::kTile, {0, 0, 0})).find("OOB-NaN"), std::string::npos);
}

}  // namespace
}  // namespace tmapgen::model
