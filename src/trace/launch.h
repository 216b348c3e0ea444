// launch.h: the tensor maps a kernel receives at its launch, found in its parameter buffer and checked
// against the memory the launch sees. Pure logic (no CUDA, no I/O): the injection library feeds it the
// parameter layout the driver reports (cuFuncGetParamInfo / cuKernelGetParamInfo), the parameter bytes,
// and the allocation the driver reports for an address (cuPointerGetAttributes).
//
// Contract
// - Where maps can be: a tensor map in the parameter space is 64-byte aligned (the PTX ISA's alignment
//   for tensor-map objects; CUDA 12's cuda.h declares CUtensorMap alignas(64), CUDA 13's alignas(128),
//   which the 64-byte steps include), alone (`const __grid_constant__ CUtensorMap`) or inside a struct
//   parameter (CUTLASS's Params). The alignment holds for the map's address in the constant bank that holds
//   the parameters, whose parameter area does not start on a 64-byte boundary: on the H200 (driver 580) the
//   maps sat where cuFuncGetParamInfo's offset is 48 modulo 64, for kernels of nvcc 13, Triton and cuBLAS
//   (a grid-constant map first parameter at 112, a struct of nvcc's at 48, maps at 176 inside cuBLAS's
//   1720-byte parameter at 0: docs/lab/runs/2026-12-03-trace-launch-h200-summary.md), consistent with a
//   parameter area at 0x210 of the bank. That origin is an architecture's choice, so FindWindows() does not
//   assume it: every offset of a parameter that is a multiple of kWindowStep (16 bytes, the step of every
//   parameter-area origin known) with 128 bytes of the parameter from there on is a window; the bytes
//   decide. A window's buffer offset is the reported offset plus the offset inside the parameter: a packed
//   `extra` buffer is read at the reported offsets from its first byte (measured: laid out from the first
//   parameter's offset, or from 48, the kernel read the wrong pointer and faulted; from 0 it ran right).
// - What a map is: 128 bytes whose never-written bits (blob::NeverWrittenMask) are zero, that decode
//   (blob::Decode, spec recovered) and re-encode to exactly the same bytes (Decoded::reencodes). Random
//   bytes pass the first test with probability 2^-(never-written bits) and the rest far less often
//   (tests/trace/launch_test.cc measures 10^6 random windows); a map built or edited by hand is still a map
//   when its bytes are self-consistent.
// - MapCache: bytes -> what they are, decided once (a map seen before costs a hash and a compare). Bounded:
//   `capacity` entries, then new bytes are judged every time (correct, slower) and counted.
// - TensorExtent(): the bytes a map's tensor spans, [address, address + extent): the innermost dimension
//   (global_dim[0] elements of DataTypeBits, rounded up to bytes) plus (global_dim[i] - 1) x
//   global_strides[i - 1] for the outer ones. Every element a copy through the map can touch lies inside.
// - CheckMemory(): the extent against the allocation that holds its first byte: none (freed, or never a
//   device allocation), too small (the extent runs past its end), another device than the launch's, or
//   another allocation than the one the map was encoded over (the tensor was freed and the address
//   reused: the allocation's process-wide buffer id differs).
// - MapOrigins: where a map came from. Remember() every map a traced cuTensorMapEncode* or
//   cuTensorMapReplaceAddress wrote (its record, its allocation's buffer id); Find() says: a traced call
//   (the same 128 bytes), a traced map with only its global address changed (the address field replaced
//   without the driver: tensormap.replace, a copy patched by hand), or unknown (an encoder of its own,
//   bytes written by hand, a map encoded before tracing began). Bounded (kOriginSlots, newest kept).
// - Thread safety: MapCache and MapOrigins lock internally; the rest are pure functions.
#ifndef TMAPGEN_SRC_TRACE_LAUNCH_H_
#define TMAPGEN_SRC_TRACE_LAUNCH_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/trace/call.h"

