// tmapd_check_worker: the GPU check of one tmapd Check call, in its own process (check_worker.h).
//
//   tmapd_check_worker [--max-input-bytes N]   < tmapgen.v2.CheckRequest (binary)   > tmapgen.v2.CheckResponse
//
// Exit status: 0 the response is on standard output; 3 no usable GPU (the reason on standard error);
// 2 the input is not a CheckRequest tmapd would send (a message on standard error). It opens no file:
// the specs arrive in the request, the result leaves on standard output.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "src/ops/check.h"
#include "src/rpc/check.h"
#include "src/gpu/check/check_report.h"

int main(int argc, char** argv) {
  size_t max_input = 64u << 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--max-input-bytes" && i + 1 < argc) {
      max_input = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "tmapd_check_worker: unknown argument %s (it is started by tmapd)\n", a.c_str());
      return 2;
    }
  }
  std::string input;
  char buf[1 << 15];
  for (;;) {
    const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      std::perror("tmapd_check_worker: reading the request");
      return 2;
    }
    input.append(buf, static_cast<size_t>(n));
    if (input.size() > max_input) {
      std::fprintf(stderr, "tmapd_check_worker: the request is over %zu bytes\n", max_input);
      return 2;
    }
  }
  tmapgen::v2::CheckRequest req;
  if (!req.ParseFromString(input)) {
    std::fprintf(stderr, "tmapd_check_worker: standard input is not a tmapgen.v2.CheckRequest\n");
    return 2;
  }
  tmapgen::rpc::RequestLimits limits;
  limits.max_check_specs = 1u << 20;  // tmapd applied its own limit
  tmapgen::ops::CheckRequest run_req;
  const absl::Status st = tmapgen::rpc::FromProto(req, limits, &run_req);
  if (!st.ok()) {
    std::fprintf(stderr, "tmapd_check_worker: %s\n", std::string(st.message()).c_str());
    return 2;
  }
  const absl::StatusOr<tmapgen::gpu::CheckReport> run = tmapgen::ops::RunCheck(run_req);
  if (!run.ok()) {
    std::fprintf(stderr, "%s\n", std::string(run.status().message()).c_str());
    return 3;
  }
  const tmapgen::gpu::CheckReport& rep = *run;
  tmapgen::v2::CheckResponse res;
  tmapgen::rpc::ToProto(rep, &res);
  if (req.render().format() == tmapgen::v2::Rendering::TEXT) res.set_rendered(tmapgen::gpu::RenderCheckText(rep, req.verbose()));
  std::string out;
  if (!res.SerializeToString(&out)) return 2;
  size_t off = 0;
  while (off < out.size()) {
    const ssize_t n = write(STDOUT_FILENO, out.data() + off, out.size() - off);
    if (n <= 0) return 2;
    off += static_cast<size_t>(n);
  }
  return 0;
}
