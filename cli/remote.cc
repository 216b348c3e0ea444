// remote.cc: tmapgen --remote (see remote.h). The arguments and the inputs are read by the same code as
// the local command (cli/common_flags.h, cli/spec_input.h), so that remote and local runs read the same
// specs and print the same bytes; the server validates, encodes and renders (server/engine.cc, which mirrors
// Emitter::Spec). Input errors are rendered here, as locally: they never reach the server.
#include "cli/remote.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <thread>

#include "cli/common_flags.h"
#include "cli/spec_flags.h"
#include "cli/spec_input.h"
#include "cli/textproto.h"
#include "proto/tmapd.grpc.pb.h"
#include "src/json/json_writer.h"
#include "src/schema/proto_convert.h"
#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/schema/spec_stream.h"
#include "src/util/status.h"
#include "src/util/strings.h"

namespace tmapgen::cli {
namespace {

// Usage errors are the local command's: RunRemote returns kRunLocally and cli/main.cc, running the same
// arguments (without the remote flags), prints exactly what it prints without --remote.
constexpr int kRunLocally = -1;

int Fail(const std::string& msg) {
  std::fprintf(stderr, "tmapgen: %s\n", msg.c_str());
  return 2;
}

struct Conn {
  std::string target, token, tls_ca;
  long deadline_ms = 0;
};

v1::OutputFormat ToProto(Format f) {
  switch (f) {
    case Format::kJson: return v1::OUTPUT_JSON;
    case Format::kTextproto: return v1::OUTPUT_TEXTPROTO;
    default: return v1::OUTPUT_TEXT;
  }
}

std::shared_ptr<grpc::Channel> MakeChannel(const Conn& c, std::string* err) {
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (!c.tls_ca.empty()) {
    std::string pem;
    FILE* f = std::fopen(c.tls_ca.c_str(), "rb");
    if (f == nullptr) {
      *err = StrCat("--tls-ca: cannot open ", c.tls_ca, ": ", std::strerror(errno));
      return nullptr;
    }
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) pem.append(buf, n);
    std::fclose(f);
    grpc::SslCredentialsOptions o;
    o.pem_root_certs = pem;
    creds = grpc::SslCredentials(o);
  } else {
    creds = grpc::InsecureChannelCredentials();
  }
  grpc::ChannelArguments args;
  args.SetLoadBalancingPolicyName("round_robin");
  args.SetMaxReceiveMessageSize(-1);
  return grpc::CreateCustomChannel(c.target, creds, args);
}

void Prepare(const Conn& c, grpc::ClientContext* ctx) {
  if (!c.token.empty()) ctx->AddMetadata("authorization", "Bearer " + c.token);
  if (c.deadline_ms > 0) ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(c.deadline_ms));
}

const char* CodeName(grpc::StatusCode c) {
  static const char* const kNames[] = {"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
                                       "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
                                       "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL",
                                       "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"};
  const int i = static_cast<int>(c);
  return i >= 0 && i <= 16 ? kNames[i] : "UNKNOWN";
}

int CallFailed(const Conn& c, const grpc::Status& s) {
  std::fprintf(stderr, "tmapgen: remote %s: %s: %s\n", c.target.c_str(), CodeName(s.error_code()),
               s.error_message().c_str());
  return 2;
}

