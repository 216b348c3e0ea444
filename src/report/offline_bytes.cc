#include "src/report/offline_bytes.h"

#include "src/util/strings.h"
#include "src/util/text_util.h"

namespace tmapgen {

OfflineBytes ComputeOfflineBytes(const TensorMapSpec& spec, const Validation& v, const Encoding& enc) {
  OfflineBytes ob;
  if (!v.valid) return ob;
  ob.shown = true;
  absl::StatusOr<blob::Encoded> e = blob::Encode(spec);
  if (!e.ok()) {
    ob.unavailable = std::string(FromAbsl(e.status().message()));
    return ob;
  }
  ob.ok = true;
  ob.bytes = e->bytes;
  ob.caveats = std::move(e->caveats);
  if (enc.attempted && enc.cu_result == 0) {
    ob.compared = true;
    const blob::MapBytes driver = blob::FromWords(enc.map);
    int n = 0;
    const blob::MapField* fields = blob::Fields(&n);
    const blob::MapField& address = fields[0];  // global_address, the first row of the table
    for (int bit : blob::DifferingBits(ob.bytes, driver)) {
      const bool in_address = bit >= address.pieces[0].lo && bit < address.pieces[0].lo + address.pieces[0].width;
      if (in_address && !spec.Has(kFieldGlobalAddress)) continue;
      ob.differing_bits.push_back(bit);
    }
    ob.match = ob.differing_bits.empty();
  }
  return ob;
}

std::string OfflineFinding(const OfflineBytes& ob) {
  if (!ob.compared || ob.match) return "";
  std::string bits;
  for (size_t i = 0; i < ob.differing_bits.size() && i < 32; ++i) StrAppend(&bits, i ? ", " : "", ob.differing_bits[i]);
  if (ob.differing_bits.size() > 32) StrAppend(&bits, ", ...");
  const blob::Evidence& ev = blob::MeasuredEvidence();
  return StrCat("FINDING: this driver's bytes differ from tmapgen's offline encoding at bit", ob.differing_bits.size() == 1 ? " " : "s ",
                bits, ": the layout was measured with driver ", ev.driver, " on ", ev.device,
                "; this driver writes another one (please report it with `tmapgen decode` of both maps)");
}

void WriteOfflineBytesJson(const OfflineBytes& ob, json::Writer* w) {
  if (!ob.shown) return;
  if (!ob.ok) {
    w->Key("bytes_unavailable").String(ob.unavailable);
    return;
  }
  w->Key("bytes").String(blob::ToHex(ob.bytes));
  const blob::Evidence& ev = blob::MeasuredEvidence();
  w->Key("bytes_source").String(StrCat("offline (src/blob), layout measured with driver ", ev.driver, " on ", ev.device));
  if (!ob.caveats.empty()) {
    w->Key("bytes_caveats").BeginArray();
    for (const std::string& c : ob.caveats) w->String(c);
    w->EndArray();
  }
}

void WriteOfflineComparisonJson(const OfflineBytes& ob, json::Writer* w) {
  if (!ob.compared) return;
  w->Key("offline_match").Bool(ob.match);
  if (!ob.match) {
    w->Key("offline_differing_bits").BeginArray();
    for (int b : ob.differing_bits) w->Int(b);
    w->EndArray();
    w->Key("finding").String(OfflineFinding(ob));
  }
}

std::string RenderOfflineBytesText(const OfflineBytes& ob, bool color) {
  if (!ob.shown) return "";
  const TermColors c{color};
  std::string o = StrCat(c.bold(), "bytes", c.off(), " (offline; layout measured with driver ", blob::MeasuredEvidence().driver,
                         " on ", blob::MeasuredEvidence().device, ")\n");
  if (!ob.ok) return o + StrCat("  not available: ", ob.unavailable, "\n");
  const std::string hex = blob::ToHex(ob.bytes);
  for (size_t i = 0; i < hex.size(); i += 64) StrAppend(&o, "  ", hex.substr(i, 64), "\n");
  for (const std::string& cv : ob.caveats) StrAppend(&o, "  note: ", cv, "\n");
  if (ob.compared)
    o += ob.match ? "  the driver's encoding on this host is identical\n"
                  : StrCat("  ", c.red(), OfflineFinding(ob), c.off(), "\n");
  return o;
}

}  // namespace tmapgen
