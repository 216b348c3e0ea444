#include "src/tmap/validator.h"

namespace tmapgen {
namespace {

void Count(Validation* v) {
  v->errors = v->warnings = v->notes = 0;
  const Rule* rules = Rules();
  for (const Finding& f : v->findings) {
    switch (rules[f.rule].severity) {
      case Severity::kError: ++v->errors; break;
      case Severity::kWarning: ++v->warnings; break;
      case Severity::kNote: ++v->notes; break;
    }
  }
}

int RunPerTarget(const TensorMapSpec& spec, const DerivedFacts& facts, Target t, FindingList* out) {
  const CheckContext ctx{spec, facts, t};
  return RunRules(ctx, /*per_target=*/true, out);
}

}  // namespace

void Validate(const TensorMapSpec& spec, Validation* v) {
  ComputeDerivedFacts(spec, &v->facts);
  v->findings.Clear();
  const CheckContext ctx{spec, v->facts, spec.target};
  const int independent_errors = RunRules(ctx, /*per_target=*/false, &v->findings);

  uint32_t valid_targets = 0;
  if (spec.has_target()) {
    const int e = RunPerTarget(spec, v->facts, spec.target, &v->findings);
    v->reported_target = spec.target;
    if (e == 0 && independent_errors == 0) valid_targets = 1u << static_cast<int>(spec.target);
  } else {
    FindingList scratch;
    int best = -1, best_errors = 1 << 30;
    for (int t = 0; t < kNumTargets; ++t) {
      scratch.Clear();
      const int e = RunPerTarget(spec, v->facts, static_cast<Target>(t), &scratch);
      if (e == 0) valid_targets |= 1u << t;
      if (e < best_errors) { best_errors = e; best = t; }
    }
    v->reported_target = static_cast<Target>(best);
    scratch.Clear();
    RunPerTarget(spec, v->facts, v->reported_target, &v->findings);
    if (independent_errors != 0) valid_targets = 0;
  }
  v->valid_targets = valid_targets;
  v->facts.valid_targets = valid_targets;
  v->valid = valid_targets != 0;
  Count(v);
}

bool MinTarget(uint32_t mask, Target* out) {
  for (int t = 0; t < kNumTargets; ++t) {
    if (mask & (1u << t)) {
      *out = static_cast<Target>(t);
      return true;
    }
  }
  return false;
}

bool NearestValid(const TensorMapSpec& spec, TensorMapSpec* out, int max_rounds) {
  *out = spec;
  Validation v;
  const Rule* rules = Rules();
  for (int round = 0; round < max_rounds; ++round) {
    Validate(*out, &v);
    if (v.valid) return true;
    bool changed = false;
    for (const Finding& f : v.findings) {
      const Rule& r = rules[f.rule];
      if (r.severity == Severity::kError && r.patch != nullptr && r.patch(f, out)) changed = true;
    }
    if (!changed) return false;
  }
  Validate(*out, &v);
  return v.valid;
}

}  // namespace tmapgen
