#include "src/trace/launch.h"

#include <algorithm>
#include <cstring>

#include "src/blob/blob.h"
#include "src/blob/layout.h"
#include "src/json/json_writer.h"
#include "src/report/diagnostics.h"
#include "src/schema/spec_json.h"
#include "src/tmap/validator.h"
#include "src/trace/call_spec.h"
#include "src/trace/explain.h"
#include "src/trace/record_json.h"
#include "src/util/strings.h"

namespace tmapgen::trace {
namespace {

uint32_t PowerOfTwoAtLeast(uint64_t n) {
  uint32_t p = 16;
  while (p < n && p < (1u << 30)) p <<= 1;
  return p;
}

// The bits of the global-address field, from the layout table (every layout has it).
const std::array<uint64_t, 16>& AddressMask() {
  static const std::array<uint64_t, 16> mask = [] {
    std::array<uint64_t, 16> m{};
    int n = 0;
    const blob::MapField* f = blob::Fields(&n);
    for (int i = 0; i < n; ++i) {
      if (f[i].ref != blob::Ref::kGlobalAddress) continue;
      for (const blob::Piece& p : f[i].pieces)
        for (int b = p.lo; b < p.lo + p.width; ++b) m[b / 64] |= uint64_t{1} << (b % 64);
    }
    return m;
  }();
  return mask;
}

blob::MapBytes ToBytes(const uint64_t (&w)[16]) { return blob::FromWords(w); }

std::string Range(uint64_t lo, uint64_t hi) {
  return StrCat("[", Hex(lo), ", ", Hex(hi), ") (", hi - lo, " bytes)");
}

// The record's map as an EncodeCall (the parameters decoded from its bytes), for the rule table's text.
bool AsCall(const LaunchRecord& r, EncodeCall* c) {
  TensorMapSpec spec;
  if (!LaunchSpec(r, &spec)) return false;
  *c = EncodeCall();
  SpecToCall(spec, c);
  c->result = 0;
  c->flags = kHasBytes;
  std::memcpy(c->bytes, r.words, sizeof(c->bytes));
  if (r.flags & kLaunchHasTarget) {
    c->target = r.target;
    c->flags |= kHasTarget;
  }
  c->driver_version = r.driver_version;
  c->pid = r.pid;
  c->tid = r.tid;
  return true;
}

}  // namespace

// ------------------------------------------------------------------------------------------ windows

void FindWindows(const ParamSlot* params, size_t n, std::vector<MapWindow>* out) {
  for (size_t i = 0; i < n; ++i) {
    for (uint64_t at = 0; at + kMapSize <= params[i].size; at += kWindowStep) {
      MapWindow w;
      w.param = static_cast<uint16_t>(i);
      w.param_offset = static_cast<uint32_t>(at);
      w.buffer_offset = static_cast<uint32_t>(params[i].offset + at);
      out->push_back(w);
    }
  }
}

bool NeverWrittenBitsClear(const uint64_t (&words)[16]) {
  const std::array<uint64_t, 16>& m = blob::NeverWrittenMask();
  uint64_t any = 0;
  for (int i = 0; i < 16; ++i) any |= words[i] & m[i];
  return any == 0;
}

WindowVerdict ExplainWindow(const uint64_t (&words)[16]) {
  WindowVerdict v;
  const std::array<uint64_t, 16>& m = blob::NeverWrittenMask();
  for (int i = 0; i < 16; ++i) v.never_written_bits_set += __builtin_popcountll(words[i] & m[i]);
  blob::Decoded d;
  blob::Decode(ToBytes(words), &d);
  v.decodes = d.spec_ok;
  v.reencodes = d.reencodes;
  return v;
}

namespace {
// The second half of IsSelfConsistentMap, for bytes whose never-written bits are already known to be clear:
// they decode to a spec and re-encode to the same bytes.
bool DecodesAndReencodes(const uint64_t (&words)[16], TensorMapSpec* spec) {
  thread_local blob::Decoded d;  // reused: Decode allocates only into its vectors
  blob::Decode(ToBytes(words), &d);
  if (!d.spec_ok || !d.reencodes) return false;
  *spec = d.spec;
  return true;
}
}  // namespace

bool IsSelfConsistentMap(const uint64_t (&words)[16], TensorMapSpec* spec) {
  return NeverWrittenBitsClear(words) && DecodesAndReencodes(words, spec);
}

bool IsDeviceBuiltMap(const uint64_t (&words)[16], TensorMapSpec* spec) {
  if (!NeverWrittenBitsClear(words)) return false;
  thread_local blob::Decoded d;
  blob::Decode(ToBytes(words), &d);
  if (!d.spec_ok || !d.unexplained.empty() || !d.recognised.empty()) return false;
  for (const blob::DecodeFinding& f : d.findings)
    if (!f.note) return false;
  if (d.spec.global_address == 0 || d.spec.global_address % 16 != 0) return false;
  *spec = d.spec;
  return true;
}

uint64_t HashMapWords(const uint64_t (&b)[16]) {
  // Four independent lanes, so that the multiplications overlap.
  uint64_t h[4] = {0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull, 0x27d4eb2f165667c5ull};
  for (int i = 0; i < 16; i += 4)
    for (int k = 0; k < 4; ++k) h[k] = (h[k] ^ b[i + k]) * 0x100000001b3ull;
  uint64_t x = h[0] ^ (h[1] >> 17) ^ (h[2] << 13) ^ (h[3] >> 29);
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  return x ^ (x >> 27);
}

void MaskAddress(const uint64_t (&words)[16], uint64_t (&out)[16]) {
  const std::array<uint64_t, 16>& m = AddressMask();
  for (int i = 0; i < 16; ++i) out[i] = words[i] & ~m[i];
}

// ------------------------------------------------------------------------------------------- MapCache

MapCache::MapCache(uint32_t capacity) : capacity_(capacity) {
  slots_.resize(PowerOfTwoAtLeast(uint64_t{2} * capacity));
  entries_.reserve(capacity);
}

MapCache::~MapCache() {
  for (MapInfo* m : infos_) delete m;
}

const MapInfo* MapCache::Classify(const uint64_t (&words)[16]) {
  if (!NeverWrittenBitsClear(words)) return nullptr;  // most non-maps end here, without a lookup
  const uint64_t h = HashMapWords(words);
  std::lock_guard<std::mutex> lock(mu_);
  const size_t mask = slots_.size() - 1;
  size_t i = h & mask;
  for (;; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.index < 0) break;
    if (s.hash == h) {
      const Entry& e = entries_[static_cast<size_t>(s.index)];
      if (std::memcmp(e.words, words, sizeof(e.words)) == 0) return e.is_map ? e.info : nullptr;
    }
  }
  ++judged_;
  TensorMapSpec spec;
  const bool is_map = DecodesAndReencodes(words, &spec);  // the never-written bits were tested above
  if (entries_.size() >= capacity_) {
    ++overflow_;
    if (!is_map) return nullptr;
    // Full: the answer is still right, for a map kept per thread until its next overflow.
    thread_local MapInfo spill;
    std::memcpy(spill.words, words, sizeof(spill.words));
    spill.spec = spec;
    spill.id = UINT32_MAX;
    return &spill;
  }
  Entry e;
  std::memcpy(e.words, words, sizeof(e.words));
  e.is_map = is_map;
  e.info = nullptr;
  if (is_map) {
    e.info = new MapInfo();
    std::memcpy(e.info->words, words, sizeof(e.info->words));
    e.info->spec = spec;
    e.info->id = static_cast<uint32_t>(infos_.size());
    infos_.push_back(e.info);
  }
  slots_[i].hash = h;
  slots_[i].index = static_cast<int32_t>(entries_.size());
  entries_.push_back(e);
  return e.info;
}

