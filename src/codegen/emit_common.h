// emit_common.h: the pieces the emitters share (number formats, the comment header that names the
// generator and the specs). Internal to src/codegen.
#ifndef TMAPGEN_SRC_CODEGEN_EMIT_COMMON_H_
#define TMAPGEN_SRC_CODEGEN_EMIT_COMMON_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/codegen/plan.h"

namespace tmapgen::codegen::internal {

// v in hexadecimal with at least `digits` digits, "0x" in front and `suffix` behind ("ull", "u", "").
std::string HexU(uint64_t v, int digits, std::string_view suffix);

// The alignment of the tensor's global address the encode needs (bytes).
uint32_t GlobalAlignment(const TensorMapSpec& s);

inline uint32_t Rank(const TensorMapSpec& s) { return std::min<uint32_t>(s.rank, kMaxRank); }

// The lines that open a generated text, each behind `comment`: the generator and its version, the
// `--lang`, the sources, and every map's spec as one JSON line.
std::string Header(const Plan& plan, const Options& opt, std::string_view lang, std::string_view comment);

}  // namespace tmapgen::codegen::internal

#endif  // TMAPGEN_SRC_CODEGEN_EMIT_COMMON_H_
