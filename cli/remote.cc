// remote.cc: tmapgen --remote (see remote.h). The arguments and the inputs are read by the same code as
// the local command (cli/common_flags.h, cli/spec_input.h), so that remote and local runs read the same
// specs and print the same bytes; the server validates, encodes and renders. Input errors are rendered
// here, as locally: they never reach the server. What travels is converted by src/rpc, the same code
// tmapd converts it back with.
#include "cli/remote.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/text_format.h>
#include <arpa/inet.h>
#include <grpcpp/grpcpp.h>
#include <netdb.h>
#include <netinet/in.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

#include "cli/common_flags.h"
#include "cli/spec_flags.h"
#include "cli/spec_input.h"
#include "cli/textproto.h"
#include "cli/blob_cmd.h"
#include "cli/check_cmd.h"
#include "cli/codegen_cmd.h"
#include "cli/desc_cmd.h"
#include "cli/plan_cmd.h"
#include "proto/tmapd_v2.grpc.pb.h"
#include "src/json/json_writer.h"
#include "src/net/grpc_status.h"
#include "src/net/net_address.h"
#include "src/report/report.h"
#include "src/rpc/check.h"
#include "src/rpc/codegen.h"
#include "src/rpc/decode.h"
#include "src/rpc/instruction_descriptor.h"
#include "src/rpc/matrix_descriptor.h"
#include "src/rpc/plan.h"
#include "src/schema/proto_convert.h"
#include "src/schema/spec_json.h"
#include "src/schema/spec_stream.h"
#include "src/util/status.h"
#include "src/tmap/types.h"
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

// gRPC's own balancing over every address the target resolves to: round_robin over the replicas whose
// grpc.health.v1 status for tmapgen.v2.Tmapd is SERVING (tmapd sets it, and NOT_SERVING while it
// drains), and up to 3 attempts of the idempotent unary methods on UNAVAILABLE. Check is left out: it
// runs kernels, and a worker that died is the answer. Batch streams are resumed by BatchRun instead,
// from the first unanswered spec.
constexpr char kServiceConfig[] = R"({
  "loadBalancingConfig": [{"round_robin": {}}],
  "healthCheckConfig": {"serviceName": "tmapgen.v2.Tmapd"},
  "methodConfig": [{
    "name": [{"service": "tmapgen.v2.Tmapd", "method": "Validate"},
             {"service": "tmapgen.v2.Tmapd", "method": "Build"},
             {"service": "tmapgen.v2.Tmapd", "method": "Describe"},
             {"service": "tmapgen.v2.Tmapd", "method": "MatrixDescriptor"},
             {"service": "tmapgen.v2.Tmapd", "method": "InstructionDescriptor"},
             {"service": "tmapgen.v2.Tmapd", "method": "Codegen"},
             {"service": "tmapgen.v2.Tmapd", "method": "Decode"}],
    "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2,
                    "retryableStatusCodes": ["UNAVAILABLE"]}
  }]
})";

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const Conn& c) {
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (!c.tls_ca.empty()) {
    std::string pem;
    FILE* f = std::fopen(c.tls_ca.c_str(), "rb");
    if (f == nullptr) return ErrnoStatus(errno, "--tls-ca: cannot open", c.tls_ca);
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
  args.SetServiceConfigJSON(kServiceConfig);
  args.SetMaxReceiveMessageSize(static_cast<int>(c.max_response_bytes));
  return grpc::CreateCustomChannel(c.target, creds, args);
}

// A list "HOST:PORT,HOST:PORT" (RemoteTarget's form) as gRPC's resolver-free target: every address of every
// server, "ipv4:A:P,B:P" when all are IPv4, else "ipv6:[A]:P,..." with IPv4 addresses written IPv4-mapped.
absl::StatusOr<std::string> ResolveList(const std::string& list) {
  std::vector<std::string> v4, v6;
  bool only_v4 = true;
  size_t start = 0;
  for (;;) {
    const size_t comma = list.find(',', start);
    const std::string one = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::string host, port;
    if (!net::SplitHostPort(one, &host, &port))
      return absl::InvalidArgumentError(ToAbsl(StrCat("--remote: \"", one, "\" is not HOST:PORT")));
    addrinfo hints;
    std::memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo* res = nullptr;
    if (const int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &res); rc != 0)
      return absl::UnavailableError(ToAbsl(StrCat("--remote: cannot resolve \"", host, "\": ", gai_strerror(rc))));
    for (addrinfo* a = res; a != nullptr; a = a->ai_next) {
      char buf[INET6_ADDRSTRLEN] = {};
      if (a->ai_family == AF_INET) {
        inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_addr, buf, sizeof buf);
        v4.push_back(StrCat(buf, ":", port));
        v6.push_back(StrCat("[::ffff:", buf, "]:", port));
      } else if (a->ai_family == AF_INET6) {
        inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(a->ai_addr)->sin6_addr, buf, sizeof buf);
        v6.push_back(StrCat("[", buf, "]:", port));
        only_v4 = false;
      }
    }
    freeaddrinfo(res);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  const std::vector<std::string>& all = only_v4 ? v4 : v6;
  if (all.empty()) return absl::NotFoundError(ToAbsl(StrCat("--remote ", list, ": resolves to no IP address")));
  std::string target = only_v4 ? "ipv4:" : "ipv6:";
  for (size_t i = 0; i < all.size(); ++i) StrAppend(&target, i ? "," : "", all[i]);
  return target;
}

