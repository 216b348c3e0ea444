#include "src/model/copy_instruction.h"

namespace tmapgen::model {
namespace {

constexpr std::string_view kModeNames[kNumCopyModes] = {
    ".tile", ".tile::gather4", ".tile::scatter4", ".im2col", ".im2col::w", ".im2col::w::128", ".im2col_no_offs"};

}  // namespace

std::string_view Name(CopyMode m) {
  const int i = static_cast<int>(m);
  return i >= 0 && i < kNumCopyModes ? kModeNames[i] : std::string_view("?");
}

bool Parse(std::string_view s, CopyMode* out) {
  if (!s.empty() && s[0] == '.') s.remove_prefix(1);
  struct A { std::string_view n; CopyMode m; };
  static constexpr A kAliases[] = {
      {"tile", CopyMode::kTile}, {"tiled", CopyMode::kTile}, {"tile::gather4", CopyMode::kTileGather4},
      {"gather4", CopyMode::kTileGather4}, {"tile::scatter4", CopyMode::kTileScatter4},
      {"scatter4", CopyMode::kTileScatter4}, {"im2col", CopyMode::kIm2col}, {"im2col::w", CopyMode::kIm2colW},
      {"im2col_w", CopyMode::kIm2colW}, {"im2col::w::128", CopyMode::kIm2colW128},
      {"im2col_w_128", CopyMode::kIm2colW128}, {"im2col_w128", CopyMode::kIm2colW128},
      {"im2col_no_offs", CopyMode::kIm2colNoOffs}, {"im2col_no_offs::w", CopyMode::kIm2colNoOffs},
  };
  for (const A& a : kAliases) {
    if (a.n == s) {
      *out = a.m;
      return true;
    }
  }
  return false;
}

CopyInstruction DefaultInstruction(const TensorMapSpec& spec) {
  CopyInstruction in;
  in.direction = spec.direction == Direction::kPrefetch ? Direction::kLoadCta : spec.direction;
  in.reduce_op = spec.reduce_op;
  const bool load = IsLoad(in.direction);
  switch (spec.mode) {
    case Mode::kTiled: in.mode = CopyMode::kTile; break;
    case Mode::kGather4: in.mode = load ? CopyMode::kTileGather4 : CopyMode::kTileScatter4; break;
    case Mode::kScatter4: in.mode = load ? CopyMode::kTileGather4 : CopyMode::kTileScatter4; break;
    case Mode::kIm2col: in.mode = load ? CopyMode::kIm2col : CopyMode::kIm2colNoOffs; break;
    case Mode::kIm2colW: in.mode = load ? CopyMode::kIm2colW : CopyMode::kIm2colNoOffs; break;
    case Mode::kIm2colW128: in.mode = CopyMode::kIm2colW128; break;
  }
  if (spec.Has(kFieldSmemAddress)) in.smem_address = spec.smem_address;
  return in;
}

}  // namespace tmapgen::model
