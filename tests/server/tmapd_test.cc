// In-process tests of tmapd: a real server on a loopback port (port 0), called through the generated
// C++ client. The out-of-process tests (the tmapd binary, a Python client, the CLI) are
// tests/server/process_test.py.
#include <gtest/gtest.h>

#include <grpcpp/grpcpp.h>

#include <set>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <fstream>
#include <functional>
#include <mutex>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "src/schema/proto_convert.h"
#include "src/util/strings.h"

#include "cli/codegen_cmd.h"
#include "cli/desc_cmd.h"
#include "cli/plan_cmd.h"
#include "proto/tmapd.grpc.pb.h"
#include "proto/tmapd_v2.grpc.pb.h"
#include "server/check_worker.h"
#include "server/gpu_queue.h"
#include "server/service.h"
#include "src/net/grpc_status.h"
#include "src/net/net_address.h"
#include "src/rpc/codegen.h"
#include "src/rpc/instruction_descriptor.h"
#include "src/rpc/matrix_descriptor.h"
#include "src/rpc/plan.h"

namespace tmapgen::server {
namespace {

using net::CapEchoes;
using net::ListenPlan;
using net::ResolveListen;
using net::TargetIsLoopback;
using rpc::ToProto;

std::unique_ptr<Server> StartServer(ServerConfig c = ServerConfig()) {
  c.listen = "127.0.0.1:0";
  c.log = false;
  c.use_gpu = false;
  absl::StatusOr<std::unique_ptr<Server>> s = Server::Start(c);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

std::unique_ptr<v1::Tmapd::Stub> Connect(const std::string& target) {
  grpc::ChannelArguments args;
  args.SetLoadBalancingPolicyName("round_robin");
  return v1::Tmapd::NewStub(grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
}

v1::TensorMapSpec GoodSpec() {
  v1::TensorMapSpec s;
  s.set_mode(v1::TILED);
  s.set_tensor_data_type(v1::CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  s.set_tensor_rank(2);
  s.add_global_dim(1024);
  s.add_global_dim(1024);
  s.add_global_strides(2048);
  s.add_box_dim(64);
  s.add_box_dim(64);
  s.set_swizzle(v1::CU_TENSOR_MAP_SWIZZLE_128B);
  s.set_target("sm_90a");
  return s;
}

v1::TensorMapSpec BadSpec() {  // well formed, invalid: box row of 3 bytes
  v1::TensorMapSpec s = GoodSpec();
  s.set_tensor_data_type(v1::CU_TENSOR_MAP_DATA_TYPE_UINT8);
  s.set_box_dim(0, 3);
  return s;
}

std::string Field(const grpc::ClientContext& ctx) {
  const auto& md = ctx.GetServerTrailingMetadata();
  const auto it = md.find("tmapgen-field");
  return it == md.end() ? "" : std::string(it->second.data(), it->second.size());
}

class TmapdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = StartServer();
    ASSERT_NE(server_, nullptr);
    stub_ = Connect(server_->address());
  }
  std::unique_ptr<Server> server_;
  std::unique_ptr<v1::Tmapd::Stub> stub_;
};

TEST_F(TmapdTest, ValidatesValidAndInvalidSpecs) {
  v1::ValidateRequest req;
  *req.mutable_spec() = GoodSpec();
  req.mutable_options()->set_format(v1::OUTPUT_JSON);
  v1::Result res;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->Validate(&ctx, req, &res).ok());
  EXPECT_TRUE(res.valid());
  EXPECT_TRUE(res.report().valid());
  EXPECT_EQ(res.report().target(), "sm_90a");
  EXPECT_NE(res.rendered().find("\"valid\":true"), std::string::npos) << res.rendered();

  *req.mutable_spec() = BadSpec();
  grpc::ClientContext ctx2;
  v1::Result bad;
  ASSERT_TRUE(stub_->Validate(&ctx2, req, &bad).ok());  // invalid is an answer, not an error
  EXPECT_FALSE(bad.valid());
  EXPECT_GT(bad.error_rules_size(), 0);
  EXPECT_GT(bad.report().diagnostics_size(), 0);
}

// The service reads a spec without strides as the dense tensor (cuda.h: globalStrides[0] = globalDim[0] x
// element size + padding[0], padding 0): 4100 bf16 = 8200 B, not a multiple of 16 (cuda.h), so invalid naming
// global_strides[0]; and its minimum target is the lowest valid one, not the asked sm_100a: a plain .tile load
// exists from sm_90 (PTX ISA, cp.async.bulk.tensor).
TEST_F(TmapdTest, AbsentStridesAreDenseAndTheMinimumTargetIsTheLowest) {
  v1::ValidateRequest req;
  *req.mutable_spec() = GoodSpec();
  req.mutable_spec()->clear_global_strides();
  req.mutable_spec()->set_tensor_data_type(v1::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  req.mutable_spec()->set_global_dim(0, 4100);
  req.mutable_options()->set_format(v1::OUTPUT_JSON);
  v1::Result res;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->Validate(&ctx, req, &res).ok());
  EXPECT_FALSE(res.valid());
  ASSERT_EQ(res.report().spec().global_strides_size(), 1);
  EXPECT_EQ(res.report().spec().global_strides(0), 8200u);
  ASSERT_GT(res.report().diagnostics_size(), 0);
  EXPECT_EQ(res.report().diagnostics(0).rule(), "global-stride-align-16");
  EXPECT_EQ(res.report().diagnostics(0).field(), "global_strides[0]");
  EXPECT_NE(res.rendered().find(R"("global_strides_default":"dense")"), std::string::npos) << res.rendered();

  *req.mutable_spec() = GoodSpec();
  req.mutable_spec()->set_target("sm_100a");
  grpc::ClientContext ctx2;
  v1::Result ok;
  ASSERT_TRUE(stub_->Validate(&ctx2, req, &ok).ok());
  EXPECT_TRUE(ok.valid());
  EXPECT_EQ(ok.report().min_target(), "sm_90");
}

TEST_F(TmapdTest, MalformedSpecIsInvalidArgumentNamingTheField) {
  v1::ValidateRequest req;
  *req.mutable_spec() = GoodSpec();
  req.mutable_spec()->set_mode(static_cast<v1::Mode>(99));
  v1::Result res;
  grpc::ClientContext ctx;
  const grpc::Status s = stub_->Validate(&ctx, req, &res);
  EXPECT_EQ(s.error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("mode"), std::string::npos) << s.error_message();
  EXPECT_EQ(Field(ctx), "spec.mode");

  *req.mutable_spec() = GoodSpec();
  for (int i = 0; i < 9; ++i) req.mutable_spec()->add_global_dim(1);
  grpc::ClientContext ctx2;
  const grpc::Status s2 = stub_->Validate(&ctx2, req, &res);
  EXPECT_EQ(s2.error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(Field(ctx2), "spec.global_dim");

  *req.mutable_spec() = GoodSpec();
  req.mutable_spec()->clear_target();
  req.mutable_options()->set_default_target("sm_42");
  grpc::ClientContext ctx3;
  EXPECT_EQ(stub_->Validate(&ctx3, req, &res).error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(Field(ctx3), "options.default_target");
}

TEST_F(TmapdTest, ExpiredDeadlineIsDeadlineExceeded) {
  v1::ValidateRequest req;
  *req.mutable_spec() = GoodSpec();
  v1::Result res;
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() - std::chrono::seconds(1));
  EXPECT_EQ(stub_->Validate(&ctx, req, &res).error_code(), grpc::DEADLINE_EXCEEDED);
}

TEST_F(TmapdTest, TenThousandBadRequestsThenStillAnswers) {
  v1::ValidateRequest bad;
  *bad.mutable_spec() = GoodSpec();
  bad.mutable_spec()->set_swizzle(static_cast<v1::Swizzle>(1234));
  for (int i = 0; i < 10000; ++i) {
    grpc::ClientContext ctx;
    v1::Result res;
    ASSERT_EQ(stub_->Validate(&ctx, bad, &res).error_code(), grpc::INVALID_ARGUMENT) << i;
  }
  v1::ValidateRequest good;
  *good.mutable_spec() = GoodSpec();
  grpc::ClientContext ctx;
  v1::Result res;
  ASSERT_TRUE(stub_->Validate(&ctx, good, &res).ok());
  EXPECT_TRUE(res.valid());
}

TEST_F(TmapdTest, BatchStreamAnswersInOrderAndCarriesInputErrors) {
  grpc::ClientContext ctx;
  auto stream = stub_->ValidateBatch(&ctx);
  const int kMessages = 5, kPer = 1000;
  std::thread writer([&] {
    for (int m = 0; m < kMessages; ++m) {
      v1::BatchRequest req;
      if (m == 0) req.mutable_options()->set_no_report(true);
      for (int i = 0; i < kPer; ++i) {
        v1::TensorMapSpec s = (i % 2) ? BadSpec() : GoodSpec();
        if (m == 2 && i == 8) s.set_interleave(static_cast<v1::Interleave>(77));  // malformed
        *req.add_specs() = s;
      }
      ASSERT_TRUE(stream->Write(req));
    }
    stream->WritesDone();
  });
  v1::BatchResponse res;
  int seen = 0, valid = 0, input_errors = 0;
  while (stream->Read(&res)) {
    for (const v1::Result& r : res.results()) {
      EXPECT_EQ(r.index(), seen);
      EXPECT_FALSE(r.has_report());
      ++seen;
      valid += r.valid();
      if (r.error_rules_size() > 0 && r.error_rules(0) == "input-error") ++input_errors;
    }
  }
  writer.join();
  ASSERT_TRUE(stream->Finish().ok());
  EXPECT_EQ(seen, kMessages * kPer);
  EXPECT_EQ(valid, kMessages * kPer / 2 - 1);
  EXPECT_EQ(input_errors, 1);
}

TEST(TmapdLimits, OversizedRequestsAreResourceExhausted) {
  ServerConfig c;
  c.limits.max_message_bytes = 64 << 10;
  c.limits.max_specs_per_message = 100;
  c.limits.max_specs_per_call = 250;
  std::unique_ptr<Server> server = StartServer(c);
  ASSERT_NE(server, nullptr);
  auto stub = Connect(server->address());

  v1::ValidateRequest req;
  *req.mutable_spec() = GoodSpec();
  req.mutable_spec()->set_name(std::string(100 << 10, 'x'));
  grpc::ClientContext ctx;
  v1::Result res;
  EXPECT_EQ(stub->Validate(&ctx, req, &res).error_code(), grpc::RESOURCE_EXHAUSTED);

  {  // too many specs in one message
    grpc::ClientContext bctx;
    auto stream = stub->ValidateBatch(&bctx);
    v1::BatchRequest b;
    for (int i = 0; i < 101; ++i) *b.add_specs() = GoodSpec();
    stream->Write(b);
    stream->WritesDone();
    v1::BatchResponse r;
    while (stream->Read(&r)) {}
    const grpc::Status s = stream->Finish();
    EXPECT_EQ(s.error_code(), grpc::RESOURCE_EXHAUSTED);
    EXPECT_NE(s.error_message().find("max_specs_per_message"), std::string::npos) << s.error_message();
  }
  {  // too many specs in one call
    grpc::ClientContext bctx;
    auto stream = stub->ValidateBatch(&bctx);
    v1::BatchRequest b;
    for (int i = 0; i < 100; ++i) *b.add_specs() = GoodSpec();
    int answered = 0;
    v1::BatchResponse r;
    for (int m = 0; m < 3; ++m) {
      if (!stream->Write(b)) break;
      if (stream->Read(&r)) answered += r.results_size();
    }
    stream->WritesDone();
    while (stream->Read(&r)) answered += r.results_size();
    const grpc::Status s = stream->Finish();
    EXPECT_EQ(s.error_code(), grpc::RESOURCE_EXHAUSTED);
    EXPECT_EQ(answered, 200);
  }
  // Still answering.
  grpc::ClientContext ctx2;
  v1::DescribeResponse d;
  EXPECT_TRUE(stub->Describe(&ctx2, v1::DescribeRequest(), &d).ok());
  EXPECT_EQ(d.max_specs_per_message(), 100u);
}

TEST(TmapdAuth, TokenIsCheckedOnEveryCall) {
  ServerConfig c;
  c.token = "s3cret-token";
  std::unique_ptr<Server> server = StartServer(c);
  ASSERT_NE(server, nullptr);
  auto stub = Connect(server->address());
  v1::DescribeResponse d;
  {
    grpc::ClientContext ctx;
    EXPECT_EQ(stub->Describe(&ctx, v1::DescribeRequest(), &d).error_code(), grpc::UNAUTHENTICATED);
  }
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer wrong-token!");
    const grpc::Status s = stub->Describe(&ctx, v1::DescribeRequest(), &d);
    EXPECT_EQ(s.error_code(), grpc::UNAUTHENTICATED);
    EXPECT_EQ(s.error_message().find("s3cret"), std::string::npos);
  }
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer s3cret-token");
    EXPECT_TRUE(stub->Describe(&ctx, v1::DescribeRequest(), &d).ok());
  }
  {
    grpc::ClientContext ctx;
    auto stream = stub->ValidateBatch(&ctx);
    stream->WritesDone();
    EXPECT_EQ(stream->Finish().error_code(), grpc::UNAUTHENTICATED);
  }
}

// Loopback is decided on the addresses the name resolves to, not on its spelling.
TEST(TmapdSecurity, NonLoopbackNeedsTls) {
  ServerConfig c;
  c.listen = "0.0.0.0:0";
  absl::Status st = Server::Start(c).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);  // a flag combination it refuses (status.h)
  EXPECT_NE(st.message().find("requires TLS"), absl::string_view::npos) << st;
  ListenPlan p;
  ASSERT_TRUE(ResolveListen("127.0.0.1:0", &p).ok());
  EXPECT_TRUE(p.loopback);
  ASSERT_TRUE(ResolveListen("[::1]:1", &p).ok());
  EXPECT_TRUE(p.loopback);
  EXPECT_EQ(p.bind, std::vector<std::string>{"[::1]:1"});
  ASSERT_TRUE(ResolveListen("localhost:1", &p).ok());
  EXPECT_TRUE(p.loopback);
  ASSERT_TRUE(ResolveListen("127.1:7", &p).ok());  // numeric shorthand for 127.0.0.1
  EXPECT_TRUE(p.loopback);
  EXPECT_EQ(p.bind, std::vector<std::string>{"127.0.0.1:7"});
  ASSERT_TRUE(ResolveListen("0.0.0.0:1", &p).ok());
  EXPECT_FALSE(p.loopback);
  ASSERT_TRUE(ResolveListen("[::]:1", &p).ok());
  EXPECT_FALSE(p.loopback);
  ASSERT_TRUE(ResolveListen("10.1.2.3:1", &p).ok());
  EXPECT_FALSE(p.loopback);
  // Spelled like loopback, but a name: it must resolve, and it does not here.
  EXPECT_FALSE(ResolveListen("127.0.0.1.example.invalid:1", &p).ok());
  c.listen = "127.0.0.1.example.invalid:0";
  st = Server::Start(c).status();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("cannot resolve"), absl::string_view::npos) << st;
  EXPECT_FALSE(ResolveListen("127.0.0.1", &p).ok());  // no port

  bool loop = false;
  ASSERT_TRUE(TargetIsLoopback("127.0.0.1:1", &loop).ok());
  EXPECT_TRUE(loop);
  ASSERT_TRUE(TargetIsLoopback("dns:///localhost:1", &loop).ok());
  EXPECT_TRUE(loop);
  ASSERT_TRUE(TargetIsLoopback("ipv4:127.0.0.1:1,127.0.0.2:2", &loop).ok());
  EXPECT_TRUE(loop);
  ASSERT_TRUE(TargetIsLoopback("ipv4:127.0.0.1:1,10.0.0.1:2", &loop).ok());
  EXPECT_FALSE(loop);
  ASSERT_TRUE(TargetIsLoopback("10.1.2.3:50051", &loop).ok());
  EXPECT_FALSE(loop);
  ASSERT_TRUE(TargetIsLoopback("unix:/tmp/tmapd.sock", &loop).ok());
  EXPECT_TRUE(loop);
  ASSERT_TRUE(TargetIsLoopback("xds:///tmapd", &loop).ok());
  EXPECT_FALSE(loop);
  EXPECT_FALSE(TargetIsLoopback("127.0.0.1.example.invalid:1", &loop).ok());
  EXPECT_FALSE(loop);
}

