// validator.h: validate one tensor-map spec against every rule, for one target or for all of them.
//
// Contract
// - Validate() runs every rule of the table (rule.h) that applies to the spec's mode and reports all
//   findings at once, never just the first. It is allocation-free and thread-safe (one Validation per
//   thread); a valid tiled spec with a target takes tens of nanoseconds. Plainly valid specs with a target
//   are decided by a fast path proven equivalent to the table (src/tmap/fast_path.h): the same Validation.
// - With a target (kFieldTarget set), the verdict is for that target: valid means the driver accepts
//   the map for that target AND the hardware can execute the declared use. Without a target, every
//   known target is tried: `valid_targets` lists those for which the spec is valid, `valid` is true
//   when there is at least one, and the per-target findings shown are those of the first valid target
//   (or, when none is valid, of the target with the fewest errors), named in `reported_target`;
//   `failed_targets` says which targets the per-target rules fail; FailedTargetFinding() gives the first
//   finding that fails one of them (report time: it runs that target's rules again).
// - NearestValid() applies the automatic patches of the error findings, round after round, and
//   returns a spec that validates, or false when the remaining errors have no automatic fix.
#ifndef TMAPGEN_SRC_TMAP_VALIDATOR_H_
#define TMAPGEN_SRC_TMAP_VALIDATOR_H_

#include <cstdint>

#include "src/tmap/derived_facts.h"
#include "src/tmap/rule.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {

struct Validation {
  DerivedFacts facts;
  FindingList findings;
  bool valid = false;
  uint32_t valid_targets = 0;          // bit i = Target i
  Target reported_target = Target::kSm90a;  // target of the per-target findings
  // Without a target: the targets whose per-target rules fail (bit i = Target i); with a target: 0. The
  // findings there are recomputed when a report explains them (FailedTargetFinding), not kept here.
  uint32_t failed_targets = 0;
  int errors = 0;
  int warnings = 0;
  int notes = 0;
};

void Validate(const TensorMapSpec& spec, Validation* out);

// The two halves of Validate, for the tests and fuzzers that prove them equivalent (src/tmap/fast_path.h):
// the rule table alone, and the fast path alone (true, with *out filled exactly as the table would fill it,
// when it proves that no rule fires for the spec and its target; false, *out unspecified, otherwise).
void ValidateByTable(const TensorMapSpec& spec, Validation* out);
bool ValidateFastPath(const TensorMapSpec& spec, Validation* out);

// The first error finding of the per-target rules for `target` (the one that puts it in failed_targets);
// false when that target's per-target rules find no error.
bool FailedTargetFinding(const TensorMapSpec& spec, const DerivedFacts& facts, Target target, Finding* out);

// The lowest target in `mask`, or false when the mask is empty.
bool MinTarget(uint32_t mask, Target* out);

// The lowest target on which the map is valid, whatever target the spec asks for (the reports' "minimum
// target"): `valid_targets` is Validate(spec)'s; with a target it names only that one, so the spec is then
// validated again for every target. False when no target accepts the map.
bool LowestValidTarget(const TensorMapSpec& spec, uint32_t valid_targets, Target* out);

// Repairs `spec` with the rules' automatic patches (at most `max_rounds` rounds). On success `*out`
// validates (for spec's target, or for at least one target) and differs from `spec` only where a
// rule's fix said so.
bool NearestValid(const TensorMapSpec& spec, TensorMapSpec* out, int max_rounds = 8);
// The same for a spec already validated: `v` is Validate(spec)'s result, used for the first round instead of
// validating spec again (the report writers have it).
bool NearestValid(const TensorMapSpec& spec, const Validation& v, TensorMapSpec* out, int max_rounds = 8);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_TMAP_VALIDATOR_H_