namespace tmapgen::trace {

// One kernel parameter as the driver reports it (cuFuncGetParamInfo): its offset and its size.
struct ParamSlot {
  uint32_t offset = 0;
  uint32_t size = 0;
};

// A 128-byte window that may hold a map.
struct MapWindow {
  uint16_t param = 0;         // parameter index
  uint32_t param_offset = 0;  // offset inside that parameter
  uint32_t buffer_offset = 0; // offset in the parameter buffer: the reported offset + param_offset
};

inline constexpr uint32_t kMapAlign = 64;    // a map's alignment in memory (device memory scans step by it)
inline constexpr uint32_t kWindowStep = 16;  // the step of the windows inside a parameter (see the contract)
inline constexpr uint32_t kMapSize = 128;

// Appends the windows of a layout (parameters in any order; sizes from the driver).
void FindWindows(const ParamSlot* params, size_t n, std::vector<MapWindow>* out);

// The cheap first test: every bit that no measured driver writes is zero.
bool NeverWrittenBitsClear(const uint64_t (&words)[16]);

// Why a window is or is not a map, for TMAPGEN_TRACE_LAUNCH_DEBUG: the never-written bits that are set, and
// whether the bytes decode to a spec and re-encode to the same bytes.
struct WindowVerdict {
  int never_written_bits_set = 0;
  bool decodes = false;
  bool reencodes = false;
};
WindowVerdict ExplainWindow(const uint64_t (&words)[16]);

// The whole test: the first one, then decode and re-encode to the same bytes. Fills *spec when it is a map.
bool IsSelfConsistentMap(const uint64_t (&words)[16], TensorMapSpec* spec);

// Maps built or edited on the device (tensormap.replace, Triton's device-side descriptors) leave the
// fields the driver derives (box bytes, swizzle repeat) as they were, zero for a map built from nothing
// (docs/tensormap-layout.md), so they do not re-encode. In device memory a parameter points to, a map is
// therefore: never-written bits clear, every parameter recovered, no unexplained bit, every decode
// finding a note about a derived field, and a non-zero, 16-byte-aligned global address (the driver's
// rule; it also keeps zero-filled memory from counting as a map).
bool IsDeviceBuiltMap(const uint64_t (&words)[16], TensorMapSpec* spec);

// What bytes are, decided once.
struct MapInfo {
  uint64_t words[16] = {};
  TensorMapSpec spec;       // decoded (mode tiled or im2col; the address set)
  uint32_t id = 0;          // dense id in the cache, for the embedder's per-map state
};

class MapCache {
 public:
  explicit MapCache(uint32_t capacity = 4096);
  // nullptr when the bytes are not a map. The pointer stays valid for the cache's lifetime.
  const MapInfo* Classify(const uint64_t (&words)[16]);
  uint64_t judged() const;     // bytes decoded (the slow path)
  uint64_t overflow() const;   // bytes judged again because the cache was full
  uint32_t size() const;

 private:
  struct Slot {
    uint64_t hash = 0;
    int32_t index = -1;  // into entries_, -1 empty
  };
  struct Entry {
    uint64_t words[16];
    bool is_map;
    MapInfo* info;
  };
  uint32_t capacity_;
  mutable std::mutex mu_;
  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
  std::vector<MapInfo*> infos_;  // owned
  uint64_t judged_ = 0, overflow_ = 0;

