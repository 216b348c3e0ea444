// accept_guard.h: keeps tmapd accepting connections when file descriptors run out.
//
// gRPC 1.51 (Debian's) stops listening for good when accept4() fails with EMFILE: its accept loop
// (src/core/lib/iomgr/tcp_server_posix.cc, on_read) treats every error other than EAGAIN/ECONNABORTED/
// EINTR as the end of the listener and never re-arms it, so one burst of idle connections at the
// descriptor limit leaves the server deaf after the clients are gone. tmapd defines accept4() itself
// (this file; the executable's definition is the one gRPC's shared library binds to) and, once
// Install() ran:
// - a connection whose descriptor would leave fewer than `reserve` descriptors free (or would pass
//   `max_connections` above the descriptors open at Install) is closed at once, with every connection
//   queued behind it, and gRPC sees EAGAIN: it re-arms and keeps listening;
// - EMFILE/ENFILE from the kernel: a spare descriptor (held open for this) is released, the pending
//   connection accepted and closed, the spare re-opened; gRPC again sees EAGAIN.
// Idle connections are reaped by gRPC (handshake timeout, max connection idle, keepalive: service.h),
// which frees their descriptors; the limit itself is raised to the hard limit at Install.
// Without Install() accept4() behaves as the C library's.
#ifndef TMAPGEN_SERVER_ACCEPT_GUARD_H_
#define TMAPGEN_SERVER_ACCEPT_GUARD_H_

#include <cstdint>

namespace tmapgen::server {

struct AcceptGuardStats {
  uint64_t accepted = 0;
  uint64_t refused = 0;     // closed at once: over the bound or out of descriptors
  int threshold = 0;        // the first descriptor number that is refused
  int limit = 0;            // RLIMIT_NOFILE (soft) after Install
};

// Idempotent (the first call's values stay).
void InstallAcceptGuard(int reserve, int max_connections);
AcceptGuardStats AcceptGuard();

}  // namespace tmapgen::server

#endif  // TMAPGEN_SERVER_ACCEPT_GUARD_H_
