// random_sweep.cc: the random validator-vs-driver sweep (see random_sweep.h; the classes are
// described in tools/driver_agreement.cc and docs/lab/hardware-history.md, "Method"). One spec's verdicts come from
// agreement_eval, the specs from random_spec, the minimal disagreeing specs from agreement_shrink.
#include "src/gpu/agreement/random_sweep.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "src/driver/cuda_driver.h"
#include "src/driver/encode_spec.h"
#include "src/json/json_writer.h"
#include "src/tmap/rule.h"
#include "src/schema/spec_json.h"
#include "src/util/strings.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"
#include "src/tmap/validator.h"
#include "src/gpu/agreement/agreement_eval.h"
#include "src/gpu/agreement/agreement_shrink.h"
#include "src/gpu/agreement/agreement_util.h"
#include "src/specgen/random_spec.h"

namespace tmapgen::gpu {
namespace {

using driver::CudaDriver;
using specgen::RandomSpec;
using specgen::Rng;
using specgen::Tame;

struct RejectGroup {
  uint64_t count = 0, explained = 0, unexplained = 0;
  std::map<std::string, uint64_t> by_mode;
  TensorMapSpec example;
  TensorMapSpec unexplained_example;
  bool has_unexplained_example = false;
};

struct Shrunk {
  uint64_t count = 0;
  std::map<std::string, uint64_t> by_mode;
  TensorMapSpec original, minimal;
  std::string driver_error;
  std::vector<uint16_t> orig_errors;
};

const char* kClassNames[] = {"both accept", "both reject", "BAD (validator valid, driver rejects)",
                             "reject-only (validator rejects, driver accepts)"};

void WriteSpecValue(json::Writer* w, const TensorMapSpec& s) { WriteSpecJson(s, w); }

void WriteMessages(json::Writer* w, const TensorMapSpec& s) {
  w->BeginArray();
  for (const auto& m : ErrorMessages(s)) {
    w->BeginObject();
    w->Key("rule").String(m.first);
    w->Key("message").String(m.second);
    w->EndObject();
  }
  w->EndArray();
}

void PrintMessages(const TensorMapSpec& s, const char* indent) {
  for (const auto& m : ErrorMessages(s)) {
    const Rule& r = Rules()[FindRule(m.first)];
    const char* tag = IsUseFinding(r, s) ? "target/use" : SaysNotEnforced(m.second) ? "says not enforced" : "claims driver rule";
    std::printf("%s%s [%s]: %s\n", indent, m.first.c_str(), tag, m.second.c_str());
  }
}

int RunRandom(const CudaDriver& drv, uint64_t n, uint64_t seed, int max_print, json::Writer* jw) {
  Rng rng(seed);
  uint64_t cls[4] = {0, 0, 0, 0};
  std::map<std::string, std::array<uint64_t, 4>> by_mode;
  std::map<std::string, uint64_t> driver_errors;
  std::map<std::string, RejectGroup> groups;                // reject-only, by rule set
  std::map<std::string, Shrunk> bad_groups, masked_groups;  // by mode + essential fields
  std::vector<std::pair<TensorMapSpec, std::string>> bad_list;
  uint64_t masked = 0, not_submitted = 0;
  std::map<std::string, std::pair<uint64_t, TensorMapSpec>> contradicted;  // rule -> (count, first example)
  uint64_t shrunk_budget = 20000;
  const bool progress = isatty(2) != 0;

  for (uint64_t i = 0; i < n; ++i) {
    if (progress && (i % 4096 == 0)) std::fprintf(stderr, "\r  random: %" PRIu64 " / %" PRIu64, i, n);
    const TensorMapSpec wild = RandomSpec(rng);
    const TensorMapSpec s = rng.Chance(60) ? Tame(rng, wild) : wild;
    Validation v;
    Validate(s, &v);
    std::string cu_name;
    const int cu = EncodeResult(drv, s, &cu_name);
    if (cu == driver::kNotSubmitted) ++not_submitted;
    const bool ok = cu == driver::kCudaSuccess;
    if (!ok) ++driver_errors[cu_name];
    const int c = v.valid ? (ok ? 0 : 2) : (ok ? 3 : 1);
    ++cls[c];
    ++by_mode[std::string(Name(s.mode))][c];
    const std::string mode(Name(s.mode));
    if (c == 2) {
      if (bad_list.size() < 200) bad_list.emplace_back(s, cu_name);
      TensorMapSpec m = s;
      std::vector<std::string> ess;
      if (shrunk_budget > 0) {
        --shrunk_budget;
        ess = Shrink(&m, [&](const TensorMapSpec& t) {
          Validation tv;
          Validate(t, &tv);
          return tv.valid && EncodeResult(drv, t, nullptr) != driver::kCudaSuccess;
        });
      }
      Shrunk& g = bad_groups[mode + " | " + Join(ess, ",")];
      if (g.count == 0) { g.original = s; g.minimal = m; g.driver_error = cu_name; }
      ++g.count;
      ++g.by_mode[mode];
    } else if (c == 3) {
      const std::vector<uint16_t> errs = ErrorRules(v, false);
      RejectGroup& g = groups[RuleList(errs)];
      if (g.count == 0) g.example = s;
      ++g.count;
      ++g.by_mode[mode];
      for (const std::string& id : Contradicted(s)) {
        auto& c = contradicted[id];
        if (c.first++ == 0) c.second = s;
      }
      if (Explained(s)) {
        ++g.explained;
      } else {
        ++g.unexplained;
        if (!g.has_unexplained_example) { g.unexplained_example = s; g.has_unexplained_example = true; }
      }
    } else if (c == 1 && DriverViewValid(s)) {
      ++masked;
      TensorMapSpec m = s;
      std::vector<std::string> ess;
      if (shrunk_budget > 0) {
        --shrunk_budget;
        ess = Shrink(&m, [&](const TensorMapSpec& t) {
          return DriverViewValid(t) && EncodeResult(drv, t, nullptr) != driver::kCudaSuccess;
        });
      }
      Shrunk& g = masked_groups[mode + " | " + Join(ess, ",")];
      if (g.count == 0) { g.original = s; g.minimal = m; g.driver_error = cu_name; g.orig_errors = ErrorRules(v, false); }
      ++g.count;
      ++g.by_mode[mode];
    }
  }
  if (progress) std::fprintf(stderr, "\r  random: %" PRIu64 " / %" PRIu64 "\n", n, n);

  std::printf("\n== random sweep: %" PRIu64 " specs, seed %" PRIu64 ", target %s ==\n\n", n, seed,
              std::string(Name(kAgreementTarget)).c_str());
  std::printf("| class | count |\n|---|---:|\n");
  for (int c = 0; c < 4; ++c) std::printf("| %s | %" PRIu64 " |\n", kClassNames[c], cls[c]);
  uint64_t expl = 0, unexpl = 0;
  for (const auto& g : groups) { expl += g.second.explained; unexpl += g.second.unexplained; }
  std::printf("| reject-only, explained (target/use rule, or message says not enforced) | %" PRIu64 " |\n", expl);
  std::printf("| reject-only, UNEXPLAINED | %" PRIu64 " |\n", unexpl);
  std::printf("| masked (both reject; validator's driver-level rules accept) | %" PRIu64 " |\n", masked);
  std::printf("| driver not called (kNotSubmitted) | %" PRIu64 " |\n", not_submitted);

  std::printf("\nper mode:\n\n| mode | both accept | both reject | BAD | reject-only |\n|---|---:|---:|---:|---:|\n");
  for (const auto& m : by_mode)
    std::printf("| %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " |\n", m.first.c_str(), m.second[0],
                m.second[1], m.second[2], m.second[3]);
  std::printf("\ndriver error codes:");
  for (const auto& e : driver_errors) std::printf(" %s=%" PRIu64, e.first.c_str(), e.second);
  std::printf("\n");

  std::printf("\n-- BAD groups (validator valid, driver rejects), by mode | fields that could not be simplified: %zu --\n",
              bad_groups.size());
  int printed = 0;
  for (const auto& g : bad_groups) {
    std::printf("\n[BAD x%" PRIu64 "] %s  driver: %s\n  spec:    %s\n  minimal: %s\n", g.second.count, g.first.c_str(),
                g.second.driver_error.c_str(), SpecText(g.second.original).c_str(), SpecText(g.second.minimal).c_str());
    if (++printed >= max_print) { std::printf("  ... (%zu groups in all; see JSON)\n", bad_groups.size()); break; }
  }

  std::printf("\n-- masked groups (both reject, only through target/use rules; driver-level rules accept): %zu --\n",
              masked_groups.size());
  printed = 0;
  for (const auto& g : masked_groups) {
    std::printf("\n[MASKED x%" PRIu64 "] %s  driver: %s  validator errors: %s\n  spec:    %s\n  minimal: %s\n",
                g.second.count, g.first.c_str(), g.second.driver_error.c_str(), RuleList(g.second.orig_errors).c_str(),
                SpecText(g.second.original).c_str(), SpecText(g.second.minimal).c_str());
    if (++printed >= max_print) { std::printf("  ... (%zu groups in all; see JSON)\n", masked_groups.size()); break; }
  }

  std::printf("\n-- reject-only groups (validator rejects, driver accepts), by error rule set: %zu --\n\n", groups.size());
  std::vector<std::pair<std::string, const RejectGroup*>> sorted;
  for (const auto& g : groups) sorted.emplace_back(g.first, &g.second);
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second->count > b.second->count; });
  std::printf("| count | explained | unexplained | error rules |\n|---:|---:|---:|---|\n");
  for (const auto& g : sorted)
    std::printf("| %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %s |\n", g.second->count, g.second->explained,
                g.second->unexplained, g.first.c_str());
  // Every rule that fired in a reject-only spec, with how its message reads.
  std::map<std::string, std::array<uint64_t, 3>> rule_tags;  // use, not-enforced, claims-driver
  for (const auto& g : groups) {
    for (const auto& m : ErrorMessages(g.second.example)) {
      const Rule& r = Rules()[FindRule(m.first)];
      auto& t = rule_tags[m.first];
      if (IsUseFinding(r, g.second.example)) ++t[0];
      else if (SaysNotEnforced(m.second)) ++t[1];
      else ++t[2];
    }
  }
  std::printf("\nrules firing in reject-only examples: target/use | says not enforced | claims driver rule (groups)\n");
  for (const auto& t : rule_tags)
    std::printf("  %-34s %4" PRIu64 " %4" PRIu64 " %4" PRIu64 "\n", t.first.c_str(), t.second[0], t.second[1], t.second[2]);
  std::printf("\n-- driver-level rules that fired (driver view) on specs the driver ACCEPTED, although their message does "
              "not say the driver lets them through: %zu --\n", contradicted.size());
  for (const auto& c : contradicted) {
    std::printf("\n[CONTRADICTED x%" PRIu64 "] %s\n  spec: %s\n", c.second.first, c.first.c_str(),
                SpecText(c.second.second).c_str());
    PrintMessages(DriverView(c.second.second), "    ");
  }
  std::printf("\nunexplained reject-only examples (one per group):\n");
  for (const auto& g : sorted) {
    if (!g.second->has_unexplained_example) continue;
    std::printf("\n[UNEXPLAINED x%" PRIu64 "] %s\n  spec: %s\n", g.second->unexplained, g.first.c_str(),
                SpecText(g.second->unexplained_example).c_str());
    PrintMessages(g.second->unexplained_example, "    ");
  }