 public:
  ~MapCache();
  MapCache(const MapCache&) = delete;
  MapCache& operator=(const MapCache&) = delete;
};

// [lo, hi): the bytes the tensor of a map spans.
struct Extent {
  uint64_t lo = 0;
  uint64_t hi = 0;
};
// kInvalidArgument when the rank is outside 1..5 or the extent overflows 64 bits.
absl::StatusOr<Extent> TensorExtent(const TensorMapSpec& spec);

// The allocation the driver reports for an address (cuPointerGetAttributes: RANGE_START_ADDR,
// RANGE_SIZE, DEVICE_ORDINAL, BUFFER_ID; all zero when the address is in no allocation).
struct Allocation {
  bool found = false;
  uint64_t base = 0;
  uint64_t size = 0;
  int32_t device = -1;     // -1 unknown
  uint64_t buffer_id = 0;  // 0 unknown
};

enum class MemoryProblem : uint8_t {
  kNone = 0,
  kNoAllocation = 1,  // the address is in no live allocation: freed, or never allocated
  kTooSmall = 2,      // the extent runs past the allocation's end
  kWrongDevice = 3,   // the allocation is on another device than the launch's
  kReallocated = 4,   // the encode's allocation was freed; the address now lies in another one
};
const char* Name(MemoryProblem p);  // "none", "no-allocation", "too-small", "wrong-device", "reallocated"

// `launch_device` -1 and `encode_buffer_id` 0 skip those tests.
MemoryProblem CheckMemory(const Extent& extent, const Allocation& alloc, int32_t launch_device,
                          uint64_t encode_buffer_id);

enum class OriginKind : uint8_t {
  kUnknown = 0,          // no traced call wrote these bytes or bytes like them
  kTracedCall = 1,       // a traced encode (or replace) wrote exactly these bytes
  kAddressReplaced = 2,  // a traced map with another global address, changed without the driver
};
const char* Name(OriginKind k);  // "unknown", "traced", "address-replaced"

struct Origin {
  OriginKind kind = OriginKind::kUnknown;
  uint32_t seq = 0;          // the record of the traced call
  CallKind call = CallKind::kEncodeTiled;
  uint64_t buffer_id = 0;    // the allocation the traced map's address was in (0 unknown)
  uint64_t address = 0;      // the traced map's global address (kAddressReplaced: the old one)
};

inline constexpr int kOriginSlots = 4096;

class MapOrigins {
 public:
  MapOrigins();
  void Remember(const uint64_t (&words)[16], uint32_t seq, CallKind call, uint64_t buffer_id);
  Origin Find(const uint64_t (&words)[16]) const;
  void Clear();