void Prepare(const Conn& c, grpc::ClientContext* ctx) {
  if (!c.token.empty()) ctx->AddMetadata("authorization", "Bearer " + c.token);
  if (c.deadline_ms > 0) ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(c.deadline_ms));
}

int CallFailed(const Conn& c, const grpc::Status& s) {
  std::fprintf(stderr, "tmapgen: remote %s: %s: %s\n", c.target.c_str(), net::CodeName(s.error_code()),
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
  std::string name;  // the spec's name when it travels as a stand-in (BatchRun)
  bool stand_in = false;
  size_t wire_bytes = 0;  // the spec's size in a BatchRequest
};

struct Inputs : public SpecSink {
  std::vector<Item> items;
  void Spec(const TensorMapSpec& s) override {
    items.emplace_back();
    items.back().is_spec = true;
    SpecToProto(s, &items.back().spec);
    // Strides not given travel as not given, so that the service fills in the same dense ones and says so.
    if (HasDenseDefaultStrides(s)) items.back().spec.clear_global_strides();
  }
  void Error(const InputError& e, const std::string& where) override {
    items.emplace_back();
    items.back().error = e;
    items.back().where = where;
  }
  void SpecAt(const TensorMapSpec& s, const SpecPlace& p) override {
    Spec(s);
    items.back().where = p.Text();
    items.back().file = p.file;
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

// ---------------------------------------------------------------------------------------------- batches
//
// validate FILE... sends its specs on ValidateBatch streams:
// - Messages are packed by bytes, up to half the server's message limit (Describe.max_message_bytes)
//   and at most max_specs_per_message specs; a spec that does not fit one message of the whole limit
//   is an input error in its place, naming it, and the rest go on.
// - A name longer than a sixteenth of the limit travels as a stand-in and is put back into the answer
//   here: a name never changes a verdict, and a report repeats it (the JSON and text-format reports
//   carry it two or three times), so that a spec with a 3 MB name still gets its report.
// - Every response is checked before any of it is printed: each result is the next spec not yet
//   answered, its fields agree with each other and with what was asked, the counts match.
// - A stream that breaks (the replica died or went away) is resumed from the first unanswered spec on
//   a new stream, which round_robin gives to another replica; stderr says so, and only then.
// - A stream that ends with specs unanswered, or a response that fails the checks, is an error (exit
//   2) that says how many specs were answered and how many were not.

// What the server advertises (Describe); tmapd's defaults for a server that does not say.
struct ServerLimits {
  uint64_t max_message_bytes = uint64_t{4} << 20;
  uint32_t max_specs_per_message = 10000;
  uint64_t max_specs_per_call = 10000000;
};

grpc::Status AskLimits(const Conn& conn, v2::Tmapd::Stub* stub, ServerLimits* out) {
  v1::DescribeRequest req;
  v1::DescribeResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->Describe(&ctx, req, &res);
  if (s.error_code() == grpc::UNIMPLEMENTED) return grpc::Status::OK;
  if (!s.ok()) return s;
  // 0 is "not said"; the message limit is bounded as tmapd bounds its flag.
  if (res.max_message_bytes() > 0)
    out->max_message_bytes = std::min<uint64_t>(res.max_message_bytes(), uint64_t{1} << 30);
  if (res.max_specs_per_message() > 0) out->max_specs_per_message = res.max_specs_per_message();
  if (res.max_specs_per_call() > 0) out->max_specs_per_call = res.max_specs_per_call();
  return grpc::Status::OK;
}

// A name no input holds: 128 random bits.
std::string MakeStandIn() {
  std::random_device rd;
  char buf[64];
  std::snprintf(buf, sizeof buf, "tmapgen-name-%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  return buf;
}

void ReplaceAll(std::string_view from, std::string_view to, std::string* text) {
  std::string out;
  size_t at = 0;
  for (size_t p; (p = text->find(from, at)) != std::string::npos; at = p + from.size()) {
    out.append(*text, at, p - at);
    out.append(to);
  }
  if (at == 0) return;
  out.append(*text, at, std::string::npos);
  *text = std::move(out);
}

// "ipv4:127.0.0.1:5001" -> "127.0.0.1:5001"
std::string PeerName(const std::string& peer) {
  // Empty, or the whole target for a call that never reached a replica.
  if (peer.empty() || peer.find(',') != std::string::npos) return "(not known)";
  if (peer.rfind("ipv4:", 0) == 0 || peer.rfind("ipv6:", 0) == 0) return peer.substr(5);
  return peer;
}

// A stream that ended this way lost its replica (connection closed, GOAWAY, the server stopping); a
// new stream can go to another.
bool Resumable(grpc::StatusCode c) {
  return c == grpc::UNAVAILABLE || c == grpc::CANCELLED || c == grpc::ABORTED || c == grpc::INTERNAL;
}

class BatchRun {
 public:
  BatchRun(const Conn& conn, v2::Tmapd::Stub* stub, const Options& opt, std::vector<Item>* items)
      : conn_(conn), stub_(stub), opt_(opt), items_(*items) {}

  int Run(bool read_ok) {
    for (size_t i = 0; i < items_.size(); ++i)
      if (items_[i].is_spec) specs_.push_back(i);
    if (!specs_.empty()) {
      ServerLimits limits;
      const grpc::Status s = AskLimits(conn_, stub_, &limits);
      if (!s.ok()) {
        CallFailed(conn_, s);
        return Unanswered();
      }
      limits_ = limits;
      Plan();
      if (int rc = Send(); rc != 0) return rc;
    }
    PrintErrorsUntil(items_.size());
    std::fflush(stdout);
    const int total = valid_ + invalid_;
    if (opt_.format == Format::kText)
      std::fprintf(stderr, "%d spec%s: %d valid, %d invalid%s\n", total, total == 1 ? "" : "s", valid_, invalid_,
                   input_errors_ ? StrCat(" (", input_errors_, " unreadable)").c_str() : "");
    if (!read_ok || input_errors_ > 0) return 2;
    return invalid_ > 0 ? 1 : 0;
  }

 private:
  struct StreamEnd {
    size_t answered = 0;
    grpc::Status status;
    std::string bad;  // why a response was refused
    std::string peer;
  };

  // Stand-ins for long names, the size of each spec on the wire, and input errors for specs that no
  // message can carry.
  void Plan() {
    ro_ = MakeRenderOptions(opt_);
    if (opt_.format == Format::kTextproto) {
      // The report travels once, and is printed here as the server would print it.
      ro_.set_format(v1::OUTPUT_NONE);
      ro_.set_no_report(false);
    }
    const uint64_t limit = limits_.max_message_bytes;
    stand_in_ = MakeStandIn();
    v1::BatchRequest probe;
    probe.set_first_index(INT32_MAX);
    base_ = probe.ByteSizeLong();
    *probe.mutable_options() = ro_;
    base_first_ = probe.ByteSizeLong();
    std::vector<size_t> kept;
    for (size_t pos : specs_) {
      Item& it = items_[pos];
      if (it.spec.name().size() > limit / 16 && it.spec.name().size() > stand_in_.size()) {
        it.name = std::move(*it.spec.mutable_name());
        it.spec.set_name(stand_in_);
        it.stand_in = true;
      }
      const size_t n = it.spec.ByteSizeLong();
      it.wire_bytes = 1 + google::protobuf::io::CodedOutputStream::VarintSize64(n) + n;
      if (base_first_ + it.wire_bytes > limit) {
        it.is_spec = false;
        it.error.field = "";
        it.error.message = StrCat("spec is ", n, " bytes, over the server's message limit of ", limit,
                                  " bytes (Describe.max_message_bytes); it was not sent");
        continue;
      }
      kept.push_back(pos);
    }
    specs_.swap(kept);
  }

  // Sends specs_[from, to) on one stream: the messages hold runs of consecutive inputs (an input error
  // in between ends one), each under half the limit and max_specs_per_message specs.
  void SendMessages(grpc::ClientReaderWriter<v1::BatchRequest, v1::BatchResponse>* stream, size_t from, size_t to) {
    const uint64_t budget = limits_.max_message_bytes / 2;
    const int per_message = static_cast<int>(std::min<uint32_t>(1000, limits_.max_specs_per_message));
    v1::BatchRequest req;
    bool first = true;
    uint64_t bytes = 0;
    size_t prev = 0;
    auto flush = [&]() {
      if (req.specs_size() == 0) return true;
      const bool ok = stream->Write(req);
      req.Clear();
      return ok;
    };
    for (size_t k = from; k < to; ++k) {
      const size_t pos = specs_[k];
      const Item& it = items_[pos];
      if (req.specs_size() > 0 &&
          (pos != prev + 1 || req.specs_size() >= per_message || bytes + it.wire_bytes > budget) && !flush())
        break;
      if (req.specs_size() == 0) {
        if (first) *req.mutable_options() = ro_;
        req.set_first_index(static_cast<int>(pos));
        bytes = first ? base_first_ : base_;
        first = false;
      }
      *req.add_specs() = it.spec;
      bytes += it.wire_bytes;
      prev = pos;
    }
    flush();
    stream->WritesDone();
  }

  // Why `res` cannot be the answer to specs_[next, to), or "".
  std::string Check(const v1::BatchResponse& res, size_t next, size_t to) const {
    if (res.results_size() == 0) return "a response with no results";
    int valid = 0;
    for (int i = 0; i < res.results_size(); ++i) {
      const v1::Result& r = res.results(i);
      const int64_t index = r.index();
      const size_t k = next + static_cast<size_t>(i);
      if (k >= to) return StrCat("result index ", index, ": every spec this stream sent was answered already");
      const int64_t want = static_cast<int64_t>(specs_[k]);
      if (index != want) {
        std::string why;
        if (index < 0) why = "negative";
        else if (index >= static_cast<int64_t>(items_.size()))
          why = StrCat("past the last input (", items_.size() - 1, ")");
        else if (index < want) why = "answered already, or not a spec sent";
        else why = "out of order, or not a spec sent";
        return StrCat("result index ", index, ": expected ", want, " (the next spec not yet answered); the index is ",
                      why);
      }
      const uint32_t mask = r.valid_targets_mask();
      if (mask >> kNumTargets != 0)
        return StrCat("result ", index, ": valid_targets_mask ", Hex(mask), " has bits above the ", kNumTargets,
                      " targets");
      if (r.valid() != (mask != 0))
        return StrCat("result ", index, ": valid is ", r.valid() ? "true" : "false", " but valid_targets_mask is ",
                      Hex(mask));
      if (r.valid() != (r.error_rules_size() == 0))
        return StrCat("result ", index, ": valid is ", r.valid() ? "true" : "false", " with ", r.error_rules_size(),
                      " error rules");
      const bool silent = opt_.quiet && r.valid();
      if (opt_.format == Format::kTextproto) {
        if (!r.has_report()) return StrCat("result ", index, ": no report (one was asked for)");
        if (r.report().index() != index || r.report().valid() != r.valid())
          return StrCat("result ", index, ": its report says index ", r.report().index(), ", valid ",
                        r.report().valid() ? "true" : "false");
        if (!r.rendered().empty()) return StrCat("result ", index, ": rendered text that was not asked for");
      } else {
        if (r.has_report()) return StrCat("result ", index, ": a report that was not asked for");
        if (silent != r.rendered().empty())
          return StrCat("result ", index,
                        silent ? ": rendered text for a valid spec under --quiet" : ": nothing rendered");
      }
      valid += r.valid() ? 1 : 0;
    }
    if (res.valid() != valid || res.invalid() != res.results_size() - valid)
      return StrCat("a response counts ", res.valid(), " valid and ", res.invalid(), " invalid for ", valid, " valid and ",
                    res.results_size() - valid, " invalid results");
    return "";
  }

  void PrintErrorsUntil(size_t end) {
    for (; printed_ < end; ++printed_) {
      const Item& it = items_[printed_];
      if (it.is_spec) continue;
      ++invalid_;
      ++input_errors_;
      Write(RenderError(static_cast<int>(printed_), it, opt_));
    }
  }

  void Print(const v1::Result& r) {
    const size_t pos = static_cast<size_t>(r.index());
    PrintErrorsUntil(pos);
    const Item& it = items_[pos];
    if (r.valid()) ++valid_; else ++invalid_;
    if (opt_.format == Format::kTextproto) {
      if (!(opt_.quiet && r.valid())) {
        v1::Report rep = r.report();
        if (it.stand_in) {
          if (rep.name() == stand_in_) rep.set_name(it.name);
          if (rep.spec().name() == stand_in_) rep.mutable_spec()->set_name(it.name);
          if (rep.nearest_valid().name() == stand_in_) rep.mutable_nearest_valid()->set_name(it.name);
        }
        std::string text;
        google::protobuf::TextFormat::PrintToString(rep, &text);
        Write(text + "---\n");
      }
    } else if (it.stand_in) {
      std::string text = r.rendered();
      if (opt_.format == Format::kJson) {
        std::string quoted;
        json::Writer::AppendQuoted(it.name, &quoted);
        ReplaceAll(stand_in_, std::string_view(quoted).substr(1, quoted.size() - 2), &text);
      } else {
        ReplaceAll(stand_in_, it.name, &text);
      }
      Write(text);
    } else {
      Write(r.rendered());
    }
    printed_ = pos + 1;
  }

  StreamEnd Stream(size_t from, size_t to) {
    StreamEnd e;
    grpc::ClientContext ctx;
    cli::Prepare(conn_, &ctx);
    auto stream = stub_->ValidateBatch(&ctx);
    std::thread writer([&] { SendMessages(stream.get(), from, to); });
    v1::BatchResponse res;
    while (stream->Read(&res)) {
      // The replica's address, read while the call is alive (after it ends, gRPC may name the target).
      if (e.peer.empty()) e.peer = PeerName(ctx.peer());
      e.bad = Check(res, from + e.answered, to);
      if (!e.bad.empty()) {
        ctx.TryCancel();
        while (stream->Read(&res)) {}
        break;
      }
      for (const v1::Result& r : res.results()) Print(r);
      e.answered += static_cast<size_t>(res.results_size());
    }
    writer.join();
    e.status = stream->Finish();
    if (e.peer.empty()) e.peer = PeerName(ctx.peer());
    return e;
  }

  // Every spec, on as many streams as it takes: max_specs_per_call each, and a new one from the first
  // unanswered spec when one breaks.
  int Send() {
    constexpr int kRetries = 4;  // streams in a row that answer nothing: 0.1 + 0.2 + 0.4 + 0.8 s apart
    const size_t n = specs_.size();
    int idle = 0;
    while (done_ < n) {
      const size_t to = static_cast<size_t>(std::min<uint64_t>(n, done_ + limits_.max_specs_per_call));
      const StreamEnd e = Stream(done_, to);
      done_ += e.answered;
      if (e.answered > 0) idle = 0;
      if (!e.bad.empty()) {
        std::fflush(stdout);
        std::fprintf(stderr, "tmapgen: remote %s: bad response from %s: %s\n", conn_.target.c_str(), e.peer.c_str(),
                     e.bad.c_str());
        return Unanswered();
      }
      if (e.status.ok()) {
        if (done_ < to) {
          std::fflush(stdout);
          std::fprintf(stderr, "tmapgen: remote %s: %s ended the stream (OK) with %zu of its %zu specs unanswered\n",
                       conn_.target.c_str(), e.peer.c_str(), to - done_, to - (done_ - e.answered));
          return Unanswered();
        }
        continue;
      }
      if (Resumable(e.status.error_code()) && idle < kRetries) {
        std::fflush(stdout);
        std::fprintf(stderr, "tmapgen: replica %s failed after %zu of %zu specs (%s: %s); resuming the remaining %zu on "
                     "another replica\n", e.peer.c_str(), done_, n, net::CodeName(e.status.error_code()),
                     e.status.error_message().c_str(), n - done_);
        if (e.answered == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100 << idle));
        ++idle;
        continue;
      }
      std::fflush(stdout);
      CallFailed(conn_, e.status);
      return Unanswered();
    }
    return 0;
  }

  // After a failure: what was answered (printed above) and what was not.
  int Unanswered() {
    std::fflush(stdout);
    const size_t n = specs_.size();
    std::fprintf(stderr, "tmapgen: remote %s: %zu of %zu specs answered%s, %zu not answered\n", conn_.target.c_str(),
                 done_, n, done_ > 0 ? " (printed above)" : "", n - done_);
    return 2;
  }

  const Conn& conn_;
  v2::Tmapd::Stub* stub_;
  const Options& opt_;
  std::vector<Item>& items_;
  std::vector<size_t> specs_;  // positions in items_ of the specs to send, in order
  ServerLimits limits_;
  v1::RenderOptions ro_;
  std::string stand_in_;
  size_t base_ = 0, base_first_ = 0;  // a message without specs (first: with the options)
  size_t done_ = 0;                   // specs_[0, done_) are answered and printed
  size_t printed_ = 0;                // items_[0, printed_) are printed
  int valid_ = 0, invalid_ = 0, input_errors_ = 0;
};

// ---------------------------------------------------------------------------------------------- commands

int RemoteValidate(const Conn& conn, v2::Tmapd::Stub* stub, const Options& opt, const std::vector<std::string>& positional) {
  Inputs in;
  bool read_ok = true;
  for (const std::string& p : positional) read_ok = ProcessInput(p, opt, &in) && read_ok;
  return BatchRun(conn, stub, opt, &in.items).Run(read_ok);
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
  if (HasDenseDefaultStrides(*spec)) req.mutable_spec()->clear_global_strides();
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
  if (!ParseDescArgs(args, &a).ok() || a.help) return kRunLocally;  // the local command's message
  if (!LoadDescMap(&a).ok()) return kRunLocally;
  v2::MatrixDescriptorRequest req;
  rpc::ToProto(a.request, &req);
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
  if (!ParseIdescArgs(args, &a).ok() || a.help) return kRunLocally;
  v2::InstructionDescriptorRequest req;
  rpc::ToProto(a.request, &req);
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
  if (!ParseCodegenArgs(args, &a).ok() || a.help) return kRunLocally;
  if (const absl::Status st = ReadCodegenSpecs(&a); !st.ok()) {  // (standard input is read: print here, as the local command does)
    std::fputs(CodegenUsageText(std::string(StatusMessage(st))).c_str(), stderr);
    return 2;
  }
  v2::CodegenRequest req;
  ops::CodegenRequest run;
  run.input = std::move(a.input);
  run.options = std::move(a.options);
  run.lang = a.lang;
  rpc::ToProto(run, &req);
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
  if (const absl::Status st = WriteFileAtomically(a.output, text); !st.ok()) {
    std::fprintf(stderr, "tmapgen codegen: %s\n", std::string(StatusMessage(st)).c_str());
    return 2;
  }
  return 0;
}

// tmapgen decode BLOB... on the server: the inputs are read and parsed here (hex, files, JSON Lines);
// only the 128-byte maps and their labels travel.
int RemoteDecode(const Conn& conn, v2::Tmapd::Stub* stub, const std::vector<std::string>& args) {
  DecodeArgs a;
  if (!ParseDecodeArgs(args, &a).ok() || a.help) return kRunLocally;
  std::vector<DecodeSource> sources;
  if (const absl::Status st = ReadDecodeInputs(a, &sources); !st.ok()) {  // (standard input is read: print here, as the local command does)
    std::fprintf(stderr, "tmapgen decode: %s\n", std::string(StatusMessage(st)).c_str());
    return 2;
  }
  ops::DecodeRequest run;
  run.options = a.options;
  for (DecodeSource& s : sources) {
    run.maps.push_back(s.bytes);
    run.labels.push_back(std::move(s.label));
  }
  v2::DecodeRequest req;
  rpc::ToProto(run, &req);
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
  if (!ParseCheckArgs(args, &a).ok() || a.mode != CheckArgs::Mode::kRun) return kRunLocally;
  ops::CheckRequest run;
  run.seed = a.seed;
  for (const std::string& f : a.files)
    if (const absl::Status st = ReadSpecsFile(f, &run.specs, &run.names); !st.ok()) {
      std::fputs(CheckUsageText(std::string(StatusMessage(st))).c_str(), stderr);
      return 2;
    }
  v2::CheckRequest req;
  rpc::ToProto(run, a.verbose, &req);
  v2::CheckResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = stub->Check(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  Write(res.rendered());
  std::fflush(stdout);
  return res.all_passed() ? 0 : 1;
}

// tmapgen plan gemm|conv FLAGS on the server: the flags are parsed here by the local command's parser (usage errors
// and --help are the local command's); the header of --format cpp comes back by name and is printed, as locally.
template <class Args, class Request, class Parse, class Call>
int RemotePlanOf(const Conn& conn, const std::vector<std::string>& args, Parse parse, Call call) {
  Args a;
  if (!parse(args, &a).ok() || a.help) return kRunLocally;
  rpc::PlanOutputOptions o;
  o.render = a.cpp ? rpc::PlanOutputOptions::Render::kNone
             : a.json ? rpc::PlanOutputOptions::Render::kJson : rpc::PlanOutputOptions::Render::kText;
  o.pretty = a.pretty;
  o.header = a.cpp;
  o.name_space = a.name_space;
  Request req;
  rpc::ToProto(a.request, o, &req);
  v2::PlanResponse res;
  grpc::ClientContext ctx;
  Prepare(conn, &ctx);
  const grpc::Status s = call(&ctx, req, &res);
  if (!s.ok()) return CallFailed(conn, s);
  if (res.exit_status() != 0 && res.exit_status() != 1)
    return Fail(StrCat("remote ", conn.target, ": the plan's exit status is ", res.exit_status()));
  if (a.cpp) {
    if (res.exit_status() != 0) {
      std::fwrite(res.rejection().data(), 1, res.rejection().size(), stderr);
      return 1;
    }
    Write(res.header().content());
  } else {
    Write(res.rendered());
  }
  std::fflush(stdout);
  return res.exit_status();
}

int RemotePlan(const Conn& conn, v2::Tmapd::Stub* stub, const std::vector<std::string>& args) {
  if (args.empty()) return kRunLocally;
  const std::vector<std::string> flags(args.begin() + 1, args.end());
  if (args[0] == "gemm")
    return RemotePlanOf<PlanGemmArgs, v2::PlanGemmRequest>(
        conn, flags, ParsePlanGemmArgs,
        [stub](grpc::ClientContext* c, const v2::PlanGemmRequest& r, v2::PlanResponse* res) { return stub->PlanGemm(c, r, res); });
  if (args[0] == "conv")
    return RemotePlanOf<PlanConvArgs, v2::PlanConvRequest>(
        conn, flags, ParsePlanConvArgs,
        [stub](grpc::ClientContext* c, const v2::PlanConvRequest& r, v2::PlanResponse* res) { return stub->PlanConv(c, r, res); });
  return kRunLocally;  // --help, an unknown plan: the local command's answer
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
      absl::StatusOr<std::string> target = RemoteTarget(value);  // HOST alone: port 50051 (common_flags.h)
      if (!target.ok()) return Fail(std::string(StatusMessage(target.status())));
      conn.target = *std::move(target);
      const bool uri = value.find("://") != std::string::npos || value.rfind("unix:", 0) == 0 ||
                       value.rfind("ipv4:", 0) == 0 || value.rfind("ipv6:", 0) == 0;
      if (!uri && conn.target.find(',') != std::string::npos) {
        absl::StatusOr<std::string> resolved = ResolveList(conn.target);
        if (!resolved.ok()) return Fail(std::string(StatusMessage(resolved.status())));
        conn.target = *std::move(resolved);
      }
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
    const absl::Status s = net::TargetIsLoopback(conn.target, &loopback);
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
  const bool codegen = args[0] == "codegen", decode = args[0] == "decode", plan = args[0] == "plan";
  if (plan) {
    // Before the --help scan below: `plan conv -h 56` is a height. The plan's own parser decides what is help.
    absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(conn);
    if (!channel.ok()) return Fail(std::string(StatusMessage(channel.status())));
    std::unique_ptr<v2::Tmapd::Stub> stub = v2::Tmapd::NewStub(*channel);
    return RemotePlan(conn, stub.get(), std::vector<std::string>(args.begin() + 1, args.end()));
  }
  if (!desc && !idesc && !check && !codegen && !decode) {
    if (args[0] == "validate" || args[0] == "build") {
      command = args[0];
      args.erase(args.begin());
    } else if (args[0] == "sweep" || args[0] == "bench") {
      return Fail(StrCat("--remote: ", args[0], " does not run remotely in this version (remote commands: build, "
                      "validate, desc, idesc, codegen, decode, check, plan)"));
    } else if (!args[0].empty() && args[0][0] != '-') {
      return kRunLocally;  // rules, show (the same everywhere), unknown commands (the usage error)
    }
  }
  for (const std::string& a : args)
    if (a == "--help" || a == "-h" || a == "--version" || a == "help") return kRunLocally;

  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(conn);
  if (!channel.ok()) return Fail(std::string(StatusMessage(channel.status())));
  std::unique_ptr<v2::Tmapd::Stub> stub = v2::Tmapd::NewStub(*channel);
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
