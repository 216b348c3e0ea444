// blob.h: decode a 128-byte CUtensorMap into the parameters that made it, and encode parameters into the
// 128 bytes the driver would write, without a GPU or a driver. The stable API of src/blob, called by the
// command line (tmapgen decode / diff / codegen), the service (Decode RPC) and the Python package.
//
//   blob::MapBytes m = ...;                      // 128 bytes, as the driver wrote them
//   blob::Decoded d = blob::Decode(m);
//   if (d.spec_ok) Validate(d.spec, &v);         // the recovered cuTensorMapEncode* parameters
//   for (const blob::UnexplainedBit& u : d.unexplained) ...   // bits no measured driver writes
//
//   absl::StatusOr<blob::Encoded> e = blob::Encode(spec);
//   if (e.ok()) use(e->bytes, e->caveats); else explain(e.status().message());
//
// Contract
// - The layout is the table of src/blob/layout.h, derived only from what the real driver wrote
//   (MeasuredEvidence(): which driver, which device, which corpora). docs/tensormap-layout.md documents it.
// - Decode never fails and never reads outside its 128 bytes: any bit pattern gives a Decoded. Every set
//   bit is accounted for exactly once: it belongs to a recovered field, to a recognised bit (bit 85), or
//   is listed in `unexplained` by position. Values no measured driver writes (an unknown data-type code, a
//   derived field that disagrees with the parameters, rank 0 or > 5) are `findings` naming the field; the
//   derived-field ones are notes (`note`): tensormap.replace leaves those fields as they were.
//   `spec_ok` is true when every parameter was recovered, so that the spec can be validated and encoded.
// - What a map cannot tell: the mode of use (gather4/scatter4 maps are tiled maps; the sm_90 driver writes
//   im2col::w and im2col::w::128 maps exactly like im2col maps whose corners beyond W are zero: then
//   `maybe_wide` is set, and the wide mode is not recoverable), the direction, the target, the shared-memory
//   destination. Decode gives mode tiled or im2col.
// - Encode(spec) returns the bytes the measured driver writes for the spec's cuTensorMapEncode* call, for
//   every spec that driver accepts, or an error that says why not: a value that does not fit its field
//   (naming the field: "global_dim[1] = 0: ..."), or a spec outside the measured evidence (data types 13-15
//   and the 128B_ATOM_* swizzles, which the sm_90 driver rejects so their codes are unknown; a target other
//   than sm_90/sm_90a, whose driver may write other bits, e.g. bit 85 on Blackwell). Encode does not run
//   the validator: a representable spec the driver would reject still encodes (the report shows bytes only
//   for valid specs). `caveats` say plainly what the bytes rest on (a global address not given, a wide mode
//   the sm_90 driver does not write).
// - Decode(Encode(s).bytes) gives back s's cuTensorMapEncode* parameters, and Encode(Decode(m).spec) gives
//   back m for every map the measured driver wrote (tests/blob: the shared corpus and tmapgen's own).
// - No I/O, thread-safe, no global state. Decode allocates only into the vectors of the Decoded it fills
//   (reuse one Decoded to decode many maps without allocating).
#ifndef TMAPGEN_SRC_BLOB_BLOB_H_
#define TMAPGEN_SRC_BLOB_BLOB_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/blob/layout.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen::blob {

// What the layout was derived from.
struct Evidence {
  std::string_view driver;       // "580.159.04"
  int cuda_driver_version;       // cuDriverGetVersion: 13000
  std::string_view device;       // "NVIDIA H200 (sm_90)"
  std::string_view corpora;      // the corpora and their sizes, one line
};
const Evidence& MeasuredEvidence();

// One recovered field.
struct FieldValue {
  const MapField* field = nullptr;
  uint64_t raw = 0;     // the bits, pieces concatenated
  int64_t value = 0;    // the decoded value (kDataTypeCode: the cuda.h value; -1 when the code is unknown)
};

// A set bit that no active field and no recognised bit explains.
struct UnexplainedBit {
  int bit = 0;
  // The field whose bits these are in another layout or at a higher rank ("global_dim[3]"), or "".
  std::string_view other_field;
};

struct DecodeFinding {
  std::string field;    // "tensor_data_type", "box_bytes"
  std::string message;  // what is wrong, with the values
  // A note rather than an error: a derived field that disagrees with the parameters. tensormap.replace never
  // writes the derived fields (measured on the H200), so maps changed or built on the device carry stale or
  // zero ones, and TMA loads through such maps were correct (docs/tensormap-layout.md).
  bool note = false;
};

struct Decoded {
  uint8_t layout = 0;        // LayoutBit of the map (0: a layout no measured driver writes)
  bool spec_ok = false;      // every parameter was recovered (spec holds them)
  TensorMapSpec spec;        // mode tiled or im2col; set_fields names what was recovered
  bool maybe_wide = false;   // the bytes are also what the sm_90 driver writes for an im2col::w map
  bool reencodes = false;    // Encode(spec) gives back exactly these 128 bytes
  std::vector<FieldValue> fields;      // every active field, in table order
  std::vector<FieldValue> recognised;  // recognised bits that are set (bit 85)
  std::vector<UnexplainedBit> unexplained;
  std::vector<DecodeFinding> findings;
};

void Decode(const MapBytes& bytes, Decoded* out);  // reuses out's storage
Decoded Decode(const MapBytes& bytes);

struct Encoded {
  MapBytes bytes{};
  std::vector<std::string> caveats;
};

// The bytes the measured driver writes for `spec` (see the contract above).
absl::StatusOr<Encoded> Encode(const TensorMapSpec& spec);
// The same without allocation on success (no caveats): kInvalidArgument naming the field and the reason, as
// Encode.
absl::Status EncodeInto(const TensorMapSpec& spec, MapBytes* out);

// ---- byte forms ---------------------------------------------------------------------------------------
// 256 lowercase hex digits, byte 0 first.
std::string ToHex(const MapBytes& bytes);
// The 16 little-endian 64-bit words.
void ToWords(const MapBytes& bytes, uint64_t words[16]);
MapBytes FromWords(const uint64_t words[16]);

// Bits that differ between two maps, ascending.
std::vector<int> DifferingBits(const MapBytes& a, const MapBytes& b);

}  // namespace tmapgen::blob

#endif  // TMAPGEN_SRC_BLOB_BLOB_H_