std::unique_ptr<v2::Tmapd::Stub> ConnectV2(const std::string& target) {
  return v2::Tmapd::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
}

TEST_F(TmapdTest, DescribeNamesBothApis) {
  grpc::ClientContext ctx;
  v1::DescribeResponse d;
  ASSERT_TRUE(stub_->Describe(&ctx, v1::DescribeRequest(), &d).ok());
  EXPECT_FALSE(d.gpu());  // use_gpu = false in these tests
  EXPECT_EQ(d.known_targets_size(), 16);
  EXPECT_EQ(d.instance(), server_->address());
  EXPECT_EQ(std::vector<std::string>(d.services().begin(), d.services().end()),
            (std::vector<std::string>{"tmapgen.v1.Tmapd", "tmapgen.v2.Tmapd"}));
  auto v2 = ConnectV2(server_->address());
  grpc::ClientContext ctx2;
  v1::DescribeResponse d2;
  ASSERT_TRUE(v2->Describe(&ctx2, v1::DescribeRequest(), &d2).ok());
  EXPECT_EQ(d2.instance(), d.instance());
}

// The matrix descriptor RPC answers with the command's report, built from the request the command line
// parses: rendered text byte-identical to the local command, and every field as a message.
class MatrixDescriptorTest : public TmapdTest {
 protected:
  // Runs `tmapgen desc ARGS` locally and through the RPC; both outputs must be the same bytes.
  v2::MatrixDescriptorResponse Both(const std::vector<std::string>& args, int want_rc) {
    std::string lo, le;
    EXPECT_EQ(cli::RunDescCommandTo(args, &lo, &le), want_rc) << le;
    cli::DescArgs a;
    EXPECT_EQ(cli::ParseDescArgs(args, &a), absl::OkStatus());
    EXPECT_EQ(cli::LoadDescMap(&a), absl::OkStatus());
    v2::MatrixDescriptorRequest req;
    ToProto(a.request, &req);
    req.mutable_render()->set_format(a.json ? v2::Rendering::JSON : v2::Rendering::TEXT);
    v2::MatrixDescriptorResponse res;
    grpc::ClientContext ctx;
    const grpc::Status s = ConnectV2(server_->address())->MatrixDescriptor(&ctx, req, &res);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(res.rendered(), lo);
    EXPECT_EQ(res.valid(), want_rc == 0);
    return res;
  }
};

