// diff.cc: see diff.h.
#include "src/ops/diff.h"

#include <string_view>

#include "src/report/decode_report.h"
#include "src/blob/layout_doc.h"
#include "src/util/strings.h"

namespace tmapgen::ops {
namespace {

using blob::Decoded;
using blob::FieldValue;
using blob::MapField;

const FieldValue* Find(const Decoded& d, std::string_view name) {
  for (const FieldValue& f : d.fields)
    if (f.field->name == name) return &f;
  for (const FieldValue& f : d.recognised)
    if (f.field->name == name) return &f;
  return nullptr;
}

bool Covered(const Decoded& d, int bit) {
  auto in = [bit](const MapField& f) {
    for (const blob::Piece& p : f.pieces)
      if (bit >= p.lo && bit < p.lo + p.width) return true;
    return false;
  };
  for (const FieldValue& f : d.fields)
    if (in(*f.field)) return true;
  for (const FieldValue& f : d.recognised)
    if (in(*f.field)) return true;
  return false;
}

}  // namespace

absl::StatusOr<DiffResult> RunDiff(const DiffRequest& req) {
  DiffResult out;
  const Decoded da = blob::Decode(req.a), db = blob::Decode(req.b);
  std::vector<DiffRow>& rows = out.rows;
  if (da.layout != db.layout)
    rows.push_back({"layout", "64, 68-70", std::string(blob::LayoutName(da.layout)), std::string(blob::LayoutName(db.layout))});
  int n = 0;
  const MapField* fields = blob::Fields(&n);
  std::vector<std::string_view> done;
  for (int k = 0; k < n; ++k) {
    const std::string_view name = fields[k].name;
    bool seen = false;
    for (std::string_view s : done) seen = seen || s == name;
    if (seen) continue;
    const FieldValue* fa = Find(da, name);
    const FieldValue* fb = Find(db, name);
    if (!fa && !fb) continue;
    done.push_back(name);
    if (fa && fb && fa->raw == fb->raw && fa->field == fb->field) continue;
    auto absent = [&](const Decoded& d) {
      const MapField& f = fa ? *fa->field : *fb->field;
      return (f.layouts & d.layout) ? StrCat("(beyond rank ", d.spec.rank, ")") : std::string("(not in this layout)");
    };
    rows.push_back({std::string(name), blob::BitsText(fa ? *fa->field : *fb->field),
                    fa ? blob::ValueText(*fa, da.spec) : absent(da), fb ? blob::ValueText(*fb, db.spec) : absent(db)});
  }
  for (int bit : blob::DifferingBits(req.a, req.b))
    if (!Covered(da, bit) && !Covered(db, bit)) out.raw_bits.push_back(bit);
  out.equal = req.a == req.b;
  return out;
}

}  // namespace tmapgen::ops
