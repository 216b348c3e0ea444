// trace_test_util.h: synthetic parameter blocks for the recorder tests: what the injection library
// would capture from cuTensorMapEncode* calls (values as cuda.h defines them).
#ifndef TMAPGEN_TESTS_TRACE_TRACE_TEST_UTIL_H_
#define TMAPGEN_TESTS_TRACE_TRACE_TEST_UTIL_H_

#include <mutex>
#include <string>
#include <vector>

#include "src/tmap/types.h"
#include "src/trace/call.h"
#include "src/trace/recorder.h"

namespace tmapgen::trace::testing {

// cuTensorMapEncodeTiled(bf16, rank 2, dims [4096, 4096], strides [8192], box [64, 128], SWIZZLE_128B,
// L2_128B), accepted, for sm_90a: a map every rule accepts.
inline EncodeCall GoodTiled(uint64_t address = 0x7f0000000000) {
  EncodeCall c;
  c.kind = CallKind::kEncodeTiled;
  c.encoder = CallKind::kEncodeTiled;
  c.data_type = 9;  // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
  c.rank = 2;
  c.global_address = address;
  c.global_dim[0] = 4096;
  c.global_dim[1] = 4096;
  c.global_strides[0] = 8192;
  c.box_dim[0] = 64;
  c.box_dim[1] = 128;
  c.element_strides[0] = c.element_strides[1] = 1;
  c.swizzle = 3;       // CU_TENSOR_MAP_SWIZZLE_128B
  c.l2_promotion = 2;  // CU_TENSOR_MAP_L2_PROMOTION_L2_128B
  c.result = 0;
  c.flags = kHasBytes | kHasTarget;
  c.target = static_cast<uint8_t>(Target::kSm90a);
  for (int i = 0; i < 16; ++i) c.bytes[i] = address + static_cast<uint64_t>(i);
  c.pid = 100;
  c.tid = 101;
  c.driver_version = 13000;
  return c;
}

class TestSink : public RecordSink {
 public:
  void Record(const EncodeCall& c) override {
    std::lock_guard<std::mutex> l(mu);
    records.push_back(c);
  }
  void Explain(std::string_view t) override {
    std::lock_guard<std::mutex> l(mu);
    explained.emplace_back(t);
  }
  std::mutex mu;
  std::vector<EncodeCall> records;
  std::vector<std::string> explained;
};

// Heap counts for a recorder.
struct Counts {
  explicit Counts(uint32_t n) : v(n) {}
  CountStore store() { return CountStore{v.data(), static_cast<uint32_t>(v.size())}; }
  std::vector<std::atomic<uint64_t>> v;
};

}  // namespace tmapgen::trace::testing

#endif  // TMAPGEN_TESTS_TRACE_TRACE_TEST_UTIL_H_