uint64_t MapCache::judged() const {
  std::lock_guard<std::mutex> lock(mu_);
  return judged_;
}
uint64_t MapCache::overflow() const {
  std::lock_guard<std::mutex> lock(mu_);
  return overflow_;
}
uint32_t MapCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<uint32_t>(entries_.size());
}

// --------------------------------------------------------------------------------------------- memory

absl::StatusOr<Extent> TensorExtent(const TensorMapSpec& s) {
  if (s.rank < 1 || s.rank > kMaxRank)
    return absl::InvalidArgumentError(ToAbsl(StrCat("tensor_rank ", s.rank, " is outside 1 to 5")));
  const unsigned __int128 inner = (static_cast<unsigned __int128>(s.global_dim[0]) * DataTypeBits(s.data_type) + 7) / 8;
  unsigned __int128 span = inner;
  for (uint32_t i = 1; i < s.rank; ++i) {
    if (s.global_dim[i] == 0) continue;
    span += static_cast<unsigned __int128>(s.global_dim[i] - 1) * s.global_strides[i - 1];
  }
  const unsigned __int128 hi = static_cast<unsigned __int128>(s.global_address) + span;
  if (hi > static_cast<unsigned __int128>(UINT64_MAX))
    return absl::InvalidArgumentError("the tensor's extent runs past the end of the 64-bit address space");
  Extent e;
  e.lo = s.global_address;
  e.hi = static_cast<uint64_t>(hi);
  return e;
}

