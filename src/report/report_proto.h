// report_proto.h: a validation's report as the tmapgen.v1 Protobuf message (proto/tmapgen.proto).
//
// Contract
// - FillReport builds the v1::Report of a validation, the same message `--format textproto` prints;
//   DiagnosticToProto is the one conversion of a diagnostic it uses (the service's replies use it too).
// - FillInputErrorReport: the report of a spec that could not be read (rule "input-error", naming the field).
#ifndef TMAPGEN_SRC_REPORT_REPORT_PROTO_H_
#define TMAPGEN_SRC_REPORT_REPORT_PROTO_H_

#include "proto/tmapgen.pb.h"
#include "src/report/report.h"
#include "src/schema/input_error.h"
#include "src/tmap/tensor_map_spec.h"
#include "src/tmap/validator.h"

namespace tmapgen {

void DiagnosticToProto(const Diagnostic& d, v1::Diagnostic* p);
void FillReport(int index, const TensorMapSpec& spec, const Validation& v, const Encoding& enc, v1::Report* r);
void FillInputErrorReport(int index, const InputError& e, v1::Report* r);

}  // namespace tmapgen

#endif  // TMAPGEN_SRC_REPORT_REPORT_PROTO_H_
