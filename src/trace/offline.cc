#include "src/trace/offline.h"

#include <cstring>

#include "src/blob/blob.h"
#include "src/trace/call_spec.h"
#include "src/trace/record_json.h"
#include "src/util/status.h"

namespace tmapgen::trace {
namespace {

blob::MapBytes ToMap(const uint64_t (&words)[16]) { return blob::FromWords(words); }

}  // namespace

bool CheckOffline(const EncodeCall& c, OfflineCheck* out) {
  *out = OfflineCheck();
  if (c.result != 0 || !(c.flags & kHasBytes) || !IsReplayable(c)) return false;
  TensorMapSpec spec;
  if (CallToSpec(c, &spec) != 0) return false;
  blob::MapBytes want;
  if (const absl::Status st = blob::EncodeInto(spec, &want); !st.ok()) {
    out->kind = OfflineCheck::kNotCovered;
    out->why = std::string(StatusMessage(st));
    return true;
  }
  const blob::MapBytes got = ToMap(c.bytes);
  out->differing_bits = blob::DifferingBits(got, want);
  out->kind = out->differing_bits.empty() ? OfflineCheck::kEqual : OfflineCheck::kDiffers;
  return true;
}

bool DecodeSource(EncodeCall* c) {
  if (c->kind != CallKind::kReplaceAddress || (c->flags & kHasSource) || !(c->flags & kHasBytesBefore)) return false;
  blob::Decoded d;
  blob::Decode(ToMap(c->bytes_before), &d);
  if (!d.spec_ok) return false;
  const uint64_t address = c->global_address;  // the new address the call set
  TensorMapSpec s = d.spec;
  SpecToCall(s, c);
  c->global_address = address;
  c->flags |= kDecodedSource;
  return true;
}

}  // namespace tmapgen::trace
