#include "src/trace/stream.h"

#include <cstring>

#include "src/util/strings.h"

namespace tmapgen::trace {

uint32_t FrameCheck(const EncodeCall& call) {
  // FNV-1a over the record: detects torn and foreign frames (not an integrity guarantee).
  const unsigned char* p = reinterpret_cast<const unsigned char*>(&call);
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < sizeof(EncodeCall); ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

void MakeFrame(const EncodeCall& call, char* buf) {
  FrameHeader h{kFrameMagic, kStreamVersion, static_cast<uint32_t>(sizeof(EncodeCall)), FrameCheck(call)};
  std::memcpy(buf, &h, sizeof(h));
  std::memcpy(buf + sizeof(h), &call, sizeof(call));
}

absl::StatusOr<ProcessInfo> ParseState(std::string_view bytes) {
  if (bytes.size() < sizeof(StateHeader))
    return absl::DataLossError(ToAbsl(
        StrCat("state file too short (", bytes.size(), " bytes, the header alone is ", sizeof(StateHeader), ")")));
  // Read the header field by field from the bytes (the atomics are plain 64-bit words in the file).
  const char* p = bytes.data();
  if (std::memcmp(p, kStateMagic, sizeof(kStateMagic)) != 0)
    return absl::InvalidArgumentError("not a tmapgen trace state file (bad magic)");
  auto u32 = [&](size_t off) { uint32_t v; std::memcpy(&v, p + off, 4); return v; };
  auto u64 = [&](size_t off) { uint64_t v; std::memcpy(&v, p + off, 8); return v; };
  const uint32_t version = u32(offsetof(StateHeader, version));
  if (version != kStreamVersion)
    return absl::InvalidArgumentError(
        ToAbsl(StrCat("state file of format version ", version, "; this tmapgen reads version ", kStreamVersion)));
  const uint32_t capacity = u32(offsetof(StateHeader, capacity));
  if (bytes.size() < StateFileSize(capacity))
    return absl::DataLossError(ToAbsl(StrCat("state file truncated: ", bytes.size(), " bytes for ", capacity, " counts")));
  absl::StatusOr<ProcessInfo> info{ProcessInfo()};
  ProcessInfo* out = &*info;
  out->pid = static_cast<int32_t>(u32(offsetof(StateHeader, pid)));
  out->ppid = static_cast<int32_t>(u32(offsetof(StateHeader, ppid)));
  const uint32_t st = u32(offsetof(StateHeader, state));
  out->state = st <= 2 ? static_cast<ProcessState>(st) : ProcessState::kStarting;
  out->all = u32(offsetof(StateHeader, all)) != 0;
  out->forked = u32(offsetof(StateHeader, forked)) != 0;
  out->calls = u64(offsetof(StateHeader, calls));
  out->records = u64(offsetof(StateHeader, records));
  out->dropped_calls = u64(offsetof(StateHeader, dropped_calls));
  out->write_errors = u64(offsetof(StateHeader, write_errors));
  out->message = std::string(FieldView(p + offsetof(StateHeader, message), sizeof(StateHeader::message)));
  out->exe = std::string(FieldView(p + offsetof(StateHeader, exe), sizeof(StateHeader::exe)));
  out->counts.resize(capacity);
  for (uint32_t i = 0; i < capacity; ++i) out->counts[i] = u64(sizeof(StateHeader) + 8 * static_cast<size_t>(i));
  return info;
}

size_t ParseCalls(std::string_view bytes, std::vector<EncodeCall>* calls) {
  size_t skipped = 0;
  size_t i = 0;
  while (i < bytes.size()) {
    if (bytes.size() - i < kFrameSize) {
      skipped += bytes.size() - i;
      break;
    }
    FrameHeader h;
    std::memcpy(&h, bytes.data() + i, sizeof(h));
    if (h.magic == kFrameMagic && h.version == kStreamVersion && h.size == sizeof(EncodeCall)) {
      EncodeCall c;
      std::memcpy(&c, bytes.data() + i + sizeof(h), sizeof(c));
      if (FrameCheck(c) == h.check) {
        // Fixed text fields are NUL-terminated by construction; make sure of it for foreign bytes.
        c.caller[kCallerMax - 1] = 0;
        c.caller_symbol[kSymbolMax - 1] = 0;
        calls->push_back(c);
        i += kFrameSize;
        continue;
      }
    }
    // Resynchronise on the next frame magic.
    size_t j = i + 1;
    for (; j + 4 <= bytes.size(); ++j) {
      uint32_t m;
      std::memcpy(&m, bytes.data() + j, 4);
      if (m == kFrameMagic) break;
    }
    if (j + 4 > bytes.size()) j = bytes.size();
    skipped += j - i;
    i = j;
  }
  return skipped;
}

}  // namespace tmapgen::trace
