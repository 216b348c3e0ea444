// remote.h: `tmapgen --remote HOST:PORT ...`: the command line as a client of tmapd (docs/service.md).
//
// Contract
// - RemoteRequested: the arguments name --remote. RunRemote(&args) takes the remote flags out of args
//   and runs the command on the server, printing what the local command prints (standard output
//   byte-identical, same exit status: 0 valid, 1 invalid, 2 bad usage or unreadable input). Input files
//   are read here and sent; the server reads no files. Remote commands: build (the default), validate,
//   desc, idesc, codegen, decode, check (on the server's GPU), plan. The arguments are parsed here, by the
//   local command's parser, into the request the local command would run; only that request travels
//   (tmapgen.v2.Tmapd, proto/tmapd_v2.proto), and -o/--svg files are written here.
// - A token is sent in plaintext only to a target that resolves to loopback only; otherwise TLS
//   (--tls-ca) is required (exit 2). Responses are bounded by --max-response-bytes (default 64 MiB).
// - sweep and bench are refused (exit 2). It returns -1 (run locally) for everything
//   else: rules, show (the same answer everywhere), --help,
//   --version and every usage error; the caller then runs the remaining args itself, so that those
//   print exactly what they print without --remote.
// - --remote takes HOST:PORT, a comma-separated list of HOST[:PORT] (resolved here into gRPC's
//   "ipv4:A:P,B:P" or "ipv6:[A]:P,..." target), or any gRPC target ("dns:///farm.example:50051"): calls
//   are balanced round_robin over every address it resolves to whose grpc.health.v1 status is SERVING;
//   unary calls other than Check are retried by gRPC on UNAVAILABLE.
// - validate packs its specs by bytes under the limit the server advertises (Describe), checks every
//   response before printing it, and resumes a broken stream from the first unanswered spec on another
//   replica (one line on stderr when it does). A bad response, or a stream that ends with specs
//   unanswered, returns 2 after saying how many specs were answered and how many were not.
// - --token TOKEN (or $TMAPGEN_TOKEN) is sent as "authorization: Bearer TOKEN"; --tls-ca FILE
//   connects with TLS, trusting the CA certificates in FILE. --deadline-ms N bounds each call.
// - Failures of the call itself (server down, wrong token, deadline) print
//   "tmapgen: remote TARGET: CODE: message" on standard error and return 2.
// Without gRPC in the build, RunRemote says so and returns 2.
#ifndef TMAPGEN_CLI_REMOTE_H_
#define TMAPGEN_CLI_REMOTE_H_

#include <cstdio>
#include <string>
#include <vector>

namespace tmapgen::cli {

inline bool RemoteRequested(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--") break;
    if (a == "--remote" || a.rfind("--remote=", 0) == 0) return true;
  }
  return false;
}

#ifdef TMAPGEN_HAVE_REMOTE
int RunRemote(std::vector<std::string>* args);
#else
inline int RunRemote(std::vector<std::string>*) {
  std::fputs("tmapgen: --remote: this build has no gRPC support (install libgrpc++-dev and rebuild)\n", stderr);
  return 2;
}
#endif

}  // namespace tmapgen::cli

#endif  // TMAPGEN_CLI_REMOTE_H_