TEST_F(MatrixDescriptorTest, BuildCarriesEveryField) {
  const v2::MatrixDescriptorResponse r = Both({"wgmma", "--tile", "64,16"}, 0);
  // The wgmma descriptor's fields, PTX ISA 9.7.15.5.1.2.2: start address 0-13, LBO 16-29, SBO 32-45,
  // base offset 49-51, layout type 62-63.
  ASSERT_EQ(r.fields_size(), 5);
  const std::vector<std::tuple<std::string, uint32_t, uint32_t>> want = {
      {"start_address", 0, 14}, {"leading_byte_offset", 16, 14}, {"stride_byte_offset", 32, 14},
      {"base_offset", 49, 3}, {"layout_type", 62, 2}};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(r.fields(i).name(), std::get<0>(want[i]));
    EXPECT_EQ(r.fields(i).lo(), std::get<1>(want[i]));
    EXPECT_EQ(r.fields(i).width(), std::get<2>(want[i]));
    EXPECT_FALSE(r.fields(i).meaning().empty());
    EXPECT_EQ((r.value() >> r.fields(i).lo()) & ((uint64_t{1} << r.fields(i).width()) - 1), r.fields(i).encoded());
  }
  EXPECT_TRUE(r.fields(0).has_bytes());
  EXPECT_FALSE(r.fields(4).has_bytes());
  EXPECT_EQ(r.family(), v2::WGMMA);
  // The default swizzle is 128B; wgmma's layout type for it is 1 (PTX ISA 9.7.15.5.1.2.2).
  EXPECT_EQ(r.swizzle(), v2::DESCRIPTOR_SWIZZLE_128B);
  EXPECT_EQ(r.fields(4).encoded(), 1u);
  ASSERT_TRUE(r.has_layout());
  EXPECT_EQ(r.layout().tile().mn(), 64u);
  EXPECT_EQ(r.layout().tile().k(), 16u);
  EXPECT_EQ(r.layout().repeat_bytes(), 1024);  // 128B swizzle repeats every 1024 bytes (PTX ISA Table 41)
  EXPECT_TRUE(r.layout().canonical().defined());
  Both({"tcgen05", "--tile", "128,64", "--format", "json"}, 0);
}

TEST_F(MatrixDescriptorTest, DeriveCheckAndDecodeWithAMap) {
  const std::string map = testing::TempDir() + "/desc_map.json";
  {
    std::ofstream f(map);
    f << R"({"mode":"tiled","tensor_data_type":"f16","tensor_rank":2,"global_dim":[4096,4096],"box_dim":[64,64],"swizzle":"128B"})";
  }
  const v2::MatrixDescriptorResponse d = Both({"wgmma", "--for-map", map}, 0);
  ASSERT_TRUE(d.has_map());
  EXPECT_EQ(d.map().source(), map);
  EXPECT_EQ(d.map().derived_value(), d.value());
  EXPECT_EQ(d.map().inner_bytes(), 128u);  // 64 f16 elements
  EXPECT_EQ(d.map().rows(), 64u);
  // Checking a value that is not the derived one: CHECK reports the disagreement as diagnostics.
  const uint64_t other = d.value() ^ (uint64_t{1} << 62);  // another layout type
  const v2::MatrixDescriptorResponse c =
      Both({"wgmma", "--for-map", map, "--check", StrCat("0x", absl::Hex(other))}, 1);
  EXPECT_FALSE(c.valid());
  EXPECT_EQ(c.value(), other);
  EXPECT_GT(c.errors(), 0);
  ASSERT_GT(c.diagnostics_size(), 0);
  bool error = false;
  for (const v1::Diagnostic& x : c.diagnostics()) error = error || x.severity() == "error";
  EXPECT_TRUE(error);
  EXPECT_TRUE(c.map().compared());
  Both({"decode", StrCat("0x", absl::Hex(d.value())), "--for-map", map}, 0);
  const v2::MatrixDescriptorResponse g = Both({"decode", "0x4000004000010001"}, 0);
  EXPECT_TRUE(g.family_guessed());
  EXPECT_EQ(g.interpretations_size(), 2);
  Both({"tcgen05", "--tile", "128,64", "--k-slice", "2", "--draw"}, 0);
}

