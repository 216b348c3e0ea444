// validate.cc: Google Benchmark microbenchmarks of the validator, the report writers, the JSON spec
// parser and an in-process JSON Lines pipeline (docs/perf.md has the numbers and the targets).
//
// Every benchmark cycles over a small array of specs that differ in one dimension, so that the compiler
// cannot fold a constant input and the branch predictor does not see one spec only. Inputs are checked
// once in the setup (valid specs must validate, invalid ones must have at least 3 errors); a benchmark
// whose input is not what it claims to be stops with an error instead of timing the wrong thing.
//
// Argument of the per-mode benchmarks: the Mode (0 tiled, 1 im2col, 2 im2col::w, 3 im2col::w::128,
// 4 gather4, 5 scatter4); the label names it.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "src/schema/spec_stream.h"
#include "src/util/status.h"
#include "src/json/json_writer.h"
#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"
#include "src/tmap/validator.h"

namespace tmapgen {
namespace {

constexpr int kVariants = 8;  // specs cycled through per benchmark (a power of 2)

// The target each mode is validated for: sm_90a for tiled and im2col, sm_100a for the Blackwell modes.
Target TargetFor(Mode m) {
  switch (m) {
    case Mode::kTiled:
    case Mode::kIm2col: return Target::kSm90a;
    default: return Target::kSm100a;
  }
}

// The outermost dimension, varied between variants (does not change validity).
void VaryOuter(TensorMapSpec* s, int k) {
  const uint32_t r = s->rank;
  s->global_dim[r - 1] += static_cast<uint64_t>(k) * 16;
}

// A valid spec of `mode` for its target; `k` varies the outermost dimension.
TensorMapSpec ValidSpec(Mode mode, int k, bool with_target = true) {
  TensorMapSpec s = DefaultSpec(mode);
  VaryOuter(&s, k);
  if (with_target) {
    s.target = TargetFor(mode);
    s.set_fields |= kFieldTarget;
  }
  return s;
}

// An invalid spec with several violations at once:
//   tiled-like: global_strides[0] = 1000 (not a multiple of 16), box_dim[0] = 300 (> 256, and 600 B
//               > the 128 B swizzle span), box_dim[1] = 300 (tiled; > 256).
//   im2col:     global_strides[0] = 1000, channels_per_pixel = 300 (600 B > 128 B swizzle span),
//               pixels_per_column = 2000 (> 1024).
TensorMapSpec InvalidSpec(Mode mode, int k) {
  TensorMapSpec s = ValidSpec(mode, k);
  s.global_strides[0] = 1000 + 32 * static_cast<uint64_t>(k);  // stays 8 mod 16
  if (IsIm2colMode(mode)) {
    s.channels_per_pixel = 300;
    if (mode != Mode::kIm2colW128) s.pixels_per_column = 2000;
  } else {
    s.box_dim[0] = 300;
    if (mode == Mode::kTiled) s.box_dim[1] = 300;
  }
  return s;
}

struct SpecSet {
  std::vector<TensorMapSpec> specs;
  std::string problem;  // non-empty when the set is not what it claims to be
};

SpecSet MakeSet(Mode mode, bool valid, bool with_target = true) {
  SpecSet set;
  for (int k = 0; k < kVariants; ++k) {
    set.specs.push_back(valid ? ValidSpec(mode, k, with_target) : InvalidSpec(mode, k));
    Validation v;
    Validate(set.specs.back(), &v);
    if (valid && !v.valid) set.problem = "the 'valid' spec does not validate";
    if (!valid && (v.valid || v.errors < 3)) set.problem = "the 'invalid' spec has fewer than 3 errors";
  }
  return set;
}

Mode ModeArg(const benchmark::State& state) { return static_cast<Mode>(state.range(0)); }

bool Setup(benchmark::State& state, const SpecSet& set) {
  state.SetLabel(std::string(Name(ModeArg(state))));
  if (!set.problem.empty()) {
    state.SkipWithError(set.problem.c_str());
    return false;
  }
  return true;
}

void ModeArgs(benchmark::internal::Benchmark* b) {
  for (int m = 0; m < kNumModes; ++m) b->Arg(m);
}

// ---------------------------------------------------------------------------------------------- Validate

void BM_ValidateValid(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), true);
  if (!Setup(state, set)) return;
  Validation v;
  unsigned i = 0;
  for (auto _ : state) {
    Validate(set.specs[i++ & (kVariants - 1)], &v);
    benchmark::DoNotOptimize(v.valid);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValidateValid)->Apply(ModeArgs);

void BM_ValidateInvalid(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), false);
  if (!Setup(state, set)) return;
  Validation v;
  unsigned i = 0;
  for (auto _ : state) {
    Validate(set.specs[i++ & (kVariants - 1)], &v);
    benchmark::DoNotOptimize(v.errors);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValidateInvalid)->Apply(ModeArgs);

