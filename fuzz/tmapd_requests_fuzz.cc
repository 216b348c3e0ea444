// tmapd_requests_fuzz.cc: one libFuzzer target per tmapd RPC (the build defines TMAPD_FUZZ_METHOD): the
// bytes a client sends, parsed as the method's request message and handled by the engine as the
// service handles them (server/engine.h, server/service.cc: bytes -> message -> engine -> response
// bytes), under AddressSanitizer and UndefinedBehaviorSanitizer. ValidateBatch takes the input as a
// stream of up to 16 messages, each prefixed by a 2-byte length.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <google/protobuf/stubs/logging.h>

#include "server/engine.h"

namespace {

enum Method {
  kValidate = 1, kBuild, kValidateBatch, kDescribe, kMatrixDescriptor, kInstructionDescriptor, kCodegen, kCheck, kDecode,
  kPlanGemm, kPlanConv
};

tmapgen::server::Engine& TheEngine() {
  static tmapgen::server::Engine* e = [] {
    google::protobuf::SetLogHandler(nullptr);  // as tmapd: a parse error is an answer, not a log line
    tmapgen::server::Limits l;
    l.max_message_bytes = 1u << 20;
    l.max_specs_per_message = 64;  // many specs per message only repeat what one spec does, slowly
    return new tmapgen::server::Engine(l, /*use_gpu=*/false, "fuzz");
  }();
  return *e;
}

template <typename Msg>
void Serialize(const Msg& m) {
  std::string out;
  m.SerializeToString(&out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tmapgen::server::Engine& engine = TheEngine();
  const void* p = data;
  const int n = static_cast<int>(size);
  switch (TMAPD_FUZZ_METHOD) {
    case kValidate: {
      tmapgen::v1::ValidateRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      tmapgen::v1::Result res;
      if (engine.Validate(req, &res).ok()) Serialize(res);
      break;
    }
    case kBuild: {
      tmapgen::v1::BuildRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      tmapgen::v1::Result res;
      if (engine.Build(req, engine.BuildEncodes(req), &res).ok()) Serialize(res);
      break;
    }
    case kValidateBatch: {
      tmapgen::server::BatchState st;
      size_t off = 0;
      for (int m = 0; m < 16 && off + 2 <= size; ++m) {
        const size_t len = data[off] | (size_t{data[off + 1]} << 8);
        off += 2;
        if (len > size - off) break;
        tmapgen::v1::BatchRequest req;
        if (!req.ParseFromArray(data + off, static_cast<int>(len))) break;
        off += len;
        const auto emit = [](const tmapgen::v1::BatchResponse& r) {
          Serialize(r);
          return absl::OkStatus();
        };
        if (!engine.Batch(req, &st, emit).ok()) break;
      }
      break;
    }
    case kDescribe: {
      tmapgen::v1::DescribeRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      tmapgen::v1::DescribeResponse res;
      engine.Describe(&res);
      Serialize(res);
      break;
    }
    case kMatrixDescriptor: {
      tmapgen::v2::MatrixDescriptorRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      tmapgen::v2::MatrixDescriptorResponse res;
      if (engine.MatrixDescriptor(req, &res).ok()) Serialize(res);
      break;
    }
    case kInstructionDescriptor: {
      tmapgen::v2::InstructionDescriptorRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      tmapgen::v2::InstructionDescriptorResponse res;
      if (engine.InstructionDescriptor(req, &res).ok()) Serialize(res);
      break;
    }
    case kCodegen: {
      tmapgen::v2::CodegenRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      tmapgen::v2::CodegenResponse res;
      if (engine.Codegen(req, &res).ok()) Serialize(res);
      break;
    }
    case kCheck: {
      // What the service checks before the GPU, and what the worker reads (no GPU here).
      tmapgen::v2::CheckRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      (void)engine.CheckLimits(req);
      break;
    }
    case kDecode: {
      tmapgen::v2::DecodeRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      tmapgen::v2::DecodeResponse res;
      if (engine.Decode(req, &res).ok()) Serialize(res);
      break;
    }
    case kPlanGemm: {
      tmapgen::v2::PlanGemmRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      tmapgen::v2::PlanResponse res;
      if (engine.PlanGemm(req, &res).ok()) Serialize(res);
      break;
    }
    case kPlanConv: {
      tmapgen::v2::PlanConvRequest req;
      if (!req.ParseFromArray(p, n)) return 0;
      tmapgen::v2::PlanResponse res;
      if (engine.PlanConv(req, &res).ok()) Serialize(res);
      break;
    }
    default: break;
  }
  return 0;
}