const char* Name(MemoryProblem p) {
  switch (p) {
    case MemoryProblem::kNone: return "none";
    case MemoryProblem::kNoAllocation: return "no-allocation";
    case MemoryProblem::kTooSmall: return "too-small";
    case MemoryProblem::kWrongDevice: return "wrong-device";
    case MemoryProblem::kReallocated: return "reallocated";
  }
  return "?";
}

MemoryProblem CheckMemory(const Extent& e, const Allocation& a, int32_t launch_device, uint64_t encode_buffer_id) {
  if (!a.found || a.size == 0 || e.lo < a.base || e.lo >= a.base + a.size) return MemoryProblem::kNoAllocation;
  if (encode_buffer_id != 0 && a.buffer_id != 0 && a.buffer_id != encode_buffer_id) return MemoryProblem::kReallocated;
  if (e.hi > a.base + a.size || e.hi < e.lo) return MemoryProblem::kTooSmall;
  if (launch_device >= 0 && a.device >= 0 && a.device != launch_device) return MemoryProblem::kWrongDevice;
  return MemoryProblem::kNone;
}

// -------------------------------------------------------------------------------------------- origins

const char* Name(OriginKind k) {
  switch (k) {
    case OriginKind::kUnknown: return "unknown";
    case OriginKind::kTracedCall: return "traced";
    case OriginKind::kAddressReplaced: return "address-replaced";
  }
  return "?";
}

MapOrigins::MapOrigins() : exact_(kOriginSlots), masked_(kOriginSlots) {}

void MapOrigins::Remember(const uint64_t (&words)[16], uint32_t seq, CallKind call, uint64_t buffer_id) {
  uint64_t m[16];
  MaskAddress(words, m);
  std::lock_guard<std::mutex> lock(mu_);
  for (int k = 0; k < 2; ++k) {
    Slot& s = k == 0 ? exact_[HashMapWords(words) % kOriginSlots] : masked_[HashMapWords(m) % kOriginSlots];
    s.used = true;
    std::memcpy(s.words, words, sizeof(s.words));
    s.seq = seq;
    s.call = call;
    s.buffer_id = buffer_id;
  }
}

Origin MapOrigins::Find(const uint64_t (&words)[16]) const {
  Origin o;
  uint64_t m[16];
  MaskAddress(words, m);
  std::lock_guard<std::mutex> lock(mu_);
  const Slot& e = exact_[HashMapWords(words) % kOriginSlots];
  if (e.used && std::memcmp(e.words, words, sizeof(e.words)) == 0) {
    o.kind = OriginKind::kTracedCall;
  } else {
    const Slot& s = masked_[HashMapWords(m) % kOriginSlots];
    uint64_t sm[16];
    if (!s.used) return o;
    MaskAddress(s.words, sm);
    if (std::memcmp(sm, m, sizeof(m)) != 0) return o;
    o.kind = OriginKind::kAddressReplaced;
    o.seq = s.seq;
    o.call = s.call;
    o.buffer_id = s.buffer_id;
    o.address = blob::Decode(ToBytes(s.words)).spec.global_address;
    return o;
  }
  o.seq = e.seq;
  o.call = e.call;
  o.buffer_id = e.buffer_id;
  return o;
}

