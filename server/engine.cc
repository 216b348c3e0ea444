// engine.cc: see engine.h. Rendering follows cli/main.cc (Emitter::Spec) exactly, so that remote
// output is byte-identical to local output.
#include "server/engine.h"

#include <google/protobuf/text_format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cli/codegen_cmd.h"
#include "cli/desc_cmd.h"
#include "src/driver/cuda_driver.h"
#include "src/driver/encode_spec.h"
#include "src/json/json_writer.h"
#include "src/schema/proto_convert.h"
#include "src/report/report.h"
#include "src/util/strings.h"
#include "src/tmap/validator.h"

#ifndef TMAPGEN_VERSION
#define TMAPGEN_VERSION "0.1.0"
#endif

namespace tmapgen::server {

GpuGate::Admit GpuGate::Acquire(std::chrono::system_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  if (running_ < concurrency_) {
    ++running_;
    return Admit::kOk;
  }
  if (waiting_ >= queue_) return Admit::kQueueFull;
  ++waiting_;
  // No deadline (time_point::max) would overflow inside the wait: cap it.
  deadline = std::min(deadline, std::chrono::system_clock::now() + std::chrono::hours(24));
  const bool got = cv_.wait_until(lock, deadline, [&] { return running_ < concurrency_; });
  --waiting_;
  if (!got) return Admit::kDeadline;
  ++running_;
  return Admit::kOk;
}

void GpuGate::Release() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    --running_;
  }
  cv_.notify_one();
}

Engine::Engine(const Limits& limits, bool use_gpu, std::string instance)
    : limits_(limits), instance_(std::move(instance)), gate_(limits.gpu_concurrency, limits.gpu_queue) {
  if (!use_gpu) return;
  driver::CudaDriver& drv = driver::CudaDriver::Get();
  if (!drv.info().available) return;
  const absl::StatusOr<driver::DeviceInfo> got = drv.GetDevice(0);
  if (!got.ok()) return;
  const driver::DeviceInfo& dev = *got;
  gpu_present_ = true;
  driver_version_ = drv.info().driver_version;
  const std::string t = driver::TargetForComputeCapability(dev.cc_major, dev.cc_minor);
  gpu_has_target_ = Parse(t, &gpu_target_);
  gpu_description_ = StrCat(dev.name, " (", t, "), driver ", drv.info().driver_version);
}

namespace {

void Summarize(const TensorMapSpec& spec, const Validation& v, v1::Result* out) {
  out->set_valid(v.valid);
  out->set_valid_targets_mask(v.valid_targets);
  if (!v.valid)
    for (const Diagnostic& d : MakeDiagnostics(spec, v))
      if (d.severity == Severity::kError) out->add_error_rules(std::string(d.rule));
}

}  // namespace

