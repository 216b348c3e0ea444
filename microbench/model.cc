// model.cc: speed of the copy model (src/model). The target: a 64x128 bf16 box with SWIZZLE_128B modelled
// in well under 100 us, so that thousands of configurations can be checked per second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "src/model/bank_conflicts.h"
#include "src/model/copy_model.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::model {
namespace {

TensorMapSpec Bf16Box() {
  TensorMapSpec s;
  s.mode = Mode::kTiled;
  s.data_type = DataType::kBfloat16;
  s.rank = 2;
  s.global_dim = {4096, 4096, 0, 0, 0};
  s.box_dim = {64, 128, 0, 0, 0};
  s.swizzle = Swizzle::k128B;
  FillPaddedStrides(&s);
  return s;
}

std::vector<uint8_t> Global(const TensorMapSpec& s) {
  const CopyLayout L = DescribeCopy(s, DefaultInstruction(s)).value_or(CopyLayout());
  std::vector<uint8_t> g(L.required_global_bytes);
  std::mt19937_64 rng(1);
  for (auto& b : g) b = static_cast<uint8_t>(rng());
  return g;
}

// The reference configuration: 16 KiB of shared memory, 128 rows of 128 B.
void BM_Load64x128Bf16Swizzle128B(benchmark::State& state) {
  const TensorMapSpec s = Bf16Box();
  const std::vector<uint8_t> g = Global(s);
  CopyInstruction in = DefaultInstruction(s);
  in.coords = {1024, 512, 0, 0, 0};
  in.smem_address = 1024 + 384;
  SmemImage img;
  for (auto _ : state) {
    if (const absl::Status st = ModelLoad(s, in, g.data(), g.size(), &img); !st.ok())
      state.SkipWithError(std::string(st.message()).c_str());
    benchmark::DoNotOptimize(img.bytes.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * 16384);
}
BENCHMARK(BM_Load64x128Bf16Swizzle128B);

// The same box partly out of bounds (the per-element fill path of the last columns and rows).
void BM_Load64x128Bf16OutOfBounds(benchmark::State& state) {
  const TensorMapSpec s = Bf16Box();
  const std::vector<uint8_t> g = Global(s);
  CopyInstruction in = DefaultInstruction(s);
  in.coords = {4096 - 32, 4096 - 64, 0, 0, 0};
  SmemImage img;
  for (auto _ : state) {
    if (const absl::Status st = ModelLoad(s, in, g.data(), g.size(), &img); !st.ok())
      state.SkipWithError(std::string(st.message()).c_str());
    benchmark::DoNotOptimize(img.bytes.data());
  }
}
BENCHMARK(BM_Load64x128Bf16OutOfBounds);

void BM_Store64x128Bf16Swizzle128B(benchmark::State& state) {
  TensorMapSpec s = Bf16Box();
  std::vector<uint8_t> g = Global(s);
  CopyInstruction in = DefaultInstruction(s);
  in.direction = Direction::kStore;
  in.coords = {1024, 512, 0, 0, 0};
  std::vector<uint8_t> smem(16384, 7);
  StoreResult r;
  for (auto _ : state) {
    if (const absl::Status st = ModelStore(s, in, smem.data(), smem.size(), g.data(), g.size(), nullptr, &r); !st.ok())
      state.SkipWithError(std::string(st.message()).c_str());
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(BM_Store64x128Bf16Swizzle128B);

// Validation and layout only (what a sweep pays per configuration before touching data).
void BM_Describe64x128Bf16(benchmark::State& state) {
  const TensorMapSpec s = Bf16Box();
  const CopyInstruction in = DefaultInstruction(s);
  for (auto _ : state) {
    const absl::StatusOr<CopyLayout> L = DescribeCopy(s, in);
    benchmark::DoNotOptimize(L->transaction_bytes);
  }
}
BENCHMARK(BM_Describe64x128Bf16);

void BM_LoadIm2colDefault(benchmark::State& state) {
  const TensorMapSpec s = DefaultSpec(Mode::kIm2col);  // f16 NHWC 64 ch x 128 px, SWIZZLE_128B
  const std::vector<uint8_t> g = Global(s);
  CopyInstruction in = DefaultInstruction(s);
  in.coords = {0, -1, -1, 3, 0};
  in.im2col_offsets = {1, 2, 0};
  SmemImage img;
  for (auto _ : state) {
    if (const absl::Status st = ModelLoad(s, in, g.data(), g.size(), &img); !st.ok())
      state.SkipWithError(std::string(st.message()).c_str());
    benchmark::DoNotOptimize(img.bytes.data());
  }
}
BENCHMARK(BM_LoadIm2colDefault);

void BM_BankConflicts(benchmark::State& state) {
  const TensorMapSpec s = Bf16Box();
  const CopyLayout L = DescribeCopy(s, DefaultInstruction(s)).value_or(CopyLayout());
  for (auto _ : state) benchmark::DoNotOptimize(AnalyzeBankConflicts(L, s.swizzle, 0));
}
BENCHMARK(BM_BankConflicts);

}  // namespace
}  // namespace tmapgen::model

BENCHMARK_MAIN();