 private:
  struct Slot {
    bool used = false;
    uint64_t words[16];
    uint32_t seq = 0;
    CallKind call = CallKind::kEncodeTiled;
    uint64_t buffer_id = 0;
  };
  mutable std::mutex mu_;
  std::vector<Slot> exact_;   // by hash of all bytes
  std::vector<Slot> masked_;  // by hash of the bytes without the address field
};

// The map's bytes without its global-address field (for matching a replaced address).
void MaskAddress(const uint64_t (&words)[16], uint64_t (&out)[16]);
uint64_t HashMapWords(const uint64_t (&words)[16]);

// ---- what a launch found, as the injection library writes it and `tmapgen trace` reads it back --------

// The entry point that launched (or captured) the kernel.
enum class LaunchCall : uint8_t {
  kLaunchKernel = 0,             // cuLaunchKernel(_ptsz)
  kLaunchKernelEx = 1,           // cuLaunchKernelEx(_ptsz)
  kLaunchCooperativeKernel = 2,  // cuLaunchCooperativeKernel(_ptsz)
  kGraphKernelNode = 3,          // cuGraphAddKernelNode, cuGraph(Exec)KernelNodeSetParams (checked when set)
  kRuntimeLaunch = 4,            // cudaLaunchKernel, cudaLaunchKernelExC, cudaLaunchCooperativeKernel, <<<>>>
  kDeviceMemory = 5,             // a map read from device memory a parameter points to (opt-in)
  kGraphLaunch = 6,              // cuGraphLaunch: a kernel node's map checked again at the graph's launch
};
const char* Name(LaunchCall c);

enum LaunchFlags : uint32_t {
  kLaunchHasAllocation = 1u << 0,  // alloc_* are set
  kLaunchHasOrigin = 1u << 1,      // origin_seq is a record of this process
  kLaunchInvalidMap = 1u << 2,     // the map breaks a documented rule for the target (validation error)
  kLaunchHasTarget = 1u << 3,
};

inline constexpr int kKernelNameMax = 160;
inline constexpr uint32_t kLaunchVersion = 1;

// One map at one launch site, written once per distinct (kernel, parameter, offset, bytes, finding).
struct LaunchRecord {
  LaunchCall call = LaunchCall::kLaunchKernel;
  MemoryProblem problem = MemoryProblem::kNone;
  OriginKind origin = OriginKind::kUnknown;
  uint8_t target = 0;  // tmapgen::Target with kLaunchHasTarget
  uint32_t flags = 0;
  uint32_t param = 0;           // parameter index (kDeviceMemory: the pointer parameter)
  uint32_t buffer_offset = 0;   // offset in the parameter buffer (kDeviceMemory: offset from the pointer)
  uint32_t origin_seq = 0;
  int32_t launch_device = -1;
  int32_t alloc_device = -1;
  int32_t pid = 0;
  int32_t tid = 0;
  uint32_t seq = 0;             // place in the process's launch stream
  uint32_t driver_version = 0;
  uint64_t extent_lo = 0, extent_hi = 0;
  uint64_t alloc_base = 0, alloc_size = 0;
  uint64_t alloc_buffer_id = 0, origin_buffer_id = 0;
  uint64_t origin_address = 0;
  uint64_t words[16] = {};
  char kernel[kKernelNameMax] = {};
};
static_assert(std::is_trivially_copyable_v<LaunchRecord>, "LaunchRecord is written to the stream as bytes");

// A finding: a memory problem, a validation error, or (as a note, not an error) an unknown origin.
bool IsProblem(const LaunchRecord& r);

// The spec of the map (decoded from its bytes; target set when the record has one). False when the bytes
// do not decode (cannot happen for records the injection library writes).
bool LaunchSpec(const LaunchRecord& r, TensorMapSpec* spec);

// Text for standard error: the kernel, the parameter and offset, the map, the extent, the allocation, the
// finding and its origin.
std::string ExplainLaunch(const LaunchRecord& r);

// One JSON line in the spec schema (replayable with validate / check) with a "trace" member describing
// the launch (docs/trace.md, "Launch records").
void AppendLaunchRecordJson(const LaunchRecord& r, std::string* out);

// Per-kernel counts, kept in a file the process maps shared (they survive _exit like the encode counts).
struct KernelCounts {
  uint64_t function = 0;  // the CUfunction / CUkernel handle (0: slot free)
  std::atomic<uint64_t> launches{0};
  std::atomic<uint64_t> maps{0};      // maps found, summed over launches
  std::atomic<uint64_t> problems{0};  // maps with a finding, summed over launches
  char name[kKernelNameMax] = {};
};
inline constexpr char kKernelsMagic[8] = {'T', 'M', 'A', 'P', 'K', 'R', 'N', '1'};
struct KernelsHeader {
  char magic[8];
  uint32_t capacity;
  uint32_t used;                         // slots handed out
  std::atomic<uint64_t> launches;        // every launch seen (with or without maps)
  std::atomic<uint64_t> scanned;         // launches whose parameters were scanned (some window)
  std::atomic<uint64_t> unscanned;       // launches whose layout could not be read (old driver, bad handle)
  std::atomic<uint64_t> kernels_dropped; // launches with maps of kernels beyond `capacity`
  std::atomic<uint64_t> device_reads;    // opt-in device-memory scans made
};
inline constexpr size_t KernelsFileSize(uint32_t capacity) {
  return sizeof(KernelsHeader) + static_cast<size_t>(capacity) * sizeof(KernelCounts);
}

struct KernelSummary {
  std::string name;
  uint64_t launches = 0, maps = 0, problems = 0;
};
struct LaunchTotals {
  uint64_t launches = 0, scanned = 0, unscanned = 0, kernels_dropped = 0, device_reads = 0;
  std::vector<KernelSummary> kernels;
};
// kDataLoss when the bytes are cut short (shorter than the header or its capacity), kInvalidArgument when
// they are not a kernel-count file (its magic).
absl::StatusOr<LaunchTotals> ParseKernels(std::string_view bytes);

// The launch stream: frames of LaunchRecord (magic, version, size, check), one write(2) each.
inline constexpr uint32_t kLaunchFrameMagic = 0x4c4d5454;  // "TTML"
inline constexpr size_t kLaunchFrameSize = 16 + sizeof(LaunchRecord);
void MakeLaunchFrame(const LaunchRecord& r, char* buf);
// Appends every whole frame; returns the bytes skipped (torn or corrupt).
size_t ParseLaunchFrames(std::string_view bytes, std::vector<LaunchRecord>* out);

}  // namespace tmapgen::trace

#endif  // TMAPGEN_SRC_TRACE_LAUNCH_H_
