// proto_convert.h: the core spec <-> the tmapgen.v1 Protobuf message (proto/tmapgen.proto); the report's
// message is src/report/report_proto.h.
//
// Contract
// - SpecFromProto accepts exactly what the text format accepts (it is the same conversion as
//   cli/textproto_protobuf.cc) and in addition rejects enum numbers outside the schema (binary
//   Protobuf keeps unknown enum values); a failure is an input error (input_error.h) naming the field.
// - SpecToProto writes the canonical form (only the fields the mode uses, plus every field set).
#ifndef TMAPGEN_SRC_SCHEMA_PROTO_CONVERT_H_
#define TMAPGEN_SRC_SCHEMA_PROTO_CONVERT_H_

#include "proto/tmapgen.pb.h"
#include "src/schema/spec_json.h"
#include "src/tmap/tensor_map_spec.h"

namespace tmapgen {

absl::Status SpecFromProto(const v1::TensorMapSpec& m, TensorMapSpec* spec);
void SpecToProto(const TensorMapSpec& spec, v1::TensorMapSpec* m);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_SCHEMA_PROTO_CONVERT_H_
