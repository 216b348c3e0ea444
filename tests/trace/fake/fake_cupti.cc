// fake_cupti.cc: a test double of CUPTI's callback API (cupti_callbacks.h), for testing the injection
// library on machines without a GPU. It implements only what libtmapgen_trace_inject.so calls, with
// CUPTI's documented results (cupti_result.h), and lets the fake driver (fake_cuda.cc) deliver
// callbacks. FAKE_CUPTI_BUSY=1 makes cuptiSubscribe answer CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
// (39) with the old subscriber's name, as when Nsight Systems holds CUPTI. Not shipped.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "src/trace/inject/cupti_abi.h"

namespace c = tmapgen::trace::cupti;

namespace {
c::CallbackFunc g_cb = nullptr;
void* g_userdata = nullptr;
uint8_t g_enabled[1024] = {};
uint8_t g_enabled_rt[1024] = {};
bool Busy() { const char* b = std::getenv("FAKE_CUPTI_BUSY"); return b != nullptr && std::strcmp(b, "1") == 0; }
}  // namespace

extern "C" {
__attribute__((visibility("default"))) int cuptiSubscribe(c::SubscriberHandle* h, c::CallbackFunc cb, void* ud) {
  if (Busy() || g_cb != nullptr) return c::kErrorMultipleSubscribersNotSupported;
  g_cb = cb;
  g_userdata = ud;
  *h = &g_cb;
  return c::kSuccess;
}
__attribute__((visibility("default"))) int cuptiSubscribe_v2(c::SubscriberHandle* h, c::CallbackFunc cb, void* ud,
                                                           c::SubscriberParams* p) {
  if (Busy() || g_cb != nullptr) {
    if (p != nullptr && p->oldSubscriberName != nullptr && p->oldSubscriberSize > 0)
      std::strncpy(p->oldSubscriberName, "CUPTI for FakeProfiler", p->oldSubscriberSize);
    return c::kErrorMultipleSubscribersNotSupported;
  }
  return cuptiSubscribe(h, cb, ud);
}
__attribute__((visibility("default"))) int cuptiEnableCallback(uint32_t enable, c::SubscriberHandle, c::CallbackDomain d,
                                                             c::CallbackId id) {
  if ((d != c::kDomainDriverApi && d != c::kDomainRuntimeApi) || id >= 1024) return 1;  // CUPTI_ERROR_INVALID_PARAMETER
  (d == c::kDomainDriverApi ? g_enabled : g_enabled_rt)[id] = enable ? 1 : 0;
  return c::kSuccess;
}
__attribute__((visibility("default"))) int cuptiGetResultString(int r, const char** s) {
  *s = r == 0 ? "CUPTI_SUCCESS" : r == 39 ? "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED" : "CUPTI_ERROR_UNKNOWN";
  return c::kSuccess;
}
// Not CUPTI: how the fake driver reaches the subscriber.
__attribute__((visibility("default"))) void fake_cupti_dispatch(c::CallbackDomain d, c::CallbackId id,
                                                              const c::CallbackData* data) {
  if (g_cb != nullptr && id < 1024 && (d == c::kDomainDriverApi ? g_enabled : g_enabled_rt)[id]) g_cb(g_userdata, d, id, data);
}
}
