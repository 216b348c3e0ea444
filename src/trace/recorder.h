// recorder.h: the heart of `tmapgen trace`: turns the stream of driver calls of one process into
// records, counts identical configurations, and explains bad calls at once. No CUDA, no I/O: records
// and explanations leave through a RecordSink, counts live in memory the embedder provides.
//
// Contract
// - OnCall() takes one call (parameters, result, bytes, pid/tid, target filled by the caller) and:
//   * default mode: looks its configuration up (call_spec.h ConfigKeyOf). A new configuration gets the
//     next sequence number, is handed to the sink once (RecordSink::Record) and its count starts at 1;
//     a known one only increments its count. At most `max_configs` configurations are kept (bounded
//     memory); calls of further new configurations are counted in stats().dropped_calls, not recorded.
//   * `all` mode: every call is a record of its own (count 1), nothing is kept per configuration.
//   The caller's library is resolved (ResolveCallerFn, e.g. a backtrace) only for calls that become
//   records, so a repeated configuration costs a hash lookup and an atomic increment. A configuration
//   that two libraries encode identically is attributed to the first one seen.
// - Every new record is judged (explain.h). A driver rejection or an accepted map that breaks a
//   documented rule is explained at once through RecordSink::Explain (at most `max_explained` per
//   process; the rest only in the summary).
// - cuTensorMapReplaceAddress: the map passed in is looked up among the maps this process encoded
//   recently (the last kRecentMaps successful encodes and replacements, matched byte for byte); when
//   found, the call's parameters become the source's with the new address (kHasSource, source_seq), so
//   it is a replayable record; else it is recorded with only its bytes.
// - Counts: counts[seq] for every record, in memory the embedder provides (the injection library maps
//   a file so that counts survive a process that exits without running atexit handlers).
// - Thread safety: OnCall may be called from any number of threads at once. ResetAfterFork() is for
//   the child of a fork(), before any other call (the embedder's pthread_atfork child handler sets a
//   flag, the next call resets): the child starts its own stream, with its own sequence numbers.
#ifndef TMAPGEN_SRC_TRACE_RECORDER_H_
#define TMAPGEN_SRC_TRACE_RECORDER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <vector>

#include "src/trace/call.h"
#include "src/trace/call_spec.h"
#include "src/trace/explain.h"

namespace tmapgen::trace {

class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // A new record; call.seq is set. Called outside the recorder's lock, possibly from several threads.
  virtual void Record(const EncodeCall& call) = 0;
  // Text for standard error (complete lines).
  virtual void Explain(std::string_view text) = 0;
};

// Where counts are kept: counts[seq] for seq < capacity.
struct CountStore {
  std::atomic<uint64_t>* counts = nullptr;
  uint32_t capacity = 0;
};

// Fills the caller fields (caller, caller_symbol, caller_offset) of *call.
using ResolveCallerFn = void (*)(void* ctx, EncodeCall* call);

struct RecorderOptions {
  bool all = false;
  uint32_t max_configs = 4096;
  uint32_t max_explained = 20;
};

struct RecorderStats {
  uint64_t calls = 0;          // every call seen
  uint64_t records = 0;        // records handed to the sink
  uint64_t dropped_calls = 0;  // calls of configurations beyond max_configs (not recorded)
  uint64_t explained = 0;
  uint64_t rejected_records = 0;
  uint64_t invalid_records = 0;
  uint64_t warning_records = 0;
};

inline constexpr int kRecentMaps = 256;

class Recorder {
 public:
  // `counts.capacity` should be at least max_configs (counts of records beyond it are not kept).
  Recorder(const RecorderOptions& options, CountStore counts, RecordSink* sink);
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  void OnCall(EncodeCall* call, ResolveCallerFn resolve, void* ctx);

  RecorderStats stats() const;
  const RecorderOptions& options() const { return opt_; }
  uint64_t count(uint32_t seq) const;

  // In the child of a fork: forget every configuration and recent map, start at seq 0 with `counts`.
  // Not thread-safe (the child has one thread right after fork).
  void ResetAfterFork(CountStore counts);

  // For the embedder's pthread_atfork handlers: hold the lock across fork() so that the child never
  // inherits it locked by a thread that does not exist there.
  void LockForFork() { mu_.lock(); }
  void UnlockAfterFork() { mu_.unlock(); }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t seq = 0;
    bool used = false;
  };
  // The parameter block of EncodeCall: its members before `result` (call.h keeps them first).
  static constexpr size_t kParamBytes = offsetof(EncodeCall, result);
  struct RecentMap {
    bool used = false;
    uint32_t seq = 0;  // its record
    uint64_t bytes[16];
    unsigned char params[kParamBytes];  // the parameters of the call that produced the map
  };

  // Looks the configuration up, inserting it when new; returns its seq, or -1 when the table is full.
  // *is_new tells whether it was inserted. Needs mu_.
  int64_t FindOrInsert(const ConfigKey& key, bool* is_new);
  void RememberMap(const EncodeCall& call);                 // needs mu_
  bool FindSource(const EncodeCall& call, EncodeCall* src);  // needs mu_
  void Publish(EncodeCall* call, ResolveCallerFn resolve, void* ctx);

  RecorderOptions opt_;
  CountStore counts_;
  RecordSink* sink_;
  std::mutex mu_;
  std::vector<Slot> slots_;
  std::vector<ConfigKey> keys_;  // by seq (default mode)
  std::vector<RecentMap> recent_;
  uint32_t next_seq_ = 0;
  std::atomic<uint64_t> calls_{0};
  std::atomic<uint64_t> records_{0};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> explained_{0};
  std::atomic<uint64_t> rejected_{0};
  std::atomic<uint64_t> invalid_{0};
  std::atomic<uint64_t> warning_{0};
};

}  // namespace tmapgen::trace

#endif  // TMAPGEN_SRC_TRACE_RECORDER_H_
