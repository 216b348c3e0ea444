// The spec reader's fast path (src/schema/spec_json.cc, FastReader) against the full reader (simdjson):
// for every text, the same status (message, field, line, column) and, when accepted, the same spec.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "src/specgen/random_spec.h"
#include "src/json/json_writer.h"
#include "src/schema/spec_json.h"
#include "src/util/status.h"

namespace tmapgen {
namespace {

class Compare {
 public:
  Compare() { full_.set_fast_path(false); }

  // Reads `text` with both readers, copied (padded by the parser) and in place followed by padding bytes
  // of each of a few values (the fast path must not look past the text's end).
  void Check(const std::string& text) {
    ++texts_;
    const json::TextPos at{3, 1};
    TensorMapSpec want;
    const absl::Status want_st = full_.Parse(text, at, false, &want);
    const size_t before = fast_.fast_reads();
    Expect(text, want_st, want, false, ' ');
    if (fast_.fast_reads() != before) ++taken_;
    for (const char pad : {' ', '}', '"', '\n', '0'}) Expect(text, want_st, want, true, pad);
  }
  size_t texts() const { return texts_; }
  size_t taken() const { return taken_; }

 private:
  void Expect(const std::string& text, const absl::Status& want_st, const TensorMapSpec& want, bool padded, char pad) {
    const json::TextPos at{3, 1};
    TensorMapSpec got;
    absl::Status st;
    if (padded) {
      std::string buf = text;
      buf.append(json::kPadding, pad);
      st = fast_.Parse(std::string_view(buf.data(), text.size()), at, true, &got);
    } else {
      st = fast_.Parse(text, at, false, &got);
    }
    ASSERT_EQ(st.ok(), want_st.ok()) << text << "\n" << st << "\n" << want_st;
    if (!st.ok()) {
      EXPECT_EQ(StatusMessage(st), StatusMessage(want_st)) << text;
      const InputError a = InputErrorOf(st), b = InputErrorOf(want_st);
      EXPECT_EQ(a.field, b.field) << text;
      EXPECT_EQ(a.line, b.line) << text;
      EXPECT_EQ(a.column, b.column) << text;
      return;
    }
    EXPECT_TRUE(SameSpec(got, want)) << text;
  }

