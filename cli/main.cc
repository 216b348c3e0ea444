// tmapgen: build, validate and explain CUDA tensor maps (CUtensorMap).
//
//   tmapgen [spec flags]            build one map from flags (embedded default per --mode)
//   tmapgen validate FILE... | -    validate spec files (JSON, JSON Lines, text format)
//   tmapgen rules                   the rule table
//
// Exit status: 0 every spec valid, 1 some spec invalid, 2 bad usage or unreadable input.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cli/blob_cmd.h"
#include "cli/codegen_cmd.h"
#include "cli/bench_cmd.h"
#include "cli/check_cmd.h"
#include "cli/common_flags.h"
#include "cli/desc_cmd.h"
#include "cli/sweep_cmd.h"
#include "cli/trace_cmd.h"
#include "cli/remote.h"
#include "cli/show_cmd.h"
#include "cli/spec_flags.h"
#include "cli/spec_input.h"
#include "cli/textproto.h"
#include "src/driver/cuda_driver.h"
#include "src/driver/encode_spec.h"
#include "src/json/json_reader.h"
#include "src/json/json_writer.h"
#include "src/report/report.h"
#include "src/tmap/rule.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"
#include "src/tmap/validator.h"

#ifndef TMAPGEN_VERSION
#define TMAPGEN_VERSION "0.1.0"
#endif

namespace tmapgen::cli {
namespace {

struct Gpu {
  bool present = false;
  bool has_target = false;
  Target target = Target::kSm90a;
  std::string description;
  int driver_version = 0;
};

Gpu DetectGpu(bool use_gpu) {
  Gpu g;
  if (!use_gpu) return g;
  driver::CudaDriver& drv = driver::CudaDriver::Get();
  if (!drv.info().available) return g;
  driver::DeviceInfo dev;
  std::string err;
  if (!drv.GetDevice(0, &dev, &err)) return g;
  g.present = true;
  g.driver_version = drv.info().driver_version;
  const std::string t = driver::TargetForComputeCapability(dev.cc_major, dev.cc_minor);
  g.has_target = Parse(t, &g.target);
  g.description = StrCat(dev.name, " (", t, "), driver ", drv.info().driver_version);
  return g;
}

const char* kUsage =
    "usage: tmapgen [--mode M] [spec flags] [--format text|json|textproto]   build and validate one map\n"
    "       tmapgen validate [--target T] [--format F] [--input-format json|jsonl|textproto] FILE... | -\n"
    "       tmapgen rules [--format text|json]\n"
    "       tmapgen desc wgmma|tcgen05|decode ...   shared-memory matrix descriptors (tmapgen desc --help)\n"
    "       tmapgen codegen SPEC... --lang cpp|json|ptx [-o FILE]  code for validated maps (tmapgen codegen --help)\n"
    "       tmapgen idesc [decode VALUE] ...         tcgen05 instruction descriptors (tmapgen idesc --help)\n"
    "       tmapgen decode BLOB... [--target T] [--format text|json]   128-byte CUtensorMaps back into fields\n"
    "       tmapgen diff A B                         two maps (or specs) field by field (tmapgen decode --help)\n"
    "       tmapgen layout [--format text|json|markdown]   the CUtensorMap layout table\n"
    "       tmapgen show SPEC [--coords x,y,..] [--svg FILE] [--smem-address A] [--format text|json]\n"
    "       tmapgen check SPEC... [--seed S] [--verbose]   run the copies on this GPU, byte-exact vs the model\n"
    "       tmapgen sweep --random N [--seed S] | --matrix [--count N]   validator vs driver; hardware matrix\n"
    "       tmapgen bench SPEC [--gib G]             TMA copy bandwidth vs cuMemcpyDtoD\n"
    "       tmapgen trace [--out F] [--report F] [--all] [--fail-on error|warning] -- PROGRAM ARGS...\n"
    "                                                every tensor map a program encodes, explained (docs/trace.md)\n"
    "       tmapgen --help | --version\n";

void PrintHelp() {
  std::fputs(kUsage, stdout);
  std::fputs(
      "\nBuild one tensor map from flags; everything not given takes the mode's embedded default\n"
      "(docs/cli.md). Example: tmapgen --mode im2col::w --swizzle 128B\n\nspec flags:\n",
      stdout);
  std::fputs(SpecFlagsHelp().c_str(), stdout);
  std::fputs(
      "\nother flags:\n"
      "  --spec FILE                           start from a spec file (JSON or text format), then apply flags\n"
      "  --format text|json|textproto          output format (default text)\n"
      "  --color auto|always|never             colors in text output (default auto: on a terminal)\n"
      "  --no-encode                           do not encode with the driver even on a GPU host\n"
      "  --no-gpu                              ignore any GPU (no default target, no driver encoding)\n"
      "  --quiet                               validate: print only invalid specs and the summary\n"
      "  --remote HOST:PORT                    run build, validate, desc, idesc, codegen, decode or check on a tmapd\n"
      "                                        server (docs/service.md); --token T, --tls-ca FILE, --deadline-ms MS\n"
      "\nexit status: 0 all valid, 1 some invalid, 2 bad usage or unreadable input\n",
      stdout);
}

int Usage(const std::string& msg) {
  std::fprintf(stderr, "tmapgen: %s\n%s", msg.c_str(), kUsage);
  return 2;
}

// ---------------------------------------------------------------------------------------------- output

struct Emitter {
  Emitter(const Options& o, const Gpu& g) : opt(o), gpu(g) {}
  Validation v;  // reused: validation allocates nothing, and neither should its result
  const Options& opt;
  const Gpu& gpu;
  int total = 0, valid = 0, invalid = 0, input_errors = 0;
  std::string buf;
  json::Writer w;

