// tmapd_load: a bounded load generator for tmapd (scripts/dev/load-test.sh). Both the number of requests
// and the time are capped. Prints one line of results per run.
//
//   tmapd_load --target ADDR --mode unary|batch [--concurrency 32] [--requests N] [--seconds S]
//              [--batch-size 1000] [--specs FILE.jsonl] [--token T]
//
// unary: `concurrency` Validate calls kept in flight on one channel (async client, one thread);
//        throughput and p50/p99/max latency per call.
// batch: `concurrency` ValidateBatch streams, each sending messages of batch-size specs (pipelined);
//        throughput in specs/s and p50/p99 round trip per message.
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "proto/tmapd.grpc.pb.h"
#include "src/schema/proto_convert.h"
#include "src/schema/spec_json.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Args {
  std::string target, mode = "unary", specs_file, token;
  int concurrency = 32, batch_size = 1000;
  long requests = 200000;
  double seconds = 10;
};

std::vector<tmapgen::v1::TensorMapSpec> LoadSpecs(const std::string& file) {
  std::vector<tmapgen::v1::TensorMapSpec> out;
  if (!file.empty()) {
    std::ifstream f(file);
    std::string line;
    size_t n = 0;
    while (std::getline(f, line)) {
      if (absl::StatusOr<tmapgen::TensorMapSpec> s = tmapgen::ParseSpecJson(line, ++n); s.ok()) {
        out.emplace_back();
        tmapgen::SpecToProto(*s, &out.back());
      }
    }
  }
  if (out.empty()) {
    tmapgen::v1::TensorMapSpec s;
    s.set_mode(tmapgen::v1::TILED);
    s.set_tensor_data_type(tmapgen::v1::CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
    s.set_tensor_rank(2);
    s.add_global_dim(4096);
    s.add_global_dim(4096);
    s.add_global_strides(8192);
    s.add_box_dim(64);
    s.add_box_dim(64);
    s.set_swizzle(tmapgen::v1::CU_TENSOR_MAP_SWIZZLE_128B);
    s.set_target("sm_90a");
    out.push_back(s);
  }
  return out;
}

double Pct(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<long>(i), v.end());
  return v[i];
}

void AddAuth(const Args& a, grpc::ClientContext* ctx) {
  if (!a.token.empty()) ctx->AddMetadata("authorization", "Bearer " + a.token);
}

int Unary(const Args& a, tmapgen::v1::Tmapd::Stub* stub, const std::vector<tmapgen::v1::TensorMapSpec>& specs) {
  struct Call {
    grpc::ClientContext ctx;
    tmapgen::v1::Result res;
    grpc::Status status;
    std::unique_ptr<grpc::ClientAsyncResponseReader<tmapgen::v1::Result>> rpc;
    Clock::time_point start;
  };
  grpc::CompletionQueue cq;
  std::vector<tmapgen::v1::ValidateRequest> reqs(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    *reqs[i].mutable_spec() = specs[i];
    reqs[i].mutable_options()->set_no_report(true);
  }
  long started = 0, done = 0, failed = 0;
  std::vector<double> lat;
  lat.reserve(static_cast<size_t>(a.requests));
  const Clock::time_point t0 = Clock::now(), stop = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(a.seconds));
  auto start = [&]() {
    Call* c = new Call;
    AddAuth(a, &c->ctx);
    c->start = Clock::now();
    c->rpc = stub->AsyncValidate(&c->ctx, reqs[static_cast<size_t>(started) % reqs.size()], &cq);
    c->rpc->Finish(&c->res, &c->status, c);
    ++started;
  };
  for (int i = 0; i < a.concurrency && started < a.requests; ++i) start();
  void* tag;
  bool ok;
  while (done < started && cq.Next(&tag, &ok)) {
    Call* c = static_cast<Call*>(tag);
    const Clock::time_point now = Clock::now();
    lat.push_back(std::chrono::duration<double, std::micro>(now - c->start).count());
    if (!c->status.ok()) ++failed;
    ++done;
    delete c;
    if (started < a.requests && now < stop) start();
  }
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("unary validate: %ld requests (%ld failed) in %.2f s, concurrency %d: %.0f req/s, p50 %.0f us, p99 %.0f us, max %.0f us\n",
              done, failed, secs, a.concurrency, done / secs, Pct(lat, 0.50), Pct(lat, 0.99), Pct(lat, 1.0));
  return failed == 0 ? 0 : 1;
}