bool Engine::Run(const v1::TensorMapSpec& m, const v1::RenderOptions& o, int index, bool encode, v1::Result* out,
                 InputError* error) const {
  TensorMapSpec spec;
  if (const absl::Status st = SpecFromProto(m, &spec); !st.ok()) {
    *error = InputErrorOf(st);
    return false;
  }
  if (!spec.has_target()) {
    Target t;
    if (o.has_default_target()) {
      if (!Parse(o.default_target(), &t)) {
        error->field = "options.default_target";
        error->message = StrCat("options.default_target: unknown value \"", o.default_target(), "\"; expected one of: ",
                             AcceptedNames(static_cast<Target*>(nullptr)));
        return false;
      }
      spec.target = t;
      spec.set_fields |= kFieldTarget;
    } else if (!o.no_gpu() && gpu_has_target_) {
      spec.target = gpu_target_;
      spec.set_fields |= kFieldTarget;
    }
  }
  thread_local Validation v;
  Validate(spec, &v);
  Encoding enc;
  if (encode && !o.no_gpu() && gpu_present_ && v.valid) {
    std::lock_guard<std::mutex> lock(driver_mu_);
    driver::CudaDriver& drv = driver::CudaDriver::Get();
    enc.attempted = true;
    enc.device = gpu_description_;
    if (const absl::Status st = drv.MakeCurrent(0); !st.ok()) {
      enc.cu_result = -1;
      enc.error_name = "no context";
      enc.note = std::string(st.message());
    } else {
      const uint64_t addr = spec.Has(kFieldGlobalAddress) ? spec.global_address : kPlaceholderAddress;
      const driver::CudaDriver::EncodeResult r = EncodeSpec(drv, spec, addr);
      enc.cu_result = r.cu_result;
      enc.error_name = r.error_name;
      for (int i = 0; i < 16; ++i) enc.map[i] = r.map[i];
      if (!spec.Has(kFieldGlobalAddress))
        enc.note = StrCat("global_address not given: encoded at placeholder ", Hex(addr),
                       " (word 0); point it at your tensor with cuTensorMapReplaceAddress");
      if (r.cu_result != 0)
        enc.note += StrCat(enc.note.empty() ? "" : "; ", "the validator accepted this spec but the driver did not: please "
                        "report it (a rule is missing)");
    }
  }
  out->set_index(index);
  Summarize(spec, v, out);
  const bool want_textproto = o.format() == v1::OUTPUT_TEXTPROTO && !(o.quiet() && v.valid);
  if (!o.no_report() || want_textproto) FillReport(index, spec, v, enc, out->mutable_report());
  if (o.quiet() && v.valid) return true;
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
  return true;
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

void Engine::Describe(v1::DescribeResponse* out) const {
  out->set_version(TMAPGEN_VERSION);
  out->set_gpu(gpu_present_);
  out->set_device(gpu_description_);
  out->set_driver_version(driver_version_);
  if (gpu_has_target_) {
    out->set_gpu_target(std::string(Name(gpu_target_)));
    // The driver proves encodings for its own device's target; the validator covers every target.
    out->add_provable_targets(std::string(Name(gpu_target_)));
  }
  for (int t = 0; t < kNumTargets; ++t) out->add_known_targets(std::string(Name(static_cast<Target>(t))));
  {
    std::lock_guard<std::mutex> lock(driver_mu_);
    out->set_instance(instance_);
  }
  out->set_max_specs_per_call(limits_.max_specs_per_call);
  out->set_max_specs_per_message(limits_.max_specs_per_message);
  out->set_max_message_bytes(limits_.max_message_bytes);
  out->set_gpu_concurrency(limits_.gpu_concurrency);
  out->set_gpu_queue(limits_.gpu_queue);
  out->set_max_check_tensor_bytes(limits_.max_check_tensor_bytes);
  out->set_check_available(gpu_present_ && !check_worker_.empty());
}

std::string Engine::CheckProblem(const v1::CheckRequest& req, bool* resource) const {
  *resource = false;
  if (req.files_size() == 0) return "files: no spec file";
  if (static_cast<uint32_t>(req.files_size()) > limits_.max_check_files) {
    *resource = true;
    return StrCat("files: ", req.files_size(), " files; at most ", limits_.max_check_files);
  }
  for (int i = 0; i < req.args_size(); ++i) {
    const std::string& a = req.args(i);
    if (a == "--verbose" || a == "-v") continue;
    if (a == "--seed" && i + 1 < req.args_size() &&
        req.args(i + 1).find_first_not_of("0123456789") == std::string::npos && !req.args(i + 1).empty()) {
      ++i;
      continue;
    }
    return StrCat("args[", i, "]: \"", a, "\" is not allowed remotely (allowed: --seed N, --verbose)");
  }
  // The tensors the check allocates: refuse a spec whose global extent is over the limit. Files that
  // do not parse are left to the check itself (it reports them as the command line does).
  for (int i = 0; i < req.files_size(); ++i) {
    const std::string& text = req.files(i).content();
    std::vector<TensorMapSpec> specs;
    if (absl::StatusOr<TensorMapSpec> whole = ParseSpecJson(text); whole.ok()) {
      specs.push_back(*std::move(whole));
    } else {
      size_t start = 0, line = 0;
      while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        ++line;
        const std::string_view l(text.data() + start, end - start);
        if (l.find_first_not_of(" \t\r") != std::string_view::npos) {
          if (absl::StatusOr<TensorMapSpec> s = ParseSpecJson(l, line); s.ok()) specs.push_back(*std::move(s));
        }
        start = end + 1;
      }
    }
    Validation v;
    for (size_t k = 0; k < specs.size(); ++k) {
      Validate(specs[k], &v);
      if (v.facts.global_extent_bytes > limits_.max_check_tensor_bytes) {
        *resource = true;
        return StrCat("files[", i, "] (", req.files(i).name(), ") spec ", k, ": global_dim: the tensor spans ",
                   v.facts.global_extent_bytes, " bytes; a check may allocate at most ", limits_.max_check_tensor_bytes,
                   " (max_check_tensor_bytes)");
      }
    }
  }
  return "";
}

