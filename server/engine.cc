// engine.cc: see engine.h. Each method converts its message (src/rpc), runs the operation (src/ops, the
// command line's own runner) and renders as the command line renders (src/report), so that remote output
// is byte-identical to local output.
#include "server/engine.h"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <climits>

#include "server/check_worker.h"
#include "src/codegen/codegen.h"
#include "src/desc/desc_request.h"
#include "src/json/json_writer.h"
#include "src/ops/check.h"
#include "src/ops/codegen.h"
#include "src/ops/decode.h"
#include "src/ops/descriptors.h"
#include "src/ops/gpu_host.h"
#include "src/ops/plan.h"
#include "src/plan/plan_codegen.h"
#include "src/plan/plan_render.h"
#include "src/ops/validate.h"
#include "src/report/report.h"
#include "src/report/report_proto.h"
#include "src/schema/proto_convert.h"
#include "src/tmap/validator.h"
#include "src/util/status.h"
#include "src/util/strings.h"

#ifndef TMAPGEN_VERSION
#define TMAPGEN_VERSION "0.1.0"
#endif

namespace tmapgen::server {
namespace {

absl::Status Invalid(const std::string& m) { return absl::InvalidArgumentError(ToAbsl(m)); }
absl::Status Exhausted(const std::string& m) { return absl::ResourceExhaustedError(ToAbsl(m)); }

void Summarize(const TensorMapSpec& spec, const Validation& v, v1::Result* out) {
  out->set_valid(v.valid);
  out->set_valid_targets_mask(v.valid_targets);
  if (!v.valid)
    for (const Diagnostic& d : MakeDiagnostics(spec, v))
      if (d.severity == Severity::kError) out->add_error_rules(std::string(d.rule));
}

// Spec errors carry the field first ("mode: unknown value 99"); the request path goes in front.
absl::Status SpecError(const InputError& e, const std::string& prefix) {
  return Invalid(e.field.rfind("options.", 0) == 0 ? e.message : prefix + e.message);
}

}  // namespace

Engine::Engine(const Limits& limits, bool use_gpu, std::string instance)
    : limits_(limits), instance_(std::move(instance)), host_(ops::DetectHost(use_gpu)) {
  request_limits_.max_specs = limits.max_codegen_specs;
  request_limits_.max_check_specs = limits.max_check_specs;
  request_limits_.max_decode_maps = limits.max_decode_maps;
}

// ---------------------------------------------------------------------------------------------- validate

absl::Status Engine::Run(const v1::TensorMapSpec& m, const v1::RenderOptions& o, int index, bool encode,
                         v1::Result* out, InputError* bad_spec) const {
  TensorMapSpec in;
  if (const absl::Status st = SpecFromProto(m, &in); !st.ok()) {
    const InputError error = InputErrorOf(st);
    if (bad_spec != nullptr) *bad_spec = error;
    return SpecError(error, "spec.");
  }
  ops::ValidateRequest r;
  r.use_gpu = !o.no_gpu();
  r.encode = encode;
  if (!in.has_target() && o.has_default_target()) {
    if (!Parse(o.default_target(), &r.target))
      return Invalid(StrCat("options.default_target: unknown value \"", o.default_target(), "\"; expected one of: ",
                            AcceptedNames(static_cast<Target*>(nullptr))));
    r.has_target = true;
  }
  if (o.format() < v1::OUTPUT_NONE || o.format() > v1::OUTPUT_TEXTPROTO)
    return Invalid(StrCat("options.format: unknown value ", static_cast<int>(o.format())));
  thread_local ops::ValidateResult res;
  if (absl::Status st = ops::RunValidate(r, host_, in, &res); !st.ok()) return st;
  const TensorMapSpec& spec = res.spec();
  const Validation& v = res.validation;
  const Encoding& enc = res.encoding;
  out->set_index(index);
  Summarize(spec, v, out);
  const bool want_textproto = o.format() == v1::OUTPUT_TEXTPROTO && !(o.quiet() && v.valid);
  if (!o.no_report() || want_textproto) FillReport(index, spec, v, enc, out->mutable_report());
  if (o.quiet() && v.valid) return absl::OkStatus();
  ReportOptions ro;
  ro.color = o.color();
  switch (o.format()) {
    case v1::OUTPUT_TEXT:
      out->set_rendered(RenderReportText(index, spec, v, enc, ro) + "\n");
      break;
    case v1::OUTPUT_JSON: {
      json::Writer w;
      WriteReportJson(index, spec, v, enc, ro, &w);
      out->set_rendered(w.str() + "\n");
      break;
    }
    case v1::OUTPUT_TEXTPROTO: {
      std::string text;
      google::protobuf::TextFormat::PrintToString(out->report(), &text);
      out->set_rendered(text + "---\n");
      break;
    }
    default: break;
  }
  if (o.no_report()) out->clear_report();
  return absl::OkStatus();
}

void Engine::InputErrorResult(int index, const InputError& e, const v1::RenderOptions& o, v1::Result* out) const {
  out->set_index(index);
  out->set_valid(false);
  out->add_error_rules("input-error");
  if (!o.no_report() || o.format() == v1::OUTPUT_TEXTPROTO) FillInputErrorReport(index, e, out->mutable_report());
  switch (o.format()) {
    case v1::OUTPUT_TEXT: out->set_rendered(RenderInputErrorText(index, "", e, o.color())); break;
    case v1::OUTPUT_JSON: {
      json::Writer w;
      WriteInputErrorJson(index, e, &w);
      out->set_rendered(w.str() + "\n");
      break;
    }
    case v1::OUTPUT_TEXTPROTO: {
      std::string text;
      google::protobuf::TextFormat::PrintToString(out->report(), &text);
      out->set_rendered(text + "---\n");
      break;
    }
    default: break;
  }
  if (o.no_report()) out->clear_report();
}

absl::Status Engine::Validate(const v1::ValidateRequest& req, v1::Result* out) const {
  return Run(req.spec(), req.options(), req.index(), false, out, nullptr);
}

bool Engine::BuildEncodes(const v1::BuildRequest& req) const {
  return !req.no_encode() && !req.options().no_gpu() && host_.gpu;
}

absl::Status Engine::Build(const v1::BuildRequest& req, bool encode, v1::Result* out) const {
  return Run(req.spec(), req.options(), 0, encode, out, nullptr);
}

absl::Status Engine::Batch(const v1::BatchRequest& req, BatchState* st,
                           const std::function<absl::Status(const v1::BatchResponse&)>& emit) const {
  if (absl::Status s = BatchBegin(req, st); !s.ok()) return s;
  const auto spec_at = [&req](uint32_t i) -> const v1::TensorMapSpec& { return req.specs(static_cast<int>(i)); };
  while (!BatchMessageDone(*st))
    if (absl::Status s = BatchStep(spec_at, st, emit); !s.ok()) return s;
  return absl::OkStatus();
}

absl::Status Engine::BatchBegin(const v1::BatchRequest& req, uint32_t n, BatchState* st) const {
  ++st->messages;
  st->pos = st->count = 0;
  st->carry.reset();
  if (st->first) {
    st->options = req.options();
    st->first = false;
  }
  if (n > limits_.max_specs_per_message)
    return Exhausted(StrCat("specs: ", n, " specs in one message; at most ", limits_.max_specs_per_message,
                            " (max_specs_per_message)"));
  if (st->total + n > limits_.max_specs_per_call)
    return Exhausted(StrCat("specs: more than ", limits_.max_specs_per_call, " specs in one call (max_specs_per_call)"));
  if (req.has_first_index()) {
    if (req.first_index() < 0)
      return Invalid(StrCat("first_index: ", req.first_index(), " is negative (indices start at 0)"));
    st->next_index = req.first_index();
  }
  if (n > 0 && st->next_index + static_cast<int64_t>(n) - 1 > INT32_MAX)
    return Invalid(StrCat("first_index: indices ", st->next_index, " to ", st->next_index + n - 1,
                          " of this message pass the largest index ", INT32_MAX));
  st->count = n;
  return absl::OkStatus();
}

absl::Status Engine::BatchStep(const std::function<const v1::TensorMapSpec&(uint32_t)>& spec_at, BatchState* st,
                               const std::function<absl::Status(const v1::BatchResponse&)>& emit) const {
  // The response is built in place and cleared after each emit, so that its result messages are reused
  // (a stream of millions of specs allocates a few thousand results, not millions).
  v1::BatchResponse& res = st->scratch;
  res.Clear();
  int v = 0;
  size_t bytes = 0;
  const size_t cut = static_cast<size_t>(std::min<uint64_t>(limits_.batch_response_bytes, limits_.max_message_bytes / 2));
  auto flush = [&]() -> absl::Status {
    res.set_valid(v);
    res.set_invalid(res.results_size() - v);
    st->valid += static_cast<uint64_t>(v);
    absl::Status s = emit(res);
    res.Clear();
    return s;
  };
  auto add = [&](v1::Result* r) {
    res.mutable_results()->AddAllocated(r);
    v += r->valid() ? 1 : 0;
    bytes += r->ByteSizeLong() + 8;
  };
  if (st->carry) add(st->carry.release());
  while (st->pos < st->count) {
    v1::Result* r = res.add_results();
    const int index = static_cast<int>(st->next_index++);
    InputError bad;
    const absl::Status s = Run(spec_at(st->pos), st->options, index, false, r, &bad);
    ++st->pos;
    ++st->total;
    if (!s.ok()) {
      if (bad.message.empty()) return s;  // the options, not the spec
      // A malformed spec is an input error in its place, as the local command reports it.
      r->Clear();
      InputErrorResult(index, bad, st->options, r);
    }
    // Responses stay under the cut: one request may be answered in several messages (a result alone
    // over the message limit goes alone, and the service refuses it naming its index).
    const size_t rb = r->ByteSizeLong() + 8;
    if (res.results_size() > 1 && bytes + rb > cut) {
      st->carry.reset(res.mutable_results()->ReleaseLast());
      return flush();
    }
    v += r->valid() ? 1 : 0;
    bytes += rb;
    if (bytes >= cut) break;
  }
  if (res.results_size() > 0) return flush();
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------- descriptors

absl::Status Engine::MatrixDescriptor(const v2::MatrixDescriptorRequest& req, v2::MatrixDescriptorResponse* out) const {
  desc::MatrixRequest r;
  if (absl::Status s = rpc::FromProto(req, &r); !s.ok()) return s;
  const v2::Rendering& ren = req.render();
  if (ren.format() < v2::Rendering::NONE || ren.format() > v2::Rendering::JSON)
    return Invalid(StrCat("render.format: unknown value ", static_cast<int>(ren.format())));
  const absl::StatusOr<desc::SmemDescReport> run = ops::RunMatrixDescriptor(r);
  if (!run.ok()) return run.status();
  const desc::SmemDescReport& rep = *run;
  rpc::ToProto(rep, out);
  if (ren.format() != v2::Rendering::NONE)
    out->set_rendered(desc::RenderMatrixReport(rep, ren.format() == v2::Rendering::JSON, ren.color()));
  if (req.svg()) out->set_svg(desc::DrawSvg(rep));
  return absl::OkStatus();
}

absl::Status Engine::InstructionDescriptor(const v2::InstructionDescriptorRequest& req,
                                           v2::InstructionDescriptorResponse* out) const {
  desc::IdescRequest r;
  if (absl::Status s = rpc::FromProto(req, &r); !s.ok()) return s;
  const v2::Rendering& ren = req.render();
  if (ren.format() < v2::Rendering::NONE || ren.format() > v2::Rendering::JSON)
    return Invalid(StrCat("render.format: unknown value ", static_cast<int>(ren.format())));
  const absl::StatusOr<desc::IdescResult> run = ops::RunInstructionDescriptor(r);
  if (!run.ok()) return run.status();
  const desc::IdescResult& res = *run;
  rpc::ToProto(res, out);
  if (ren.format() != v2::Rendering::NONE)
    out->set_rendered(desc::RenderIdescResult(res, ren.format() == v2::Rendering::JSON, ren.color()));
  return absl::OkStatus();
}

absl::Status Engine::Codegen(const v2::CodegenRequest& req, v2::CodegenResponse* out) const {
  ops::CodegenRequest r;
  if (absl::Status s = rpc::FromProto(req, request_limits_, &r); !s.ok()) return s;
  r.options.max_output_bytes = static_cast<size_t>(limits_.max_message_bytes);
  const absl::StatusOr<ops::CodegenResult> run = ops::RunCodegen(r);
  // A request that cannot be resolved (a descriptor naming no map, PTX for an im2col map): the
  // generator's message, which names the option ("--desc x: no spec has this name").
  if (!run.ok()) return Invalid(StrCat("request: ", StatusMessage(run.status())));
  const codegen::Plan& plan = run->plan;
  const codegen::Output& gen = run->output;
  // The generated text alone over the message limit: refused before it is copied into the response.
  const size_t text = gen.generated ? gen.text.size() : gen.rejection.size();
  if (text > limits_.max_message_bytes)
    return Exhausted(StrCat("response: the generated ", gen.generated ? "code" : "rejection", " of ", plan.maps.size(),
                            " maps passes the message limit of ", limits_.max_message_bytes,
                            " bytes (max_message_bytes); generate fewer maps per call"));
  rpc::ToProto(*run, r.lang, out);
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------- check

absl::Status Engine::CheckAdmit(const v2::CheckRequest& req) const {
  if (!host_.gpu)
    return absl::FailedPreconditionError("this server has no usable GPU (Describe says which servers do)");
  if (check_worker_.empty())
    return absl::FailedPreconditionError("this server has no check worker (tmapd_check_worker next to tmapd)");
  return CheckLimits(req);
}

absl::Status Engine::CheckLimits(const v2::CheckRequest& req) const {
  ops::CheckRequest r;
  if (absl::Status s = rpc::FromProto(req, request_limits_, &r); !s.ok()) return s;
  const std::vector<TensorMapSpec>& specs = r.specs;
  // The tensors the check allocates: refuse a spec whose global extent is over the limit.
  Validation v;
  for (size_t k = 0; k < specs.size(); ++k) {
    tmapgen::Validate(specs[k], &v);
    if (v.facts.global_extent_bytes > limits_.max_check_tensor_bytes)
      return Exhausted(StrCat("specs[", k, "].spec.global_dim: the tensor spans ", v.facts.global_extent_bytes,
                              " bytes; a check may allocate at most ", limits_.max_check_tensor_bytes,
                              " (max_check_tensor_bytes)"));
  }
  return absl::OkStatus();
}

absl::Status Engine::CheckRun(const v2::CheckRequest& req, const CallControl& call, v2::CheckResponse* out) const {
  CheckJob job;
  if (!req.SerializeToString(&job.input)) return absl::InternalError("cannot serialize the check request");
  job.flags = {"--max-input-bytes", StrCat(job.input.size())};
  const auto cap = std::chrono::system_clock::now() + std::chrono::milliseconds(limits_.check_timeout_ms);
  job.deadline = std::min(call.deadline, cap);
  job.max_output_bytes = limits_.max_message_bytes;
  CheckOutcome o;
  if (const absl::Status started = RunCheckWorker(check_worker_, job, call.cancelled, call.arg, &o); !started.ok())
    return absl::UnavailableError(ToAbsl(StrCat("GPU worker could not start: ", StatusMessage(started))));
  const std::string tail = o.err.substr(o.err.size() > 300 ? o.err.size() - 300 : 0);
  switch (o.end) {
    case CheckOutcome::End::kExited: break;
    case CheckOutcome::End::kKilledBySignal:
      return absl::UnavailableError(ToAbsl(StrCat("GPU worker died (signal ", o.signal, ": ", strsignal(o.signal),
                                                  "); the next call gets a new worker; last output: ", tail)));
    case CheckOutcome::End::kTimedOut:
      return absl::DeadlineExceededError("the check ran past its deadline; the worker was stopped");
    case CheckOutcome::End::kCancelled: return absl::CancelledError("client went away; the worker was stopped");
    case CheckOutcome::End::kTooLarge:
      return Exhausted(StrCat("response: the check's answer is over ", limits_.max_message_bytes,
                              " bytes (max_message_bytes); check fewer specs per call"));
  }
  if (o.exit_code == 3)
    return absl::FailedPreconditionError(ToAbsl(StrCat("the GPU worker found no usable GPU: ", tail)));
  if (o.exit_code == 127) return absl::UnavailableError(ToAbsl("GPU worker could not run " + check_worker_));
  if (o.exit_code != 0)
    return absl::InternalError(ToAbsl(StrCat("GPU worker exited with status ", o.exit_code, ": ", tail)));
  if (!out->ParseFromString(o.out)) return absl::InternalError("GPU worker: its answer is not a CheckResponse");
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------- decode

absl::Status Engine::Decode(const v2::DecodeRequest& req, v2::DecodeResponse* out) const {
  ops::DecodeRequest r;
  if (absl::Status s = rpc::FromProto(req, request_limits_, &r); !s.ok()) return s;
  const bool render = req.render().format() != v2::Rendering::NONE;
  json::Writer w;
  std::string rendered;
  // The answer grows by a few kilobytes per map: once it passes the message limit the call is refused
  // at that point, so a request of many maps costs at most one limit's worth of work and memory.
  size_t bytes = 0;
  const absl::StatusOr<ops::DecodeSummary> sum = ops::RunDecode(r, [&](const ops::DecodedMap& m) {
    v2::DecodedMap* dm = out->add_maps();
    rpc::ToProto(m, r.options, dm);
    const size_t before = rendered.size();
    bool valid = false;  // the same as m.valid
    if (render) rendered += blob::RenderDecoded(m.index, m.label, *m.bytes, m.decoded, r.options, &valid, &w);
    bytes += dm->ByteSizeLong() + 8 + (rendered.size() - before);
    if (bytes > limits_.max_message_bytes)
      return Exhausted(StrCat("maps: the answer passes the message limit of ", limits_.max_message_bytes,
                              " bytes (max_message_bytes) at map ", m.index, " of ", r.maps.size(),
                              "; send fewer maps per call"));
    return absl::OkStatus();
  });
  if (!sum.ok()) {
    out->Clear();
    return sum.status();
  }
  out->set_all_clean_and_valid(sum->all_clean_and_valid);
  out->set_rendered(std::move(rendered));
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------- plan

namespace {

// What `tmapgen plan KIND` prints for the output options: the text or JSON report, or the header (--format cpp)
// of a valid plan; a header asked of an invalid plan (or one the generator refuses) gets the command's standard
// error in `rejection` and exit status 1.
template <class Plan, class Text, class Json, class Header>
void FinishPlan(const Plan& p, const rpc::PlanOutputOptions& o, const char* kind, Text text, Json json, Header header,
                v2::PlanResponse* out) {
  using Render = rpc::PlanOutputOptions::Render;
  if (o.render == Render::kText) out->set_rendered(text(p));
  if (o.render == Render::kJson) out->set_rendered(json(p, o.pretty));
  if (!o.header) return;
  absl::StatusOr<std::string> h = header(p, o.name_space);
  if (!h.ok()) {
    out->set_rejection(text(p) + StrCat("tmapgen: plan ", kind, ": ", StatusMessage(h.status()), "\n"));
    out->set_exit_status(1);
    return;
  }
  v2::GeneratedFile* f = out->mutable_header();
  f->set_name(codegen::SanitizeIdentifier(o.name_space.empty() ? "tmapgen_plan" : o.name_space, "tmapgen_plan") + ".h");
  f->set_content(*std::move(h));
  out->set_exit_status(0);
}

}  // namespace

absl::Status Engine::PlanGemm(const v2::PlanGemmRequest& req, v2::PlanResponse* out) const {
  plan::GemmRequest r;
  rpc::PlanOutputOptions o;
  if (absl::Status s = rpc::FromProto(req, request_limits_, &r, &o); !s.ok()) return s;
  const absl::StatusOr<plan::GemmPlan> run = ops::RunPlanGemm(r);
  if (!run.ok()) return run.status();
  rpc::ToProto(*run, out);
  FinishPlan(
      *run, o, "gemm", [](const plan::GemmPlan& p) { return plan::RenderGemmText(p); },
      [](const plan::GemmPlan& p, bool pretty) { return plan::RenderGemmJson(p, pretty); }, plan::GeneratePlanHeader, out);
  return absl::OkStatus();
}

absl::Status Engine::PlanConv(const v2::PlanConvRequest& req, v2::PlanResponse* out) const {
  plan::ConvRequest r;
  rpc::PlanOutputOptions o;
  if (absl::Status s = rpc::FromProto(req, request_limits_, &r, &o); !s.ok()) return s;
  const absl::StatusOr<plan::ConvPlan> run = ops::RunPlanConv(r);
  if (!run.ok()) return run.status();
  rpc::ToProto(*run, out);
  FinishPlan(
      *run, o, "conv", [](const plan::ConvPlan& p) { return plan::RenderConvText(p); },
      [](const plan::ConvPlan& p, bool pretty) { return plan::RenderConvJson(p, pretty); }, plan::GenerateConvHeader, out);
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------- describe

void Engine::Describe(v1::DescribeResponse* out) const {
  out->set_version(TMAPGEN_VERSION);
  out->set_gpu(host_.gpu);
  out->set_device(host_.description);
  out->set_driver_version(host_.driver_version);
  if (host_.has_target) {
    out->set_gpu_target(std::string(Name(host_.target)));
    // The driver proves encodings for its own device's target; the validator covers every target.
    out->add_provable_targets(std::string(Name(host_.target)));
  }
  for (int t = 0; t < kNumTargets; ++t) out->add_known_targets(std::string(Name(static_cast<Target>(t))));
  {
    std::lock_guard<std::mutex> lock(instance_mu_);
    out->set_instance(instance_);
  }
  out->set_max_specs_per_call(limits_.max_specs_per_call);
  out->set_max_specs_per_message(limits_.max_specs_per_message);
  out->set_max_message_bytes(limits_.max_message_bytes);
  out->set_gpu_concurrency(limits_.gpu_concurrency);
  out->set_gpu_queue(limits_.gpu_queue);
  out->set_max_check_tensor_bytes(limits_.max_check_tensor_bytes);
  out->set_check_available(host_.gpu && !check_worker_.empty());
  for (const std::string& s : services_) out->add_services(s);
  out->set_max_concurrent_calls(limits_.max_concurrent_calls);
  out->set_max_check_specs(limits_.max_check_specs);
}

}  // namespace tmapgen::server
