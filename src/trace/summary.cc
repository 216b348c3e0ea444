#include "src/trace/summary.h"

#include <algorithm>

#include "src/report/diagnostics.h"
#include "src/schema/spec_json.h"
#include "src/trace/record_json.h"
#include "src/util/strings.h"

namespace tmapgen::trace {
namespace {

// 1234567 -> "1,234,567"
std::string Thousands(uint64_t v) {
  std::string s = StrCat(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}
std::string Plural(uint64_t n, const char* one, const char* many) { return StrCat(Thousands(n), " ", n == 1 ? one : many); }

const char* StateName(ProcessState s) {
  switch (s) {
    case ProcessState::kStarting: return "starting";
    case ProcessState::kTracing: return "tracing";
    case ProcessState::kNotTracing: return "not tracing";
  }
  return "?";
}

std::string Caller(const EncodeCall& c) {
  const std::string_view v = FieldView(c.caller, kCallerMax);
  return v.empty() ? std::string("(caller unknown)") : std::string(v);
}

}  // namespace

void Summary::AddProcess(const ProcessInfo& p) { processes_.push_back(p); }

void Summary::AddRecord(const EncodeCall& call, uint64_t count) {
  const ConfigKey key = ConfigKeyOf(call);
  auto it = index_.find(key);
  if (it == index_.end()) {
    index_.emplace(key, configs_.size());
    Config& c = configs_.emplace_back();
    c.first = call;
    c.count = count;
    c.processes = 1;
    c.last_pid = call.pid;
    c.verdict = std::make_unique<Verdict>();
    JudgeCall(call, c.verdict.get());
    return;
  }
  Config& c = configs_[it->second];
  c.count += count;
  if (call.pid != c.last_pid) {
    ++c.processes;
    c.last_pid = call.pid;
  }
}

uint64_t Summary::calls() const {
  uint64_t n = 0;
  for (const Config& c : configs_) n += c.count;
  return n;
}

uint64_t Summary::configs_with(Outcome o) const {
  uint64_t n = 0;
  for (const Config& c : configs_) n += c.verdict->outcome == o;
  return n;
}

uint64_t Summary::calls_with(Outcome o) const {
  uint64_t n = 0;
  for (const Config& c : configs_)
    if (c.verdict->outcome == o) n += c.count;
  return n;
}

void Summary::AddLaunches(const LaunchTotals& t) {
  have_launches_ = true;
  launches_.launches += t.launches;
  launches_.scanned += t.scanned;
  launches_.unscanned += t.unscanned;
  launches_.kernels_dropped += t.kernels_dropped;
  launches_.device_reads += t.device_reads;
  for (const KernelSummary& k : t.kernels) {
    auto it = std::find_if(launches_.kernels.begin(), launches_.kernels.end(),
                           [&](const KernelSummary& e) { return e.name == k.name; });
    if (it == launches_.kernels.end()) {
      launches_.kernels.push_back(k);
    } else {
      it->launches += k.launches;
      it->maps += k.maps;
      it->problems += k.problems;
    }
  }
}

void Summary::AddLaunchRecord(const LaunchRecord& r) { launch_records_.push_back(r); }

uint64_t Summary::launch_findings() const {
  uint64_t n = 0;
  for (const LaunchRecord& r : launch_records_) n += IsProblem(r);
  return n;
}

std::string Summary::RenderLaunchText(const SummaryOptions& opt) const {
  if (!have_launches_ || (launches_.launches == 0 && launch_records_.empty())) return "";
  uint64_t maps = 0, unknown = 0, replaced = 0, device = 0;
  for (const KernelSummary& k : launches_.kernels) maps += k.maps;
  for (const LaunchRecord& r : launch_records_) {
    unknown += r.origin == OriginKind::kUnknown;
    replaced += r.origin == OriginKind::kAddressReplaced;
    device += r.call == LaunchCall::kDeviceMemory;
  }
  std::string o;
  StrAppend(&o, "kernel launches: ", Plural(launches_.launches, "launch", "launches"), " seen, ",
            Thousands(launches_.scanned), " with parameters that can hold a map, ", Plural(maps, "map", "maps"),
            " found in them; ", Plural(launch_findings(), "finding", "findings"), "\n");
  if (unknown + replaced > 0)
    StrAppend(&o, "  maps no traced encode wrote: ", Thousands(unknown), " of unknown origin, ", Thousands(replaced),
              " with an address changed without the driver (records: --out)\n");
  if (launches_.device_reads > 0)
    StrAppend(&o, "  device memory read after launches: ", Plural(launches_.device_reads, "pointer", "pointers"), ", ",
              Plural(device, "map record", "map records"), "\n");
  if (launches_.unscanned > 0)
    StrAppend(&o, "  launches not scanned (no parameter layout: a driver before CUDA 12.4, or a runtime launch by host stub in a "
              "program that links the CUDA runtime statically): ", Thousands(launches_.unscanned), "\n");
  if (launches_.kernels_dropped > 0)
    StrAppend(&o, "  launches with maps of kernels beyond the per-process table: ", Thousands(launches_.kernels_dropped), "\n");
  bool header = false;
  for (const KernelSummary& k : launches_.kernels) {
    if (k.maps == 0) continue;
    if (!header) o += "by kernel (launches, maps, findings):\n";
    header = true;
    StrAppend(&o, "  ", k.name.empty() ? std::string("(unnamed kernel)") : k.name, ": ", Plural(k.launches, "launch", "launches"),
              ", ", Plural(k.maps, "map", "maps"), ", ", Plural(k.problems, "finding", "findings"), "\n");
  }
  int shown = 0, hidden = 0;
  for (const LaunchRecord& r : launch_records_) {
    if (!IsProblem(r)) continue;
    if (shown >= opt.max_explained) {
      ++hidden;
      continue;
    }
    ++shown;
    std::string ind = "    ";
    for (char ch : ExplainLaunch(r)) {
      ind += ch;
      if (ch == '\n') ind += "    ";
    }
    while (!ind.empty() && ind.back() == ' ') ind.pop_back();
    o += ind;
  }
  if (hidden > 0) StrAppend(&o, "    ... and ", hidden, " more (the --report file lists them all)\n");
  return o;
}

void Summary::WriteLaunchJson(json::Writer* w) const {
  w->BeginObject();
  w->Key("launches").Uint(launches_.launches).Key("scanned").Uint(launches_.scanned);
  w->Key("unscanned").Uint(launches_.unscanned).Key("device_reads").Uint(launches_.device_reads);
  w->Key("findings").Uint(launch_findings());
  w->Key("kernels").BeginArray();
  for (const KernelSummary& k : launches_.kernels) {
    w->BeginObject().Key("name").String(k.name).Key("launches").Uint(k.launches).Key("maps").Uint(k.maps);
    w->Key("findings").Uint(k.problems).EndObject();
  }
  w->EndArray();
  w->Key("records").BeginArray();
  for (const LaunchRecord& r : launch_records_) {
    w->BeginObject();
    w->Key("finding").Bool(IsProblem(r));
    w->Key("explanation").String(ExplainLaunch(r));
    w->EndObject();
  }
  w->EndArray();
  w->EndObject();
}

Outcome Summary::Worst() const {
  Outcome w = launch_findings() > 0 ? Outcome::kInvalid : Outcome::kClean;
  for (const Config& c : configs_) w = std::max(w, c.verdict->outcome);
  return w;
}

std::string Summary::RenderText(const SummaryOptions& opt) const {
  std::string o;
  size_t traced = 0;
  uint64_t seen_calls = 0, dropped = 0;
  for (const ProcessInfo& p : processes_) {
    traced += p.state == ProcessState::kTracing;
    seen_calls += p.calls;
    dropped += p.dropped_calls;
  }
  StrAppend(&o, "tmapgen trace summary: ", Plural(processes_.size(), "process", "processes"), " loaded the driver (",
            Thousands(traced), " traced), ", Plural(std::max(seen_calls, calls()), "tensor-map call", "tensor-map calls"),
            ", ", Plural(configs_.size(), "distinct configuration", "distinct configurations"), "\n");
  StrAppend(&o, "  driver rejections:                          ", Plural(configs_with(Outcome::kRejected), "configuration", "configurations"),
            " (", Plural(calls_with(Outcome::kRejected), "call", "calls"), ")\n");
  StrAppend(&o, "  accepted maps that break a documented rule: ", Plural(configs_with(Outcome::kInvalid), "configuration", "configurations"),
            " (", Plural(calls_with(Outcome::kInvalid), "call", "calls"), ")\n");
  StrAppend(&o, "  accepted maps with warnings:                ", Plural(configs_with(Outcome::kWarning), "configuration", "configurations"),
            " (", Plural(calls_with(Outcome::kWarning), "call", "calls"), ")\n");
  if (dropped > 0)
    StrAppend(&o, "  not recorded (configuration table full):    ", Plural(dropped, "call", "calls"),
              " (raise TMAPGEN_TRACE_MAX_CONFIGS)\n");
  for (const ProcessInfo& p : processes_) {
    if (p.state == ProcessState::kTracing) continue;
    StrAppend(&o, "  pid ", p.pid, " (", p.exe, "): ", StateName(p.state), p.message.empty() ? "" : ": ", p.message, "\n");
  }
  if (configs_.empty()) return o;
  // Libraries in order of first appearance.
  std::vector<std::string> order;
  std::map<std::string, std::vector<size_t>> by_lib;
  for (size_t i = 0; i < configs_.size(); ++i) {
    const std::string lib = Caller(configs_[i].first);
    if (!by_lib.count(lib)) order.push_back(lib);
    by_lib[lib].push_back(i);
  }
  o += "by calling library:\n";
  for (const std::string& lib : order) {
    uint64_t calls = 0, counts[4] = {0, 0, 0, 0};
    for (size_t i : by_lib[lib]) {
      calls += configs_[i].count;
      ++counts[static_cast<int>(configs_[i].verdict->outcome)];
    }
    StrAppend(&o, "  ", lib, ": ", Plural(calls, "call", "calls"), ", ", Plural(by_lib[lib].size(), "configuration", "configurations"),
              ": ", counts[3], " rejected, ", counts[2], " invalid, ", counts[1], " with warnings, ", counts[0], " clean\n");
    int shown = 0, hidden = 0;
    for (const Outcome want : {Outcome::kRejected, Outcome::kInvalid, Outcome::kWarning}) {
      for (size_t i : by_lib[lib]) {
        const Config& c = configs_[i];
        if (c.verdict->outcome != want) continue;
        if (shown >= opt.max_explained) {
          ++hidden;
          continue;
        }
        ++shown;
        std::string e = ExplainCall(c.first, *c.verdict, c.count);
        // Indent the explanation under its library.
        std::string ind = "    ";
        for (char ch : e) {
          ind += ch;
          if (ch == '\n') ind += "    ";
        }
        while (!ind.empty() && ind.back() == ' ') ind.pop_back();
        o += ind;
      }
    }
    if (hidden > 0) StrAppend(&o, "    ... and ", hidden, " more (the --report file lists them all)\n");
  }
  return o;
}

void Summary::WriteJson(json::Writer* w) const {
  w->BeginObject();
  w->Key("calls").Uint(calls());
  w->Key("configurations").Uint(configs_.size());
  w->Key("rejected").BeginObject().Key("configurations").Uint(configs_with(Outcome::kRejected));
  w->Key("calls").Uint(calls_with(Outcome::kRejected)).EndObject();
  w->Key("invalid").BeginObject().Key("configurations").Uint(configs_with(Outcome::kInvalid));
  w->Key("calls").Uint(calls_with(Outcome::kInvalid)).EndObject();
  w->Key("warnings").BeginObject().Key("configurations").Uint(configs_with(Outcome::kWarning));
  w->Key("calls").Uint(calls_with(Outcome::kWarning)).EndObject();
  w->Key("processes").BeginArray();
  for (const ProcessInfo& p : processes_) {
    w->BeginObject();
    w->Key("pid").Int(p.pid).Key("ppid").Int(p.ppid).Key("exe").String(p.exe);
    w->Key("state").String(StateName(p.state)).Key("message").String(p.message);
    w->Key("forked").Bool(p.forked).Key("calls").Uint(p.calls).Key("records").Uint(p.records);
    w->Key("dropped_calls").Uint(p.dropped_calls);
    w->EndObject();
  }
  w->EndArray();
  w->Key("configurations_seen").BeginArray();
  for (const Config& c : configs_) {
    w->BeginObject();
    w->Key("outcome").String(Name(c.verdict->outcome));
    w->Key("call").String(Name(c.first.kind));
    w->Key("result").String(CuResultName(c.first.result));
    w->Key("count").Uint(c.count);
    w->Key("processes").Int(c.processes);
    w->Key("caller").String(Caller(c.first));
    w->Key("pid").Int(c.first.pid).Key("seq").Uint(c.first.seq);
    if (c.verdict->replayable && c.verdict->unrepresentable == 0) {
      TensorMapSpec spec;
      CallToSpec(c.first, &spec);
      w->Key("spec");
      WriteSpecJson(spec, w);
      w->Key("diagnostics").BeginArray();
      for (const Diagnostic& d : MakeDiagnostics(spec, c.verdict->validation)) {
        w->BeginObject();
        w->Key("rule").String(d.rule).Key("severity").String(Name(d.severity)).Key("field").String(d.field);
        w->Key("message").String(d.message).Key("fix").String(d.fix).Key("source").String(d.source);
        w->EndObject();
      }
      w->EndArray();
    }
    w->Key("explanation").String(ExplainCall(c.first, *c.verdict, c.count));
    w->EndObject();
  }
  w->EndArray();
  w->EndObject();
}

}  // namespace tmapgen::trace
