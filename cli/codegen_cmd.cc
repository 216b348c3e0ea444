#include "cli/codegen_cmd.h"

#include "cli/common_flags.h"
#include "cli/spec_input.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cli/textproto.h"
#include "src/codegen/codegen.h"
#include "src/ops/codegen.h"
#include "src/util/status.h"
#include "src/report/diagnostics.h"
#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"
#include "src/util/suggest.h"

namespace tmapgen::cli {
namespace {

const char* kCodegenUsage =
    "usage: tmapgen codegen SPEC... [--lang cpp|json|ptx] [-o FILE] [--target T] [--namespace NS]\n"
    "                       [--desc MAP:ARCH:OPERAND:MAJOR[:TYPE]]... [--idesc key=value,...]...\n";

const char* kCodegenHelp =
    "\nWrites code for validated tensor maps (docs/codegen.md):\n"
    "  --lang cpp       a self-contained C++17 header: constexpr parameters, transaction bytes, shared-memory\n"
    "                   footprint and alignment, static_asserts, host Encode/ReplaceAddress (default)\n"
    "  --lang json      the same facts as JSON, for other tools\n"
    "  --lang ptx       tensormap.replace sequences that build the same tiled maps on the device (sm_90a+)\n"
    "  -o, --output F   write F atomically instead of standard output\n"
    "  --target T       target of the specs that name none (else: valid for at least one target)\n"
    "  --namespace NS   C++ namespace (default tmapgen_gen)\n"
    "  --desc MAP:ARCH:OPERAND:MAJOR[:TYPE]  a shared-memory matrix descriptor (wgmma|tcgen05, A|B, K|MN)\n"
    "                   derived from map MAP's box (MAP: the spec's name or #INDEX)\n"
    "  --idesc k=v,...  a tcgen05 instruction descriptor: kind, m, n, a-type, b-type, d-type, a-major,\n"
    "                   b-major, cta-group, negate-a, negate-b, sparse, saturate, ws, target, name\n"
    "exit status: 0 written, 1 invalid spec or descriptor (report on stderr, nothing written), 2 bad usage\n";

struct Io {
  std::string* out;
  std::string* err;
};

int Usage(const Io& io, const std::string& msg) {
  *io.err += CodegenUsageText(msg);
  return 2;
}

// Collects the specs of the inputs; the first input error stops generation (nothing is written).
class CollectSpecs : public SpecSink {
 public:
  explicit CollectSpecs(std::vector<TensorMapSpec>* specs) : specs_(specs) {}
  void Spec(const TensorMapSpec& spec) override { specs_->push_back(spec); }
  void Error(const InputError& e, const std::string& where) override {
    // `where` is FILE:LINE:COLUMN when the parser knows the position, which e.message then starts with too.
    if (error_.empty()) error_ = StrCat(where, ": ", where.empty() ? std::string_view(e.message) : InputErrorMessage(e));
  }
  const std::string& error() const { return error_; }

