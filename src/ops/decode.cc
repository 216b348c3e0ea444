// decode.cc: see decode.h.
#include "src/ops/decode.h"

#include "src/tmap/validator.h"
#include "src/util/strings.h"

namespace tmapgen::ops {

absl::StatusOr<DecodeSummary> RunDecode(const DecodeRequest& req,
                                        const std::function<absl::Status(const DecodedMap&)>& each) {
  DecodeSummary sum;
  DecodedMap m;
  std::string label;
  Validation v;
  for (size_t i = 0; i < req.maps.size(); ++i) {
    m.index = static_cast<int>(i);
    if (i < req.labels.size()) {
      m.label = req.labels[i];
    } else {
      label = StrCat("map ", i);
      m.label = label;
    }
    m.bytes = &req.maps[i];
    blob::Decode(req.maps[i], &m.decoded);
    m.valid = m.decoded.spec_ok;
    if (m.valid && req.options.validate) {
      Validate(blob::ReportedSpec(m.decoded, req.options), &v);
      m.valid = v.valid;
    }
    m.clean = blob::Clean(m.decoded);
    sum.all_clean_and_valid = sum.all_clean_and_valid && m.valid && m.clean;
    if (absl::Status s = each(m); !s.ok()) return s;
  }
  return sum;
}

}  // namespace tmapgen::ops