  SpecJsonParser fast_, full_;
  size_t texts_ = 0, taken_ = 0;
};

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(std::string(TMAPGEN_SOURCE_DIR) + path);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(line);
  return out;
}

std::string Written(const TensorMapSpec& s, bool pretty) {
  json::WriterOptions o;
  o.pretty = pretty;
  json::Writer w(o);
  WriteSpecJson(s, &w);
  return w.str();
}

// Bytes that change what a text means to a JSON reader.
constexpr char kEdits[] = {'"', '\\', ',', ':', '{', '}', '[', ']', '-', '0', '1', '9', '.', 'e', 'E', '+', ' ',
                           '\n', '\t', '\r', 'x', 'a', '\x01', '\x7f', '\x80', '\xc3', '\xff', 'u', 'n', 't'};

std::string Mutate(specgen::Rng& r, std::string t) {
  const int edits = 1 + static_cast<int>(r.Below(3));
  for (int i = 0; i < edits && !t.empty(); ++i) {
    const size_t at = r.Below(t.size());
    const char c = kEdits[r.Below(sizeof kEdits)];
    switch (r.Below(5)) {
      case 0: t[at] = c; break;
      case 1: t.insert(t.begin() + static_cast<std::ptrdiff_t>(at), c); break;
      case 2: t.erase(at, 1); break;
      case 3: t.resize(at); break;
      case 4: {  // the first member again, after a later comma (a duplicate key)
        const size_t first = t.find(','), comma = t.find(',', at);
        if (first != std::string::npos && comma != std::string::npos) t.insert(comma + 1, t.substr(1, first));
        break;
      }
    }
  }
  return t;
}

TEST(SpecJsonFastPath, HandWrittenTextsReadAlike) {
  Compare c;
  const std::string base = R"("tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8])";
  const std::vector<std::string> texts = {
      "{" + base + "}",
      " \t\r\n{ " + base + " } \r\n",
      R"({ "tensor_data_type" : "bf16" , "global_dim" : [ 64 , 32 ] , "box_dim" : [ 8 , 8 ] })",
      R"({"tensor_data_type":"bf16","global_dim":[],"box_dim":[]})",
      "{}",
      "{ }",
      "",
      "   ",
      "}",
      "{",
      "{" + base + "}}",
      "{" + base + "} x",
      "{" + base + ",}",
      "{," + base + "}",
      "{" + base + ",\"name\":\"x\",\"name\":\"y\"}",
      "{" + base + ",\"nam\":1}",
      "{" + base + ",\"trace\":{\"a\":1}}",
      "{" + base + ",\"bytes\":\"00\"}",
      "{" + base + ",\"name\":\"caf\xc3\xa9\"}",
      "{" + base + ",\"name\":\"a\\\"b\"}",
      "{" + base + ",\"name\":\"a\x01\"}",
      "{" + base + ",\"name\":\"a\x7f\"}",
      "{" + base + ",\"name\":\"\"}",
      "{" + base + ",\"name\":\"a}\"}",
      "{" + base + ",\"name\":\"a}",
      "{" + base + ",\"name\":7}",
      "{\"n\\u0061me\":\"x\"," + base + "}",
      R"({"tensor_data_type":9,"global_dim":[64,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":16,"global_dim":[64,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":-1,"global_dim":[64,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"BF16","global_dim":[64,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"CU_TENSOR_MAP_DATA_TYPE_BFLOAT16","global_dim":[64,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf17","global_dim":[64,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[064,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[0,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[-0,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[64.0,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[6.4e1,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[64e0,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32,],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[64 32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[9999999999999999999,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[18446744073709551615,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[18446744073709551616,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[1,2,3,4,5],"box_dim":[1,1,1,1,1]})",
      R"({"tensor_data_type":"bf16","global_dim":[1,2,3,4,5,6],"box_dim":[1,1,1,1,1,1]})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[4294967295,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[4294967296,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"tensor_rank":3})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"tensor_rank":2})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"global_address":"0x7f00"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"global_address":"0X7F00"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"global_address":"0x"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"global_address":"123"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"global_address":"0x10000000000000000"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"global_address":-1})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"smem_address":1024,"smem_alignment":128})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"driver_version":"13.0"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"driver_version":"12.8"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"driver_version":"13"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"driver_version":"13.x"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"driver_version":12080})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"target":"sm_100a","swizzle":"128B_atom_32B"})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"target":3})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"swizzle":6,"interleave":0,"l2_promotion":3,"oob_fill":1})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"swizzle":7})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"direction":"reduce","reduce_op":"max"})",
      R"({"mode":"im2col","tensor_data_type":"bf16","global_dim":[8,56,56,64],"pixel_box_lower_corner":[-1,-1],"pixel_box_upper_corner":[-2147483648,2147483647],"channels_per_pixel":8,"pixels_per_column":32})",
      R"({"mode":"im2col","tensor_data_type":"bf16","global_dim":[8,56,56,64],"pixel_box_lower_corner":[-2147483649,-1],"channels_per_pixel":8,"pixels_per_column":32})",
      R"({"mode":"im2col","tensor_data_type":"bf16","global_dim":[8,56,56,64],"pixel_box_lower_corner":[2147483648,-1],"channels_per_pixel":8,"pixels_per_column":32})",
      R"({"mode":"im2col","tensor_data_type":"bf16","global_dim":[8,56,56,64],"pixel_box_lower_corner":[-,-1],"channels_per_pixel":8,"pixels_per_column":32})",
      R"({"mode":"im2col","tensor_data_type":"bf16","global_dim":[8,56,56,64],"pixel_box_lower_corner":[-0,-01],"channels_per_pixel":8,"pixels_per_column":32})",
      R"({"mode":"im2col::w","tensor_data_type":"bf16","global_dim":[8,56,56,64],"pixel_box_lower_corner_width":-3,"pixel_box_upper_corner_width":2,"channels_per_pixel":8,"wide_mode":1})",
      R"({"mode":"im2col::w::128","tensor_data_type":"bf16","global_dim":[8,56,56,64],"channels_per_pixel":8})",
      R"({"mode":"gather4","tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,1],"element_strides":[1,1]})",
      R"({"mode":"tiled","tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"element_strides":[2]})",
      R"({"mode":3,"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"global_strides":[128]})",
      R"({"tensor_data_type":"bf16","global_dim":[64,32],"box_dim":[8,8],"global_strides":[128,4]})",
      R"({"tensor_data_type":"bf16","global_dim":{"a":1},"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[[1]],"box_dim":[8,8]})",
      R"({"tensor_data_type":"bf16","global_dim":[true],"box_dim":[8,8]})",
      R"({"tensor_data_type":null,"global_dim":[64],"box_dim":[8]})",
      R"([{"tensor_data_type":"bf16","global_dim":[64],"box_dim":[8]}])",
      R"("tensor_data_type")",
      "{\"tensor_data_type\":\"bf16\",\"global_dim\":[64,\n32],\n\"box_dim\":[8,8]}",
      "{\"name\":\"a\":\"b\"," + base + "}\n,\"target\":\"sm_90a\"}",  // found by spec_json_fuzz
      // Data-type names of the one table (src/tmap/types.h): data aliases are kept in the spec alike.
      R"({"tensor_data_type":"e4m3","global_dim":[64,32],"box_dim":[16,8]})",
      R"({"tensor_data_type":"E5M2","global_dim":[64,32],"box_dim":[16,8]})",
      R"({"tensor_data_type":"int8","global_dim":[64,32],"box_dim":[16,8]})",
      R"({"tensor_data_type":"fp8","global_dim":[64,32],"box_dim":[16,8]})",
      R"({"tensor_data_type":"e2m1","global_dim":[128,32],"box_dim":[128,8]})",
      R"({"tensor_data_type":"u8","global_dim":[64,32],"box_dim":[16,8]})",
      R"({"tensor_data_type":"e4m3x","global_dim":[64,32],"box_dim":[16,8]})",
  };
  for (const std::string& t : texts) c.Check(t);
  EXPECT_GE(c.taken(), 30u);
}

