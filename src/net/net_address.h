// net_address.h: what an address means on the network, decided on the addresses it resolves to, never
// on how it is spelled ("127.example.com" is not loopback unless it resolves to 127.0.0.0/8 or ::1).
//
// Contract
// - ResolveListen() resolves tmapd's --listen value ("HOST:PORT", "[V6]:PORT", ":PORT", "unix:PATH")
//   to the numeric addresses to bind ("127.0.0.1:50051", "[::1]:50051"; unix: as is) and says whether
//   every one of them is loopback. A name that resolves to several addresses binds each (port 0: the
//   first only, so that the port is one number). The server binds exactly these strings, so what was
//   checked is what is bound.
// - TargetIsLoopback() decides a client target (--remote): "HOST:PORT", "dns:///HOST:PORT",
//   "ipv4:A:P,B:P", "ipv6:[A]:P,...", "unix:PATH". True only when every address it resolves to is
//   loopback; other schemes are not loopback. Errors (a name that does not resolve) are INVALID_ARGUMENT
//   or UNAVAILABLE with the reason.
#ifndef TMAPGEN_SRC_NET_NET_ADDRESS_H_
#define TMAPGEN_SRC_NET_NET_ADDRESS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace tmapgen::net {

struct ListenPlan {
  std::vector<std::string> bind;  // numeric addresses, gRPC's syntax
  bool loopback = false;          // every address is 127.0.0.0/8, ::1 (or v4-mapped 127/8), or unix:
  bool port_zero = false;
};

absl::Status ResolveListen(const std::string& listen, ListenPlan* out);
absl::Status TargetIsLoopback(const std::string& target, bool* loopback);

// HOST and PORT of "HOST:PORT" / "[V6]:PORT"; false when there is no port.
bool SplitHostPort(const std::string& hp, std::string* host, std::string* port);

}  // namespace tmapgen::net

#endif  // TMAPGEN_SRC_NET_NET_ADDRESS_H_
