// tcgen05 instruction descriptor tests: field tables per kind (values worked out by hand from [PTX-ID]
// Tables 42-44), decode round trips, Table 39 shapes, and every idesc-* rule at its boundary.
#include <gtest/gtest.h>

#include <cstdint>

#include "src/desc/instr_descriptor.h"
#include "tests/desc/desc_test_util.h"

namespace tmapgen::desc {
namespace {

using test::Has;
using test::RunIdesc;
using test::RunIdescValue;

IdescSpec F16(uint32_t m, uint32_t n) {
  IdescSpec s;
  s.kind = MmaKind::kF16;
  s.a_type = s.b_type = ElemType::kBF16;
  s.d_type = DType::kF32;
  s.m = m;
  s.n = n;
  return s;
}

// ============================== field tables ==============================
// Table 42, .kind::f16: d_type F32 = 1 (bits 4-5), a BF16 = 1 (7-9), b BF16 = 1 (10-12), N >> 3 = 32
// (17-22), M >> 4 = 8 (24-28): 0x10 | 0x80 | 0x400 | 32 << 17 | 8 << 24.
TEST(IdescTable42, F16Bf16M128N256) {
  EXPECT_EQ(EncodeIdesc(F16(128, 256)), 0x10u | 0x80u | 0x400u | (32u << 17) | (8u << 24));
  EXPECT_EQ(EncodeIdesc(F16(128, 256)), 0x08400490u);
}

// Table 42: f16 x f16 -> F16 = 0, M = 64 (4 << 24), N = 8 (1 << 17).
TEST(IdescTable42, F16F16M64N8) {
  IdescSpec s = F16(64, 8);
  s.a_type = s.b_type = ElemType::kF16;
  s.d_type = DType::kF16;
  EXPECT_EQ(EncodeIdesc(s), 0x04020000u);
}

// Table 42, .kind::tf32: dtype F32 = 1, atype/btype TF32 = 2; M 128, N 128.
TEST(IdescTable42, Tf32) {
  IdescSpec s = F16(128, 128);
  s.kind = MmaKind::kTf32;
  s.a_type = s.b_type = ElemType::kTF32;
  EXPECT_EQ(EncodeIdesc(s), 0x10u | (2u << 7) | (2u << 10) | (16u << 17) | (8u << 24));
}

// Table 42, .kind::i8: saturate bit 3, dtype S32 = 2, Signed 8b = 1, Unsigned 8b = 0.
TEST(IdescTable42, I8) {
  IdescSpec s = F16(128, 64);
  s.kind = MmaKind::kI8;
  s.a_type = ElemType::kS8;
  s.b_type = ElemType::kU8;
  s.d_type = DType::kS32;
  s.saturate = true;
  EXPECT_EQ(EncodeIdesc(s), 0x8u | (2u << 4) | (1u << 7) | (0u << 10) | (8u << 17) | (8u << 24));
}

// Table 42, .kind::f8f6f4: sparsity selector 2 (bits 0-1), sparse (bit 2), E4M3 = 0, E2M1 = 5, negate B
// (bit 14), transpose A (bit 15).
TEST(IdescTable42, F8f6f4SparseNegateTranspose) {
  IdescSpec s = F16(128, 256);
  s.kind = MmaKind::kF8f6f4;
  s.a_type = ElemType::kE4M3;
  s.b_type = ElemType::kE2M1;
  s.sparse = true;
  s.sparse_selector = 2;
  s.negate_b = true;
  s.a_major = Major::kMN;
  EXPECT_EQ(EncodeIdesc(s), 0x2u | 0x4u | 0x10u | (5u << 10) | (1u << 14) | (1u << 15) | (32u << 17) | (8u << 24));
}

// Table 42: maximum shift 16 = 2 in bits 30-31 (.ws).
TEST(IdescTable42, WsMaxShift) {
  IdescSpec s = F16(64, 128);
  s.ws = true;
  s.max_shift = 16;
  EXPECT_EQ(EncodeIdesc(s), 0x490u | (16u << 17) | (4u << 24) | (2u << 30));
}

// Table 43, .kind::mxf8f6f4: B SF id (4-5), E2M3 = 3, E3M2 = 4, scale type UE8M0 = 1 (bit 23),
// M >> 7 (27-28), A SF id (29-30).
TEST(IdescTable43, Mxf8f6f4) {
  IdescSpec s = F16(128, 128);
  s.kind = MmaKind::kMxf8f6f4;
  s.a_type = ElemType::kE2M3;
  s.b_type = ElemType::kE3M2;
  s.scale_type = ScaleType::kUE8M0;
  s.a_sf_id = 3;
  s.b_sf_id = 1;
  EXPECT_EQ(EncodeIdesc(s), (1u << 4) | (3u << 7) | (4u << 10) | (16u << 17) | (1u << 23) | (1u << 27) | (3u << 29));
  EXPECT_EQ(EncodeIdesc(s), 0x68A01190u);
}

// Table 44, .kind::mxf4nvf4: E2M1 = 1 in a (7-9) and b (10-11), UE4M3 = 0, M = 256 -> 2 << 27, K = 96
// (bit 31), SF ids 2.
TEST(IdescTable44, Mxf4nvf4K96) {
  IdescSpec s = F16(256, 256);
  s.kind = MmaKind::kMxf4nvf4;
  s.a_type = s.b_type = ElemType::kE2M1;
  s.cta_group = 2;
  s.k96 = true;
  s.scale_type = ScaleType::kUE4M3;
  s.a_sf_id = s.b_sf_id = 2;
  EXPECT_EQ(EncodeIdesc(s), (2u << 4) | (1u << 7) | (1u << 10) | (32u << 17) | (2u << 27) | (2u << 29) | (1u << 31));
  EXPECT_EQ(EncodeIdesc(s), 0xD04004A0u);
}

TEST(IdescTables, FieldTablesAndReservedMasksPartitionTheWord) {
  for (int k = 0; k < kNumMmaKinds; ++k) {
    const MmaKind kind = static_cast<MmaKind>(k);
    int n = 0;
    const BitField* f = IdescFieldTable(kind, &n);
    uint32_t used = 0;
    for (int i = 0; i < n; ++i) {
      const uint32_t m = static_cast<uint32_t>(FieldMask(f[i]));
      EXPECT_EQ(used & m, 0u) << Name(kind) << " " << f[i].name;
      used |= m;
    }
    EXPECT_EQ(used & IdescReservedMask(kind), 0u) << Name(kind);
    // Tables 43 and 44 also leave bits 0-1 and 3 reserved (no sparsity selector, no saturate).
    EXPECT_EQ(used | IdescReservedMask(kind), 0xFFFFFFFFu) << Name(kind);
  }
  EXPECT_EQ(IdescReservedMask(MmaKind::kF16), (1u << 6) | (1u << 23) | (1u << 29));
}

// ============================== round trips ==============================
TEST(IdescRoundTrip, DecodeOfEncode) {
  IdescSpec specs[6] = {F16(128, 256), F16(64, 8), F16(128, 64), F16(128, 128), F16(128, 128), F16(256, 256)};
  specs[1].a_type = specs[1].b_type = ElemType::kF16;
  specs[1].d_type = DType::kF16;
  specs[1].negate_a = true;
  specs[2].kind = MmaKind::kI8;
  specs[2].a_type = ElemType::kS8;
  specs[2].b_type = ElemType::kU8;
  specs[2].d_type = DType::kS32;
  specs[2].b_major = Major::kMN;
  specs[3].kind = MmaKind::kF8f6f4;
  specs[3].a_type = ElemType::kE5M2;
  specs[3].b_type = ElemType::kE3M2;
  specs[3].sparse = true;
  specs[3].sparse_selector = 3;
  specs[4].kind = MmaKind::kMxf8f6f4;
  specs[4].a_type = ElemType::kE2M1;
  specs[4].b_type = ElemType::kE4M3;
  specs[4].a_sf_id = 1;
  specs[4].b_sf_id = 3;
  specs[5].kind = MmaKind::kMxf4;
  specs[5].cta_group = 2;
  specs[5].a_type = specs[5].b_type = ElemType::kE2M1;
  specs[5].a_sf_id = 2;
  for (const IdescSpec& s : specs) {
    const uint32_t v = EncodeIdesc(s);
    const IdescSpec back = SpecFromFields(DecodeIdescFields(v, s.kind), s);
    EXPECT_EQ(EncodeIdesc(back), v) << Name(s.kind);
    EXPECT_EQ(back.m, s.m);
    EXPECT_EQ(back.n, s.n);
    EXPECT_EQ(back.a_type, s.a_type);
    EXPECT_EQ(back.b_type, s.b_type);
    EXPECT_EQ(back.a_major, s.a_major);
    EXPECT_EQ(back.b_major, s.b_major);
    EXPECT_EQ(back.sparse, s.sparse);
    EXPECT_EQ(DecodeIdescFields(v, s.kind).reserved, 0u);
    EXPECT_TRUE(RunIdesc(s).valid) << Name(s.kind);
  }
}

// ============================== shapes (Table 39) ==============================
TEST(IdescShapes, F16) {
  IdescSpec s = F16(64, 8);
  EXPECT_TRUE(ValidM(s) && ValidN(s));
  s.m = 256;
  EXPECT_FALSE(ValidM(s));
  s.m = 128;
  s.n = 256;
  EXPECT_TRUE(ValidN(s));
  for (uint32_t bad : {0u, 4u, 12u, 264u}) {
    s.n = bad;
    EXPECT_FALSE(ValidN(s)) << bad;
  }
  s.cta_group = 2;
  s.m = 256;
  s.n = 16;
  EXPECT_TRUE(ValidM(s) && ValidN(s));
  s.m = 64;
  EXPECT_FALSE(ValidM(s));
  s.n = 24;
  EXPECT_FALSE(ValidN(s));
  EXPECT_EQ(InstrK(F16(128, 128)), 16u);
  s = F16(128, 128);
  s.sparse = true;
  EXPECT_EQ(InstrK(s), 32u);
}

// The form decides the shapes. PTX ISA 9.7.16.2.1 Table 39 (.kind::f16, .kind::tf32: "64xNxK, 128xNxK;
// N = {8, 16, 24, ... 256} steps of 8" for cta_group 1, "N = {16, 32, ... 256} steps of 16" for cta_group 2) does not
// separate the A source. CUTLASS cute/arch/mma_sm100_umma.hpp (commit 7107b0553) does:
//   SM100_MMA_F16BF16_SS / SM100_MMA_TF32_SS (l. 86-89, 46-49): M 64 or 128, N % 8 == 0, 8 <= N <= 256;
//   SM100_MMA_F16BF16_TS / SM100_MMA_TF32_TS / SM100_MMA_F8F6F4_TS (l. 171-178, 127-134, 1292-1298), A from TMEM:
//     M == 64 with N % 8 == 0, or M == 128 with N % 16 == 0, 16 <= N <= 256; "A from TMEM can't be transposed";
//   SM100_MMA_*_2x1SM_SS (l. 552-555): N % 16 == 0; SM100_MMA_*_2x1SM_TS (l. 593-596, 635-638, 1131-1134 for S8):
//     N % 32 == 0, 32 <= N <= 256.
TEST(IdescShapes, ASourceFormsFromCutlass) {
  IdescSpec s = F16(128, 8);
  EXPECT_TRUE(ValidN(s));  // SS: N = 8 with M = 128
  s.a_tmem = true;
  EXPECT_FALSE(ValidN(s));  // TS: M = 128 needs N % 16
  for (uint32_t n : {24u, 40u, 248u}) {
    s.n = n;
    EXPECT_FALSE(ValidN(s)) << n;
  }
  for (uint32_t n : {16u, 32u, 256u}) {
    s.n = n;
    EXPECT_TRUE(ValidN(s)) << n;
  }
  s.m = 64;  // TS with M = 64 keeps steps of 8
  s.n = 24;
  EXPECT_TRUE(ValidN(s));
  s.kind = MmaKind::kTf32;
  s.a_type = s.b_type = ElemType::kTF32;
  s.m = 128;
  EXPECT_FALSE(ValidN(s));
  s.kind = MmaKind::kF8f6f4;
  EXPECT_FALSE(ValidN(s));
  // 2 CTAs: SS steps of 16, TS steps of 32 (i8 included, whose SS rule is already 32).
  IdescSpec two = F16(256, 48);
  two.cta_group = 2;
  EXPECT_TRUE(ValidN(two));
  two.a_tmem = true;
  EXPECT_FALSE(ValidN(two));
  two.n = 64;
  EXPECT_TRUE(ValidN(two));
  two.n = 16;
  EXPECT_FALSE(ValidN(two));
  EXPECT_EQ(ValidNText(two), "32..256 step 32");
  // Forms CUTLASS does not separate keep Table 39: .ws, the block-scaled kinds, i8 with one CTA.
  IdescSpec ws = F16(128, 64);
  ws.ws = true;
  ws.a_tmem = true;
  EXPECT_TRUE(ValidN(ws));
  IdescSpec i8 = F16(128, 24);
  i8.kind = MmaKind::kI8;
  i8.a_tmem = true;
  EXPECT_TRUE(ValidN(i8));
  EXPECT_EQ(FormShapeText(F16(128, 8)), "M = 64: N in 8..256 step 8; M = 128: N in 8..256 step 8");
  IdescSpec ts = F16(128, 8);
  ts.a_tmem = true;
  EXPECT_EQ(FormShapeText(ts), "M = 64: N in 8..256 step 8; M = 128: N in 16..256 step 16");
  EXPECT_NE(FormText(ts).find("A in tensor memory"), std::string::npos);
}

// The messages state the rule of the chosen form; a transposed A from tensor memory is an error (CUTLASS *_TS).
TEST(IdescRules, TmemFormMessagesAndTranspose) {
  IdescSpec s = F16(128, 24);
  s.a_tmem = true;
  IdescCheck in;
  in.spec = s;
  in.fields = DecodeIdescFields(EncodeIdesc(s), s.kind);
  DescValidation v;
  ValidateIdesc(in, &v);
  const std::vector<DescDiagnostic> d = MakeDescDiagnostics(DescContext{nullptr, &in}, v);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].rule, "idesc-n");
  EXPECT_NE(d[0].message.find("A in tensor memory"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("16..256 step 16"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].fix.find("shared memory"), std::string::npos) << d[0].fix;
  s.n = 32;
  s.a_major = Major::kMN;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-a-tmem-transpose"));
  s.a_tmem = false;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-a-tmem-transpose"));
}

TEST(IdescShapes, I8N) {
  IdescSpec s = F16(128, 8);
  s.kind = MmaKind::kI8;
  for (uint32_t n : {8u, 16u, 24u, 32u, 48u, 64u, 256u}) {
    s.n = n;
    EXPECT_TRUE(ValidN(s)) << n;
  }
  for (uint32_t n : {40u, 56u, 72u}) {
    s.n = n;
    EXPECT_FALSE(ValidN(s)) << n;
  }
  s.cta_group = 2;
  s.m = 256;
  for (uint32_t n : {32u, 64u, 256u}) {
    s.n = n;
    EXPECT_TRUE(ValidN(s)) << n;
  }
  s.n = 48;
  EXPECT_FALSE(ValidN(s));
}

TEST(IdescShapes, WsAndBlockScaled) {
  IdescSpec s = F16(32, 64);
  s.ws = true;
  EXPECT_TRUE(ValidM(s) && ValidN(s) && ValidVariant(s));
  s.n = 192;
  EXPECT_FALSE(ValidN(s));
  s.n = 256;
  s.sparse = true;
  EXPECT_FALSE(ValidN(s));
  s = F16(128, 8);
  s.kind = MmaKind::kMxf8f6f4;
  EXPECT_TRUE(ValidM(s));
  s.m = 64;
  EXPECT_FALSE(ValidM(s));
  s.cta_group = 2;
  s.sparse = true;
  s.m = 128;
  EXPECT_FALSE(ValidM(s));  // sparse cta_group::2 block-scaled: 256xNxK only
  s.m = 256;
  EXPECT_TRUE(ValidM(s));
  s = F16(128, 64);
  s.kind = MmaKind::kMxf4;
  EXPECT_EQ(InstrK(s), 64u);
  s.sparse = true;
  EXPECT_EQ(InstrK(s), 128u);
  s.sparse = false;
  s.k96 = true;
  EXPECT_EQ(InstrK(s), 96u);
  EXPECT_EQ(InstrK([] { IdescSpec t = F16(128, 64); t.kind = MmaKind::kTf32; return t; }()), 8u);
}

// ============================== rules ==============================
TEST(IdescRules, Variant) {
  IdescSpec s = F16(64, 64);
  s.ws = true;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-variant"));
  s.cta_group = 2;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-variant"));
  s = F16(128, 64);
  s.kind = MmaKind::kMxf8f6f4;
  s.a_type = s.b_type = ElemType::kE4M3;
  s.ws = true;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-variant"));
}

TEST(IdescRules, MAndN) {
  EXPECT_FALSE(Has(RunIdesc(F16(128, 256)), "idesc-m"));
  EXPECT_TRUE(Has(RunIdesc(F16(256, 256)), "idesc-m"));
  EXPECT_FALSE(Has(RunIdesc(F16(128, 256)), "idesc-n"));
  EXPECT_TRUE(Has(RunIdesc(F16(128, 260)), "idesc-n"));
}

// Table 39 target note: K = 96 only on sm_103a; rows: .cta_group::2, 256xNxK1, dense.
TEST(IdescRules, K96) {
  IdescSpec s = F16(256, 128);
  s.kind = MmaKind::kMxf4;
  s.a_type = s.b_type = ElemType::kE2M1;
  s.cta_group = 2;
  s.k96 = true;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-k96"));
  s.has_target = true;
  s.target = Target::kSm103a;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-k96"));
  s.target = Target::kSm100a;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-k96"));
  s.has_target = false;
  s.m = 128;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-k96"));
  s.m = 256;
  s.cta_group = 1;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-k96"));
}

// Table 42 dtype column + Table 39 (bf16 inputs accumulate in f32 only).
TEST(IdescRules, DType) {
  IdescSpec s = F16(128, 128);
  s.d_type = DType::kF16;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-d-type"));  // bf16 inputs
  s.a_type = s.b_type = ElemType::kF16;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-d-type"));
  s.kind = MmaKind::kTf32;
  s.a_type = s.b_type = ElemType::kTF32;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-d-type"));
  s.d_type = DType::kF32;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-d-type"));
  s.kind = MmaKind::kI8;
  s.a_type = s.b_type = ElemType::kS8;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-d-type"));
  s.d_type = DType::kS32;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-d-type"));
  s.kind = MmaKind::kF8f6f4;
  s.a_type = s.b_type = ElemType::kE4M3;
  s.d_type = DType::kF16;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-d-type"));
  EXPECT_TRUE(Has(RunIdescValue(EncodeIdesc(F16(128, 128)) | 0x30u, MmaKind::kF16), "idesc-d-type"));  // code 3
}

// Table 42/43/44 type codes.
TEST(IdescRules, AbTypeCodes) {
  const uint32_t tf32_ok = EncodeIdesc([] { IdescSpec t = F16(128, 128); t.kind = MmaKind::kTf32;
                                            t.a_type = t.b_type = ElemType::kTF32; return t; }());
  EXPECT_FALSE(Has(RunIdescValue(tf32_ok, MmaKind::kTf32), "idesc-ab-type"));
  EXPECT_TRUE(Has(RunIdescValue(tf32_ok & ~(7u << 7), MmaKind::kTf32), "idesc-ab-type"));  // A code 0
  const uint32_t f8 = EncodeIdesc([] { IdescSpec t = F16(128, 128); t.kind = MmaKind::kF8f6f4;
                                       t.a_type = t.b_type = ElemType::kE4M3; return t; }());
  EXPECT_TRUE(Has(RunIdescValue(f8 | (2u << 10), MmaKind::kF8f6f4), "idesc-ab-type"));  // B code 2: none
  EXPECT_FALSE(Has(RunIdescValue(f8 | (5u << 10), MmaKind::kF8f6f4), "idesc-ab-type"));  // E2M1
  IdescSpec s = F16(128, 128);
  s.a_type = ElemType::kTF32;  // not an f16-kind type
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-ab-type"));
}

TEST(IdescRules, AbTypeMatchForF16) {
  IdescSpec s = F16(128, 128);
  s.a_type = ElemType::kF16;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-ab-type-match"));
  s.b_type = ElemType::kF16;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-ab-type-match"));
}

// Table 42 .kind::i8 negate: "No Negate = 0" only; saturate "0 (NA)" for the other kinds.
TEST(IdescRules, NegateAndSaturate) {
  IdescSpec s = F16(128, 128);
  s.kind = MmaKind::kI8;
  s.a_type = s.b_type = ElemType::kS8;
  s.d_type = DType::kS32;
  s.saturate = true;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-saturate"));
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-negate-i8"));
  s.negate_a = true;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-negate-i8"));
  IdescSpec f = F16(128, 128);
  f.negate_a = f.negate_b = true;
  EXPECT_FALSE(Has(RunIdesc(f), "idesc-negate-i8"));
  f.saturate = true;
  EXPECT_TRUE(Has(RunIdesc(f), "idesc-saturate"));
}

// Table 44: transpose "No Transpose = 0" only; Table 54: MN-major for 8/16/32-bit types only.
TEST(IdescRules, Transpose) {
  IdescSpec s = F16(128, 128);
  s.kind = MmaKind::kMxf4;
  s.a_type = s.b_type = ElemType::kE2M1;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-transpose-kind"));
  s.b_major = Major::kMN;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-transpose-kind"));
  IdescSpec t = F16(128, 128);
  t.kind = MmaKind::kF8f6f4;
  t.a_type = ElemType::kE2M1;
  t.b_type = ElemType::kE4M3;
  t.a_major = Major::kMN;
  EXPECT_TRUE(Has(RunIdesc(t), "idesc-transpose-type"));
  t.a_type = ElemType::kE4M3;
  EXPECT_FALSE(Has(RunIdesc(t), "idesc-transpose-type"));
}

// Table 52: 8-bit transposed B: N multiple of 16 (cta_group::1) or 32 (cta_group::2).
TEST(IdescRules, TransposeN) {
  IdescSpec s = F16(128, 24);
  s.kind = MmaKind::kF8f6f4;
  s.a_type = s.b_type = ElemType::kE4M3;
  s.b_major = Major::kMN;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-transpose-n"));
  s.n = 32;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-transpose-n"));
  s.cta_group = 2;
  s.m = 256;
  s.n = 48;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-transpose-n"));
  s.n = 64;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-transpose-n"));
  IdescSpec f = F16(128, 24);  // 16-bit B: no such constraint
  f.b_major = Major::kMN;
  EXPECT_FALSE(Has(RunIdesc(f), "idesc-transpose-n"));
}

TEST(IdescRules, SparseSelectorAndMaxShift) {
  IdescSpec s = F16(128, 128);
  s.sparse_selector = 1;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-sparse-selector"));
  s.sparse = true;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-sparse-selector"));
  IdescSpec w = F16(64, 128);
  w.max_shift = 8;
  EXPECT_TRUE(Has(RunIdesc(w), "idesc-max-shift"));
  w.ws = true;
  EXPECT_FALSE(Has(RunIdesc(w), "idesc-max-shift"));
  w.max_shift = 12;
  EXPECT_TRUE(Has(RunIdesc(w), "idesc-max-shift"));
}

// Tables 43-44: scale type UE8M0 = 1 for mxf8f6f4 and mxf4; mxf4nvf4 also UE4M3 = 0; SF ids 0 or 2 for
// the mxf4 kinds.
TEST(IdescRules, ScaleTypeAndSfId) {
  IdescSpec s = F16(128, 128);
  s.kind = MmaKind::kMxf8f6f4;
  s.a_type = s.b_type = ElemType::kE4M3;
  s.a_sf_id = 3;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-sf-id"));
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-scale-type"));
  s.scale_type = ScaleType::kUE4M3;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-scale-type"));
  s.a_sf_id = 4;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-sf-id"));
  IdescSpec n = s;
  n.kind = MmaKind::kMxf4nvf4;
  n.a_type = n.b_type = ElemType::kE2M1;
  n.a_sf_id = 2;
  EXPECT_FALSE(Has(RunIdesc(n), "idesc-scale-type"));
  EXPECT_FALSE(Has(RunIdesc(n), "idesc-sf-id"));
  n.b_sf_id = 1;
  EXPECT_TRUE(Has(RunIdesc(n), "idesc-sf-id"));
}

TEST(IdescRules, Reserved) {
  const uint32_t ok = EncodeIdesc(F16(128, 128));
  EXPECT_FALSE(Has(RunIdescValue(ok, MmaKind::kF16), "idesc-reserved"));
  EXPECT_TRUE(Has(RunIdescValue(ok | (1u << 6), MmaKind::kF16), "idesc-reserved"));
  EXPECT_TRUE(Has(RunIdescValue(ok | (1u << 23), MmaKind::kF16), "idesc-reserved"));
  IdescSpec m = F16(128, 128);
  m.kind = MmaKind::kMxf8f6f4;
  m.a_type = m.b_type = ElemType::kE4M3;
  const uint32_t mv = EncodeIdesc(m);
  EXPECT_FALSE(Has(RunIdescValue(mv, MmaKind::kMxf8f6f4), "idesc-reserved"));
  EXPECT_TRUE(Has(RunIdescValue(mv | (1u << 24), MmaKind::kMxf8f6f4), "idesc-reserved"));  // CUTLASS's M >> 4 low bits
}

TEST(IdescRules, Target) {
  IdescSpec s = F16(128, 128);
  s.has_target = true;
  s.target = Target::kSm90a;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-target"));
  s.target = Target::kSm100a;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-target"));
  s.kind = MmaKind::kI8;
  s.a_type = s.b_type = ElemType::kS8;
  s.d_type = DType::kS32;
  s.target = Target::kSm100f;
  EXPECT_TRUE(Has(RunIdesc(s), "idesc-target"));
  s.target = Target::kSm100a;
  EXPECT_FALSE(Has(RunIdesc(s), "idesc-target"));
}

}  // namespace
}  // namespace tmapgen::desc