void MapOrigins::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  for (Slot& s : exact_) s.used = false;
  for (Slot& s : masked_) s.used = false;
}

// -------------------------------------------------------------------------------------------- records

const char* Name(LaunchCall c) {
  switch (c) {
    case LaunchCall::kLaunchKernel: return "cuLaunchKernel";
    case LaunchCall::kLaunchKernelEx: return "cuLaunchKernelEx";
    case LaunchCall::kLaunchCooperativeKernel: return "cuLaunchCooperativeKernel";
    case LaunchCall::kGraphKernelNode: return "graph kernel node";
    case LaunchCall::kRuntimeLaunch: return "cudaLaunchKernel";
    case LaunchCall::kDeviceMemory: return "device memory";
    case LaunchCall::kGraphLaunch: return "cuGraphLaunch";
  }
  return "?";
}

bool IsProblem(const LaunchRecord& r) {
  return r.problem != MemoryProblem::kNone || (r.flags & kLaunchInvalidMap);
}

bool LaunchSpec(const LaunchRecord& r, TensorMapSpec* spec) {
  blob::Decoded d;
  blob::Decode(ToBytes(r.words), &d);
  if (!d.spec_ok) return false;
  *spec = d.spec;
  if (r.flags & kLaunchHasTarget) {
    spec->target = static_cast<Target>(r.target);
    spec->set_fields |= kFieldTarget;
  }
  if (r.driver_version != 0) {
    spec->driver_version = r.driver_version;
    spec->set_fields |= kFieldDriverVersion;
  }
  return true;
}

