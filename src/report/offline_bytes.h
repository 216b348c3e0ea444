// offline_bytes.h: the 128 bytes of a valid spec's map as the driver would write them, computed without a
// GPU (src/blob), for the reports; and, where the driver also encoded the spec, the comparison of the two.
//
// Contract
// - Shown for valid specs only. When the spec is outside the measured evidence (blob::Encode's error: a
//   Blackwell target, a sub-byte type, a 128B_ATOM_* swizzle), the report says so instead of bytes.
// - JSON keys added to a report object (docs/json-report.md): "bytes" (256 lowercase hex digits, byte 0
//   first), "bytes_source" (the layout's evidence: driver and device measured), "bytes_caveats" (array, when
//   any), or "bytes_unavailable" (why); and inside "encoding", when the driver encoded the map:
//   "offline_match" (bool) and, when false, "offline_differing_bits" and "finding".
// - The comparison leaves out the global_address field when the spec gives no address (the driver was then
//   given a placeholder); any other difference is a finding: the driver writes a layout tmapgen has no
//   evidence for (a new driver or another architecture).
// - No I/O.
#ifndef TMAPGEN_SRC_REPORT_OFFLINE_BYTES_H_
#define TMAPGEN_SRC_REPORT_OFFLINE_BYTES_H_

#include <string>
#include <vector>

#include "src/blob/blob.h"
#include "src/json/json_writer.h"
#include "src/report/report.h"

namespace tmapgen {

struct OfflineBytes {
  bool shown = false;            // the spec is valid
  bool ok = false;               // bytes computed
  blob::MapBytes bytes{};
  std::string unavailable;       // why not, when !ok
  std::vector<std::string> caveats;
  bool compared = false;         // the driver's encoding exists and was compared
  bool match = false;
  std::vector<int> differing_bits;
};

OfflineBytes ComputeOfflineBytes(const TensorMapSpec& spec, const Validation& v, const Encoding& enc);
// The "bytes..." keys of a report object.
void WriteOfflineBytesJson(const OfflineBytes& ob, json::Writer* w);
// The keys inside the report's "encoding" object.
void WriteOfflineComparisonJson(const OfflineBytes& ob, json::Writer* w);
// The text section ("" when not shown).
std::string RenderOfflineBytesText(const OfflineBytes& ob, bool color);
// The finding text for a difference ("" when none).
std::string OfflineFinding(const OfflineBytes& ob);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_REPORT_OFFLINE_BYTES_H_
