// stream.h: the files one traced process leaves for `tmapgen trace` (one record stream per process).
//
// In the trace directory ($TMAPGEN_TRACE_DIR), a process whose CUDA driver loaded the injection library
// creates two files named after its pid and a nonce (a process that exec()s starts a new pair):
//   P.N.state  a fixed-size file the process maps shared: StateHeader, then `capacity` 64-bit counts,
//              counts[seq] = calls of record seq. It is always current, so counts survive a process
//              that ends in _exit() or a signal.
//   P.N.calls  append-only: one frame per record, FrameHeader + EncodeCall, each written by a single
//              write(2) (O_APPEND), so threads never interleave and a killed process leaves whole frames
//              (a torn last frame is detected and ignored).
//
// Contract
// - The layouts below are the format; kStreamVersion changes with them (and with kCallVersion).
// - ParseState / ParseCalls read bytes that may be truncated or corrupt (the process may have died
//   mid-write, the directory may hold foreign files): they never read out of bounds, report what they
//   could not use, and keep every whole frame.
// - No I/O here: the injection library writes, the command reads files and hands the bytes in.
#ifndef TMAPGEN_SRC_TRACE_STREAM_H_
#define TMAPGEN_SRC_TRACE_STREAM_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/trace/call.h"

namespace tmapgen::trace {

inline constexpr uint32_t kStreamVersion = 1;
inline constexpr char kStateMagic[8] = {'T', 'M', 'A', 'P', 'S', 'T', 'A', '1'};
inline constexpr uint32_t kFrameMagic = 0x52544d54;  // "TMTR"

// What the injection library managed to do in its process.
enum class ProcessState : uint32_t {
  kStarting = 0,    // initialising (or died while initialising)
  kTracing = 1,     // subscribed to CUPTI; calls are recorded
  kNotTracing = 2,  // could not trace (message says why); the program ran on
};

struct StateHeader {
  char magic[8];
  uint32_t version;
  uint32_t capacity;  // counts that follow the header
  int32_t pid;
  int32_t ppid;
  uint32_t state;  // ProcessState
  uint32_t all;    // 1: every call is a record (--all)
  uint32_t forked;  // 1: this process is the child of a fork of a traced process
  uint32_t reserved;
  std::atomic<uint64_t> calls;          // calls seen
  std::atomic<uint64_t> records;        // frames written
  std::atomic<uint64_t> dropped_calls;  // calls of configurations beyond the table (not recorded)
  std::atomic<uint64_t> write_errors;   // frames that could not be written
  char message[512];  // why not tracing, or notes ("CUPTI 13.0 from ..."), NUL-terminated
  char exe[256];      // /proc/self/exe, NUL-terminated (tail kept)
};
static_assert(sizeof(std::atomic<uint64_t>) == 8, "counts are 64-bit words in the file");

inline constexpr size_t StateFileSize(uint32_t capacity) {
  return sizeof(StateHeader) + static_cast<size_t>(capacity) * sizeof(uint64_t);
}

struct FrameHeader {
  uint32_t magic;    // kFrameMagic
  uint32_t version;  // kStreamVersion
  uint32_t size;     // sizeof(EncodeCall)
  uint32_t check;    // FrameCheck of the EncodeCall bytes
};
inline constexpr size_t kFrameSize = sizeof(FrameHeader) + sizeof(EncodeCall);

uint32_t FrameCheck(const EncodeCall& call);
// Fills buf[0, kFrameSize) with the frame of `call`.
void MakeFrame(const EncodeCall& call, char* buf);

// A process's state file, parsed.
struct ProcessInfo {
  int32_t pid = 0;
  int32_t ppid = 0;
  ProcessState state = ProcessState::kStarting;
  bool all = false;
  bool forked = false;
  uint64_t calls = 0;
  uint64_t records = 0;
  uint64_t dropped_calls = 0;
  uint64_t write_errors = 0;
  std::string message;
  std::string exe;
  std::vector<uint64_t> counts;  // counts[seq]
};

// kInvalidArgument when the bytes are not a state file of this version; kDataLoss when one is cut short.
absl::StatusOr<ProcessInfo> ParseState(std::string_view bytes);
// Appends every whole, intact frame to *calls; returns the number of bytes that were not (torn or
// corrupt frames are skipped by resynchronising on the next frame magic).
size_t ParseCalls(std::string_view bytes, std::vector<EncodeCall>* calls);

}  // namespace tmapgen::trace

#endif  // TMAPGEN_SRC_TRACE_STREAM_H_