  void Flush(bool force) {
    if (force || buf.size() > (1 << 16)) {
      std::fwrite(buf.data(), 1, buf.size(), stdout);
      buf.clear();
    }
  }

  void Spec(const TensorMapSpec& spec_in, bool allow_encode, const std::string& where) {
    TensorMapSpec spec = spec_in;
    if (!spec.has_target() && opt.has_target) {
      spec.target = opt.target;
      spec.set_fields |= kFieldTarget;
    } else if (!spec.has_target() && gpu.has_target) {
      spec.target = gpu.target;
      spec.set_fields |= kFieldTarget;
    }
    Validate(spec, &v);
    Encoding enc;
    if (allow_encode && opt.encode && gpu.present && v.valid) Encode(spec, &enc);
    ++total;
    if (v.valid) ++valid; else ++invalid;
    ReportOptions ro;
    ro.color = opt.color;
    const int index = total - 1;
    switch (opt.format) {
      case Format::kText:
        if (opt.quiet && v.valid) break;
        if (!where.empty()) buf += StrCat("# ", where, "\n");
        buf += RenderReportText(index, spec, v, enc, ro);
        buf += "\n";
        break;
      case Format::kJson:
        if (opt.quiet && v.valid) break;
        w.Clear();
        WriteReportJson(index, spec, v, enc, ro, &w);
        buf += w.str();
        buf += "\n";
        break;
      case Format::kTextproto:
        if (opt.quiet && v.valid) break;
        buf += ReportTextproto(index, spec, v, enc);
        buf += "---\n";
        break;
    }
    Flush(false);
  }

  void Error(const InputError& e, const std::string& where) {
    ++total;
    ++invalid;
    ++input_errors;
    const int index = total - 1;
    switch (opt.format) {
      case Format::kText: buf += RenderInputErrorText(index, where, e, opt.color); break;
      case Format::kJson:
        w.Clear();
        WriteInputErrorJson(index, e, &w);
        buf += w.str();
        buf += "\n";
        break;
      case Format::kTextproto:
        buf += InputErrorTextproto(index, e);
        buf += "---\n";
        break;
    }
    Flush(false);
  }

