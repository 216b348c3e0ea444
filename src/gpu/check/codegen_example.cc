#include "src/gpu/check/codegen_example.h"

#include <cstring>
#include <memory>

#include "kernels/check_params.h"
#include "src/tmap/derived_facts.h"
#include "src/driver/encode_spec.h"
#include "src/gpu/check/check_plan.h"
#include "src/gpu/runtime/gpu_api.h"
#include "src/gpu/runtime/worker.h"
#include "src/model/copy_model.h"
#include "src/schema/spec_json.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"
#include "src/util/strings.h"

// The generated header, constexpr part only (no <cuda.h>): the same constants the kernel is built with.
#define TMAPGEN_GEN_NO_HOST 1
#include "examples/codegen/tile_a.gen.h"

// examples/codegen/tile.json, embedded by cmake/kernels.cmake (cmake/embed_file.cmake).
extern const unsigned char tmapgen_codegen_example_spec[];
extern const unsigned long tmapgen_codegen_example_spec_size;

namespace tmapgen::gpu {
namespace {

namespace g = tmapgen_gen::tile_a;

constexpr int64_t kTimeoutCycles = 400000000;  // about 0.2 s at 1.98 GHz

// The embedded spec and the generated header are two states of one file; when they disagree, the header
// must be generated again (kFailedPrecondition).
template <typename A, typename B>
absl::Status Same(const char* what, A a, B b) {
  if (static_cast<unsigned long long>(a) == static_cast<unsigned long long>(b)) return absl::OkStatus();
  return absl::FailedPreconditionError(
      std::string("examples/codegen/tile.json and tile_a.gen.h disagree on ") + what + ": " +
      std::to_string(static_cast<unsigned long long>(a)) + " vs " + std::to_string(static_cast<unsigned long long>(b)) +
      " (regenerate the header)");
}

model::CopyInstruction InstructionAt(const TensorMapSpec& spec, const CodegenExampleCoord& c) {
  model::CopyInstruction in = model::DefaultInstruction(spec);
  in.mode = model::CopyMode::kTile;
  in.direction = Direction::kLoadCta;
  in.coords = {};
  in.coords[0] = c.x0;
  in.coords[1] = c.x1;
  in.smem_address = 0;  // the kernel's buffer is at kSmemAlignmentRecommended (1024): swizzle phase 0
  return in;
}

// One coordinate on an open GPU. An error on a CUDA error (the context is lost; the status says which).
absl::Status RunOne(Gpu& gpu, const TensorMapSpec& spec, const CodegenExampleCoord& c, uint64_t seed, Outcome* outcome,
                    std::string* detail) {
  const model::CopyInstruction in = InstructionAt(spec, c);
  const absl::StatusOr<model::CopyLayout> L = model::DescribeCopy(spec, in);
  if (!L.ok()) {
    *outcome = Outcome::kError;
    *detail = StrCat("model: ", StatusMessage(L.status()));
    return absl::OkStatus();
  }
  std::vector<uint8_t> global(L->required_global_bytes);
  FillRandom(seed, global.data(), global.size());
  model::SmemImage img;
  if (const absl::Status st = model::ModelLoad(spec, in, global.data(), global.size(), &img); !st.ok()) {
    *outcome = Outcome::kError;
    *detail = StrCat("model: ", StatusMessage(st));
    return absl::OkStatus();
  }
  if (img.transaction_bytes != g::kTransactionBytes || img.bytes.size() != g::kSmemFootprintBytes) {
    *outcome = Outcome::kFail;
    *detail = "the model's transaction bytes " + std::to_string(img.transaction_bytes) + " / footprint " +
              std::to_string(img.bytes.size()) + " differ from the header's kTransactionBytes " +
              std::to_string(g::kTransactionBytes) + " / kSmemFootprintBytes " + std::to_string(g::kSmemFootprintBytes);
    return absl::OkStatus();
  }
  const uint64_t gsize = (global.size() + 255) / 256 * 256;
  const uint64_t out_off = gsize, status_off = out_off + g::kSmemFootprintBytes;
  const absl::StatusOr<uint64_t> alloc = gpu.Alloc(status_off + 256);
  if (!alloc.ok()) return alloc.status();
  const uint64_t buf = *alloc;
  std::vector<uint8_t> host(status_off + 4, 0);
  std::memcpy(host.data(), global.data(), global.size());
  if (absl::Status st = gpu.HtoD(buf, host.data(), host.size()); !st.ok()) return st;
  const auto enc = EncodeSpec(driver::CudaDriver::Get(), spec, buf);
  if (!enc.ok()) {
    gpu.Free(buf);
    *outcome = Outcome::kFail;
    *detail = "the driver rejects the map of examples/codegen/tile.json: " + enc.message;
    return absl::OkStatus();
  }
  CodegenExampleParams p;
  std::memset(&p, 0, sizeof p);
  p.coords[0] = c.x0;
  p.coords[1] = c.x1;
  p.timeout_cycles = kTimeoutCycles;
  p.out = buf + out_off;
  p.status = buf + status_off;
  alignas(128) uint64_t map[16];
  std::memcpy(map, enc.map, 128);
  void* args[] = {map, &p};
  LaunchShape sh;
  sh.grid = 1;
  sh.block = 128;
  sh.smem = 0;  // the kernel's buffer is static: __shared__ __align__(kSmemAlignmentRecommended) [kSmemFootprintBytes]
  if (absl::Status st = gpu.Launch(Gpu::kCodegenExample, sh, args); !st.ok()) return st;
  if (absl::Status st = gpu.Sync(); !st.ok()) return st;
  std::vector<uint8_t> back(g::kSmemFootprintBytes + 4);
  if (absl::Status st = gpu.DtoH(back.data(), buf + out_off, back.size()); !st.ok()) return st;
  gpu.Free(buf);
  int32_t st = 0;
  std::memcpy(&st, back.data() + g::kSmemFootprintBytes, 4);
  switch (st) {
    case kTmaStatusDone: break;
    case kTmaStatusTimeout:
      *outcome = Outcome::kTimeout;
      *detail = "the mbarrier armed with kTransactionBytes = " + std::to_string(g::kTransactionBytes) +
                " did not complete";
      return absl::OkStatus();
    case kTmaStatusMisaligned:
      *outcome = Outcome::kFail;
      *detail = "the shared buffer declared __align__(kSmemAlignmentRecommended = " + std::to_string(g::kSmemAlignmentRecommended) +
                ") is not at that alignment; not loaded";
      return absl::OkStatus();
    default:
      *outcome = Outcome::kError;
      *detail = "the kernel did not report a status (" + std::to_string(st) + ")";
      return absl::OkStatus();
  }
  const Comparison cmp = CompareLoad(spec, in, img, back.data(), g::kSmemFootprintBytes);
  uint64_t data = 0, fill = 0;
  for (uint8_t s : img.state) {
    data += s == model::kData;
    fill += s == model::kFill;
  }
  if (cmp.equal) {
    *outcome = Outcome::kPass;
    *detail = std::to_string(g::kSmemFootprintBytes) + " bytes equal the model (" + std::to_string(data) + " data, " +
              std::to_string(fill) + " out-of-bounds fill); " + std::to_string(g::kTransactionBytes) +
              " transaction bytes";
  } else {
    *outcome = Outcome::kFail;
    *detail = std::to_string(cmp.differing) + " of " + std::to_string(g::kSmemFootprintBytes) + " bytes differ\n" +
              cmp.report;
  }
  return absl::OkStatus();
}

Outcome ParseOutcome(const std::string& s) {
  for (Outcome o : {Outcome::kPass, Outcome::kFail, Outcome::kTimeout, Outcome::kFault, Outcome::kNotRun, Outcome::kError})
    if (s == OutcomeName(o)) return o;
  return Outcome::kError;
}

}  // namespace

std::string CodegenExampleSpecText() {
  return std::string(reinterpret_cast<const char*>(tmapgen_codegen_example_spec), tmapgen_codegen_example_spec_size);
}

absl::StatusOr<TensorMapSpec> CodegenExampleSpec() {
  absl::StatusOr<TensorMapSpec> parsed = ParseSpecJson(CodegenExampleSpecText());
  if (!parsed.ok()) return Annotate(parsed.status(), "examples/codegen/tile.json");
  const TensorMapSpec& spec = *parsed;
  Validation v;
  Validate(spec, &v);
  if (!v.valid) return absl::FailedPreconditionError("examples/codegen/tile.json does not validate");
  if (spec.mode != Mode::kTiled) return absl::FailedPreconditionError("examples/codegen/tile.json is not a tiled map");
  for (const absl::Status& st : {Same("rank", spec.rank, g::kRank), Same("data type", spec.data_type, g::kDataType),
                                 Same("interleave", spec.interleave, g::kInterleave),
                                 Same("swizzle", spec.swizzle, g::kSwizzle),
                                 Same("L2 promotion", spec.l2_promotion, g::kL2Promotion),
                                 Same("OOB fill", spec.oob_fill, g::kOobFill)})
    if (!st.ok()) return st;
  for (unsigned i = 0; i < g::kRank; ++i) {
    for (const absl::Status& st : {Same("global_dim", spec.global_dim[i], g::kGlobalDim[i]),
                                   Same("box_dim", spec.box_dim[i], g::kBoxDim[i]),
                                   Same("element_strides", spec.element_strides[i], g::kElementStrides[i])})
      if (!st.ok()) return st;
    if (i + 1 < g::kRank)
      if (absl::Status st = Same("global_strides", spec.global_strides[i], g::kGlobalStrides[i]); !st.ok()) return st;
  }
  const DerivedFacts f = ComputeDerivedFacts(spec);
  if (absl::Status st = Same("transaction bytes", f.transaction_bytes, g::kTransactionBytes); !st.ok()) return st;
  return parsed;
}

std::vector<CodegenExampleCoord> CodegenExampleCoords() {
  // tile.json: f16 [256, 512], box 64 x 128; dim-0 starts are multiples of kCoord0Multiple (16 bytes).
  const int32_t d0 = static_cast<int32_t>(g::kGlobalDim[0]), d1 = static_cast<int32_t>(g::kGlobalDim[1]);
  const int32_t b0 = static_cast<int32_t>(g::kBoxDim0), b1 = static_cast<int32_t>(g::kBoxDim1);
  return {
      {b0, b1, "interior"},
      {0, 0, "origin"},
      {d0 - b0, d1 - b1, "edge (last full box)"},
      {d0 - b0 / 2, d1 - b1 / 2, "hanging past the end"},
      {-b0 / 2, -b1 / 2, "negative (hanging before 0)"},
  };
}

void RunCodegenExample(int watchdog_s, CodegenExampleReport* report) {
  *report = CodegenExampleReport();
  const absl::StatusOr<TensorMapSpec> example = CodegenExampleSpec();
  if (!example.ok()) {
    report->why_not = std::string(StatusMessage(example.status()));
    return;
  }
  const TensorMapSpec& spec = *example;
  const std::vector<CodegenExampleCoord> coords = CodegenExampleCoords();
  for (const auto& c : coords) report->rows.push_back({c, Outcome::kError, "no result"});
  std::unique_ptr<Gpu> gpu;  // opened in each child
  WorkerCallbacks cb;
  cb.open = [&gpu] { return Gpu::OpenNew(&gpu); };
  // One text per coordinate: "OUTCOME|detail".
  cb.run = [&](size_t i, const WorkerSend& send) -> absl::Status {
    Outcome o = Outcome::kError;
    std::string detail;
    if (absl::Status fault = RunOne(*gpu, spec, coords[i], 7000 + i, &o, &detail); !fault.ok()) return fault;
    send(StrCat(OutcomeName(o), "|", detail));
    return absl::OkStatus();
  };
  cb.on_line = [report](size_t i, const std::string& text) {
    const size_t bar = text.find('|');
    report->rows[i].outcome = ParseOutcome(text.substr(0, bar));
    report->rows[i].detail = bar == std::string::npos ? "" : text.substr(bar + 1);
  };
  cb.on_fault = [report](size_t i, const std::string& message) {
    report->rows[i].outcome = Outcome::kFault;
    report->rows[i].detail = message;
  };
  cb.on_death = [report, watchdog_s](size_t i, const WorkerDeath& death) {
    report->rows[i].outcome = Outcome::kFault;
    report->rows[i].detail = death.hung ? "the check process hung (watchdog of " + std::to_string(watchdog_s) + " s)"
                                        : "the check process died";
  };
  const WorkerRun run = RunWorker(coords.size(), watchdog_s > 0 ? watchdog_s : 60, cb);
  report->children = run.children;
  report->device = run.device;
  report->ran = run.opened;
  report->why_not = !run.opened && run.why_not.empty() && run.children > 0 ? "the check process died before opening the GPU"
                                                                           : run.why_not;
}

int PrintCodegenExample(const CodegenExampleReport& rep, FILE* out) {
  if (!rep.ran) {
    std::fprintf(out, "codegen example: not run on hardware: %s\n", rep.why_not.c_str());
    return 2;
  }
  std::fprintf(out,
               "codegen example on %s: kernel tmapgen_codegen_example (kernels/codegen_example.cuh) with "
               "examples/codegen/tile_a.gen.h,\n  map encoded from the embedded examples/codegen/tile.json; one tiled "
               "load per coordinate, every byte against ModelLoad\n",
               rep.device.c_str());
  int pass = 0;
  for (const auto& row : rep.rows) {
    char at[64];
    std::snprintf(at, sizeof at, "(%d, %d)", row.coord.x0, row.coord.x1);
    std::string detail = row.detail;
    for (size_t p = 0; (p = detail.find('\n', p)) != std::string::npos; p += 5) detail.replace(p, 1, "\n    ");
    std::fprintf(out, "  %-30s %-12s %-7s %s\n", row.coord.label.c_str(), at, OutcomeName(row.outcome), detail.c_str());
    pass += row.outcome == Outcome::kPass;
  }
  std::fprintf(out, "codegen example: %d of %zu coordinates PASS; %d check process(es)\n", pass, rep.rows.size(),
               rep.children);
  return pass == static_cast<int>(rep.rows.size()) ? 0 : 1;
}

}  // namespace tmapgen::gpu