// No target: every one of the 16 targets is tried.
void BM_ValidateAllTargetsValid(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), true, /*with_target=*/false);
  if (!Setup(state, set)) return;
  Validation v;
  unsigned i = 0;
  for (auto _ : state) {
    Validate(set.specs[i++ & (kVariants - 1)], &v);
    benchmark::DoNotOptimize(v.valid_targets);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValidateAllTargetsValid)->Apply(ModeArgs);

void BM_ValidateAllTargetsInvalid(benchmark::State& state) {
  SpecSet set = MakeSet(ModeArg(state), false);
  for (TensorMapSpec& s : set.specs) s.set_fields &= ~kFieldTarget;
  if (!Setup(state, set)) return;
  Validation v;
  unsigned i = 0;
  for (auto _ : state) {
    Validate(set.specs[i++ & (kVariants - 1)], &v);
    benchmark::DoNotOptimize(v.valid_targets);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValidateAllTargetsInvalid)->Apply(ModeArgs);

// The cost of constructing a Validation (what a caller that declares one per spec pays, as cli/main.cc
// does), without validating anything.
void BM_ConstructValidation(benchmark::State& state) {
  for (auto _ : state) {
    Validation v;
    benchmark::DoNotOptimize(&v);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ConstructValidation);

// ---------------------------------------------------------------------------------------------- reports

// Validate + MakeDiagnostics: the findings turned into messages, fixes and sources.
void BM_InvalidDiagnostics(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), false);
  if (!Setup(state, set)) return;
  Validation v;
  unsigned i = 0;
  for (auto _ : state) {
    const TensorMapSpec& s = set.specs[i++ & (kVariants - 1)];
    Validate(s, &v);
    Diagnostics d = MakeDiagnostics(s, v);
    benchmark::DoNotOptimize(d.begin());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_InvalidDiagnostics)->Apply(ModeArgs);

// The same into one Diagnostics reused from spec to spec (what the report writers do): every text is still
// written each time, into a text buffer that keeps its memory.
void BM_InvalidDiagnosticsReused(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), false);
  if (!Setup(state, set)) return;
  Validation v;
  Diagnostics d;
  unsigned i = 0;
  for (auto _ : state) {
    const TensorMapSpec& s = set.specs[i++ & (kVariants - 1)];
    Validate(s, &v);
    MakeDiagnostics(s, v, &d);
    benchmark::DoNotOptimize(d.begin());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_InvalidDiagnosticsReused)->Apply(ModeArgs);

// Validate + WriteReportJson into a reused writer, with the default options (the nearest valid
// configuration included, as `tmapgen validate --format json` writes it).
void BM_InvalidReportJson(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), false);
  if (!Setup(state, set)) return;
  Validation v;
  json::Writer w;
  const Encoding enc;
  const ReportOptions opt;
  unsigned i = 0;
  size_t bytes = 0;
  for (auto _ : state) {
    const TensorMapSpec& s = set.specs[i++ & (kVariants - 1)];
    Validate(s, &v);
    w.Clear();
    WriteReportJson(0, s, v, enc, opt, &w);
    bytes += w.str().size();
    benchmark::DoNotOptimize(w.str().data());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_InvalidReportJson)->Apply(ModeArgs);

