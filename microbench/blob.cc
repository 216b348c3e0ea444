// blob.cc: the CUtensorMap decoder and encoder (src/blob) on the maps the driver wrote (the 4,000 of
// tests/blob/data/shared_corpus_sample.jsonl.gz), side by side with the validator on the same recovered
// specs (the partner whose speed docs/perf.md already records). docs/perf.md has the numbers.
//
// Every benchmark cycles over all 4,000 maps (tiled, im2col, im2col::w of every rank and type), so the
// branch predictor sees the real mix. The setup checks that every map decodes cleanly and re-encodes, so a
// benchmark never times a decode that bailed out early.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/blob/blob.h"
#include "src/blob/blob_text.h"
#include "src/schema/corpus_json.h"
#include "src/tmap/validator.h"

namespace tmapgen::blob {
namespace {

struct Inputs {
  std::vector<MapBytes> maps;
  std::vector<TensorMapSpec> specs;
  std::vector<std::string> hex;
};

const Inputs& Load() {
  static const Inputs in = [] {
    Inputs v;
    const std::string path = std::string(TMAPGEN_SOURCE_DIR) + "/tests/blob/data/shared_corpus_sample.jsonl.gz";
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) { std::fprintf(stderr, "cannot open %s\n", path.c_str()); std::exit(1); }
    std::string line;
    char buf[1 << 16];
    int n;
    auto take = [&v](const std::string& l) {
      const absl::StatusOr<CorpusEntry> e = ParseCorpusLine(l);
      if (!e.ok() || !e->has_bytes) return;
      MapBytes m;
      std::copy(e->bytes.begin(), e->bytes.end(), m.begin());
      const Decoded d = Decode(m);
      if (!d.spec_ok || !d.reencodes) { std::fprintf(stderr, "setup: a corpus map does not decode cleanly\n"); std::exit(1); }
      v.maps.push_back(m);
      v.specs.push_back(d.spec);
      v.hex.push_back(ToHex(m));
    };
    while ((n = gzread(f, buf, sizeof(buf))) > 0)
      for (int i = 0; i < n; ++i) {
        if (buf[i] == '\n') { take(line); line.clear(); } else line.push_back(buf[i]);
      }
    gzclose(f);
    if (v.maps.size() != 4000) { std::fprintf(stderr, "setup: %zu maps, expected 4000\n", v.maps.size()); std::exit(1); }
    return v;
  }();
  return in;
}

// Decode into one reused Decoded (the API's allocation-free form).
void BM_BlobDecode(benchmark::State& state) {
  const Inputs& in = Load();
  Decoded d;
  size_t i = 0;
  for (auto _ : state) {
    Decode(in.maps[i], &d);
    benchmark::DoNotOptimize(d.spec.global_dim[0]);
    if (++i == in.maps.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BlobDecode);

// Decode returning a fresh Decoded each time (vectors allocated per map).
void BM_BlobDecodeFresh(benchmark::State& state) {
  const Inputs& in = Load();
  size_t i = 0;
  for (auto _ : state) {
    Decoded d = Decode(in.maps[i]);
    benchmark::DoNotOptimize(d.spec.global_dim[0]);
    if (++i == in.maps.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BlobDecodeFresh);

void BM_BlobEncodeInto(benchmark::State& state) {
  const Inputs& in = Load();
  MapBytes m;
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(EncodeInto(in.specs[i], &m));
    benchmark::DoNotOptimize(m[9]);
    if (++i == in.specs.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BlobEncodeInto);

// The partner: the validator on the same recovered specs.
void BM_ValidateRecoveredSpec(benchmark::State& state) {
  const Inputs& in = Load();
  Validation v;
  size_t i = 0;
  for (auto _ : state) {
    Validate(in.specs[i], &v);
    benchmark::DoNotOptimize(v.valid);
    if (++i == in.specs.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValidateRecoveredSpec);

// What `tmapgen decode` does per map before printing: parse 256 hex digits, decode.
void BM_BlobParseHexAndDecode(benchmark::State& state) {
  const Inputs& in = Load();
  Decoded d;
  size_t i = 0;
  for (auto _ : state) {
    const absl::StatusOr<std::vector<MapBytes>> maps = ParseBlobText(in.hex[i], false);
    Decode((*maps)[0], &d);
    benchmark::DoNotOptimize(d.spec.rank);
    if (++i == in.hex.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BlobParseHexAndDecode);

}  // namespace
}  // namespace tmapgen::blob

BENCHMARK_MAIN();
