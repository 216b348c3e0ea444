// proto_convert.h: the core spec and report <-> the tmapgen.v1 Protobuf messages (proto/tmapgen.proto).
//
// Contract
// - SpecFromProto accepts exactly what the text format accepts (it is the same conversion as
//   cli/textproto_protobuf.cc) and in addition rejects enum numbers outside the schema (binary
//   Protobuf keeps unknown enum values); a failure is an input error (input_error.h) naming the field.
// - SpecToProto writes the canonical form (only the fields the mode uses, plus every field set).
// - FillReport builds the v1::Report of a validation, the same message `--format textproto` prints;
//   DiagnosticToProto is the one conversion of a diagnostic it uses (the service's replies use it too).
#ifndef TMAPGEN_SRC_SCHEMA_PROTO_CONVERT_H_
#define TMAPGEN_SRC_SCHEMA_PROTO_CONVERT_H_

#include "proto/tmapgen.pb.h"
#include "src/report/report.h"
#include "src/schema/spec_json.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

namespace tmapgen {

absl::Status SpecFromProto(const v1::TensorMapSpec& m, TensorMapSpec* spec);
void SpecToProto(const TensorMapSpec& spec, v1::TensorMapSpec* m);
void DiagnosticToProto(const Diagnostic& d, v1::Diagnostic* p);
void FillReport(int index, const TensorMapSpec& spec, const Validation& v, const Encoding& enc, v1::Report* r);
void FillInputErrorReport(int index, const InputError& e, v1::Report* r);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_SCHEMA_PROTO_CONVERT_H_