// The same without the nearest valid configuration: what NearestValid adds to a JSON report.
void BM_InvalidReportJsonNoNearest(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), false);
  if (!Setup(state, set)) return;
  Validation v;
  json::Writer w;
  const Encoding enc;
  ReportOptions opt;
  opt.nearest_valid = false;
  unsigned i = 0;
  for (auto _ : state) {
    const TensorMapSpec& s = set.specs[i++ & (kVariants - 1)];
    Validate(s, &v);
    w.Clear();
    WriteReportJson(0, s, v, enc, opt, &w);
    benchmark::DoNotOptimize(w.str().data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_InvalidReportJsonNoNearest)->Apply(ModeArgs);

// Validate + RenderReportText (what `tmapgen validate` prints for an invalid spec, --quiet or not).
void BM_InvalidReportText(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), false);
  if (!Setup(state, set)) return;
  Validation v;
  const Encoding enc;
  const ReportOptions opt;
  unsigned i = 0;
  for (auto _ : state) {
    const TensorMapSpec& s = set.specs[i++ & (kVariants - 1)];
    Validate(s, &v);
    std::string text = RenderReportText(0, s, v, enc, opt);
    benchmark::DoNotOptimize(text.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_InvalidReportText)->Apply(ModeArgs);

// Validate + WriteReportJson of a valid spec (every line of a JSON report of valid specs).
void BM_ValidReportJson(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), true);
  if (!Setup(state, set)) return;
  Validation v;
  json::Writer w;
  const Encoding enc;
  const ReportOptions opt;
  unsigned i = 0;
  for (auto _ : state) {
    const TensorMapSpec& s = set.specs[i++ & (kVariants - 1)];
    Validate(s, &v);
    w.Clear();
    WriteReportJson(0, s, v, enc, opt, &w);
    benchmark::DoNotOptimize(w.str().data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValidReportJson)->Apply(ModeArgs);

// ---------------------------------------------------------------------------------------------- repair

void BM_NearestValid(benchmark::State& state) {
  const SpecSet set = MakeSet(ModeArg(state), false);
  if (!Setup(state, set)) return;
  TensorMapSpec fixed;
  unsigned i = 0;
  bool ok = true;
  for (auto _ : state) {
    ok &= NearestValid(set.specs[i++ & (kVariants - 1)], &fixed);
    benchmark::DoNotOptimize(fixed.box_dim[0]);
  }
  if (!ok) state.SetLabel(std::string(Name(ModeArg(state))) + " (no repair found)");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NearestValid)->Apply(ModeArgs);

// ---------------------------------------------------------------------------------------------- parsing

// A typical line, as scripts/dev/gen-specs.py writes them (short enum names, explicit strides).
std::string TypicalLine(int k) {
  return "{\"name\":\"spec" + std::to_string(k) +
         "\",\"mode\":\"tiled\",\"direction\":\"load\",\"tensor_data_type\":\"bf16\","
         "\"global_dim\":[4096," + std::to_string(4096 + 16 * k) +
         "],\"global_strides\":[8192],\"box_dim\":[64,128],\"swizzle\":\"128B\","
         "\"l2_promotion\":\"128B\",\"target\":\"sm_90a\"}";
}

void BM_ParseSpecJson(benchmark::State& state) {
  std::vector<std::string> lines;
  for (int k = 0; k < kVariants; ++k) lines.push_back(TypicalLine(k));
  TensorMapSpec spec;
  SpecJsonParser parser;
  if (const absl::Status st = parser.Parse(lines[0], json::TextPos(), false, &spec); !st.ok()) {
    state.SkipWithError(("typical line does not parse: " + std::string(StatusMessage(st))).c_str());
    return;
  }
  unsigned i = 0;
  size_t bytes = 0;
  for (auto _ : state) {
    const std::string& l = lines[i++ & (kVariants - 1)];
    bool ok = parser.Parse(l, json::TextPos(), false, &spec).ok();
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(spec.global_dim[1]);
    bytes += l.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_ParseSpecJson);

// ---------------------------------------------------------------------------------------------- pipeline

// A mix like scripts/dev/gen-specs.py's default: all 6 modes, 70% valid, 30% invalid, 80% with a target.
// Deterministic (a fixed LCG), so every run times the same bytes.
void WriteShortSpec(const TensorMapSpec& s, json::Writer* w) {
  const uint32_t r = s.rank;
  w->BeginObject();
  w->Key("mode").String(Name(s.mode));
  if (s.direction != Direction::kLoadCta) w->Key("direction").String(Name(s.direction));
  w->Key("tensor_data_type").String(ShortName(s.data_type));
  w->Key("global_dim").BeginArray();
  for (uint32_t i = 0; i < r; ++i) w->Uint(s.global_dim[i]);
  w->EndArray();
  w->Key("global_strides").BeginArray();
  for (uint32_t i = 0; i + 1 < r; ++i) w->Uint(s.global_strides[i]);
  w->EndArray();
  if (!IsIm2colMode(s.mode)) {
    w->Key("box_dim").BeginArray();
    for (uint32_t i = 0; i < r; ++i) w->Uint(s.box_dim[i]);
    w->EndArray();
  } else {
    if (s.mode == Mode::kIm2col) {
      w->Key("pixel_box_lower_corner").BeginArray();
      for (uint32_t i = 0; i + 2 < r; ++i) w->Int(s.pixel_box_lower_corner[i]);
      w->EndArray();
      w->Key("pixel_box_upper_corner").BeginArray();
      for (uint32_t i = 0; i + 2 < r; ++i) w->Int(s.pixel_box_upper_corner[i]);
      w->EndArray();
    } else {
      w->Key("pixel_box_lower_corner_width").Int(s.pixel_box_lower_corner_width);
      w->Key("pixel_box_upper_corner_width").Int(s.pixel_box_upper_corner_width);
    }
    w->Key("channels_per_pixel").Uint(s.channels_per_pixel);
    w->Key("pixels_per_column").Uint(s.pixels_per_column);
  }
  w->Key("swizzle").String(ShortName(s.swizzle));
  w->Key("l2_promotion").String(ShortName(s.l2_promotion));
  if (s.has_target()) w->Key("target").String(Name(s.target));
  w->EndObject();
}

std::string MakeJsonl(int n, int invalid_percent) {
  std::string out;
  json::Writer w;
  uint64_t x = 12345;
  auto next = [&x]() {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(x >> 33);
  };
  for (int i = 0; i < n; ++i) {
    const Mode mode = static_cast<Mode>(next() % kNumModes);
    const int k = static_cast<int>(next() % kVariants);
    const bool invalid = static_cast<int>(next() % 100) < invalid_percent;
    TensorMapSpec s = invalid ? InvalidSpec(mode, k) : ValidSpec(mode, k);
    if (next() % 100 < 20) s.set_fields &= ~kFieldTarget;
    w.Clear();
    WriteShortSpec(s, &w);
    out += w.str();
    out += '\n';
  }
  return out;
}

// SpecSplitter + SpecJsonParser + Validate + WriteReportJson over 100k pre-generated lines, fed in 1 MiB
// chunks as the CLI reads them; the reports are appended to a buffer that is dropped every 64 KiB (as
// the CLI flushes it). Argument: percent of invalid specs.
void BM_JsonlPipeline(benchmark::State& state) {
  constexpr int kLines = 100000;
  const int invalid_percent = static_cast<int>(state.range(0));
  const std::string input = MakeJsonl(kLines, invalid_percent);
  state.SetLabel(std::to_string(invalid_percent) + "% invalid, 100k lines");
  TensorMapSpec spec;
  SpecJsonParser parser;
  Validation v;
  json::Writer w;
  const Encoding enc;
  const ReportOptions opt;
  std::string out;
  int64_t specs = 0, failures = 0;
  for (auto _ : state) {
    SpecSplitter split(StreamFormat::kJsonLines);
    SpecPiece piece;
    int index = 0;
    auto drain = [&]() {
      while (split.Next(&piece)) {
        const absl::Status st = parser.Parse(piece.text, piece.at, true, &spec);
        if (st.ok()) {
          Validate(spec, &v);
          w.Clear();
          WriteReportJson(index, spec, v, enc, opt, &w);
          out += w.str();
        } else {
          w.Clear();
          WriteInputErrorJson(index, InputErrorOf(st), &w);
          out += w.str();
          ++failures;
        }
        out += '\n';
        ++index;
        if (out.size() > (1 << 16)) {
          benchmark::DoNotOptimize(out.data());
          out.clear();
        }
      }
    };
    constexpr size_t kChunk = size_t{1} << 20;
    for (size_t pos = 0; pos < input.size(); pos += kChunk) {
      split.Feed(std::string_view(input).substr(pos, kChunk));
      drain();
    }
    split.Finish();
    drain();
    specs += index;
  }
  if (failures != 0) state.SkipWithError("some generated lines did not parse");
  state.SetItemsProcessed(specs);
  state.SetBytesProcessed(static_cast<int64_t>(input.size()) * state.iterations());
}
BENCHMARK(BM_JsonlPipeline)->Arg(0)->Arg(30)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tmapgen

BENCHMARK_MAIN();