std::string ExplainLaunch(const LaunchRecord& r) {
  std::string o = "tmapgen trace: ";
  const std::string kernel = r.kernel[0] ? std::string(FieldView(r.kernel, kKernelNameMax)) : std::string("(unnamed kernel)");
  switch (r.problem) {
    case MemoryProblem::kNoAllocation: o += "a kernel received a tensor map whose tensor is in no live allocation"; break;
    case MemoryProblem::kTooSmall: o += "a kernel received a tensor map whose tensor runs past the end of its allocation"; break;
    case MemoryProblem::kWrongDevice: o += "a kernel received a tensor map whose tensor is on another device"; break;
    case MemoryProblem::kReallocated: o += "a kernel received a tensor map whose tensor was freed and its memory reallocated"; break;
    case MemoryProblem::kNone:
      o += (r.flags & kLaunchInvalidMap) ? "a kernel received a tensor map that breaks a documented rule"
                                         : "a kernel received a tensor map";
      break;
  }
  StrAppend(&o, " (pid ", r.pid, ", tid ", r.tid, ")\n");
  StrAppend(&o, "  kernel ", kernel, ", ", Name(r.call));
  if (r.call == LaunchCall::kDeviceMemory)
    StrAppend(&o, ", in device memory at offset ", r.buffer_offset, " from the pointer in parameter ", r.param, "\n");
  else
    StrAppend(&o, ", parameter ", r.param, " at offset ", r.buffer_offset, " of the parameter buffer\n");
  EncodeCall c;
  if (AsCall(r, &c)) StrAppend(&o, "  map: ", DescribeParams(c), "\n");
  StrAppend(&o, "  tensor extent ", Range(r.extent_lo, r.extent_hi), "\n");
  if (r.flags & kLaunchHasAllocation) {
    if (r.alloc_size == 0) {
      StrAppend(&o, "  allocation: none holds ", Hex(r.extent_lo), " (freed, or never allocated)\n");
    } else {
      StrAppend(&o, "  allocation ", Range(r.alloc_base, r.alloc_base + r.alloc_size));
      if (r.alloc_device >= 0) StrAppend(&o, " on device ", r.alloc_device);
      StrAppend(&o, ", the launch runs on device ", r.launch_device, "\n");
    }
  }
  switch (r.problem) {
    case MemoryProblem::kTooSmall:
      StrAppend(&o, "  error: the tensor needs ", r.extent_hi - r.extent_lo, " bytes from ", Hex(r.extent_lo), "; the allocation ends ",
                r.extent_hi - (r.alloc_base + r.alloc_size), " bytes before the tensor does\n");
      break;
    case MemoryProblem::kNoAllocation:
      o += "  error: copies through this map read or write memory the program no longer owns\n";
      break;
    case MemoryProblem::kReallocated:
      StrAppend(&o, "  error: the map was encoded over allocation ", r.origin_buffer_id, " (buffer id); the address now lies in allocation ",
                r.alloc_buffer_id, ": the tensor was freed before the launch and its memory reused\n");
      break;
    case MemoryProblem::kWrongDevice:
      o += "  error: a kernel reaches another device's memory only through peer access\n";
      break;
    case MemoryProblem::kNone: break;
  }
  if ((r.flags & kLaunchInvalidMap) && AsCall(r, &c)) {
    TensorMapSpec spec;
    CallToSpec(c, &spec);
    Validation v;
    Validate(spec, &v);
    for (const Diagnostic& d : MakeDiagnostics(spec, v)) {
      if (d.severity != Severity::kError) continue;
      StrAppend(&o, "  error [", d.rule, "] ", d.field, ": ", d.message, "\n");
      if (!d.fix.empty()) StrAppend(&o, "      fix: ", d.fix, "\n");
    }
  }
  switch (r.origin) {
    case OriginKind::kTracedCall:
      StrAppend(&o, "  origin: the traced call of record ", r.origin_seq, " wrote these bytes\n");
      break;
    case OriginKind::kAddressReplaced:
      StrAppend(&o, "  origin: the map of record ", r.origin_seq, " with its global address changed from ", Hex(r.origin_address),
                " without the driver (tensormap.replace, or bytes patched by hand)\n");
      break;
    case OriginKind::kUnknown:
      o += "  origin: no traced cuTensorMapEncode* wrote these bytes (an encoder of its own, bytes built or edited by hand, "
           "or a map encoded before tracing began)\n";
      break;
  }
  std::string line;
  AppendLaunchRecordJson(r, &line);
  StrAppend(&o, "  record: ", line, "\n");
  return o;
}

void AppendLaunchRecordJson(const LaunchRecord& r, std::string* out) {
  TensorMapSpec spec;
  if (LaunchSpec(r, &spec)) {
    json::Writer sw;
    WriteSpecJson(spec, &sw);
    std::string text = sw.Take();
    text.pop_back();
    out->append(text);
    out->push_back(',');
  } else {
    out->push_back('{');
  }
  json::Writer w;
  w.BeginObject();
  w.Key("bytes").String(BytesHex(r.words));
  w.Key("trace").BeginObject();
  w.Key("call").String(Name(r.call));
  w.Key("kernel").String(FieldView(r.kernel, kKernelNameMax));
  if (r.call == LaunchCall::kDeviceMemory) {
    w.Key("pointer_param").Uint(r.param).Key("pointer_offset").Uint(r.buffer_offset);
  } else {
    w.Key("param").Uint(r.param).Key("param_offset").Uint(r.buffer_offset);
  }
  w.Key("pid").Int(r.pid).Key("tid").Int(r.tid).Key("seq").Uint(r.seq);
  w.Key("launch_device").Int(r.launch_device);
  w.Key("extent").BeginArray().String(Hex(r.extent_lo)).String(Hex(r.extent_hi)).EndArray();
  if (r.flags & kLaunchHasAllocation) {
    if (r.alloc_size == 0) {
      w.Key("allocation").Null();
    } else {
      w.Key("allocation").BeginObject();
      w.Key("base").String(Hex(r.alloc_base)).Key("size").Uint(r.alloc_size).Key("device").Int(r.alloc_device);
      if (r.alloc_buffer_id) w.Key("buffer_id").Uint(r.alloc_buffer_id);
      w.EndObject();
    }
  }
  w.Key("memory").String(Name(r.problem));
  w.Key("valid_for_target").Bool(!(r.flags & kLaunchInvalidMap));
  w.Key("origin").String(Name(r.origin));
  if (r.origin != OriginKind::kUnknown) w.Key("origin_seq").Uint(r.origin_seq);
  if (r.origin == OriginKind::kAddressReplaced) w.Key("origin_address").String(Hex(r.origin_address));
  if (r.origin_buffer_id) w.Key("origin_buffer_id").Uint(r.origin_buffer_id);
  w.EndObject();
  w.EndObject();
  std::string t = w.Take();
  out->append(t, 1, std::string::npos);
}

