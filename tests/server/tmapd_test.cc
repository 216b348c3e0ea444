// In-process tests of tmapd: a real server on a loopback port (port 0), called through the generated
// C++ client. The out-of-process tests (the tmapd binary, a Python client, the CLI) are
// tests/server/process_test.py.
#include <gtest/gtest.h>

#include "cli/codegen_cmd.h"
#include <grpcpp/grpcpp.h>

#include <set>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <fstream>

#include "proto/tmapd.grpc.pb.h"
#include "server/check_worker.h"
#include "server/service.h"

namespace tmapgen::server {
namespace {

std::unique_ptr<Server> StartServer(ServerConfig c = ServerConfig()) {
  c.listen = "127.0.0.1:0";
  c.log = false;
  c.use_gpu = false;
  std::string err;
  std::unique_ptr<Server> s = Server::Start(c, &err);
  EXPECT_NE(s, nullptr) << err;
  return s;
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

TEST(TmapdSecurity, NonLoopbackNeedsTls) {
  ServerConfig c;
  c.listen = "0.0.0.0:0";
  std::string err;
  EXPECT_EQ(Server::Start(c, &err), nullptr);
  EXPECT_NE(err.find("TLS"), std::string::npos) << err;
  EXPECT_TRUE(IsLoopbackAddress("127.0.0.1:1"));
  EXPECT_TRUE(IsLoopbackAddress("[::1]:1"));
  EXPECT_TRUE(IsLoopbackAddress("localhost:1"));
  EXPECT_FALSE(IsLoopbackAddress("0.0.0.0:1"));
  EXPECT_FALSE(IsLoopbackAddress("[::]:1"));
  EXPECT_FALSE(IsLoopbackAddress("10.1.2.3:1"));
}

TEST_F(TmapdTest, DescribeAndDescriptors) {
  grpc::ClientContext ctx;
  v1::DescribeResponse d;
  ASSERT_TRUE(stub_->Describe(&ctx, v1::DescribeRequest(), &d).ok());
  EXPECT_FALSE(d.gpu());  // use_gpu = false in these tests
  EXPECT_EQ(d.known_targets_size(), 16);
  EXPECT_EQ(d.instance(), server_->address());

  v1::DescriptorRequest req;
  req.add_args("wgmma");
  req.add_args("--tile");
  req.add_args("64,16");
  req.add_args("--format");
  req.add_args("json");
  v1::DescriptorResponse res;
  grpc::ClientContext ctx2;
  ASSERT_TRUE(stub_->Descriptor(&ctx2, req, &res).ok());
  EXPECT_EQ(res.exit_code(), 0) << res.err();
  EXPECT_EQ(res.out().rfind("{", 0), 0u) << res.out();

  v1::DescriptorRequest svg = req;
  svg.add_args("--svg");
  svg.add_args("/tmp/x.svg");
  grpc::ClientContext ctx3;
  EXPECT_EQ(stub_->Descriptor(&ctx3, svg, &res).error_code(), grpc::INVALID_ARGUMENT);
  v1::DescriptorRequest file = req;
  file.add_args("--for-map");
  file.add_args("/etc/passwd");
  grpc::ClientContext ctx4;
  EXPECT_EQ(stub_->Descriptor(&ctx4, file, &res).error_code(), grpc::INVALID_ARGUMENT);
}

// Codegen: the same bytes as the local command; an invalid spec is exit 1 with the report and no code;
// -o and file names in args are refused (the server writes and reads no files).
TEST_F(TmapdTest, CodegenMatchesTheLocalCommand) {
  const std::string spec =
      R"({"name":"a_tile","tensor_data_type":"bf16","global_dim":[1024,1024],"box_dim":[64,64],"swizzle":"128B","target":"sm_90a"})";
  const std::string path = testing::TempDir() + "/codegen_spec.json";
  { FILE* f = std::fopen(path.c_str(), "wb"); std::fputs(spec.c_str(), f); std::fclose(f); }
  std::string lo, le;
  ASSERT_EQ(cli::RunCodegenCommandTo({"--lang", "cpp", path}, &lo, &le), 0) << le;

  v1::CodegenRequest req;
  v1::SpecFile* f = req.add_files();
  f->set_name(path);
  f->set_content(spec);
  req.add_args("--lang");
  req.add_args("cpp");
  v1::CodegenResponse res;
  grpc::ClientContext ctx;
  ASSERT_TRUE(stub_->Codegen(&ctx, req, &res).ok());
  EXPECT_EQ(res.exit_code(), 0) << res.err();
  EXPECT_EQ(res.out(), lo);

  v1::CodegenRequest bad = req;
  bad.mutable_files(0)->set_content(
      R"({"tensor_data_type":"bf16","global_dim":[1000,64],"global_strides":[2008],"box_dim":[64,64],"swizzle":"128B"})");
  grpc::ClientContext ctx2;
  ASSERT_TRUE(stub_->Codegen(&ctx2, bad, &res).ok());
  EXPECT_EQ(res.exit_code(), 1);
  EXPECT_TRUE(res.out().empty());
  EXPECT_NE(res.err().find("global-stride-align-16"), std::string::npos) << res.err();

  v1::CodegenRequest out_flag = req;
  out_flag.add_args("-o");
  out_flag.add_args("/tmp/x.h");
  grpc::ClientContext ctx3;
  EXPECT_EQ(stub_->Codegen(&ctx3, out_flag, &res).error_code(), grpc::INVALID_ARGUMENT);
}

// Two replicas behind one channel: round_robin spreads the calls over both.
TEST(TmapdScale, RoundRobinOverTwoServers) {
  std::unique_ptr<Server> a = StartServer(), b = StartServer();
  ASSERT_TRUE(a && b);
  auto stub = Connect("ipv4:" + a->address() + "," + b->address());
  std::set<std::string> seen;
  for (int i = 0; i < 20; ++i) {
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

// The bounded GPU queue: one running, one waiting; a third is turned away; a waiter times out.
TEST(GpuGateTest, BoundedQueue) {
  GpuGate gate(1, 1);
  const auto far = std::chrono::system_clock::time_point::max();
  ASSERT_EQ(gate.Acquire(far), GpuGate::Admit::kOk);
  std::thread waiter([&] {
    EXPECT_EQ(gate.Acquire(std::chrono::system_clock::now() + std::chrono::seconds(20)), GpuGate::Admit::kOk);
    gate.Release();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(gate.Acquire(far), GpuGate::Admit::kQueueFull);
  gate.Release();
  waiter.join();
  ASSERT_EQ(gate.Acquire(far), GpuGate::Admit::kOk);
  std::thread late([&] {
    EXPECT_EQ(gate.Acquire(std::chrono::system_clock::now() + std::chrono::milliseconds(100)), GpuGate::Admit::kDeadline);
  });
  late.join();
  gate.Release();
}

// Check needs a GPU: a GPU-less server says so (FAILED_PRECONDITION), and still answers.
TEST_F(TmapdTest, CheckWithoutGpuIsFailedPrecondition) {
  v1::CheckRequest req;
  v1::SpecFile* f = req.add_files();
  f->set_name("a.json");
  f->set_content("{\"mode\":\"tiled\"}");
  v1::CheckResponse res;
  grpc::ClientContext ctx;
  EXPECT_EQ(stub_->Check(&ctx, req, &res).error_code(), grpc::FAILED_PRECONDITION);
  grpc::ClientContext ctx2;
  v1::DescribeResponse d;
  ASSERT_TRUE(stub_->Describe(&ctx2, v1::DescribeRequest(), &d).ok());
  EXPECT_FALSE(d.check_available());
}

// The worker process: output under the caller's names, exit status, a crash (as a kernel fault that
// takes the process down) and a hang are contained. A shell script stands in for tmapgen.
class CheckWorkerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/tmapd-worker-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    script_ = dir_ + "/fake-tmapgen";
    std::ofstream f(script_);
    f << "#!/bin/sh\n"
         "case \"$3\" in\n"
         "  --crash) kill -SEGV $$ ;;\n"
         "  --hang) sleep 30 ;;\n"
         "esac\n"
         "echo \"$1 $2\"; cat \"$2\"; echo \"stderr of $2\" >&2; exit 1\n";
    f.close();
    chmod(script_.c_str(), 0755);
  }
  void TearDown() override {
    unlink(script_.c_str());
    rmdir(dir_.c_str());
  }
  CheckOutcome Run(const std::string& flag, std::chrono::milliseconds budget = std::chrono::seconds(20)) {
    CheckJob job;
    job.files.emplace_back("my/specs.jsonl", "{\"mode\":\"tiled\"}\n");
    if (!flag.empty()) job.flags.push_back(flag);
    job.deadline = std::chrono::system_clock::now() + budget;
    CheckOutcome out;
    std::string why;
    EXPECT_TRUE(RunCheckWorker(script_, job, nullptr, nullptr, &out, &why)) << why;
    return out;
  }
  std::string dir_, script_;
};

TEST_F(CheckWorkerTest, OutputUnderTheCallersNames) {
  const CheckOutcome out = Run("");
  EXPECT_EQ(out.end, CheckOutcome::End::kExited);
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_EQ(out.out, "check my/specs.jsonl\n{\"mode\":\"tiled\"}\n");
  EXPECT_EQ(out.err, "stderr of my/specs.jsonl\n");
}

TEST_F(CheckWorkerTest, CrashAndHangAreContained) {
  const CheckOutcome crash = Run("--crash");
  EXPECT_EQ(crash.end, CheckOutcome::End::kKilledBySignal);
  EXPECT_EQ(crash.signal, SIGSEGV);
  const auto t0 = std::chrono::steady_clock::now();
  const CheckOutcome hang = Run("--hang", std::chrono::milliseconds(300));
  EXPECT_EQ(hang.end, CheckOutcome::End::kTimedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
  EXPECT_EQ(Run("").exit_code, 1);  // the next job gets a fresh worker
}

}  // namespace
}  // namespace tmapgen::server
