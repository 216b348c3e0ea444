// call.h: one cuTensorMapEncode* / cuTensorMapReplaceAddress call as `tmapgen trace` saw it: the
// parameter block the driver received, the driver's result, the 128 bytes it wrote, and who called.
//
// Contract
// - EncodeCall is a plain, fixed-size, trivially copyable record (no pointers, no std::string): the
//   injection library fills one per call inside the CUPTI callback without allocating, and writes it
//   as it is to the process's record stream (stream.h), where `tmapgen trace` reads it back. Its layout
//   is part of the stream format: change kCallVersion when it changes.
// - The parameter fields hold what the driver was passed, verbatim (enums as their cuda.h uint32
//   values, even values cuda.h does not define), so that a rejected call can be explained exactly.
//   Arrays hold min(rank, their length) entries read from the caller's arrays; the rest are zero.
//   An array argument that was a null pointer or could not be read sets its bit in `unreadable`.
// - For cuTensorMapReplaceAddress, `global_address` is the new address, `bytes_before` the map passed
//   in and `bytes` the map after the call; the parameters of the map are those of the encode it came
//   from when the recorder knows it (`source_seq`), see recorder.h.
// - No I/O, no CUDA, no allocation.
#ifndef TMAPGEN_SRC_TRACE_CALL_H_
#define TMAPGEN_SRC_TRACE_CALL_H_

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tmapgen::trace {

// Which driver entry point was called.
enum class CallKind : uint8_t {
  kEncodeTiled = 0,       // cuTensorMapEncodeTiled
  kEncodeIm2col = 1,      // cuTensorMapEncodeIm2col
  kEncodeIm2colWide = 2,  // cuTensorMapEncodeIm2colWide
  kReplaceAddress = 3,    // cuTensorMapReplaceAddress
};
inline constexpr int kNumCallKinds = 4;
std::string_view Name(CallKind k);  // "cuTensorMapEncodeTiled", ...

// Bits of EncodeCall::unreadable: the pointer arguments the recorder could not read.
enum Unreadable : uint32_t {
  kUnreadableGlobalDim = 1u << 0,
  kUnreadableGlobalStrides = 1u << 1,
  kUnreadableBoxDim = 1u << 2,
  kUnreadableElementStrides = 1u << 3,
  kUnreadableLowerCorner = 1u << 4,
  kUnreadableUpperCorner = 1u << 5,
  kUnreadableTensorMap = 1u << 6,  // the CUtensorMap* itself (null, or the map could not be read)
};

// Flags of EncodeCall::flags.
enum CallFlags : uint32_t {
  kHasBytes = 1u << 0,        // `bytes` holds the map after a successful call
  kHasBytesBefore = 1u << 1,  // ReplaceAddress: `bytes_before` holds the map passed in
  kHasSource = 1u << 2,       // ReplaceAddress: the map came from the encode recorded as `source_seq`
  kHasTarget = 1u << 3,       // `target` is set (the GPU's, or --target)
};

inline constexpr int kCallerMax = 192;  // bytes of the caller's path kept (the tail, when longer)
inline constexpr int kSymbolMax = 64;   // bytes of the caller's symbol kept
inline constexpr uint32_t kCallVersion = 1;

struct EncodeCall {
  // --- the parameter block (kept first: the recorder copies it as the bytes before `result`) -------
  CallKind kind = CallKind::kEncodeTiled;
  CallKind encoder = CallKind::kEncodeTiled;  // the encoder the parameters are for (ReplaceAddress: its source's)
  uint8_t reserved0[2] = {};
  uint32_t data_type = 0;  // CUtensorMapDataType
  uint32_t rank = 0;       // tensorRank as passed (may exceed 5)
  uint32_t interleave = 0;
  uint32_t swizzle = 0;
  uint32_t l2_promotion = 0;
  uint32_t oob_fill = 0;
  uint32_t wide_mode = 0;  // CUtensorMapIm2ColWideMode (Im2colWide only)
  uint32_t channels_per_pixel = 0;
  uint32_t pixels_per_column = 0;
  int32_t lower_corner_width = 0;  // Im2colWide
  int32_t upper_corner_width = 0;
  int32_t lower_corner[3] = {};  // Im2col: rank - 2 entries
  int32_t upper_corner[3] = {};
  uint32_t box_dim[5] = {};
  uint32_t element_strides[5] = {};
  uint32_t unreadable = 0;  // Unreadable bits
  uint64_t global_address = 0;
  uint64_t global_dim[5] = {};
  uint64_t global_strides[4] = {};

  // --- the driver's answer ----------------------------------------------------------------------
  int32_t result = 0;  // CUresult
  uint32_t flags = 0;  // CallFlags
  uint64_t bytes[16] = {};
  uint64_t bytes_before[16] = {};

  // --- where it came from -----------------------------------------------------------------------
  int32_t pid = 0;
  int32_t tid = 0;
  uint32_t seq = 0;         // position in the process's record stream (0, 1, ...)
  uint32_t source_seq = 0;  // ReplaceAddress with kHasSource: the record of the encode it came from
  uint8_t target = 0;       // tmapgen::Target, with kHasTarget
  uint8_t reserved1[3] = {};
  uint32_t driver_version = 0;  // cuDriverGetVersion, 0 when unknown
  uint64_t caller_offset = 0;   // return address - base of the caller's object
  char caller[kCallerMax] = {};  // path of the shared object (or executable) that called the driver
  char caller_symbol[kSymbolMax] = {};  // nearest exported symbol before the return address, "" if none
};
static_assert(std::is_trivially_copyable_v<EncodeCall>, "EncodeCall is written to the stream as bytes");

// Copies `s` into a fixed field, keeping its tail when it is too long ("...lib/libtriton.so"), always
// NUL-terminated. Allocation-free (usable inside the CUPTI callback).
void CopyTail(std::string_view s, char* field, int field_size);
// A fixed field as a string_view (up to the first NUL).
std::string_view FieldView(const char* field, int field_size);

}  // namespace tmapgen::trace

#endif  // TMAPGEN_SRC_TRACE_CALL_H_
