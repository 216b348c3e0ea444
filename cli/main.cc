// tmapgen: build, validate and explain CUDA tensor maps (CUtensorMap).
//
//   tmapgen [spec flags]            build one map from flags (embedded default per --mode)
//   tmapgen validate FILE... | -    validate spec files (JSON, JSON Lines, text format)
//   tmapgen rules [ID] | explain ID  the rule tables, or one rule with an example
//
// Exit status: 0 every spec valid, 1 some spec invalid, 2 bad usage or unreadable or empty input.
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
#include "cli/plan_cmd.h"
#include "cli/sweep_cmd.h"
#include "cli/trace_cmd.h"
#include "cli/remote.h"
#include "cli/rules_cmd.h"
#include "cli/show_cmd.h"
#include "cli/spec_flags.h"
#include "cli/spec_input.h"
#include "cli/textproto.h"
#include "src/json/json_writer.h"
#include "src/ops/gpu_host.h"
#include "src/ops/validate.h"
#include "src/report/report.h"
#include "src/tmap/rule.h"
#include "src/schema/spec_json.h"
#include "src/util/status.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

#ifndef TMAPGEN_VERSION
#define TMAPGEN_VERSION "0.1.0"
#endif

namespace tmapgen::cli {
namespace {

const char* kUsage =
    "usage: tmapgen [--mode M] [spec flags] [--format text|json|textproto|short]   build and validate one map\n"
    "       tmapgen validate [--target T] [--format F] [--input-format json|jsonl|textproto] FILE... | -\n"
    "       tmapgen rules [ID] [--format text|json]   every rule (tensor map, descriptors), or one with an example\n"
    "       tmapgen explain ID                        one rule: statement, source, an example and what it says\n"
    "       tmapgen desc wgmma|tcgen05|decode ...   shared-memory matrix descriptors (tmapgen desc --help)\n"
    "       tmapgen codegen SPEC... --lang cpp|json|ptx [-o FILE]  code for validated maps (tmapgen codegen --help)\n"
    "       tmapgen idesc [decode VALUE] ...         tcgen05 instruction descriptors (tmapgen idesc --help)\n"
    "       tmapgen plan gemm|conv ...              a GEMM or convolution tile: maps, smem, barriers, descriptors\n"
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
      "  --format text|json|textproto|short    output format (default text; short: FILE:LINE: error[rule] field: message)\n"
      "  --color auto|always|never             colors in text output (default auto: on a terminal, unless NO_COLOR\n"
      "                                        is set or TERM=dumb)\n"
      "  --no-encode                           do not encode with the driver even on a GPU host\n"
      "  --no-gpu                              ignore any GPU (no default target, no driver encoding)\n"
      "  --quiet                               validate: print only invalid specs and the summary\n"
      "  --remote HOST[:PORT]                  run build, validate, desc, idesc, codegen, decode, check or plan on a\n"
      "                                        tmapd server (port 50051 when omitted; docs/service.md); --token T,\n"
      "                                        --tls-ca FILE, --deadline-ms MS\n"
      "\nexit status: 0 all valid, 1 some invalid, 2 bad usage, or an input that cannot be read or holds no spec\n"
      "(check, sweep and bench: 2 also when no GPU is usable; see docs/cli.md)\n",
      stdout);
}

const char* kValidateHelp =
    "usage: tmapgen validate [--target T] [--format text|json|textproto|short] [--input-format json|jsonl|textproto]\n"
    "                        [--quiet] [--color auto|always|never] [--no-gpu] [--no-encode] FILE... | -\n"
    "\nValidates every spec of the inputs and reports each (docs/cli.md, docs/schema.md):\n"
    "  FILE...                               spec files: JSON (one object or an array), JSON Lines, or Protobuf\n"
    "                                        text format; '-' reads standard input; every format is streamed\n"
    "  --input-format json|jsonl|textproto   the format, instead of the one chosen from the file name (standard\n"
    "                                        input: from its first line)\n"
    "  --target T                            validate specs that name no target for T (sm_90a, sm_100a, ...)\n"
    "  --format text|json|textproto|short    output format (default text; short: FILE:LINE: error[rule] field: message)\n"
    "  --quiet                               print only invalid specs and the summary\n"
    "  --color auto|always|never             colors in text output (default auto)\n"
    "  --no-gpu, --no-encode                 ignore any GPU; do not encode with the driver\n"
    "  --remote HOST[:PORT]                  validate on a tmapd server (docs/service.md)\n"
    "Input errors name FILE:LINE:COLUMN and the field; the other specs are still reported. A summary line goes\n"
    "to standard error in text mode.\n"
    "\nexit status: 0 all valid, 1 some invalid, 2 bad usage, or an input that cannot be read or holds no spec\n";

