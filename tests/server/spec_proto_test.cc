// The Protobuf form of a spec (proto/tmapgen.proto, v1::TensorMapSpec) against the field table
// (src/tmap/spec_fields.h): the conversion names each field after its row's key and relies on the numbering.
#include <gtest/gtest.h>

#include "proto/tmapgen.pb.h"
#include "src/schema/proto_convert.h"
#include "src/schema/spec_json.h"
#include "src/tmap/spec_fields.h"

namespace tmapgen {
namespace {

// Row i is field number i + 1, named as the row's key; arrays are repeated, scalars optional (has_).
TEST(SpecProto, MessageFieldsAreTheTableRows) {
  const google::protobuf::Descriptor* d = v1::TensorMapSpec::descriptor();
  ASSERT_EQ(static_cast<size_t>(d->field_count()), kNumSpecFields);
  for (size_t i = 0; i < kNumSpecFields; ++i) {
    const google::protobuf::FieldDescriptor* f = d->FindFieldByNumber(static_cast<int>(i + 1));
    ASSERT_NE(f, nullptr) << i + 1;
    EXPECT_EQ(f->name(), kSpecFields[i].key);
    EXPECT_EQ(f->is_repeated(), kSpecFields[i].kind == FieldKind::kArray) << f->name();
    if (!f->is_repeated()) {
      EXPECT_TRUE(f->has_presence()) << f->name();
    }
  }
}

// Every enum of the message has the numbers 0 .. EnumCount - 1 of the core's enum (which are cuda.h's), so that
// the conversion's range check is the schema's: an unknown number is an input error, never a misread value.
TEST(SpecProto, EnumsHaveTheCoreNumbers) {
  const google::protobuf::Descriptor* d = v1::TensorMapSpec::descriptor();
  TensorMapSpec s;
  int checked = 0;
  ForEachField(s, [&](auto tag, auto& m) {
    constexpr size_t kRow = decltype(tag)::value;
    const google::protobuf::FieldDescriptor* f = d->FindFieldByNumber(static_cast<int>(kRow + 1));
    ASSERT_NE(f, nullptr);
    if (f->type() != google::protobuf::FieldDescriptor::TYPE_ENUM) return;
    if constexpr (std::is_enum_v<std::remove_reference_t<decltype(m)>>) {
      const google::protobuf::EnumDescriptor* e = f->enum_type();
      const int count = EnumCount(&m);
      EXPECT_EQ(e->value_count(), count) << f->name();
      for (int n = 0; n < count; ++n) EXPECT_NE(e->FindValueByNumber(n), nullptr) << f->name() << " " << n;
      ++checked;
    } else {
      ADD_FAILURE() << f->name() << " is a proto enum but not a C++ enum";
    }
  });
  EXPECT_EQ(checked, 9);  // mode, direction, reduce_op, tensor_data_type, interleave, swizzle, l2, oob, wide_mode
}

TEST(SpecProto, OutOfRangeEnumIsAnInputErrorNamingTheField) {
  v1::TensorMapSpec m;
  m.set_tensor_data_type(static_cast<v1::TensorDataType>(16));  // cuda.h defines 0 to 15
  m.add_global_dim(64);
  m.add_box_dim(64);
  TensorMapSpec s;
  const absl::Status st = SpecFromProto(m, &s);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(InputErrorOf(st).field, "tensor_data_type");
}

// Every row given survives SpecToProto and SpecFromProto when the mode uses it.
TEST(SpecProto, RoundTripOfEveryUsedRow) {
  const absl::StatusOr<TensorMapSpec> s = ParseSpecJson(
      R"({"name":"m","mode":"im2col::w","direction":"reduce","reduce_op":"max","tensor_data_type":"bf16",)"
      R"("tensor_rank":3,"global_address":"0x10000","global_dim":[64,16,2],"global_strides":[256,4096],)"
      R"("element_strides":[1,2,1],"interleave":"none","swizzle":"64B","l2_promotion":"256B","oob_fill":"nan",)"
      R"("pixel_box_lower_corner_width":-2,"pixel_box_upper_corner_width":1,"channels_per_pixel":64,)"
      R"("pixels_per_column":32,"wide_mode":"w128","target":"sm_100a","smem_address":"0x400","smem_alignment":128,)"
      R"("driver_version":"12.8"})");
  ASSERT_TRUE(s.ok()) << s.status();
  v1::TensorMapSpec m;
  SpecToProto(*s, &m);
  TensorMapSpec back;
  ASSERT_TRUE(SpecFromProto(m, &back).ok());
  EXPECT_TRUE(SameSpec(*s, back)) << m.DebugString();
}

}  // namespace
}  // namespace tmapgen