void Write(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// ---------------------------------------------------------------------------------------------- inputs

// The inputs, in order: specs (sent to the server) and input errors (rendered here).
struct Item {
  bool is_spec = false;
  v1::TensorMapSpec spec;
  InputError error;
  std::string where;
  std::string file;  // the input's name, for the JSON report
};

struct Inputs : public SpecSink {
  std::vector<Item> items;
  void Spec(const TensorMapSpec& s) override {
    items.emplace_back();
    items.back().is_spec = true;
    SpecToProto(s, &items.back().spec);
  }
  void Error(const InputError& e, const std::string& where) override {
    items.emplace_back();
    items.back().error = e;
    items.back().where = where;
  }
  void ErrorAt(const InputError& e, const SpecPlace& p) override {
    Error(e, p.Text());
    items.back().file = p.file;
  }
};

// Collects the specs of one input (the same reader as the local command).
bool ProcessInput(const std::string& name, const Options& opt, Inputs* em) {
  const absl::Status st = ReadSpecs(name, opt.input_format, em);
  if (st.ok()) return true;
  std::fprintf(stderr, "tmapgen: %s\n", std::string(StatusMessage(st)).c_str());
  return false;
}

v1::RenderOptions MakeRenderOptions(const Options& opt) {
  v1::RenderOptions r;
  r.set_format(ToProto(opt.format));
  r.set_color(opt.color);
  r.set_quiet(opt.quiet);
  r.set_no_gpu(!opt.use_gpu);
  r.set_no_report(opt.format != Format::kTextproto);
  if (opt.has_target) r.set_default_target(std::string(Name(opt.target)));
  return r;
}

std::string RenderError(int index, const Item& it, const Options& opt) {
  switch (opt.format) {
    case Format::kJson: {
      json::Writer w;
      WriteInputErrorJson(index, it.error, &w, it.file);
      return w.str() + "\n";
    }
    case Format::kTextproto: return InputErrorTextproto(index, it.error) + "---\n";
    default: return RenderInputErrorText(index, it.where, it.error, opt.color);
  }
}

// ---------------------------------------------------------------------------------------------- commands

int RemoteValidate(const Conn& conn, v1::Tmapd::Stub* stub, const Options& opt, const std::vector<std::string>& positional) {
  Inputs in;
  bool read_ok = true;
  for (const std::string& p : positional) read_ok = ProcessInput(p, opt, &in) && read_ok;
  const std::vector<Item>& items = in.items;
  int valid = 0, invalid = 0, input_errors = 0;
  grpc::Status status = grpc::Status::OK;
  size_t printed = 0;  // items[0, printed) are out
  auto print_errors_until = [&](size_t end) {
    for (; printed < end; ++printed) {
      const Item& it = items[printed];
      if (it.is_spec) continue;
      ++invalid;
      ++input_errors;
      Write(RenderError(static_cast<int>(printed), it, opt));
    }
  };
  bool any_spec = false;
  for (const Item& it : items) any_spec = any_spec || it.is_spec;
  if (any_spec) {
    grpc::ClientContext ctx;
    Prepare(conn, &ctx);
    auto stream = stub->ValidateBatch(&ctx);
    const v1::RenderOptions ro = MakeRenderOptions(opt);
    std::thread writer([&] {
      constexpr int kPerMessage = 1000;
      v1::BatchRequest req;
      bool first = true;
      auto flush = [&]() {
        if (req.specs_size() == 0) return true;
        if (first) *req.mutable_options() = ro;
        first = false;
        const bool ok = stream->Write(req);
        req.Clear();
        return ok;
      };
      for (size_t i = 0; i < items.size(); ++i) {
        if (!items[i].is_spec) {
          if (!flush()) break;
          continue;
        }
        if (req.specs_size() == 0) req.set_first_index(static_cast<int>(i));
        *req.add_specs() = items[i].spec;
        if (req.specs_size() >= kPerMessage && !flush()) break;
      }
      flush();
      stream->WritesDone();
    });
    v1::BatchResponse res;
    while (stream->Read(&res)) {
      for (const v1::Result& r : res.results()) {
        print_errors_until(static_cast<size_t>(r.index()));
        if (r.valid()) ++valid; else ++invalid;
        Write(r.rendered());
        printed = static_cast<size_t>(r.index()) + 1;
      }
    }
    writer.join();
    status = stream->Finish();
  }
  if (!status.ok()) {
    std::fflush(stdout);
    return CallFailed(conn, status);
  }
  print_errors_until(items.size());
  std::fflush(stdout);
  const int total = valid + invalid;
  if (opt.format == Format::kText)
    std::fprintf(stderr, "%d spec%s: %d valid, %d invalid%s\n", total, total == 1 ? "" : "s", valid, invalid,
                 input_errors ? StrCat(" (", input_errors, " unreadable)").c_str() : "");
  if (!read_ok) return 2;
  if (input_errors > 0) return 2;
  return invalid > 0 ? 1 : 0;
}

int RemoteBuild(const Conn& conn, v1::Tmapd::Stub* stub, const Options& opt,
                const std::vector<std::pair<std::string, std::string>>& spec_flags) {
  TensorMapSpec base;
  const TensorMapSpec* base_ptr = nullptr;
  if (!opt.spec_file.empty()) {
    absl::StatusOr<TensorMapSpec> read = ReadOneSpec(opt.spec_file);
    if (!read.ok()) return kRunLocally;  // the local command reports it
    base = *std::move(read);
    base_ptr = &base;
  }
  const absl::StatusOr<TensorMapSpec> spec = BuildSpecFromFlags(spec_flags, base_ptr);
  if (!spec.ok()) return kRunLocally;  // the local command reports it
  v1::BuildRequest req;
  SpecToProto(*spec, req.mutable_spec());
  *req.mutable_options() = MakeRenderOptions(opt);
  req.set_no_encode(!opt.encode);
  v1::Result res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->Build(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  Write(res.rendered());
  std::fflush(stdout);
  return res.valid() ? 0 : 1;
}

int RemoteDescriptor(const Conn& conn, v1::Tmapd::Stub* stub, bool instruction, std::vector<std::string> args) {
  v1::DescriptorRequest req;
  req.set_kind(instruction ? v1::DescriptorRequest::INSTRUCTION : v1::DescriptorRequest::MATRIX);
  // --color auto is decided here (the server has no terminal); a --for-map file is read here.
  bool has_color = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    std::string* value = eq != std::string::npos ? nullptr : (i + 1 < args.size() ? &args[i + 1] : nullptr);
    std::string inline_value = eq != std::string::npos ? a.substr(eq + 1) : "";
    std::string& v = value ? *value : inline_value;
    if (name == "--color" || name == "-color") {
      has_color = true;
      if (v == "auto") v = AutoColor(STDOUT_FILENO) ? "always" : "never";
    } else if ((name == "--for-map" || name == "-for-map") && (value != nullptr || eq != std::string::npos)) {
      const size_t first = v.find_first_not_of(" \t\n");
      if (first == std::string::npos || v[first] != '{') {
        absl::StatusOr<std::string> text = ReadWholeFile(v, kMaxSpecBytes);
        if (!text.ok()) return kRunLocally;  // the local command's message
        req.set_for_map(*std::move(text));
        req.set_for_map_name(v);
        v = "@";
      }
    }
    if (eq != std::string::npos) args[i] = name + "=" + inline_value;
    else if (value != nullptr && (name == "--color" || name == "-color" || name == "--for-map" || name == "-for-map")) ++i;
  }
  if (!has_color) {
    args.push_back("--color");
    args.push_back(AutoColor(STDOUT_FILENO) ? "always" : "never");
  }
  for (const std::string& a : args) req.add_args(a);
  v1::DescriptorResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->Descriptor(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  Write(res.out());
  std::fflush(stdout);
  std::fwrite(res.err().data(), 1, res.err().size(), stderr);
  return res.exit_code();
}

// tmapgen codegen SPEC... [flags] on the server. The spec files are read here and -o is written here,
// atomically, only when the server generated the code (exit 0); everything else prints as locally.
int RemoteCodegen(const Conn& conn, v1::Tmapd::Stub* stub, const std::vector<std::string>& args) {
  v1::CodegenRequest req;
  std::string output;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    if (name == "-o" || name == "--output" || name == "-output") {
      if (eq != std::string::npos) output = a.substr(eq + 1);
      else if (i + 1 < args.size()) output = args[++i];
      else return kRunLocally;  // the local usage error
      continue;
    }
    if (a == "-" || a.empty() || a[0] != '-') {
      absl::StatusOr<std::string> text = ReadWholeFile(a, kMaxSpecBytes);
      if (!text.ok()) return kRunLocally;  // the local command reports the unreadable file
      v1::SpecFile* sf = req.add_files();
      sf->set_name(a);
      sf->set_content(*std::move(text));
      continue;
    }
    req.add_args(a);
    // Flags that take a value: pass the value along.
    if (eq == std::string::npos && i + 1 < args.size() &&
        (name == "--lang" || name == "--target" || name == "--namespace" || name == "--desc" || name == "--idesc"))
      req.add_args(args[++i]);
  }
  if (req.files_size() == 0) return kRunLocally;
  v1::CodegenResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->Codegen(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  std::fwrite(res.err().data(), 1, res.err().size(), stderr);
  if (res.exit_code() != 0) return res.exit_code();
  if (output.empty()) {
    Write(res.out());
    std::fflush(stdout);
    return 0;
  }
  const std::string tmp = output + ".tmapgen-tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return Fail(StrCat("-o: cannot write ", output, ": ", std::strerror(errno)));
  const bool ok = std::fwrite(res.out().data(), 1, res.out().size(), f) == res.out().size();
  if (std::fclose(f) != 0 || !ok || std::rename(tmp.c_str(), output.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Fail(StrCat("-o: cannot write ", output));
  }
  return 0;
}

// tmapgen check SPEC... [--seed S] [--verbose] on the server's GPU. The spec files are read here.
int RemoteCheck(const Conn& conn, v1::Tmapd::Stub* stub, const std::vector<std::string>& args) {
  v1::CheckRequest req;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--seed" && i + 1 < args.size()) {
      req.add_args(a);
      req.add_args(args[++i]);
    } else if (a == "--verbose" || a == "-v") {
      req.add_args(a);
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return kRunLocally;  // the local command's usage error (or --self-test, which checks this host)
    } else {
      absl::StatusOr<std::string> text = ReadWholeFile(a, kMaxSpecBytes);
      if (!text.ok()) return kRunLocally;  // the local command reports the unreadable file
      v1::SpecFile* sf = req.add_files();
      sf->set_name(a);
      sf->set_content(*std::move(text));
    }
  }
  if (req.files_size() == 0) return kRunLocally;
  v1::CheckResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->Check(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  Write(res.out());
  std::fflush(stdout);
  std::fwrite(res.err().data(), 1, res.err().size(), stderr);
  return res.exit_code();
}

}  // namespace

int RunRemote(std::vector<std::string>* args_io) {
  Conn conn;
  if (const char* t = std::getenv("TMAPGEN_TOKEN")) conn.token = t;
  const std::vector<std::string> args_in = *args_io;
  std::vector<std::string> args;
  for (size_t i = 0; i < args_in.size(); ++i) {
    const std::string& a = args_in[i];
    if (a == "--") {
      args.insert(args.end(), args_in.begin() + static_cast<long>(i), args_in.end());
      break;
    }
    std::string name = a, value;
    const size_t eq = a.find('=');
    bool has_value = false;
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      has_value = true;
    }
    if (name != "--remote" && name != "--token" && name != "--tls-ca" && name != "--deadline-ms") {
      args.push_back(a);
      continue;
    }
    if (!has_value) {
      if (i + 1 >= args_in.size()) return Fail(StrCat(name, " needs a value"));
      value = args_in[++i];
    }
    if (name == "--remote") {
      std::string bad;
      if (!RemoteTarget(value, &conn.target, &bad)) return Fail(bad);  // HOST alone: port 50051 (common_flags.h)
    }
    else if (name == "--token") conn.token = value;
    else if (name == "--tls-ca") conn.tls_ca = value;
    else {
      char* end = nullptr;
      conn.deadline_ms = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || conn.deadline_ms <= 0) return Fail("--deadline-ms needs a positive number of milliseconds");
    }
  }
  if (conn.target.empty()) return Fail("--remote needs HOST:PORT (or a gRPC target such as dns:///host:port)");
  *args_io = args;  // what runs locally when this returns kRunLocally

  // Commands that do not run remotely, --help, --version and every usage error: the local command.
  std::string command;
  if (args.empty()) return kRunLocally;
  const bool desc = args[0] == "desc", idesc = args[0] == "idesc", check = args[0] == "check";
  const bool codegen = args[0] == "codegen";
  if (!desc && !idesc && !check && !codegen) {
    if (args[0] == "validate" || args[0] == "build") {
      command = args[0];
      args.erase(args.begin());
    } else if (args[0] == "sweep" || args[0] == "bench") {
      return Fail(StrCat("--remote: ", args[0], " does not run remotely in this version (remote commands: build, "
                      "validate, desc, idesc, check, codegen)"));
    } else if (!args[0].empty() && args[0][0] != '-') {
      return kRunLocally;  // rules, show (the same everywhere), unknown commands (the usage error)
    }
  }
  for (const std::string& a : args)
    if (a == "--help" || a == "-h" || a == "--version" || a == "help") return kRunLocally;

  std::string err;
  std::shared_ptr<grpc::Channel> channel = MakeChannel(conn, &err);
  if (!channel) return Fail(err);
  std::unique_ptr<v1::Tmapd::Stub> stub = v1::Tmapd::NewStub(channel);
  if (desc || idesc) return RemoteDescriptor(conn, stub.get(), idesc, std::vector<std::string>(args.begin() + 1, args.end()));
  if (check) return RemoteCheck(conn, stub.get(), std::vector<std::string>(args.begin() + 1, args.end()));
  if (codegen) return RemoteCodegen(conn, stub.get(), std::vector<std::string>(args.begin() + 1, args.end()));

  Options opt;
  std::vector<std::pair<std::string, std::string>> spec_flags;
  std::vector<std::string> positional;
  if (!ParseCommon(args, &opt, &spec_flags, &positional).ok()) return kRunLocally;
  if (opt.format == Format::kTextproto && !TextprotoAvailable()) return kRunLocally;
  if (opt.format == Format::kShort) return Fail("--format short is not available with --remote in this version");
  if (command == "validate") {
    if (positional.empty()) return kRunLocally;
    for (const auto& [name, value] : spec_flags)
      if (name != "target") return kRunLocally;
    return RemoteValidate(conn, stub.get(), opt, positional);
  }
  if (!positional.empty()) return kRunLocally;
  return RemoteBuild(conn, stub.get(), opt, spec_flags);
}

}  // namespace tmapgen::cli
