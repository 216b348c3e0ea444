// net_address.cc: see net_address.h.
#include "src/net/net_address.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstring>

#include "src/util/strings.h"

namespace tmapgen::net {
namespace {

bool IsLoopback(const sockaddr* sa) {
  if (sa->sa_family == AF_INET) {
    const uint32_t a = ntohl(reinterpret_cast<const sockaddr_in*>(sa)->sin_addr.s_addr);
    return (a >> 24) == 127;
  }
  if (sa->sa_family == AF_INET6) {
    const in6_addr& a = reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr;
    if (IN6_IS_ADDR_LOOPBACK(&a)) return true;
    return IN6_IS_ADDR_V4MAPPED(&a) && a.s6_addr[12] == 127;
  }
  return false;
}

std::string Numeric(const sockaddr* sa, socklen_t len, const std::string& port) {
  char host[NI_MAXHOST];
  if (getnameinfo(sa, len, host, sizeof host, nullptr, 0, NI_NUMERICHOST) != 0) return "";
  return sa->sa_family == AF_INET6 ? StrCat("[", host, "]:", port) : StrCat(host, ":", port);
}

// Resolves HOST (numeric or a name) for PORT; passive = for binding (an empty host is the wildcard).
absl::Status Resolve(const std::string& host, const std::string& port, bool passive, std::vector<std::string>* numeric,
                     bool* all_loopback) {
  addrinfo hints;
  std::memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
  addrinfo* res = nullptr;
  const int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &res);
  if (rc != 0)
    return absl::UnavailableError(ToAbsl(StrCat("cannot resolve \"", host, "\": ", gai_strerror(rc))));
  *all_loopback = true;
  for (addrinfo* a = res; a != nullptr; a = a->ai_next) {
    if (a->ai_family != AF_INET && a->ai_family != AF_INET6) continue;
    *all_loopback = *all_loopback && IsLoopback(a->ai_addr);
    const std::string n = Numeric(a->ai_addr, a->ai_addrlen, port);
    bool seen = false;
    for (const std::string& x : *numeric) seen = seen || x == n;
    if (!n.empty() && !seen) numeric->push_back(n);
  }
  freeaddrinfo(res);
  if (numeric->empty()) return absl::UnavailableError(ToAbsl(StrCat("\"", host, "\" resolves to no IP address")));
  return absl::OkStatus();
}

bool ValidPort(const std::string& p) {
  if (p.empty() || p.size() > 5 || p.find_first_not_of("0123456789") != std::string::npos) return false;
  return std::stoi(p) <= 65535;
}

}  // namespace

bool SplitHostPort(const std::string& hp, std::string* host, std::string* port) {
  if (!hp.empty() && hp[0] == '[') {
    const size_t close = hp.find(']');
    if (close == std::string::npos || close + 1 >= hp.size() || hp[close + 1] != ':') return false;
    *host = hp.substr(1, close - 1);
    *port = hp.substr(close + 2);
    return true;
  }
  const size_t colon = hp.rfind(':');
  if (colon == std::string::npos) return false;
  *host = hp.substr(0, colon);
  *port = hp.substr(colon + 1);
  return host->find(':') == std::string::npos;  // a bare IPv6 address needs brackets
}

absl::Status ResolveListen(const std::string& listen, ListenPlan* out) {
  *out = ListenPlan();
  if (listen.rfind("unix:", 0) == 0) {
    out->bind.push_back(listen);
    out->loopback = true;
    return absl::OkStatus();
  }
  std::string hp = listen;
  for (const char* scheme : {"ipv4:", "ipv6:"})
    if (hp.rfind(scheme, 0) == 0) hp = hp.substr(std::strlen(scheme));
  std::string host, port;
  if (!SplitHostPort(hp, &host, &port) || !ValidPort(port))
    return absl::InvalidArgumentError(ToAbsl(StrCat("--listen: \"", listen, "\" is not HOST:PORT, [IPV6]:PORT or unix:PATH")));
  out->port_zero = std::stoi(port) == 0;
  bool loop = false;
  if (absl::Status s = Resolve(host, port, true, &out->bind, &loop); !s.ok())
    return absl::InvalidArgumentError(ToAbsl(StrCat("--listen: ", s.message())));
  out->loopback = loop;
  if (out->port_zero && out->bind.size() > 1) out->bind.resize(1);
  return absl::OkStatus();
}

absl::Status TargetIsLoopback(const std::string& target, bool* loopback) {
  *loopback = false;
  if (target.rfind("unix:", 0) == 0 || target.rfind("unix-abstract:", 0) == 0) {
    *loopback = true;
    return absl::OkStatus();
  }
  std::string rest = target;
  std::vector<std::string> parts;
  if (rest.rfind("ipv4:", 0) == 0 || rest.rfind("ipv6:", 0) == 0) {
    rest = rest.substr(5);
    size_t start = 0;
    while (start <= rest.size()) {
      size_t c = rest.find(',', start);
      if (c == std::string::npos) c = rest.size();
      parts.push_back(rest.substr(start, c - start));
      start = c + 1;
    }
  } else if (rest.rfind("dns:", 0) == 0) {
    rest = rest.substr(4);
    if (rest.rfind("//", 0) == 0) {  // dns://[authority]/host:port
      const size_t slash = rest.find('/', 2);
      if (slash == std::string::npos) return absl::InvalidArgumentError(ToAbsl(StrCat("--remote: \"", target, "\": no host")));
      rest = rest.substr(slash + 1);
    }
    parts.push_back(rest);
  } else if (rest.find("://") != std::string::npos ||
             (!rest.empty() && rest[0] != '[' && rest.find(':') != std::string::npos &&
              !ValidPort(rest.substr(rest.find(':') + 1)))) {
    return absl::OkStatus();  // another resolver scheme (xds:, ...): not known to be loopback
  } else {
    parts.push_back(rest);
  }
  bool all = true;
  for (const std::string& p : parts) {
    std::string host, port;
    if (!SplitHostPort(p, &host, &port)) {
      host = p;
      port = "443";
    }
    if (host.empty()) host = "localhost";  // ":50051"
    std::vector<std::string> numeric;
    bool loop = false;
    if (absl::Status s = Resolve(host, port.empty() ? "443" : port, false, &numeric, &loop); !s.ok()) return s;
    all = all && loop;
  }
  *loopback = all;
  return absl::OkStatus();
}

}  // namespace tmapgen::net
