#include "src/trace/recorder.h"

#include <cstring>

namespace tmapgen::trace {
namespace {

uint32_t PowerOfTwoAtLeast(uint64_t n) {
  uint32_t p = 16;
  while (p < n && p < (1u << 30)) p <<= 1;
  return p;
}

uint64_t HashBytes(const uint64_t (&b)[16]) {
  uint64_t h = 0x243f6a8885a308d3ull;
  for (uint64_t v : b) {
    h = (h ^ v) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  return h;
}

// Copies the map parameters of `src` into *dst, keeping dst's call kind, address, result and identity.
void TakeParameters(const EncodeCall& src, EncodeCall* dst) {
  dst->encoder = src.encoder;
  dst->data_type = src.data_type;
  dst->rank = src.rank;
  dst->interleave = src.interleave;
  dst->swizzle = src.swizzle;
  dst->l2_promotion = src.l2_promotion;
  dst->oob_fill = src.oob_fill;
  dst->wide_mode = src.wide_mode;
  dst->channels_per_pixel = src.channels_per_pixel;
  dst->pixels_per_column = src.pixels_per_column;
  dst->lower_corner_width = src.lower_corner_width;
  dst->upper_corner_width = src.upper_corner_width;
  std::memcpy(dst->lower_corner, src.lower_corner, sizeof(dst->lower_corner));
  std::memcpy(dst->upper_corner, src.upper_corner, sizeof(dst->upper_corner));
  std::memcpy(dst->box_dim, src.box_dim, sizeof(dst->box_dim));
  std::memcpy(dst->element_strides, src.element_strides, sizeof(dst->element_strides));
  std::memcpy(dst->global_dim, src.global_dim, sizeof(dst->global_dim));
  std::memcpy(dst->global_strides, src.global_strides, sizeof(dst->global_strides));
  dst->unreadable = src.unreadable;
}

}  // namespace

Recorder::Recorder(const RecorderOptions& options, CountStore counts, RecordSink* sink)
    : opt_(options), counts_(counts), sink_(sink) {
  if (!opt_.all && opt_.max_configs > counts_.capacity) opt_.max_configs = counts_.capacity;
  slots_.resize(opt_.all ? 0 : PowerOfTwoAtLeast(uint64_t{2} * opt_.max_configs));
  keys_.reserve(opt_.all ? 0 : opt_.max_configs);
  recent_.resize(kRecentMaps);
}

int64_t Recorder::FindOrInsert(const ConfigKey& key, bool* is_new) {
  *is_new = false;
  const uint64_t h = HashKey(key);
  const size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (!s.used) {
      if (keys_.size() >= opt_.max_configs) return -1;
      s.used = true;
      s.hash = h;
      s.seq = next_seq_++;
      keys_.push_back(key);
      *is_new = true;
      return s.seq;
    }
    if (s.hash == h && keys_[s.seq] == key) return s.seq;
  }
}

void Recorder::RememberMap(const EncodeCall& c) {
  RecentMap& m = recent_[HashBytes(c.bytes) % kRecentMaps];
  if (m.used && std::memcmp(m.bytes, c.bytes, sizeof(m.bytes)) == 0) return;
  m.used = true;
  std::memcpy(m.bytes, c.bytes, sizeof(m.bytes));
  std::memcpy(m.params, &c, kParamBytes);
  m.seq = c.seq;
}

bool Recorder::FindSource(const EncodeCall& c, EncodeCall* src) {
  const RecentMap& m = recent_[HashBytes(c.bytes_before) % kRecentMaps];
  if (!m.used || std::memcmp(m.bytes, c.bytes_before, sizeof(m.bytes)) != 0) return false;
  *src = EncodeCall();
  std::memcpy(static_cast<void*>(src), m.params, kParamBytes);
  src->seq = m.seq;
  return true;
}

void Recorder::OnCall(EncodeCall* c, ResolveCallerFn resolve, void* ctx) {
  calls_.fetch_add(1, std::memory_order_relaxed);
  const bool produced_map = c->result == 0 && (c->flags & kHasBytes);
  if (c->kind != CallKind::kReplaceAddress) c->encoder = c->kind;
  std::unique_lock<std::mutex> lock(mu_);
  if (c->kind == CallKind::kReplaceAddress) {
    EncodeCall src;
    if ((c->flags & kHasBytesBefore) && FindSource(*c, &src)) {
      TakeParameters(src, c);
      c->flags |= kHasSource;
      c->source_seq = src.seq;
    }
  }
  if (opt_.all) {
    c->seq = next_seq_++;
    if (produced_map && (c->kind != CallKind::kReplaceAddress || (c->flags & kHasSource))) RememberMap(*c);
    lock.unlock();
    Publish(c, resolve, ctx);
    return;
  }
  bool is_new = false;
  const int64_t seq = FindOrInsert(ConfigKeyOf(*c), &is_new);
  if (seq >= 0) {
    c->seq = static_cast<uint32_t>(seq);
    if (produced_map && (c->kind != CallKind::kReplaceAddress || (c->flags & kHasSource))) RememberMap(*c);
  }
  lock.unlock();
  if (seq < 0) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (!is_new) {
    counts_.counts[seq].fetch_add(1, std::memory_order_relaxed);
    return;
  }
  counts_.counts[seq].fetch_add(1, std::memory_order_relaxed);
  Publish(c, resolve, ctx);
}

void Recorder::Publish(EncodeCall* c, ResolveCallerFn resolve, void* ctx) {
  if (resolve != nullptr) resolve(ctx, c);
  Verdict v;
  JudgeCall(*c, &v);
  switch (v.outcome) {
    case Outcome::kRejected: rejected_.fetch_add(1, std::memory_order_relaxed); break;
    case Outcome::kInvalid: invalid_.fetch_add(1, std::memory_order_relaxed); break;
    case Outcome::kWarning: warning_.fetch_add(1, std::memory_order_relaxed); break;
    case Outcome::kClean: break;
  }
  sink_->Record(*c);
  records_.fetch_add(1, std::memory_order_relaxed);
  if (v.outcome == Outcome::kRejected || v.outcome == Outcome::kInvalid) {
    const uint64_t n = explained_.fetch_add(1, std::memory_order_relaxed);
    if (n < opt_.max_explained) {
      sink_->Explain(ExplainCall(*c, v, 1));
    } else if (n == opt_.max_explained) {
      sink_->Explain("tmapgen trace: further rejected or invalid maps of this process are not explained here; "
                     "the summary at exit lists them\n");
    }
  }
}

RecorderStats Recorder::stats() const {
  RecorderStats s;
  s.calls = calls_.load(std::memory_order_relaxed);
  s.records = records_.load(std::memory_order_relaxed);
  s.dropped_calls = dropped_.load(std::memory_order_relaxed);
  s.explained = explained_.load(std::memory_order_relaxed);
  s.rejected_records = rejected_.load(std::memory_order_relaxed);
  s.invalid_records = invalid_.load(std::memory_order_relaxed);
  s.warning_records = warning_.load(std::memory_order_relaxed);
  return s;
}

uint64_t Recorder::count(uint32_t seq) const {
  if (opt_.all) return 1;
  if (seq >= counts_.capacity) return 0;
  return counts_.counts[seq].load(std::memory_order_relaxed);
}

void Recorder::ResetAfterFork(CountStore counts) {
  counts_ = counts;
  if (!opt_.all && opt_.max_configs > counts_.capacity) opt_.max_configs = counts_.capacity;
  for (Slot& s : slots_) s = Slot();
  keys_.clear();
  for (RecentMap& m : recent_) m.used = false;
  next_seq_ = 0;
  calls_ = 0;
  records_ = 0;
  dropped_ = 0;
  explained_ = 0;
  rejected_ = 0;
  invalid_ = 0;
  warning_ = 0;
}

}  // namespace tmapgen::trace
