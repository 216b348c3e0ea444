// spec_flags.h: build a TensorMapSpec from command-line flags.
//
// Contract
// - Every spec field has a flag (docs/cli.md). Flags are `--name value` or `--name=value`; lists are
//   comma separated (`--dims 64,56,56,32`).
// - Unspecified fields take the mode's embedded default (DefaultSpec), adapted to what was given:
//   tensor_rank follows --dims; strides are dense (rows padded to 16 B) unless --strides is given; the
//   box keeps the default inner row of 128 bytes for the chosen data type and is clipped to the tensor;
//   im2col corners are -1 (a 3-wide filter with padding 1) and channels_per_pixel fills 128 bytes.
// - Bad values (unknown names, text where a number belongs, negative, overflowing, too many entries)
//   are errors that name the flag; nothing is silently accepted.
#ifndef TMAPGEN_CLI_SPEC_FLAGS_H_
#define TMAPGEN_CLI_SPEC_FLAGS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/types.h"

namespace tmapgen::cli {

// Returns true when `name` (without dashes) is a spec flag; `takes_value` is always true for them.
bool IsSpecFlag(std::string_view name);

// Applies `flags` (name -> value pairs, names without dashes, in command-line order) on top of the
// base spec; a base (from a spec file) disables the default adaptation (a spec file is explicit).
// A bad flag is kInvalidArgument whose message starts with the flag ("--dims: ...").
absl::StatusOr<TensorMapSpec> BuildSpecFromFlags(const std::vector<std::pair<std::string, std::string>>& flags,
                                                 const TensorMapSpec* base);

// Help text listing the spec flags.
std::string SpecFlagsHelp();

// Every spec flag name (and alias), for "did you mean".
std::vector<std::string_view> SpecFlagNames();

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_SPEC_FLAGS_H_