  void Encode(const TensorMapSpec& spec, Encoding* enc) {
    driver::CudaDriver& drv = driver::CudaDriver::Get();
    std::string err;
    enc->attempted = true;
    enc->device = gpu.description;
    if (!drv.MakeCurrent(0, &err)) {
      enc->cu_result = -1;
      enc->error_name = "no context";
      enc->note = err;
      return;
    }
    const uint64_t addr = spec.Has(kFieldGlobalAddress) ? spec.global_address : kPlaceholderAddress;
    const driver::CudaDriver::EncodeResult r = EncodeSpec(drv, spec, addr);
    enc->cu_result = r.cu_result;
    enc->error_name = r.error_name;
    for (int i = 0; i < 16; ++i) enc->map[i] = r.map[i];
    if (!spec.Has(kFieldGlobalAddress))
      enc->note = StrCat("global_address not given: encoded at placeholder ", Hex(addr),
                      " (word 0); point it at your tensor with cuTensorMapReplaceAddress");
    if (r.cu_result != 0)
      enc->note += StrCat(enc->note.empty() ? "" : "; ", "the validator accepted this spec but the driver did not: please "
                       "report it (a rule is missing)");
  }
};

// ---------------------------------------------------------------------------------------------- inputs

struct Progress {
  bool on;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(), last = start;
  void Tick(const Emitter& e, bool final) {
    if (!on) return;
    const auto now = std::chrono::steady_clock::now();
    if (!final && now - last < std::chrono::milliseconds(200)) return;
    last = now;
    const double s = std::chrono::duration<double>(now - start).count();
    std::fprintf(stderr, "\r%d specs, %d valid, %d invalid (%.0f specs/s)%s", e.total, e.valid, e.invalid,
                 s > 0 ? e.total / s : 0.0, final ? "\n" : "");
  }
};

// Feeds the specs of one input to the emitter, with progress.
class EmitterSink : public SpecSink {
 public:
  EmitterSink(Emitter* em, Progress* prog) : em_(em), prog_(prog) {}
  void Spec(const TensorMapSpec& spec) override { em_->Spec(spec, false, ""); }
  void Error(const InputError& e, const std::string& where) override { em_->Error(e, where); }
  void Tick() override { prog_->Tick(*em_, false); }