int Batch(const Args& a, tmapgen::v1::Tmapd::Stub* stub, const std::vector<tmapgen::v1::TensorMapSpec>& specs) {
  tmapgen::v1::BatchRequest msg;
  for (int i = 0; i < a.batch_size; ++i) *msg.add_specs() = specs[static_cast<size_t>(i) % specs.size()];
  tmapgen::v1::BatchRequest first = msg;
  first.mutable_options()->set_no_report(true);
  const long per_stream_msgs = std::max(1L, a.requests / a.batch_size / a.concurrency);
  const Clock::time_point t0 = Clock::now(), stop = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(a.seconds));
  std::mutex mu;
  std::vector<double> lat;
  long total = 0, valid = 0, failed = 0;
  std::vector<std::thread> streams;
  for (int s = 0; s < a.concurrency; ++s) {
    streams.emplace_back([&, s] {
      // Streams started at the same instant were all given the same replica by round_robin (gRPC 1.51,
      // measured: 4 streams over 2 replicas, 4 and 0); 10 ms apart they alternate.
      std::this_thread::sleep_for(std::chrono::milliseconds(10 * s));
      grpc::ClientContext ctx;
      AddAuth(a, &ctx);
      auto stream = stub->ValidateBatch(&ctx);
      std::mutex qmu;
      std::deque<Clock::time_point> sent;
      std::thread writer([&] {
        for (long m = 0; m < per_stream_msgs && Clock::now() < stop; ++m) {
          {
            std::lock_guard<std::mutex> l(qmu);
            sent.push_back(Clock::now());
          }
          if (!stream->Write(m == 0 ? first : msg)) break;
        }
        stream->WritesDone();
      });
      tmapgen::v1::BatchResponse res;
      std::vector<double> my_lat;
      long my_total = 0, my_valid = 0, got_in_msg = 0;
      while (stream->Read(&res)) {
        my_total += res.results_size();
        my_valid += res.valid();
        got_in_msg += res.results_size();
        if (got_in_msg >= a.batch_size) {  // a request may be answered in several responses
          got_in_msg -= a.batch_size;
          std::lock_guard<std::mutex> l(qmu);
          my_lat.push_back(std::chrono::duration<double, std::micro>(Clock::now() - sent.front()).count());
          sent.pop_front();
        }
      }
      writer.join();
      const grpc::Status st = stream->Finish();
      std::lock_guard<std::mutex> l(mu);
      total += my_total;
      valid += my_valid;
      if (!st.ok()) {
        ++failed;
        std::fprintf(stderr, "stream failed: %d %s\n", st.error_code(), st.error_message().c_str());
      }
      lat.insert(lat.end(), my_lat.begin(), my_lat.end());
    });
  }
  for (std::thread& t : streams) t.join();
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("batch stream: %ld specs (%ld valid) in %.2f s, %d stream(s) x %d specs/message: %.0f specs/s, "
              "per message p50 %.0f us, p99 %.0f us\n",
              total, valid, secs, a.concurrency, a.batch_size, total / secs, Pct(lat, 0.50), Pct(lat, 0.99));
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--target") a.target = v;
    else if (k == "--mode") a.mode = v;
    else if (k == "--concurrency") a.concurrency = std::max(1, std::atoi(v.c_str()));
    else if (k == "--requests") a.requests = std::max(1L, std::atol(v.c_str()));
    else if (k == "--seconds") a.seconds = std::atof(v.c_str());
    else if (k == "--batch-size") a.batch_size = std::max(1, std::atoi(v.c_str()));
    else if (k == "--specs") a.specs_file = v;
    else if (k == "--token") a.token = v;
    else {
      std::fprintf(stderr, "tmapd_load: unknown argument %s\n", k.c_str());
      return 2;
    }
  }
  if (a.target.empty()) {
    std::fprintf(stderr, "usage: tmapd_load --target ADDR --mode unary|batch [--concurrency N] [--requests N] [--seconds S] "
                         "[--batch-size N] [--specs FILE.jsonl] [--token T]\n");
    return 2;
  }
  grpc::ChannelArguments ch;
  ch.SetLoadBalancingPolicyName("round_robin");
  ch.SetMaxReceiveMessageSize(-1);
  std::shared_ptr<grpc::Channel> channel = grpc::CreateCustomChannel(a.target, grpc::InsecureChannelCredentials(), ch);
  auto stub = tmapgen::v1::Tmapd::NewStub(channel);
  const std::vector<tmapgen::v1::TensorMapSpec> specs = LoadSpecs(a.specs_file);
  // round_robin hands calls only to connected replicas: calls made at once, before the others of a
  // list are connected, would all go to the first (a stream stays where it started). Connect first.
  if (channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(10)))
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  return a.mode == "batch" ? Batch(a, stub.get(), specs) : Unary(a, stub.get(), specs);
}