 private:
  std::vector<TensorMapSpec>* specs_;
  std::string error_;
};

absl::Status Bad(std::string_view message) { return absl::InvalidArgumentError(ToAbsl(message)); }

absl::Status WriteAtomically(const std::string& path, const std::string& data) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  std::string tmpl = StrCat(dir, "/.", slash == std::string::npos ? path : path.substr(slash + 1), ".tmp.XXXXXX");
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  const int fd = mkstemp(buf.data());
  if (fd < 0) return ErrnoStatus(errno, "cannot create a temporary file next to", path);
  const std::string tmp(buf.data());
  size_t off = 0;
  bool ok = true;
  while (off < data.size()) {
    const ssize_t n = write(fd, data.data() + off, data.size() - off);
    if (n < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    off += static_cast<size_t>(n);
  }
  if (ok && fsync(fd) != 0) ok = false;
  const int saved = errno;
  if (close(fd) != 0) ok = false;
  if (ok) {
    // mkstemp makes the file 0600; a generated header is an ordinary file.
    const mode_t mask = umask(0);
    umask(mask);
    if (chmod(tmp.c_str(), 0666 & ~mask) != 0) ok = false;
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) ok = false;
  if (!ok) {
    const int why = errno ? errno : saved;
    unlink(tmp.c_str());
    return ErrnoStatus(why, "cannot write", path);
  }
  return absl::OkStatus();
}

absl::Status CodegenParse(const std::vector<std::string>& args_in, CodegenArgs* a) {
  std::vector<std::string> args = args_in;
  if (!args.empty() && args[0] == "codegen") args.erase(args.begin());
  *a = CodegenArgs();
  auto fail = [](const std::string& m) { return Bad(m); };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& x = args[i];
    if (x == "-" || x.size() < 2 || x[0] != '-') {
      a->files.push_back(x);
      continue;
    }
    if (x == "--") {
      for (size_t j = i + 1; j < args.size(); ++j) a->files.push_back(args[j]);
      break;
    }
    std::string name = x.substr(x[1] == '-' ? 2 : 1), value;
    bool has_value = false;
    const size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    for (char& c : name)
      if (c == '_') c = '-';
    if (name == "help" || name == "h") {
      a->help = true;
      return absl::OkStatus();
    }
    const std::string flag = name.size() == 1 ? StrCat("-", name) : StrCat("--", name);
    if (name != "lang" && name != "o" && name != "output" && name != "target" && name != "namespace" && name != "desc" &&
        name != "idesc")
      return fail(StrCat("unknown flag ", x,
                         DidYouMean(name, {"lang", "o", "output", "target", "namespace", "desc", "idesc", "help"}, "--")));
    if (!has_value) {
      if (i + 1 >= args.size()) return fail(StrCat(flag, " needs a value"));
      value = args[++i];
    }
    if (name == "lang") {
      if (!codegen::ParseLang(value, &a->lang)) return fail(StrCat("--lang: unknown value \"", value, "\"; expected cpp, json or ptx"));
    } else if (name == "o" || name == "output") {
      if (value.empty()) return fail(StrCat(flag, ": empty file name"));
      a->output = value;
    } else if (name == "target") {
      if (!Parse(value, &a->options.target))
        return fail(StrCat("--target: unknown value \"", value, "\"; expected one of: ",
                           AcceptedNames(static_cast<Target*>(nullptr))));
      a->options.has_target = true;
    } else if (name == "namespace") {
      if (codegen::SanitizeIdentifier(value, "") != value || value.empty())
        return fail(StrCat("--namespace: \"", value, "\" is not a plain C++ identifier"));
      a->options.name_space = value;
    } else if (name == "desc") {
      absl::StatusOr<codegen::NamedDesc> parsed = codegen::ParseNamedDesc(value);
      if (!parsed.ok()) return parsed.status();
      a->input.descs.push_back(*std::move(parsed));
    } else if (name == "idesc") {
      absl::StatusOr<codegen::NamedIdesc> parsed = codegen::ParseNamedIdesc(value);
      if (!parsed.ok()) return parsed.status();
      a->input.idescs.push_back(*std::move(parsed));
    }
  }
  if (a->files.empty()) return fail("codegen needs at least one SPEC file (or - for standard input)");
  return absl::OkStatus();
}

absl::Status CodegenRead(CodegenArgs* a) {
  for (const std::string& f : a->files) {
    CollectSpecs sink(&a->input.specs);
    if (absl::Status st = ReadSpecs(f, InputFormat::kAuto, &sink); !st.ok()) return st;
    if (!sink.error().empty()) return Bad(StrCat("input error: ", sink.error()));
    a->options.sources.push_back(f);
  }
  if (a->input.specs.empty()) return Bad("the SPEC files hold no spec");
  return absl::OkStatus();
}

int CodegenMain(const std::vector<std::string>& args, const Io& io) {
  CodegenArgs a;
  if (const absl::Status st = CodegenParse(args, &a); !st.ok()) return Usage(io, std::string(StatusMessage(st)));
  if (a.help) {
    *io.out += kCodegenUsage;
    *io.out += kCodegenHelp;
    return 0;
  }
  if (const absl::Status st = CodegenRead(&a); !st.ok()) return Usage(io, std::string(StatusMessage(st)));
  ops::CodegenRequest req;
  req.input = std::move(a.input);
  req.options = std::move(a.options);
  req.lang = a.lang;
  const absl::StatusOr<ops::CodegenResult> run = ops::RunCodegen(req);
  if (!run.ok()) return Usage(io, std::string(StatusMessage(run.status())));
  const codegen::Output& out = run->output;
  if (!out.generated) {
    *io.err += CodegenRejectionText(out.rejection);
    return 1;
  }
  if (a.output.empty() || a.output == "-") {
    *io.out += out.text;
    return 0;
  }
  if (const absl::Status st = WriteAtomically(a.output, out.text); !st.ok()) {
    *io.err += StrCat("tmapgen codegen: ", StatusMessage(st), "\n");
    return 2;
  }
  return 0;
}

}  // namespace

absl::Status ParseCodegenArgs(const std::vector<std::string>& args, CodegenArgs* out) { return CodegenParse(args, out); }
absl::Status ReadCodegenSpecs(CodegenArgs* a) { return CodegenRead(a); }
std::string CodegenUsageText(const std::string& msg) { return StrCat("tmapgen codegen: ", msg, "\n", HelpHint("codegen")); }
std::string CodegenRejectionText(const std::string& rejection) {
  return rejection + "tmapgen codegen: invalid spec or descriptor: nothing written\n";
}
absl::Status WriteFileAtomically(const std::string& path, const std::string& data) {
  return WriteAtomically(path, data);
}

int RunCodegenCommandTo(const std::vector<std::string>& args, std::string* out, std::string* err) {
  return CodegenMain(args, Io{out, err});
}

int RunCodegenCommand(const std::vector<std::string>& args) {
  std::string out, err;
  const int rc = CodegenMain(args, Io{&out, &err});
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  std::fwrite(err.data(), 1, err.size(), stderr);
  return rc;
}

}  // namespace tmapgen::cli