// --------------------------------------------------------------------------------------------- files

absl::StatusOr<LaunchTotals> ParseKernels(std::string_view bytes) {
  if (bytes.size() < sizeof(KernelsHeader)) return absl::DataLossError("shorter than its header");
  KernelsHeader h;
  std::memcpy(static_cast<void*>(&h), bytes.data(), sizeof(h));
  if (std::memcmp(h.magic, kKernelsMagic, sizeof(kKernelsMagic)) != 0)
    return absl::InvalidArgumentError("not a kernel-count file (magic)");
  if (bytes.size() < KernelsFileSize(h.capacity)) return absl::DataLossError("shorter than its capacity");
  LaunchTotals totals;
  totals.launches = h.launches.load();
  totals.scanned = h.scanned.load();
  totals.unscanned = h.unscanned.load();
  totals.kernels_dropped = h.kernels_dropped.load();
  totals.device_reads = h.device_reads.load();
  const uint32_t used = std::min(h.used, h.capacity);
  for (uint32_t i = 0; i < used; ++i) {
    KernelCounts k;
    std::memcpy(static_cast<void*>(&k), bytes.data() + sizeof(KernelsHeader) + i * sizeof(KernelCounts), sizeof(k));
    if (k.function == 0) continue;
    KernelSummary s;
    s.name = std::string(FieldView(k.name, kKernelNameMax));
    s.launches = k.launches.load();
    s.maps = k.maps.load();
    s.problems = k.problems.load();
    totals.kernels.push_back(std::move(s));
  }
  return totals;
}

namespace {
uint32_t LaunchCheck(const char* p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(p[i])) * 16777619u;
  return h;
}
}  // namespace

void MakeLaunchFrame(const LaunchRecord& r, char* buf) {
  const uint32_t head[4] = {kLaunchFrameMagic, kLaunchVersion, static_cast<uint32_t>(sizeof(LaunchRecord)),
                            LaunchCheck(reinterpret_cast<const char*>(&r), sizeof(r))};
  std::memcpy(buf, head, sizeof(head));
  std::memcpy(buf + sizeof(head), &r, sizeof(r));
}

size_t ParseLaunchFrames(std::string_view bytes, std::vector<LaunchRecord>* out) {
  size_t skipped = 0, at = 0;
  while (at + kLaunchFrameSize <= bytes.size()) {
    uint32_t head[4];
    std::memcpy(head, bytes.data() + at, sizeof(head));
    if (head[0] == kLaunchFrameMagic && head[1] == kLaunchVersion && head[2] == sizeof(LaunchRecord) &&
        head[3] == LaunchCheck(bytes.data() + at + 16, sizeof(LaunchRecord))) {
      LaunchRecord r;
      std::memcpy(static_cast<void*>(&r), bytes.data() + at + 16, sizeof(r));
      out->push_back(r);
      at += kLaunchFrameSize;
      continue;
    }
    ++at;
    ++skipped;
  }
  return skipped + (bytes.size() - at);
}

}  // namespace tmapgen::trace
