// desc_request.h: what `tmapgen desc ...` and `tmapgen idesc ...` ask for, as plain values, and running
// them. The command line parses its flags into these requests (cli/desc_cmd.cc), tmapd converts its
// messages into the same requests (src/rpc/), and both run them here, so that a remote
// answer is the local one.
//
// Contract
// - A MatrixRequest is one of four operations: kBuild (the descriptor of a tile described by its
//   layout), kDerive (the descriptor a tensor map's box calls for), kCheck (a given value against that
//   map), kDecode (a given value; with a layout or a map it is compared with them). An IdescRequest
//   builds a tcgen05 instruction descriptor from its fields or decodes a 32-bit value.
// - Check*Request() says whether a request is well formed (the combinations the commands accept);
//   the error is INVALID_ARGUMENT and its message starts with the request field it is about
//   ("layout.swizzle: ..."). The command line checks its flags first, with messages naming the flags;
//   whatever it accepts passes these checks.
// - Run*Request() is total for a request its check accepts: it fills the report, validated (all rules).
//   No I/O: the map travels in the request, already read.
// - Render*() is what the commands print on standard output: text (optionally colored) or one JSON
//   line (docs/descriptors.md).
#ifndef TMAPGEN_SRC_DESC_DESC_REQUEST_H_
#define TMAPGEN_SRC_DESC_DESC_REQUEST_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "src/desc/desc_render.h"
#include "src/desc/instr_descriptor.h"
#include "src/desc/smem_descriptor.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::desc {

enum class MatrixOp : uint8_t { kBuild = 0, kDerive = 1, kCheck = 2, kDecode = 3 };
enum class AdvanceKind : uint8_t { kNone = 0, kKSlice = 1, kSubTile = 2 };

struct MatrixRequest {
  MatrixOp op = MatrixOp::kBuild;
  // The family. kDecode without it reads bits 46-48 (0b001: tcgen05, else wgmma).
  bool has_arch = true;
  DescArch arch = DescArch::kTcgen05;
  uint64_t value = 0;  // kCheck, kDecode

  // The tile (layout.arch is set from `arch` when run). Which parts were given:
  OperandLayout layout;
  bool layout_given = false;      // operand, major, dtype, padded or tile (a tile description at all)
  bool has_type = false;
  bool has_swizzle = false;
  bool has_tile = false;
  bool has_smem_address = false;  // layout.smem_address; the other overrides are layout.has_lbo & co

  bool has_map = false;           // kDerive, kCheck; optional for kDecode
  TensorMapSpec map;
  std::string map_source;         // how the report names the map ("inline", the caller's file name)

  bool has_target = false;
  Target target = Target::kSm100a;

  AdvanceKind advance = AdvanceKind::kNone;
  uint32_t k_slice = 0;
  uint32_t sub_mn = 0, sub_k = 0;

  bool draw = false;
  int max_lines = 32;  // drawing height in 128-byte lines, 0..100000
};

absl::Status CheckMatrixRequest(const MatrixRequest& r);
// True when the report will describe a tile (a layout or a map): drawings and advances need one.
bool MatrixRequestHasTile(const MatrixRequest& r);
void RunMatrixRequest(const MatrixRequest& r, SmemDescReport* out);
// Text (with the "read from bits 46-48" line of a guessed family) or a JSON line; both end in '\n'.
std::string RenderMatrixReport(const SmemDescReport& r, bool json, bool color);

struct IdescRequest {
  bool decode = false;
  uint32_t value = 0;      // decode
  bool kind_given = true;  // decode: false = read the value as every kind
  // Build: every field. Decode: kind, cta_group, ws and target (the rest comes from the value).
  IdescSpec spec;
};

struct IdescResult {
  bool all_kinds = false;  // decode without a kind: `value` read as each kind
  uint32_t value = 0;
  IdescSpec context;
  IdescReport report;      // unless all_kinds
  bool valid = false;
};

absl::Status CheckIdescRequest(const IdescRequest& r);
void RunIdescRequest(const IdescRequest& r, IdescResult* out);
std::string RenderIdescResult(const IdescResult& r, bool json, bool color);

// The defaults of a kind (the command line's and codegen's): operand types and the accumulator.
ElemType DefaultOperandType(MmaKind k);
DType DefaultAccumulator(MmaKind k);

}  // namespace tmapgen::desc

#endif  // TMAPGEN_SRC_DESC_DESC_REQUEST_H_