TEST_F(TmapdTest, InstructionDescriptorBuildAndDecode) {
  auto v2 = ConnectV2(server_->address());
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--kind", "f16", "--m", "64", "--n", "64"}, {"--kind", "i8", "--format", "json"},
        {"decode", "0x08200490"}, {"decode", "0x08200490", "--kind", "f16"}, {"--kind", "f16", "--m", "96"}}) {
    std::string lo, le;
    const int rc = cli::RunIdescCommandTo(args, &lo, &le);
    cli::IdescArgs a;
    ASSERT_EQ(cli::ParseIdescArgs(args, &a), absl::OkStatus());
    v2::InstructionDescriptorRequest req;
    ToProto(a.request, &req);
    req.mutable_render()->set_format(a.json ? v2::Rendering::JSON : v2::Rendering::TEXT);
    v2::InstructionDescriptorResponse res;
    grpc::ClientContext ctx;
    ASSERT_TRUE(v2->InstructionDescriptor(&ctx, req, &res).ok());
    EXPECT_EQ(res.rendered(), lo) << args[0];
    EXPECT_EQ(res.valid(), rc == 0);
    if (args[0] == "decode" && args.size() == 2) {
      EXPECT_EQ(res.by_kind_size(), 7);  // every .kind
    } else {
      EXPECT_GT(res.fields_size(), 0);
    }
  }
  // Built from the fields: M = 64, N = 64 of .kind::f16 (PTX ISA Table 42: N >> 3 at bits 17-22, M >> 4 at 24-28).
  v2::InstructionDescriptorRequest req;
  req.set_operation(v2::InstructionDescriptorRequest::BUILD);
  req.mutable_spec()->set_kind(v2::KIND_F16);
  req.mutable_spec()->set_m(64);
  req.mutable_spec()->set_n(64);
  v2::InstructionDescriptorResponse res;
  grpc::ClientContext ctx;
  ASSERT_TRUE(v2->InstructionDescriptor(&ctx, req, &res).ok());
  EXPECT_EQ((res.value() >> 17) & 0x3f, 64u >> 3);
  EXPECT_EQ((res.value() >> 24) & 0x1f, 64u >> 4);
  EXPECT_EQ(res.decoded().m(), 64u);
  EXPECT_EQ(res.decoded().n(), 64u);
  EXPECT_TRUE(res.rendered().empty());  // no rendering asked
}