bool Engine::Descriptor(const v1::DescriptorRequest& req, v1::DescriptorResponse* out, std::string* why) const {
  if (static_cast<uint32_t>(req.args_size()) > limits_.max_desc_args) {
    *why = StrCat("args: ", req.args_size(), " arguments; at most ", limits_.max_desc_args);
    return false;
  }
  if (req.has_for_map() && req.for_map().size() > limits_.max_for_map_bytes) {
    *why = StrCat("for_map: ", req.for_map().size(), " bytes; at most ", limits_.max_for_map_bytes);
    return false;
  }
  std::vector<std::string> args(req.args().begin(), req.args().end());
  std::string tmp;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    const size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    if (name == "--svg" || name == "-svg") {
      *why = "args: --svg writes a file: not available remotely";
      return false;
    }
    if (name == "--for-map" || name == "-for-map") {
      std::string value = eq != std::string::npos ? a.substr(eq + 1) : (i + 1 < args.size() ? args[i + 1] : "");
      const size_t first = value.find_first_not_of(" \t\n");
      if (first != std::string::npos && value[first] == '{') {  // inline JSON: no file
        if (eq == std::string::npos) ++i;
        continue;
      }
      if (value != "@" || !req.has_for_map()) {
        *why = "args: --for-map takes \"@\" (the spec goes in for_map; the server reads no files)";
        return false;
      }
      if (tmp.empty()) {
        std::string suffix;
        const std::string& fname = req.for_map_name();
        const size_t dot = fname.rfind('.');
        if (dot != std::string::npos && fname.size() - dot <= 10 &&
            fname.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789", dot + 1) == std::string::npos)
          suffix = fname.substr(dot);
        std::string templ = "/tmp/tmapd-for-map-XXXXXX" + suffix;
        std::vector<char> path(templ.begin(), templ.end());
        path.push_back('\0');
        const int fd = mkstemps(path.data(), static_cast<int>(suffix.size()));
        if (fd < 0) {
          *why = "internal: cannot create a temporary file";
          return false;
        }
        const std::string& text = req.for_map();
        size_t off = 0;
        while (off < text.size()) {
          const ssize_t n = write(fd, text.data() + off, text.size() - off);
          if (n <= 0) break;
          off += static_cast<size_t>(n);
        }
        close(fd);
        tmp = path.data();
      }
      if (eq != std::string::npos) args[i] = "--for-map=" + tmp;
      else if (i + 1 < args.size()) args[++i] = tmp;
    }
  }
  std::string o, e;
  const int rc = req.kind() == v1::DescriptorRequest::INSTRUCTION ? cli::RunIdescCommandTo(args, &o, &e)
                                                                 : cli::RunDescCommandTo(args, &o, &e);
  if (!tmp.empty()) {
    unlink(tmp.c_str());
    // Error messages name the file: show the name the caller used.
    const std::string shown = req.has_for_map_name() ? req.for_map_name() : std::string("@");
    for (std::string* s : {&o, &e})
      for (size_t p = 0; (p = s->find(tmp, p)) != std::string::npos; p += shown.size()) s->replace(p, tmp.size(), shown);
  }
  out->set_exit_code(rc);
  out->set_out(std::move(o));
  out->set_err(std::move(e));
  return true;
}

bool Engine::Codegen(const v1::CodegenRequest& req, v1::CodegenResponse* out, std::string* why) const {
  if (static_cast<uint32_t>(req.args_size()) > limits_.max_desc_args) {
    *why = StrCat("args: ", req.args_size(), " arguments; at most ", limits_.max_desc_args);
    return false;
  }
  if (req.files_size() == 0) {
    *why = "files: no spec file";
    return false;
  }
  if (static_cast<uint32_t>(req.files_size()) > limits_.max_check_files) {
    *why = StrCat("files: ", req.files_size(), " files; at most ", limits_.max_check_files);
    return false;
  }
  std::vector<std::string> args(req.args().begin(), req.args().end());
  // Every codegen flag but --help takes a value; anything else in a flag's place would be a file name,
  // which the server must not read.
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    if (name == "-o" || name == "--output" || name == "-output") {
      *why = "args: -o writes a file on the server: the client writes it";
      return false;
    }
    if (a.size() < 2 || a[0] != '-' || a == "--") {
      *why = StrCat("args: \"", a, "\" is not a flag: spec files go in files (the server reads no files)");
      return false;
    }
    if (eq == std::string::npos && name != "--help" && name != "-h") ++i;  // the flag's value
  }
  std::vector<std::pair<std::string, std::string>> temps;  // (temporary path, the caller's name)
  auto cleanup = [&temps]() { for (const auto& t : temps) unlink(t.first.c_str()); };
  for (int i = 0; i < req.files_size(); ++i) {
    const v1::SpecFile& f = req.files(i);
    if (f.content().size() > limits_.max_for_map_bytes) {
      cleanup();
      *why = StrCat("files[", i, "].content: ", f.content().size(), " bytes; at most ", limits_.max_for_map_bytes);
      return false;
    }
    std::string suffix;
    const size_t dot = f.name().rfind('.');
    if (dot != std::string::npos && f.name().size() - dot <= 10 &&
        f.name().find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789", dot + 1) == std::string::npos)
      suffix = f.name().substr(dot);
    std::string templ = "/tmp/tmapd-codegen-XXXXXX" + suffix;
    std::vector<char> path(templ.begin(), templ.end());
    path.push_back('\0');
    const int fd = mkstemps(path.data(), static_cast<int>(suffix.size()));
    if (fd < 0) {
      cleanup();
      *why = "internal: cannot create a temporary file";
      return false;
    }
    size_t off = 0;
    while (off < f.content().size()) {
      const ssize_t n = write(fd, f.content().data() + off, f.content().size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    close(fd);
    temps.emplace_back(path.data(), f.name().empty() ? StrCat("file", i) : f.name());
    args.push_back(path.data());
  }
  std::string o, e;
  const int rc = cli::RunCodegenCommandTo(args, &o, &e);
  cleanup();
  for (const auto& [tmp, shown] : temps)
    for (std::string* s : {&o, &e})
      for (size_t p = 0; (p = s->find(tmp, p)) != std::string::npos; p += shown.size()) s->replace(p, tmp.size(), shown);
  out->set_exit_code(rc);
  out->set_out(std::move(o));
  out->set_err(std::move(e));
  return true;
}

}  // namespace tmapgen::server