// A usage error: one line, and where the help is (`command`: "validate", "build", or "" for the default).
int Usage(const std::string& msg, const std::string& command = "") {
  std::fprintf(stderr, "tmapgen: %s\n%s", msg.c_str(), HelpHint(command == "build" ? "" : command).c_str());
  return 2;
}

// ---------------------------------------------------------------------------------------------- output

struct Emitter {
  Emitter(const Options& o, const ops::Host& h) : opt(o), host(h) {
    validate.has_target = build.has_target = o.has_target;
    validate.target = build.target = o.target;
    validate.use_gpu = build.use_gpu = o.use_gpu;
    build.encode = o.encode;
  }
  ops::ValidateRequest validate, build;  // what every spec shares (build: also encode on a GPU host)
  ops::ValidateResult res;  // reused: validation allocates nothing, and neither should its result
  ReportOptions ro_;
  const Options& opt;
  const ops::Host& host;
  int total = 0, valid = 0, invalid = 0, input_errors = 0;
  std::string buf;
  json::Writer w;

  // JSON reports are written as JSON Lines straight into w's buffer (no copy per spec); the other
  // formats into buf. Only one of the two holds text in a run.
  void Flush(bool force) {
    if (force || buf.size() > (1 << 16)) {
      std::fwrite(buf.data(), 1, buf.size(), stdout);
      buf.clear();
    }
    if (force || w.size() > (1 << 17)) {
      std::fwrite(w.view().data(), 1, w.size(), stdout);
      w.Clear();
    }
  }

  // `place`: "FILE:LINE" of the spec (for --format short).
  void Spec(const TensorMapSpec& spec_in, bool is_build, const std::string& where, const std::string& place = "") {
    ops::RunValidate(is_build ? build : validate, host, spec_in, &res).IgnoreError();  // never fails (validate.h)
    const TensorMapSpec& spec = res.spec();
    const Validation& v = res.validation;
    const Encoding& enc = res.encoding;
    ++total;
    if (v.valid) ++valid; else ++invalid;
    ReportOptions& ro = ro_;
    ro.color = opt.color;
    const int index = total - 1;
    switch (opt.format) {
      case Format::kShort:
        buf += RenderReportShort(place.empty() ? StrCat("spec ", index) : place, spec, v);
        break;
      case Format::kText:
        if (opt.quiet && v.valid) break;
        if (!where.empty()) buf += StrCat("# ", where, "\n");
        buf += RenderReportText(index, spec, v, enc, ro);
        buf += "\n";
        break;
      case Format::kJson:
        if (opt.quiet && v.valid) break;
        WriteReportJson(index, spec, v, enc, ro, &w);
        w.EndLine();
        break;
      case Format::kTextproto:
        if (opt.quiet && v.valid) break;
        buf += ReportTextproto(index, spec, v, enc);
        buf += "---\n";
        break;
    }
    Flush(false);
  }