  if (jw != nullptr) {
    json::Writer& w = *jw;
    w.Key("random").BeginObject();
    w.Key("specs").Uint(n);
    w.Key("seed").Uint(seed);
    w.Key("target").String(Name(kAgreementTarget));
    w.Key("counts").BeginObject();
    w.Key("both_accept").Uint(cls[0]);
    w.Key("both_reject").Uint(cls[1]);
    w.Key("bad_validator_valid_driver_rejects").Uint(cls[2]);
    w.Key("reject_only_validator_rejects_driver_accepts").Uint(cls[3]);
    w.Key("reject_only_explained").Uint(expl);
    w.Key("reject_only_unexplained").Uint(unexpl);
    w.Key("masked").Uint(masked);
    w.Key("contradicted_rule_ids").Uint(contradicted.size());
    w.Key("not_submitted").Uint(not_submitted);
    w.EndObject();
    w.Key("by_mode").BeginObject();
    for (const auto& m : by_mode) {
      w.Key(m.first).BeginArray();
      for (int c = 0; c < 4; ++c) w.Uint(m.second[c]);
      w.EndArray();
    }
    w.EndObject();
    w.Key("driver_errors").BeginObject();
    for (const auto& e : driver_errors) w.Key(e.first).Uint(e.second);
    w.EndObject();
    auto write_shrunk = [&](const char* key, const std::map<std::string, Shrunk>& gs) {
      w.Key(key).BeginArray();
      for (const auto& g : gs) {
        w.BeginObject();
        w.Key("signature").String(g.first);
        w.Key("count").Uint(g.second.count);
        w.Key("driver_error").String(g.second.driver_error);
        w.Key("validator_errors");
        WriteRuleArray(&w, g.second.orig_errors);
        w.Key("spec");
        WriteSpecValue(&w, g.second.original);
        w.Key("minimal");
        WriteSpecValue(&w, g.second.minimal);
        w.EndObject();
      }
      w.EndArray();
    };
    write_shrunk("bad_groups", bad_groups);
    w.Key("bad_cases").BeginArray();
    for (const auto& b : bad_list) {
      w.BeginObject();
      w.Key("driver_error").String(b.second);
      w.Key("spec");
      WriteSpecValue(&w, b.first);
      w.EndObject();
    }
    w.EndArray();
    write_shrunk("masked_groups", masked_groups);
    w.Key("contradicted_rules").BeginArray();
    for (const auto& c : contradicted) {
      w.BeginObject();
      w.Key("rule").String(c.first);
      w.Key("count").Uint(c.second.first);
      w.Key("example");
      WriteSpecValue(&w, c.second.second);
      w.Key("messages");
      WriteMessages(&w, DriverView(c.second.second));
      w.EndObject();
    }
    w.EndArray();
    w.Key("reject_only_groups").BeginArray();
    for (const auto& g : sorted) {
      w.BeginObject();
      w.Key("rules").String(g.first);
      w.Key("count").Uint(g.second->count);
      w.Key("explained").Uint(g.second->explained);
      w.Key("unexplained").Uint(g.second->unexplained);
      w.Key("by_mode").BeginObject();
      for (const auto& m : g.second->by_mode) w.Key(m.first).Uint(m.second);
      w.EndObject();
      w.Key("example");
      WriteSpecValue(&w, g.second->example);
      w.Key("messages");
      WriteMessages(&w, g.second->example);
      if (g.second->has_unexplained_example) {
        w.Key("unexplained_example");
        WriteSpecValue(&w, g.second->unexplained_example);
        w.Key("unexplained_messages");
        WriteMessages(&w, g.second->unexplained_example);
      }
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  return cls[2] == 0 ? 0 : 1;
}


}  // namespace

int RunRandomAgreement(const driver::CudaDriver& drv, uint64_t n, uint64_t seed, int max_print, json::Writer* jw) {
  return RunRandom(drv, n, seed, max_print, jw);
}

}  // namespace tmapgen::gpu