// Malformed structured requests: INVALID_ARGUMENT naming the field, in the message and the metadata.
TEST_F(TmapdTest, MalformedDescriptorRequestsNameTheField) {
  auto v2 = ConnectV2(server_->address());
  auto call = [&](const v2::MatrixDescriptorRequest& req) {
    v2::MatrixDescriptorResponse res;
    grpc::ClientContext ctx;
    const grpc::Status s = v2->MatrixDescriptor(&ctx, req, &res);
    return std::make_pair(s, Field(ctx));
  };
  v2::MatrixDescriptorRequest req;
  auto [s0, f0] = call(req);
  EXPECT_EQ(s0.error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(f0, "operation");
  req.set_operation(v2::MatrixDescriptorRequest::BUILD);
  auto [s1, f1] = call(req);
  EXPECT_EQ(s1.error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(f1, "family");
  req.set_family(static_cast<v2::DescriptorFamily>(99));
  auto [s2, f2] = call(req);
  EXPECT_EQ(f2, "family");
  EXPECT_NE(s2.error_message().find("99"), std::string::npos);
  req.set_family(v2::WGMMA);
  req.mutable_layout()->set_base_offset(8);
  auto [s3, f3] = call(req);
  EXPECT_EQ(f3, "layout.base_offset");
  req.mutable_layout()->clear_base_offset();
  req.set_operation(v2::MatrixDescriptorRequest::DERIVE);
  auto [s4, f4] = call(req);
  EXPECT_EQ(f4, "map");
  *req.mutable_map() = GoodSpec();
  req.mutable_layout()->set_swizzle(v2::DESCRIPTOR_SWIZZLE_64B);
  auto [s5, f5] = call(req);
  EXPECT_EQ(f5, "layout.swizzle");
  req.mutable_layout()->clear_swizzle();
  req.mutable_map()->set_mode(static_cast<v1::Mode>(42));
  auto [s6, f6] = call(req);
  EXPECT_EQ(f6, "map.mode");
  req.mutable_map()->set_mode(v1::TILED);
  req.set_target("sm_42");
  auto [s7, f7] = call(req);
  EXPECT_EQ(f7, "target");
  req.clear_target();
  auto [s8, f8] = call(req);
  EXPECT_TRUE(s8.ok()) << s8.error_message();

  v2::InstructionDescriptorRequest ir;
  ir.set_operation(v2::InstructionDescriptorRequest::DECODE);
  ir.mutable_spec()->set_m(64);
  v2::InstructionDescriptorResponse ires;
  grpc::ClientContext ictx;
  EXPECT_EQ(v2->InstructionDescriptor(&ictx, ir, &ires).error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(Field(ictx), "spec.m");
  ir.set_operation(v2::InstructionDescriptorRequest::BUILD);
  ir.mutable_spec()->set_cta_group(3);
  grpc::ClientContext ictx2;
  EXPECT_EQ(v2->InstructionDescriptor(&ictx2, ir, &ires).error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_EQ(Field(ictx2), "spec.cta_group");
}

// Codegen: the same bytes as the local command, returned by name; an invalid spec is not generated and
// comes back with its diagnostics; a request that cannot be resolved is INVALID_ARGUMENT.
TEST_F(TmapdTest, CodegenMatchesTheLocalCommand) {
  const std::string spec =
      R"({"name":"a_tile","tensor_data_type":"bf16","global_dim":[1024,1024],"box_dim":[64,64],"swizzle":"128B","target":"sm_90a"})";
  const std::string path = testing::TempDir() + "/codegen_spec.json";
  { FILE* f = std::fopen(path.c_str(), "wb"); std::fputs(spec.c_str(), f); std::fclose(f); }
  auto v2 = ConnectV2(server_->address());
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--lang", "cpp", path}, {"--lang", "json", path}, {"--lang", "ptx", "--desc", "a_tile:wgmma:A:K", path},
        {path, "--idesc", "kind=f16,m=64,n=64,name=mma", "--namespace", "ns"}}) {
    std::string lo, le;
    ASSERT_EQ(cli::RunCodegenCommandTo(args, &lo, &le), 0) << le;
    cli::CodegenArgs a;
    ASSERT_EQ(cli::ParseCodegenArgs(args, &a), absl::OkStatus());
    ASSERT_EQ(cli::ReadCodegenSpecs(&a), absl::OkStatus());
    v2::CodegenRequest req;
    ops::CodegenRequest run;
    run.input = a.input;
    run.options = a.options;
    run.lang = a.lang;
    ToProto(run, &req);
    v2::CodegenResponse res;
    grpc::ClientContext ctx;
    ASSERT_TRUE(v2->Codegen(&ctx, req, &res).ok());
    ASSERT_TRUE(res.generated());
    ASSERT_EQ(res.files_size(), 1);
    EXPECT_EQ(res.files(0).content(), lo);
    EXPECT_FALSE(res.files(0).name().empty());
    EXPECT_EQ(res.files(0).name().find('/'), std::string::npos);  // a name, never a path
    for (const v2::CodegenItem& it : res.items()) EXPECT_TRUE(it.valid());
  }

  v2::CodegenRequest bad;
  const absl::StatusOr<TensorMapSpec> s = ParseSpecJson(
      R"({"tensor_data_type":"bf16","global_dim":[1000,64],"global_strides":[2008],"box_dim":[64,64],"swizzle":"128B"})");
  ASSERT_TRUE(s.ok()) << s.status();
  SpecToProto(*s, bad.add_specs());
  v2::CodegenResponse res;
  grpc::ClientContext ctx2;
  ASSERT_TRUE(v2->Codegen(&ctx2, bad, &res).ok());
  EXPECT_FALSE(res.generated());
  EXPECT_EQ(res.files_size(), 0);
  EXPECT_NE(res.rejection().find("global-stride-align-16"), std::string::npos) << res.rejection();
  ASSERT_EQ(res.items_size(), 1);
  EXPECT_FALSE(res.items(0).valid());
  bool found = false;
  for (const v1::Diagnostic& d : res.items(0).diagnostics()) found = found || d.rule() == "global-stride-align-16";
  EXPECT_TRUE(found);

  v2::CodegenRequest unresolved;
  SpecToProto(*s, unresolved.add_specs());
  v2::CodegenMatrixDescriptor* d = unresolved.add_matrix_descriptors();
  d->set_map("no_such_map");
  d->set_family(v2::WGMMA);
  grpc::ClientContext ctx3;
  const grpc::Status st = v2->Codegen(&ctx3, unresolved, &res);
  EXPECT_EQ(st.error_code(), grpc::INVALID_ARGUMENT);
  EXPECT_NE(st.error_message().find("no_such_map"), std::string::npos) << st.error_message();
}

// Two replicas behind one channel: round_robin spreads the calls over both.
// ---------------------------------------------------------------------------------------------- plans
// PlanGemm and PlanConv: the request the command line parses travels as typed fields and comes back rendered as
// the command renders it (text, JSON, the generated header, or on an invalid plan the header's rejection), byte
// for byte, with the command's exit status. Expected values of the structured plan, as in tests/plan/:
//   [CUTLASS] NVIDIA/cutlass @ 7107b05 sm90_mma_tma_gmma_ss_warpspecialized.hpp (TmaTransactionBytes = MK + NK
//             bytes; the multicast masks of load(), rank = x + y * cluster_m), sm100_mma_warpspecialized.hpp
//             (TmaTransactionBytes x size(AtomThrShapeMNK)), sm90_gmma_builder.inl compute_stage_count_or_override
//             with sm90_smem_capacity_bytes 232448;
//   [PTX]     PTX ISA 9.2 9.7.15.2 (wgmma m64nNk16 for bf16), 9.7.16.4.2 Table 42 (tcgen05 instruction descriptor);
//   [cuDNN]   the forward output size (in + 2 pad - dilation (filter - 1) - 1) / stride + 1.

class PlanRpcTest : public TmapdTest {
 protected:
  // `tmapgen plan ARGS` run here and the same request on the server: stdout (or, for an invalid plan with
  // --format cpp, stderr) and the exit status must be the local command's.
  v2::PlanResponse Both(const std::vector<std::string>& args) {
    std::string lo, le;
    const int rc = cli::RunPlanCommandTo(args, &lo, &le);
    EXPECT_TRUE(rc == 0 || rc == 1) << le;
    const std::vector<std::string> flags(args.begin() + 2, args.end());
    rpc::PlanOutputOptions o;
    v2::PlanResponse res;
    grpc::ClientContext ctx;
    grpc::Status st;
    bool cpp = false;
    auto out = [&o, &cpp](const auto& a) {
      cpp = a.cpp;
      o.render = a.cpp ? rpc::PlanOutputOptions::Render::kNone
                 : a.json ? rpc::PlanOutputOptions::Render::kJson : rpc::PlanOutputOptions::Render::kText;
      o.pretty = a.pretty;
      o.header = a.cpp;
      o.name_space = a.name_space;
    };
    if (args[1] == "gemm") {
      cli::PlanGemmArgs a;
      EXPECT_EQ(cli::ParsePlanGemmArgs(flags, &a), absl::OkStatus());
      out(a);
      v2::PlanGemmRequest req;
      ToProto(a.request, o, &req);
      // FromProto(ToProto(r)) == r: the request read back writes the same message.
      plan::GemmRequest back;
      rpc::PlanOutputOptions ob;
      EXPECT_TRUE(rpc::FromProto(req, rpc::RequestLimits(), &back, &ob).ok());
      v2::PlanGemmRequest again;
      ToProto(back, ob, &again);
      EXPECT_EQ(again.SerializeAsString(), req.SerializeAsString());
      st = ConnectV2(server_->address())->PlanGemm(&ctx, req, &res);
    } else {
      cli::PlanConvArgs a;
      EXPECT_EQ(cli::ParsePlanConvArgs(flags, &a), absl::OkStatus());
      out(a);
      v2::PlanConvRequest req;
      ToProto(a.request, o, &req);
      plan::ConvRequest back;
      rpc::PlanOutputOptions ob;
      EXPECT_TRUE(rpc::FromProto(req, rpc::RequestLimits(), &back, &ob).ok());
      v2::PlanConvRequest again;
      ToProto(back, ob, &again);
      EXPECT_EQ(again.SerializeAsString(), req.SerializeAsString());
      st = ConnectV2(server_->address())->PlanConv(&ctx, req, &res);
    }
    EXPECT_TRUE(st.ok()) << st.error_message();
    EXPECT_EQ(res.exit_status(), rc);
    if (cpp && rc == 0) {
      EXPECT_EQ(res.header().content(), lo);
      EXPECT_EQ(res.header().name().find('/'), std::string::npos);  // a name, never a path
    } else if (cpp) {
      EXPECT_EQ(res.rejection(), le);
      EXPECT_TRUE(lo.empty());
    } else {
      EXPECT_EQ(res.rendered(), lo);
    }
    return res;
  }
};

TEST_F(PlanRpcTest, GemmsAsTheLocalCommand) {
  // 128 x 128 x 64 bf16 on sm_90a.
  v2::PlanResponse r = Both({"plan", "gemm"});
  EXPECT_TRUE(r.valid());
  EXPECT_EQ(r.stage_bytes(), 32768u);  // [CUTLASS] TmaTransactionBytes = 2 x 128 x 64 x 2 bytes
  ASSERT_EQ(r.ctas_size(), 1);
  EXPECT_EQ(r.ctas(0).expect_tx(), 32768u);
  EXPECT_EQ(r.max_stages(), 6u);       // [CUTLASS] (232448 - 32768 epilogue) / (32768 + 16)
  EXPECT_EQ(r.smem_limit(), 232448u);  // [CUTLASS] sm90_smem_capacity_bytes
  EXPECT_EQ(r.mma().instruction(), "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16");  // [PTX] 9.7.15.2
  ASSERT_GE(r.maps_size(), 2);
  EXPECT_EQ(r.maps(0).spec().box_dim(0), 64u);
  EXPECT_EQ(r.maps(0).spec().box_dim(1), 128u);
  EXPECT_TRUE(r.maps(0).valid());
  Both({"plan", "gemm", "--format", "json"});
  Both({"plan", "gemm", "--format", "json", "--pretty"});
  Both({"plan", "gemm", "--format", "cpp"});
  Both({"plan", "gemm", "--format", "cpp", "--namespace", "my_gemm"});
  Both({"plan", "gemm", "--m", "1000", "--n", "1000", "--k", "1000", "--format", "json"});  // ragged edges
  // Multicast over a 2 x 2 cluster.
  r = Both({"plan", "gemm", "--cluster", "2x2", "--multicast", "ab", "--format", "json"});
  ASSERT_EQ(r.ctas_size(), 4);
  EXPECT_EQ(r.ctas(1).mask_a(), 0xAu);  // [CUTLASS] x 1: ranks 1, 3
  EXPECT_EQ(r.ctas(1).mask_b(), 0x3u);  // [CUTLASS] y 0: ranks 0, 1
  for (const v2::PlanCta& c : r.ctas()) EXPECT_EQ(c.expect_tx(), 32768u);  // every receiver: the whole stage
  Both({"plan", "gemm", "--cluster", "2x2", "--multicast", "ab", "--format", "cpp"});
  Both({"plan", "gemm", "--cluster", "1x4", "--multicast", "a", "--multicast-issue", "leader"});
  // 2-CTA tcgen05 on sm_100a.
  r = Both({"plan", "gemm", "--target", "sm_100a", "--cta-group", "2", "--cluster", "2x1", "--bn", "256",
            "--format", "json"});
  ASSERT_EQ(r.ctas_size(), 2);
  EXPECT_EQ(r.ctas(0).expect_tx(), 65536u);  // [CUTLASS] sm100: 2 x (128 x 64 + 128 x 64) x 2 bytes
  EXPECT_EQ(r.ctas(1).expect_tx(), 0u);
  EXPECT_EQ(r.mma().idesc(), (1u << 4) | (1u << 7) | (1u << 10) | (32u << 17) | (16u << 24));  // [PTX] Table 42
  Both({"plan", "gemm", "--target", "sm_100a", "--cta-group", "2", "--cluster", "2x1", "--bn", "256", "--format", "cpp"});
  // Other types and layouts, every flag the request has.
  Both({"plan", "gemm", "--a-major", "mn", "--b-major", "mn", "--c-type", "f32", "--d-type", "f32", "--cd-layout", "col",
        "--accumulator", "f32", "--lda", "5000", "--swizzle-a", "64B", "--warpgroups", "1", "--no-epilogue",
        "--format", "json"});
  Both({"plan", "gemm", "--dtype", "e4m3", "--tile", "128x128x128", "--stages", "3", "--format", "json"});
  // Invalid plans: exit status 1, the report; with --format cpp nothing generated and the report on stderr.
  r = Both({"plan", "gemm", "--dtype", "e4m3", "--tile", "128x256x128", "--stages", "4"});
  EXPECT_FALSE(r.valid());
  EXPECT_GT(r.errors(), 0);
  Both({"plan", "gemm", "--dtype", "e4m3", "--tile", "128x256x128", "--stages", "4", "--format", "cpp"});
}

TEST_F(PlanRpcTest, ConvolutionsAsTheLocalCommand) {
  // 32 x 56 x 56 x 64 -> 128, 3 x 3, pad 1.
  v2::PlanResponse r = Both({"plan", "conv", "--format", "json"});
  EXPECT_TRUE(r.valid());
  ASSERT_EQ(r.conv().out_size(), 2);
  EXPECT_EQ(r.conv().out(0), 56u);  // [cuDNN] (56 + 2 - 2 - 1) / 1 + 1
  EXPECT_EQ(r.conv().gemm_m(), 32u * 56 * 56);
  EXPECT_EQ(r.conv().gemm_k(), 9u * 64);
  ASSERT_EQ(r.conv().taps_size(), 9);
  EXPECT_EQ(r.conv().taps(4).offsets(0), 1u);  // tap (s 1, r 1): offsets s x dilation, r x dilation
  EXPECT_EQ(r.conv().taps(4).offsets(1), 1u);
  EXPECT_EQ(r.maps(0).spec().mode(), v1::IM2COL);
  Both({"plan", "conv"});
  Both({"plan", "conv", "--format", "cpp"});
  Both({"plan", "conv", "-h", "30", "--w", "30", "--stride", "2", "--dilation", "2", "--format", "json"});
  Both({"plan", "conv", "--cluster", "2x1", "--multicast", "b", "--format", "cpp"});
  // 3D.
  r = Both({"plan", "conv", "--d", "8", "--t", "3", "--pad", "1,1,1", "--format", "json"});
  ASSERT_EQ(r.conv().out_size(), 3);
  EXPECT_EQ(r.conv().taps_size(), 27);
  Both({"plan", "conv", "--d", "8", "--t", "3", "--format", "cpp"});
  Both({"plan", "conv", "--target", "sm_100a", "--format", "json"});
  // The sm_100 wide forms beside the GEMM, as fields ([PTX] 9.2 5.5.5.3: a 3 x 3 filter at stride 1 is one
  // buffer with wHalo 2, 128 + 2 pixels a copy; 5.5.5.4 example 1: stride 2 gives buffer 1 wHalo 1 wOffset 0
  // and buffer 2 wHalo 0 wOffset 1).
  r = Both({"plan", "conv", "--target", "sm_100a", "--n", "8", "--h", "28", "--w", "28", "--format", "json"});
  ASSERT_EQ(r.conv().wide_size(), 2);
  const v2::PlanWideForm* w = &r.conv().wide(0);
  EXPECT_EQ(w->name(), "im2col::w");
  EXPECT_TRUE(w->applies());
  ASSERT_EQ(w->buffers_size(), 1);
  EXPECT_EQ(w->buffers(0).w_halo(), 2u);
  EXPECT_EQ(w->buffers(0).w_offset(), 0u);
  EXPECT_EQ(w->buffers(0).rows(), 130u);
  ASSERT_EQ(w->taps_size(), 3);
  EXPECT_EQ(w->taps(2).row(), 2u);  // the halo pixels follow the main pixels
  EXPECT_EQ(w->map().spec().mode(), v1::IM2COL_W);
  r = Both({"plan", "conv", "--target", "sm_100a", "--n", "8", "--h", "28", "--w", "28", "--stride", "1,2",
            "--format", "cpp"});
  ASSERT_EQ(r.conv().wide_size(), 2);
  w = &r.conv().wide(0);
  ASSERT_EQ(w->buffers_size(), 2);
  EXPECT_EQ(w->buffers(0).w_halo(), 1u);
  EXPECT_EQ(w->buffers(0).w_offset(), 0u);
  EXPECT_EQ(w->buffers(1).w_halo(), 0u);
  EXPECT_EQ(w->buffers(1).w_offset(), 1u);
  // Invalid: the last 3D tap's offset past the rank-5 limit (CUTLASS can_implement): exit status 1.
  r = Both({"plan", "conv", "--d", "40", "--t", "32", "--r", "32", "--s", "32"});
  EXPECT_FALSE(r.valid());
  Both({"plan", "conv", "--d", "40", "--t", "32", "--r", "32", "--s", "32", "--format", "cpp"});
}

TEST_F(TmapdTest, MalformedPlanRequestsNameTheField) {
  auto v2 = ConnectV2(server_->address());
  auto gemm = [&](const std::function<void(v2::PlanGemmRequest*)>& edit, grpc::StatusCode want, const std::string& field) {
    v2::PlanGemmRequest req;
    edit(&req);
    v2::PlanResponse res;
    grpc::ClientContext ctx;
    const grpc::Status st = v2->PlanGemm(&ctx, req, &res);
    EXPECT_EQ(st.error_code(), want) << field << ": " << st.error_message();
    EXPECT_EQ(Field(ctx), field) << st.error_message();
  };
  auto conv = [&](const std::function<void(v2::PlanConvRequest*)>& edit, grpc::StatusCode want, const std::string& field) {
    v2::PlanConvRequest req;
    edit(&req);
    v2::PlanResponse res;
    grpc::ClientContext ctx;
    const grpc::Status st = v2->PlanConv(&ctx, req, &res);
    EXPECT_EQ(st.error_code(), want) << field << ": " << st.error_message();
    EXPECT_EQ(Field(ctx), field) << st.error_message();
  };
  const auto bad = grpc::INVALID_ARGUMENT;
  gemm([](v2::PlanGemmRequest* r) { r->set_m(0); }, bad, "m");
  gemm([](v2::PlanGemmRequest* r) { r->set_a_type(static_cast<v2::ElementType>(99)); }, bad, "a_type");
  gemm([](v2::PlanGemmRequest* r) { r->set_a_type(v2::ELEMENT_E2M1); }, bad, "a_type");  // sub-byte: not planned
  gemm([](v2::PlanGemmRequest* r) { r->set_b_major(static_cast<v2::Major>(3)); }, bad, "b_major");
  gemm([](v2::PlanGemmRequest* r) { r->set_c_type(static_cast<v1::TensorDataType>(16)); }, bad, "c_type");
  gemm([](v2::PlanGemmRequest* r) { r->set_d_type(v1::CU_TENSOR_MAP_DATA_TYPE_FLOAT64); }, bad, "d_type");
  gemm([](v2::PlanGemmRequest* r) { r->set_cd_layout(static_cast<v2::CdLayout>(3)); }, bad, "cd_layout");
  gemm([](v2::PlanGemmRequest* r) { r->set_accumulator(static_cast<v2::AccumulatorType>(4)); }, bad, "accumulator");
  gemm([](v2::PlanGemmRequest* r) { r->set_bm(0); }, bad, "bm");
  gemm([](v2::PlanGemmRequest* r) { r->set_bn(257); }, bad, "bn");
  gemm([](v2::PlanGemmRequest* r) { r->set_bk(0); }, bad, "bk");
  gemm([](v2::PlanGemmRequest* r) { r->set_stages(65); }, bad, "stages");
  gemm([](v2::PlanGemmRequest* r) { r->set_cluster_m(0); }, bad, "cluster_m");
  gemm([](v2::PlanGemmRequest* r) { r->set_cluster_n(65536); r->set_cluster_m(65536); }, bad, "cluster_m");
  gemm([](v2::PlanGemmRequest* r) { r->set_cluster_m(4); r->set_cluster_n(8); }, bad, "cluster_n");
  gemm([](v2::PlanGemmRequest* r) { r->set_cluster_n(17); }, bad, "cluster_n");  // ctaMask has 16 bits
  gemm([](v2::PlanGemmRequest* r) { r->set_multicast_issue(static_cast<v2::MulticastIssue>(3)); }, bad, "multicast_issue");
  gemm([](v2::PlanGemmRequest* r) { r->set_target("sm_1"); }, bad, "target");
  gemm([](v2::PlanGemmRequest* r) { r->set_cta_group(3); }, bad, "cta_group");
  gemm([](v2::PlanGemmRequest* r) { r->set_cta_group(2); }, bad, "cta_group");  // sm_90a has no 2-CTA MMA
  gemm([](v2::PlanGemmRequest* r) {
         r->set_target("sm_100a"); r->set_cta_group(2); r->set_cluster_m(2); r->set_multicast_b(true);
       }, bad, "multicast_b");
  gemm([](v2::PlanGemmRequest* r) { r->set_swizzle_cd(static_cast<v2::DescriptorSwizzle>(9)); }, bad, "swizzle_cd");
  gemm([](v2::PlanGemmRequest* r) { r->set_warpgroups(5); }, bad, "warpgroups");
  gemm([](v2::PlanGemmRequest* r) { r->set_lda(10); }, bad, "lda");
  gemm([](v2::PlanGemmRequest* r) { r->mutable_output()->mutable_render()->set_format(static_cast<v2::Rendering::Format>(7)); },
       bad, "output.render.format");
  gemm([](v2::PlanGemmRequest* r) { r->mutable_output()->mutable_render()->set_color(true); }, bad, "output.render.color");
  gemm([](v2::PlanGemmRequest* r) { r->mutable_output()->set_cpp_namespace(std::string(300, 'n')); }, bad,
       "output.cpp_namespace");
  conv([](v2::PlanConvRequest* r) { r->set_spatial(4); }, bad, "spatial");
  conv([](v2::PlanConvRequest* r) { r->set_d(8); }, bad, "d");  // a 2D convolution has no D
  conv([](v2::PlanConvRequest* r) { r->set_dilation_d(2); }, bad, "dilation_d");
  conv([](v2::PlanConvRequest* r) { r->set_c(0); }, bad, "c");
  conv([](v2::PlanConvRequest* r) { r->set_h(0); }, bad, "h");
  conv([](v2::PlanConvRequest* r) { r->set_r(256); }, bad, "r");
  conv([](v2::PlanConvRequest* r) { r->set_s(60); }, bad, "s");  // larger than the padded input
  conv([](v2::PlanConvRequest* r) { r->set_stride_h(9); }, bad, "stride_h");  // cuda.h: element strides 1..8
  conv([](v2::PlanConvRequest* r) { r->set_dilation_w(0); }, bad, "dilation_w");
  conv([](v2::PlanConvRequest* r) { r->set_dtype(v2::ELEMENT_E2M1); }, bad, "dtype");
  conv([](v2::PlanConvRequest* r) { r->set_out_type(static_cast<v1::TensorDataType>(-1)); }, bad, "out_type");
  // The fields a convolution shares with a GEMM (tile, stages, cluster, multicast issue, target, output): the same
  // checks, the same field named.
  conv([](v2::PlanConvRequest* r) { r->set_bm(2000); }, bad, "bm");
  conv([](v2::PlanConvRequest* r) { r->set_bn(257); }, bad, "bn");
  conv([](v2::PlanConvRequest* r) { r->set_bk(0); }, bad, "bk");
  conv([](v2::PlanConvRequest* r) { r->set_stages(4294967295u); }, bad, "stages");  // found by the fuzzer: 4e9 buffers
  conv([](v2::PlanConvRequest* r) { r->set_cluster_m(0); }, bad, "cluster_m");
  conv([](v2::PlanConvRequest* r) { r->set_cluster_n(17); }, bad, "cluster_n");
  conv([](v2::PlanConvRequest* r) { r->set_multicast_issue(static_cast<v2::MulticastIssue>(3)); }, bad, "multicast_issue");
  conv([](v2::PlanConvRequest* r) { r->mutable_output()->mutable_render()->set_format(static_cast<v2::Rendering::Format>(7)); },
       bad, "output.render.format");
  conv([](v2::PlanConvRequest* r) { r->mutable_output()->mutable_render()->set_color(true); }, bad, "output.render.color");
  conv([](v2::PlanConvRequest* r) { r->mutable_output()->set_cpp_namespace(std::string(300, 'n')); }, bad,
       "output.cpp_namespace");
  conv([](v2::PlanConvRequest* r) { r->set_swizzle(static_cast<v2::DescriptorSwizzle>(-2)); }, bad, "swizzle");
  conv([](v2::PlanConvRequest* r) { r->set_target("sm_80"); }, bad, "target");
  // A filter with more taps than any valid plan: refused before any work, as a limit.
  conv([](v2::PlanConvRequest* r) {
         r->set_spatial(3); r->set_w(300); r->set_h(300); r->set_d(300); r->set_s(255); r->set_r(255); r->set_t(255);
       }, grpc::RESOURCE_EXHAUSTED, "s");
  // Still serving.
  v2::PlanGemmRequest ok;
  v2::PlanResponse res;
  grpc::ClientContext ctx;
  ASSERT_TRUE(v2->PlanGemm(&ctx, ok, &res).ok());
  EXPECT_TRUE(res.valid());
  EXPECT_EQ(res.rendered(), "");  // nothing asked to render
  EXPECT_FALSE(res.has_header());
}

TEST(TmapdScale, RoundRobinOverTwoServers) {
  std::unique_ptr<Server> a = StartServer(), b = StartServer();
  ASSERT_TRUE(a && b);
  auto stub = Connect("ipv4:" + a->address() + "," + b->address());
  std::set<std::string> seen;
  // round_robin uses a replica once its connection is up; the second may come up some calls later.
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (int i = 0; seen.size() < 2 && std::chrono::steady_clock::now() < end; ++i) {
    grpc::ClientContext ctx;
    ctx.set_wait_for_ready(true);
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::DescribeResponse d;
    ASSERT_TRUE(stub->Describe(&ctx, v1::DescribeRequest(), &d).ok());
    seen.insert(d.instance());
  }
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen.count(a->address()) && seen.count(b->address()));
  // One replica gone: the channel keeps answering from the other.
  a->Shutdown(std::chrono::milliseconds(0));
  a->Wait();
  for (int i = 0; i < 10; ++i) {
    grpc::ClientContext ctx;
    ctx.set_wait_for_ready(true);
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::DescribeResponse d;
    ASSERT_TRUE(stub->Describe(&ctx, v1::DescribeRequest(), &d).ok());
    EXPECT_EQ(d.instance(), b->address());
  }
}

// Shutdown stops new calls but lets a stream in flight finish.
TEST(TmapdShutdown, FinishesCallsInFlight) {
  std::unique_ptr<Server> server = StartServer();
  ASSERT_NE(server, nullptr);
  auto stub = Connect(server->address());
  grpc::ClientContext ctx;
  auto stream = stub->ValidateBatch(&ctx);
  v1::BatchRequest req;
  for (int i = 0; i < 100; ++i) *req.add_specs() = GoodSpec();
  ASSERT_TRUE(stream->Write(req));
  v1::BatchResponse res;
  ASSERT_TRUE(stream->Read(&res));
  std::thread stopper([&] { server->Shutdown(std::chrono::seconds(20)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  int answered = res.results_size();
  for (int m = 0; m < 3; ++m) {
    ASSERT_TRUE(stream->Write(req));
    ASSERT_TRUE(stream->Read(&res));
    answered += res.results_size();
  }
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
  EXPECT_EQ(answered, 400);
  stopper.join();
  server->Wait();
}

// Validate on the asynchronous API (--validate-threads N, the default 1) and on the callback API (0): the
// same answers, the token first, bad bytes INVALID_ARGUMENT, the limits, and a clean shutdown.
class TmapdValidatePaths : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Threads, TmapdValidatePaths, ::testing::Values(0, 1, 2));

TEST_P(TmapdValidatePaths, SameAnswers) {
  ServerConfig c;
  c.validate_threads = GetParam();
  c.token = "t0ken";
  c.limits.max_message_bytes = 64 << 10;
  std::unique_ptr<Server> server = StartServer(c);
  ASSERT_NE(server, nullptr);
  auto stub = Connect(server->address());
  for (int i = 0; i < 200; ++i) {
    v1::ValidateRequest req;
    *req.mutable_spec() = (i % 2) ? BadSpec() : GoodSpec();
    v1::Result res;
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer t0ken");
    ASSERT_TRUE(stub->Validate(&ctx, req, &res).ok());
    EXPECT_EQ(res.valid(), i % 2 == 0);
  }
  v1::ValidateRequest req;
  *req.mutable_spec() = GoodSpec();
  v1::Result res;
  {
    grpc::ClientContext ctx;  // no token
    EXPECT_EQ(stub->Validate(&ctx, req, &res).error_code(), grpc::UNAUTHENTICATED);
  }
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer t0ken");
    req.mutable_spec()->set_mode(static_cast<v1::Mode>(99));
    EXPECT_EQ(stub->Validate(&ctx, req, &res).error_code(), grpc::INVALID_ARGUMENT);
    EXPECT_EQ(Field(ctx), "spec.mode");
  }
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer t0ken");
    *req.mutable_spec() = GoodSpec();
    req.mutable_spec()->set_name(std::string(20000, 'n'));
    req.mutable_options()->set_format(v1::OUTPUT_TEXTPROTO);
    const grpc::Status s = stub->Validate(&ctx, req, &res);
    EXPECT_EQ(s.error_code(), grpc::RESOURCE_EXHAUSTED);
    EXPECT_NE(s.error_message().find("over the message limit"), std::string::npos) << s.error_message();
  }
  auto v2stub = v2::Tmapd::NewStub(grpc::CreateChannel(server->address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer t0ken");
  v1::ValidateRequest good;
  *good.mutable_spec() = GoodSpec();
  ASSERT_TRUE(v2stub->Validate(&ctx, good, &res).ok());
  EXPECT_TRUE(res.valid());
  server->Shutdown(std::chrono::milliseconds(100));
  server->Wait();
}

// Echoed request strings in error messages: a quoted part over 200 bytes keeps 200 bytes, then "..." and
// its length; short ones and the rest of the message stay as they were; a cut never splits a UTF-8
// character (U+00E9 is the two bytes C3 A9, RFC 3629).
TEST(CapEchoesTest, QuotedPartsAndWholeMessages) {
  EXPECT_EQ(CapEchoes("spec.target: unknown value \"sm_1\"; expected one of: sm_90"),
            "spec.target: unknown value \"sm_1\"; expected one of: sm_90");
  const std::string long_value(1000, 'x');
  EXPECT_EQ(CapEchoes("a: \"" + long_value + "\"; b"), "a: \"" + std::string(200, 'x') + "...\" (1000 bytes); b");
  std::string accents;
  for (int i = 0; i < 150; ++i) accents += "\xC3\xA9";  // 300 bytes; byte 200 starts a character
  const std::string capped = CapEchoes("\"x" + accents + "\"");
  EXPECT_EQ(capped, "\"x" + accents.substr(0, 198) + "...\" (301 bytes)");
  const std::string unquoted = CapEchoes("--desc " + std::string(5000, 'm') + ": no spec has this name");
  EXPECT_EQ(unquoted, "--desc " + std::string(1024 - 7, 'm') + "... (5030 bytes)");
}

// The GPU queue: one running, one waiting; a third is turned away at once; queued jobs all run.
TEST(GpuQueueTest, BoundedQueue) {
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> ran{0};
  {
    GpuQueue q(1, 1);
    auto blocking = [&] {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return release; });
      ++ran;
    };
    ASSERT_TRUE(q.Submit(blocking));  // runs
    for (int i = 0; i < 200 && q.waiting() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(q.Submit([&] { ++ran; }));   // waits
    EXPECT_FALSE(q.Submit([&] { ++ran; }));  // the queue is full
    {
      std::lock_guard<std::mutex> lock(mu);
      release = true;
    }
    cv.notify_all();
  }
  EXPECT_EQ(ran.load(), 2);
}

// Check needs a GPU: a GPU-less server says so (FAILED_PRECONDITION), and still answers.
TEST_F(TmapdTest, CheckWithoutGpuIsFailedPrecondition) {
  auto v2 = ConnectV2(server_->address());
  v2::CheckRequest req;
  v2::NamedSpec* n = req.add_specs();
  n->set_name("a.json");
  *n->mutable_spec() = GoodSpec();
  v2::CheckResponse res;
  grpc::ClientContext ctx;
  EXPECT_EQ(v2->Check(&ctx, req, &res).error_code(), grpc::FAILED_PRECONDITION);
  grpc::ClientContext ctx2;
  v1::DescribeResponse d;
  ASSERT_TRUE(stub_->Describe(&ctx2, v1::DescribeRequest(), &d).ok());
  EXPECT_FALSE(d.check_available());
}

// The worker process: its standard input and output are the request and the answer; it gets no
// argument from the request; a crash (as a kernel fault that takes the process down) and a hang are
// contained. A shell script stands in for tmapd_check_worker.
class CheckWorkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/tmapd-worker-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    script_ = dir_ + "/fake-worker";
    std::ofstream f(script_);
    f << "#!/bin/sh\n"
         "case \"$1\" in\n"
         "  --crash) kill -SEGV $$ ;;\n"
         "  --hang) sleep 30 ;;\n"
         "esac\n"
         "echo \"argc $#\"; cat; echo \"stderr\" >&2; exit 1\n";
    f.close();
    chmod(script_.c_str(), 0755);
  }
  void TearDown() override {
    unlink(script_.c_str());
    rmdir(dir_.c_str());
  }
  CheckOutcome Run(const std::string& flag, std::string input, std::chrono::milliseconds budget = std::chrono::seconds(20)) {
    CheckJob job;
    job.input = std::move(input);
    if (!flag.empty()) job.flags.push_back(flag);
    job.deadline = std::chrono::system_clock::now() + budget;
    CheckOutcome out;
    EXPECT_EQ(RunCheckWorker(script_, job, nullptr, nullptr, &out), absl::OkStatus());
    return out;
  }
  std::string dir_, script_;
};

TEST_F(CheckWorkerTest, InputInOutputOut) {
  // More than a pipe holds (64 KiB): input is written while output is read.
  const std::string big(1 << 20, 'x');
  const CheckOutcome out = Run("", big);
  EXPECT_EQ(out.end, CheckOutcome::End::kExited);
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_EQ(out.out, "argc 0\n" + big);
  EXPECT_EQ(out.err, "stderr\n");
}

TEST_F(CheckWorkerTest, CrashAndHangAreContained) {
  const CheckOutcome crash = Run("--crash", "");
  EXPECT_EQ(crash.end, CheckOutcome::End::kKilledBySignal);
  EXPECT_EQ(crash.signal, SIGSEGV);
  const auto t0 = std::chrono::steady_clock::now();
  const CheckOutcome hang = Run("--hang", "", std::chrono::milliseconds(300));
  EXPECT_EQ(hang.end, CheckOutcome::End::kTimedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
  EXPECT_EQ(Run("", "x").exit_code, 1);  // the next job gets a fresh worker
}

}  // namespace
}  // namespace tmapgen::server