  void Error(const InputError& e, const std::string& where, const std::string& file = "") {
    ++total;
    ++invalid;
    ++input_errors;
    const int index = total - 1;
    switch (opt.format) {
      case Format::kText: buf += RenderInputErrorText(index, where, e, opt.color); break;
      case Format::kShort: buf += RenderInputErrorShort(where.empty() ? StrCat("spec ", index) : where, e); break;
      case Format::kJson:
        WriteInputErrorJson(index, e, &w, file);
        w.EndLine();
        break;
      case Format::kTextproto:
        buf += InputErrorTextproto(index, e);
        buf += "---\n";
        break;
    }
    Flush(false);
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
  inline static const std::string kNoWhere;
  EmitterSink(Emitter* em, Progress* prog) : em_(em), prog_(prog) {}
  void Spec(const TensorMapSpec& spec) override { em_->Spec(spec, false, ""); }
  void Error(const InputError& e, const std::string& where) override { em_->Error(e, where); }
  // The place's text is made only for --format short, the one format that prints it.
  void SpecAt(const TensorMapSpec& spec, const SpecPlace& p) override {
    em_->Spec(spec, false, kNoWhere, em_->opt.format == Format::kShort ? p.Text() : kNoWhere);
  }
  void ErrorAt(const InputError& e, const SpecPlace& p) override { em_->Error(e, p.Text(), p.file); }
  void Tick() override { prog_->Tick(*em_, false); }

 private:
  Emitter* em_;
  Progress* prog_;
};

// Processes one input; returns false when it could not be read at all.
bool ProcessInput(const std::string& name, const Options& opt, Emitter* em, Progress* prog) {
  EmitterSink sink(em, prog);
  const absl::Status st = ReadSpecs(name, opt.input_format, &sink);
  if (st.ok()) return true;
  std::fprintf(stderr, "tmapgen: %s\n", std::string(StatusMessage(st)).c_str());
  return false;
}

int Finish(Emitter& em) {
  em.Flush(true);
  std::fflush(stdout);
  if (em.input_errors > 0) return 2;
  return em.invalid > 0 ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------- commands

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
    if (args[0] == "plan") return RunPlanCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "decode") return RunDecodeCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "diff") return RunDiffCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "layout") return RunLayoutCommand(std::vector<std::string>(args.begin() + 1, args.end()));
    if (args[0] == "rules" || args[0] == "explain")
      return RunRulesCommand(std::vector<std::string>(args.begin() + 1, args.end()), args[0] == "explain");
    if (args[0] == "validate" || args[0] == "build") {
      command = args[0];
      args.erase(args.begin());
    } else if (!args[0].empty() && args[0][0] != '-') {
      return Usage(StrCat("unknown command \"", args[0], "\"",
                          DidYouMean(args[0], {"validate", "build", "rules", "explain", "desc", "idesc", "plan", "codegen", "show",
                                               "check", "sweep", "bench", "decode", "diff", "layout", "trace"})));
    }
  }
  Options opt;
  std::vector<std::pair<std::string, std::string>> spec_flags;
  std::vector<std::string> positional;
  std::string err;
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") {
      if (command == "validate") std::fputs(kValidateHelp, stdout);
      else PrintHelp();
      return 0;
    }
  if (const absl::Status st = ParseCommon(args, &opt, &spec_flags, &positional); !st.ok())
    return Usage(std::string(StatusMessage(st)), command);
  if (opt.format == Format::kTextproto && !TextprotoAvailable())
    return Usage("--format textproto: this build has no Protocol Buffers support (built without protobuf)", command);

  const ops::Host host = ops::DetectHost(opt.use_gpu);
  Emitter em(opt, host);
  if (command == "validate") {
    if (positional.empty()) return Usage("validate needs at least one FILE (or - for standard input)", command);
    for (const auto& [name, value] : spec_flags)
      if (name != "target") return Usage(StrCat("validate takes no spec flag other than --target (got --", name, ")"), command);
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
  if (!positional.empty()) return Usage(StrCat("unexpected argument \"", positional[0], "\" (spec files go to: tmapgen validate FILE)"), command);
  TensorMapSpec base;
  const TensorMapSpec* base_ptr = nullptr;
  if (!opt.spec_file.empty()) {
    absl::StatusOr<TensorMapSpec> read = ReadOneSpec(opt.spec_file);
    if (!read.ok()) return Usage(std::string(StatusMessage(read.status())), command);
    base = *std::move(read);
    base_ptr = &base;
  }
  const absl::StatusOr<TensorMapSpec> spec = BuildSpecFromFlags(spec_flags, base_ptr);
  if (!spec.ok()) return Usage(std::string(StatusMessage(spec.status())), command);
  em.Spec(*spec, true, "", opt.spec_file.empty() ? std::string("<command line>") : StrCat(opt.spec_file, ":1"));
  return Finish(em);
}

}  // namespace
}  // namespace tmapgen::cli

int main(int argc, char** argv) { return tmapgen::cli::Main(argc, argv); }