// The spec files of the repository and random specs as WriteSpecJson writes them (compact and pretty),
// each as it is and edited at random.
TEST(SpecJsonFastPath, FilesRandomSpecsAndTheirEditsReadAlike) {
  Compare c;
  std::vector<std::string> texts;
  for (const char* f : {"/examples/specs.jsonl", "/tests/gpu/specs/bench_specs.jsonl", "/tests/gpu/specs/check_specs.jsonl",
                        "/tests/gpu/specs/bench_box_form.jsonl", "/tests/blob/gpu/full_map_specs.jsonl"}) {
    const std::vector<std::string> lines = Lines(f);
    EXPECT_FALSE(lines.empty()) << f;
    texts.insert(texts.end(), lines.begin(), lines.end());
  }
  specgen::Rng r(11);
  for (int i = 0; i < 4000; ++i) {
    TensorMapSpec s = i % 2 ? specgen::RandomSpec(r) : specgen::Tame(r, specgen::RandomSpec(r));
    if (r.Chance(30)) {
      s.name = "n" + std::to_string(i);
      s.set_fields |= kFieldName;
    }
    texts.push_back(Written(s, i % 10 == 0));
  }
  const size_t whole = texts.size();
  for (const std::string& t : texts) c.Check(t);
  // Most texts of the common form take the fast path (or the test would compare the full reader with itself).
  EXPECT_GE(c.taken() * 10, whole * 9) << c.taken() << " of " << whole;
  for (size_t i = 0; i < whole; ++i)
    for (int k = 0; k < 6; ++k) c.Check(Mutate(r, texts[i]));
}

// Strides not given: both readers fill in the dense tensor's, unpadded. cuda.h (CUDA 13.0,
// cuTensorMapEncodeTiled): globalStrides[0] = globalDim[0] * elementSizeInBytes(tensorDataType) + padding[0],
// globalStrides[i] = globalStrides[i - 1] * (globalDim[i] + padding[i]), padding 0 for a dense tensor; bf16
// is 2 bytes: 4100 x 2 = 8200 B (not the 16-byte multiple 8208), and 8200 x 8192 = 67174400 B.
TEST(SpecJsonFastPath, StridesNotGivenAreTheDenseTensorsInBothReaders) {
  const std::string text = R"({"tensor_data_type":"bf16","global_dim":[4100,8192,3],"box_dim":[64,128,1]})";
  for (const bool fast : {true, false}) {
    SpecJsonParser p;
    p.set_fast_path(fast);
    TensorMapSpec s;
    const absl::Status st = p.Parse(text, json::TextPos{1, 1}, false, &s);
    ASSERT_TRUE(st.ok()) << st;
    if (fast) EXPECT_EQ(p.fast_reads(), 1u);
    EXPECT_EQ(s.global_strides[0], 8200u) << fast;
    EXPECT_EQ(s.global_strides[1], 67174400u) << fast;
    EXPECT_FALSE(s.Has(kFieldGlobalStrides));
    EXPECT_TRUE(HasDenseDefaultStrides(s));
  }
  Compare c;
  c.Check(text);
  EXPECT_EQ(c.taken(), 1u);
}

}  // namespace
}  // namespace tmapgen
