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
#include "cli/blob_cmd.h"
#include "cli/check_cmd.h"
#include "cli/codegen_cmd.h"
#include "cli/desc_cmd.h"
#include "proto/tmapd_v2.grpc.pb.h"
#include "server/api_convert.h"
#include "server/grpc_status.h"
#include "server/net_address.h"
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
  long max_response_bytes = 64l << 20;
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
  args.SetMaxReceiveMessageSize(static_cast<int>(c.max_response_bytes));
  return grpc::CreateCustomChannel(c.target, creds, args);
}

void Prepare(const Conn& c, grpc::ClientContext* ctx) {
  if (!c.token.empty()) ctx->AddMetadata("authorization", "Bearer " + c.token);
  if (c.deadline_ms > 0) ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(c.deadline_ms));
}

int CallFailed(const Conn& c, const grpc::Status& s) {
  std::fprintf(stderr, "tmapgen: remote %s: %s: %s\n", c.target.c_str(), server::CodeName(s.error_code()),
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

int RemoteValidate(const Conn& conn, v2::Tmapd::Stub* stub, const Options& opt, const std::vector<std::string>& positional) {
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

int RemoteBuild(const Conn& conn, v2::Tmapd::Stub* stub, const Options& opt,
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

// desc / idesc: the flags are parsed here by the local command's parser and the --for-map file read
// here; the server receives the request and answers with the report (and its rendered text).
int RemoteDescriptor(const Conn& conn, v2::Tmapd::Stub* stub, const std::vector<std::string>& args) {
  DescArgs a;
  std::string err;
  if (!ParseDescArgs(args, &a, &err) || a.help) return kRunLocally;  // the local command's message
  if (!LoadDescMap(&a, &err)) return kRunLocally;
  v2::MatrixDescriptorRequest req;
  server::ToProto(a.request, &req);
  req.mutable_render()->set_format(a.json ? v2::Rendering::JSON : v2::Rendering::TEXT);
  req.mutable_render()->set_color(a.color);
  req.set_svg(!a.svg.empty());
  v2::MatrixDescriptorResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->MatrixDescriptor(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  if (!a.svg.empty()) {
    FILE* f = std::fopen(a.svg.c_str(), "wb");
    if (f == nullptr) {
      std::fputs(DescUsageText(StrCat("--svg: cannot open ", a.svg, ": ", std::strerror(errno))).c_str(), stderr);
      return 2;
    }
    const bool ok = std::fwrite(res.svg().data(), 1, res.svg().size(), f) == res.svg().size();
    if (std::fclose(f) != 0 || !ok) {
      std::fputs(DescUsageText(StrCat("--svg: cannot write ", a.svg)).c_str(), stderr);
      return 2;
    }
  }
  Write(res.rendered());
  std::fflush(stdout);
  return res.valid() ? 0 : 1;
}

int RemoteIdesc(const Conn& conn, v2::Tmapd::Stub* stub, const std::vector<std::string>& args) {
  IdescArgs a;
  std::string err;
  if (!ParseIdescArgs(args, &a, &err) || a.help) return kRunLocally;
  v2::InstructionDescriptorRequest req;
  server::ToProto(a.request, &req);
  req.mutable_render()->set_format(a.json ? v2::Rendering::JSON : v2::Rendering::TEXT);
  req.mutable_render()->set_color(a.color);
  v2::InstructionDescriptorResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->InstructionDescriptor(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  Write(res.rendered());
  std::fflush(stdout);
  return res.valid() ? 0 : 1;
}

// tmapgen codegen SPEC... [flags] on the server. The flags are parsed and the spec files read here;
// the generated file comes back by name and is written here (-o, atomically), only when generated.
int RemoteCodegen(const Conn& conn, v2::Tmapd::Stub* stub, const std::vector<std::string>& args) {
  CodegenArgs a;
  std::string err;
  if (!ParseCodegenArgs(args, &a, &err) || a.help) return kRunLocally;
  if (!ReadCodegenSpecs(&a, &err)) {  // (standard input is read: print here, as the local command does)
    std::fputs(CodegenUsageText(err).c_str(), stderr);
    return 2;
  }
  v2::CodegenRequest req;
  server::ToProto(a.input, a.options, a.lang, &req);
  v2::CodegenResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->Codegen(&ctx, req, &res);
  if (s.error_code() == grpc::INVALID_ARGUMENT && s.error_message().rfind("request: ", 0) == 0) {
    // The request is well formed but cannot be resolved (a --desc naming no map): the local usage error.
    std::fputs(CodegenUsageText(s.error_message().substr(9)).c_str(), stderr);
    return 2;
  }
  if (!s.ok()) return CallFailed(conn, s);
  if (!res.generated()) {
    std::fputs(CodegenRejectionText(res.rejection()).c_str(), stderr);
    return 1;
  }
  if (res.files_size() != 1) return Fail(StrCat("remote ", conn.target, ": Codegen answered ", res.files_size(), " files"));
  const std::string& text = res.files(0).content();
  if (a.output.empty() || a.output == "-") {
    Write(text);
    std::fflush(stdout);
    return 0;
  }
  if (!WriteFileAtomically(a.output, text, &err)) {
    std::fprintf(stderr, "tmapgen codegen: %s\n", err.c_str());
    return 2;
  }
  return 0;
}

// tmapgen decode BLOB... on the server: the inputs are read and parsed here (hex, files, JSON Lines);
// only the 128-byte maps and their labels travel.
int RemoteDecode(const Conn& conn, v2::Tmapd::Stub* stub, const std::vector<std::string>& args) {
  DecodeArgs a;
  std::string err;
  if (!ParseDecodeArgs(args, &a, &err) || a.help) return kRunLocally;
  std::vector<DecodeSource> sources;
  if (!ReadDecodeInputs(a, &sources, &err)) {  // (standard input is read: print here, as the local command does)
    std::fprintf(stderr, "tmapgen decode: %s\n", err.c_str());
    return 2;
  }
  std::vector<blob::MapBytes> maps;
  std::vector<std::string> labels;
  for (const DecodeSource& s : sources) {
    maps.push_back(s.bytes);
    labels.push_back(s.label);
  }
  v2::DecodeRequest req;
  server::ToProto(maps, labels, a.options, &req);
  v2::DecodeResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->Decode(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  Write(res.rendered());
  std::fflush(stdout);
  return res.all_clean_and_valid() ? 0 : 1;
}

// tmapgen check SPEC... [--seed S] [--verbose] on the server's GPU. The spec files are read here.
int RemoteCheck(const Conn& conn, v2::Tmapd::Stub* stub, const std::vector<std::string>& args) {
  CheckArgs a;
  std::string err;
  if (!ParseCheckArgs(args, &a, &err) || a.mode != CheckArgs::Mode::kRun) return kRunLocally;
  std::vector<TensorMapSpec> specs;
  std::vector<std::string> names;
  for (const std::string& f : a.files)
    if (!ReadSpecsFile(f, &specs, &names, &err)) {
      std::fputs(CheckUsageText(err).c_str(), stderr);
      return 2;
    }
  v2::CheckRequest req;
  server::ToProto(specs, names, a.seed, a.verbose, &req);
  v2::CheckResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->Check(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  Write(res.rendered());
  std::fflush(stdout);
  return res.all_passed() ? 0 : 1;
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
    if (name != "--remote" && name != "--token" && name != "--tls-ca" && name != "--deadline-ms" &&
        name != "--max-response-bytes") {
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
    else if (name == "--max-response-bytes") {
      char* end = nullptr;
      conn.max_response_bytes = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || conn.max_response_bytes < 1024 || conn.max_response_bytes > (1l << 30))
        return Fail("--max-response-bytes needs a number of bytes from 1024 to 1073741824");
    } else {
      char* end = nullptr;
      conn.deadline_ms = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || conn.deadline_ms <= 0) return Fail("--deadline-ms needs a positive number of milliseconds");
    }
  }
  if (conn.target.empty()) return Fail("--remote needs HOST:PORT (or a gRPC target such as dns:///host:port)");
  if (!conn.token.empty() && conn.tls_ca.empty()) {
    // A bearer token in plaintext is readable by anyone on the path: only to this machine.
    bool loopback = false;
    const absl::Status s = server::TargetIsLoopback(conn.target, &loopback);
    if (!loopback)
      return Fail(StrCat("--remote ", conn.target, ": refusing to send the token in plaintext to ",
                         s.ok() ? "an address that is not loopback" : StrCat("an address that cannot be checked (", s.message(), ")"),
                         "; connect with TLS (--tls-ca FILE), or unset the token"));
  }
  *args_io = args;  // what runs locally when this returns kRunLocally

  // Commands that do not run remotely, --help, --version and every usage error: the local command.
  std::string command;
  if (args.empty()) return kRunLocally;
  const bool desc = args[0] == "desc", idesc = args[0] == "idesc", check = args[0] == "check";
  const bool codegen = args[0] == "codegen", decode = args[0] == "decode";
  if (!desc && !idesc && !check && !codegen && !decode) {
    if (args[0] == "validate" || args[0] == "build") {
      command = args[0];
      args.erase(args.begin());
    } else if (args[0] == "sweep" || args[0] == "bench") {
      return Fail(StrCat("--remote: ", args[0], " does not run remotely in this version (remote commands: build, "
                      "validate, desc, idesc, codegen, decode, check)"));
    } else if (!args[0].empty() && args[0][0] != '-') {
      return kRunLocally;  // rules, show (the same everywhere), unknown commands (the usage error)
    }
  }
  for (const std::string& a : args)
    if (a == "--help" || a == "-h" || a == "--version" || a == "help") return kRunLocally;

  std::string err;
  std::shared_ptr<grpc::Channel> channel = MakeChannel(conn, &err);
  if (!channel) return Fail(err);
  std::unique_ptr<v2::Tmapd::Stub> stub = v2::Tmapd::NewStub(channel);
  if (desc) return RemoteDescriptor(conn, stub.get(), std::vector<std::string>(args.begin() + 1, args.end()));
  if (idesc) return RemoteIdesc(conn, stub.get(), std::vector<std::string>(args.begin() + 1, args.end()));
  if (check) return RemoteCheck(conn, stub.get(), std::vector<std::string>(args.begin() + 1, args.end()));
  if (codegen) return RemoteCodegen(conn, stub.get(), std::vector<std::string>(args.begin() + 1, args.end()));
  if (decode) return RemoteDecode(conn, stub.get(), std::vector<std::string>(args.begin() + 1, args.end()));

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