 private:
  Emitter* em_;
  Progress* prog_;
};

// Processes one input; returns false when it could not be read at all.
bool ProcessInput(const std::string& name, const Options& opt, Emitter* em, Progress* prog) {
  EmitterSink sink(em, prog);
  std::string err;
  if (ReadSpecs(name, opt.input_format, &sink, &err)) return true;
  std::fprintf(stderr, "tmapgen: %s\n", err.c_str());
  return false;
}

int Finish(Emitter& em) {
  em.Flush(true);
  std::fflush(stdout);
  if (em.input_errors > 0) return 2;
  return em.invalid > 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------- commands

int CmdRules(const Options& opt) {
  const Rule* rules = Rules();
  if (opt.format == Format::kJson) {
    json::Writer w;
    w.BeginArray();
    for (int i = 0; i < NumRules(); ++i) {
      const Rule& r = rules[i];
      w.BeginObject().Key("id").String(r.id).Key("severity").String(Name(r.severity)).Key("field").String(r.field);
      w.Key("modes").BeginArray();
      for (int m = 0; m < kNumModes; ++m)
        if (r.modes & (1u << m)) w.String(Name(static_cast<Mode>(m)));
      w.EndArray().Key("per_target").Bool(r.per_target).Key("summary").String(r.summary).Key("source").String(r.source);
      w.EndObject();
    }
    w.EndArray();
    std::printf("%s\n", w.str().c_str());
    return 0;
  }
  for (int i = 0; i < NumRules(); ++i) {
    const Rule& r = rules[i];
    std::printf("%-34s %-8s %s\n%34s          source: %s\n", std::string(r.id).c_str(), std::string(Name(r.severity)).c_str(),
                std::string(r.summary).c_str(), "", std::string(r.source).c_str());
  }
  return 0;
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (RemoteRequested(args)) {  // tmapgen --remote HOST:PORT ... (cli/remote.h); -1: run the rest here
    const int rc = RunRemote(&args);
    if (rc >= 0) return rc;
  }
  std::string command;
  if (!args.empty()) {
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") { PrintHelp(); return 0; }
    if (args[0] == "--version") { std::printf("tmapgen %s\n", TMAPGEN_VERSION); return 0; }
    if (args[0] == "show") return RunShowCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "desc") return RunDescCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "check") return RunCheckCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "sweep") return RunSweepCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "bench") return RunBenchCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "codegen") return RunCodegenCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "trace") return RunTraceCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "idesc") return RunIdescCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "decode") return RunDecodeCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "diff") return RunDiffCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "layout") return RunLayoutCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "validate" || args[0] == "rules" || args[0] == "build") {
      command = args[0];
      args.erase(args.begin());
    } else if (!args[0].empty() && args[0][0] != '-') {
      return Usage(StrCat("unknown command \"", args[0], "\""));
    }
  }
  Options opt;
  std::vector<std::pair<std::string, std::string>> spec_flags;
  std::vector<std::string> positional;
  std::string err;
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") { PrintHelp(); return 0; }
  if (!ParseCommon(args, &opt, &spec_flags, &positional, &err)) return Usage(err);
  if (opt.format == Format::kTextproto && !TextprotoAvailable())
    return Usage("--format textproto: this build has no Protocol Buffers support (built without protobuf)");

  if (command == "rules") return CmdRules(opt);

  const Gpu gpu = DetectGpu(opt.use_gpu);
  Emitter em(opt, gpu);
  if (command == "validate") {
    if (positional.empty()) return Usage("validate needs at least one FILE (or - for standard input)");
    for (const auto& [name, value] : spec_flags)
      if (name != "target") return Usage(StrCat("validate takes no spec flag other than --target (got --", name, ")"));
    Progress prog{opt.progress};
    bool read_ok = true;
    for (const std::string& p : positional) read_ok = ProcessInput(p, opt, &em, &prog) && read_ok;
    prog.Tick(em, true);
    const int rc = Finish(em);
    if (opt.format == Format::kText)
      std::fprintf(stderr, "%d spec%s: %d valid, %d invalid%s\n", em.total, em.total == 1 ? "" : "s", em.valid,
                   em.invalid, em.input_errors ? StrCat(" (", em.input_errors, " unreadable)").c_str() : "");
    return read_ok ? rc : 2;
  }

  // build (the default command)
  if (!positional.empty()) return Usage(StrCat("unexpected argument \"", positional[0], "\" (spec files go to: tmapgen validate FILE)"));
  TensorMapSpec base;
  const TensorMapSpec* base_ptr = nullptr;
  if (!opt.spec_file.empty()) {
    std::string text;
    FILE* f = opt.spec_file == "-" ? stdin : std::fopen(opt.spec_file.c_str(), "rb");
    if (f == nullptr) return Usage(StrCat("cannot open ", opt.spec_file, ": ", std::strerror(errno)));
    const bool ok = ReadAll(f, &text);
    if (f != stdin) std::fclose(f);
    if (!ok) return Usage(StrCat("cannot read ", opt.spec_file));
    InputError e;
    InputFormat fmt = FormatForName(opt.spec_file);
    if (fmt == InputFormat::kAuto || fmt == InputFormat::kJsonl) fmt = Sniff(text) == InputFormat::kTextproto ? InputFormat::kTextproto : InputFormat::kJson;
    const bool parsed = fmt == InputFormat::kTextproto ? ParseSpecTextproto(text, 1, &base, &e) : ParseSpecJson(text, 1, &base, &e);
    if (!parsed) return Usage(StrCat(opt.spec_file, ": ", e.message));
    base_ptr = &base;
  }
  TensorMapSpec spec;
  if (!BuildSpecFromFlags(spec_flags, base_ptr, &spec, &err)) return Usage(err);
  em.Spec(spec, true, "");
  return Finish(em);
}

}  // namespace
}  // namespace tmapgen::cli

int main(int argc, char** argv) { return tmapgen::cli::Main(argc, argv); }
