// Tests for the run-time CUDA driver layer (src/driver/cuda_driver.h).
//
// Host-only tests (no GPU needed) cover the unavailable paths, the
// TMAPGEN_LIBCUDA override and TargetForComputeCapability. The GPU tests skip
// with "no CUDA driver: <reason>" when no usable driver/device is present;
// their expected CUresults come from the cuda.h documentation of
// cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col.

#include "src/driver/cuda_driver.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace tmapgen {
namespace driver {
namespace {

constexpr char kMissingLib[] = "/nonexistent/tmapgen-test/libcuda-missing.so.1";

// CUtensorMapDataType / interleave / swizzle values (cuda.h).
constexpr uint32_t kFloat16 = 6;
constexpr uint32_t kInterleaveNone = 0;

bool AllZero(const uint64_t (&map)[16]) {
  for (uint64_t q : map)
    if (q != 0) return false;
  return true;
}

bool PathExists(const char* path) { return access(path, F_OK) == 0; }

// True when this host shows no sign of an NVIDIA GPU (Linux device node, or
// WSL's /dev/dxg through which libcuda reaches the GPU there).
bool HostHasNoGpuDeviceNode() {
  return !PathExists("/dev/nvidia0") && !PathExists("/dev/nvidiactl") &&
         !PathExists("/dev/dxg");
}

// 64x64 fp16 row-major tensor, 128-byte rows, 64x8 box: valid per cuda.h.
CudaDriver::TiledParams Plain2dFp16(uint64_t address) {
  CudaDriver::TiledParams p;
  p.data_type = kFloat16;
  p.rank = 2;
  p.global_address = address;
  p.global_dim[0] = 64;
  p.global_dim[1] = 64;
  p.global_strides[0] = 64 * 2;
  p.box_dim[0] = 64;
  p.box_dim[1] = 8;
  p.element_strides[0] = 1;
  p.element_strides[1] = 1;
  p.interleave = kInterleaveNone;
  return p;
}

// NHWC fp16, N=1 H=8 W=8 C=64, 3x3 filter with padding 1: valid per cuda.h.
CudaDriver::Im2colParams Nhwc4dFp16(uint64_t address) {
  CudaDriver::Im2colParams p;
  p.data_type = kFloat16;
  p.rank = 4;
  p.global_address = address;
  const uint64_t dims[4] = {64, 8, 8, 1};  // C, W, H, N
  for (int i = 0; i < 4; ++i) p.global_dim[i] = dims[i];
  p.global_strides[0] = 64 * 2;
  p.global_strides[1] = 64 * 2 * 8;
  p.global_strides[2] = 64 * 2 * 8 * 8;
  p.lower_corner[0] = p.lower_corner[1] = -1;
  p.upper_corner[0] = p.upper_corner[1] = -1;
  p.channels_per_pixel = 64;
  p.pixels_per_column = 64;
  for (int i = 0; i < 4; ++i) p.element_strides[i] = 1;
  return p;
}

void ExpectNotSubmitted(const CudaDriver::EncodeResult& r,
                        const std::string& message_part) {
  EXPECT_EQ(r.cu_result, kNotSubmitted);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error_name, "TMAPGEN_NOT_SUBMITTED");
  EXPECT_NE(r.message.find(message_part), std::string::npos) << r.message;
  EXPECT_TRUE(AllZero(r.map));
}

// ---------------------------------------------------------------------------
// Host-only tests.

TEST(CudaDriverUnavailableTest, MissingLibraryFailsCleanly) {
  std::unique_ptr<CudaDriver> d = CudaDriver::Open(kMissingLib);
  ASSERT_NE(d, nullptr);
  const DriverInfo& info = d->info();
  EXPECT_FALSE(info.available);
  ASSERT_FALSE(info.why_unavailable.empty());
  EXPECT_NE(info.why_unavailable.find("dlopen"), std::string::npos)
      << info.why_unavailable;
  EXPECT_NE(info.why_unavailable.find(kMissingLib), std::string::npos)
      << info.why_unavailable;
  EXPECT_EQ(info.library_path, kMissingLib);
  EXPECT_EQ(info.driver_version, 0);
  EXPECT_EQ(info.device_count, 0);
  EXPECT_FALSE(d->has_encode_tiled());
  EXPECT_FALSE(d->has_im2col());
  EXPECT_FALSE(d->has_im2col_wide());

  // No driver: every fallible call is kUnavailable and says why (src/util/status.h).
  EXPECT_EQ(d->Availability().code(), absl::StatusCode::kUnavailable);
  const absl::StatusOr<DeviceInfo> dev = d->GetDevice(0);
  EXPECT_EQ(dev.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(std::string(dev.status().message()).find("unavailable"), std::string::npos) << dev.status();
  EXPECT_NE(std::string(dev.status().message()).find(kMissingLib), std::string::npos) << dev.status();
  EXPECT_EQ(d->MakeCurrent(0).code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(d->AllocDevice(1024).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(d->FreeDevice(0).code(), absl::StatusCode::kUnavailable);

  ExpectNotSubmitted(d->EncodeTiled(Plain2dFp16(0x10000)), "unavailable");
  ExpectNotSubmitted(d->EncodeIm2col(Nhwc4dFp16(0x10000)), "unavailable");
  ExpectNotSubmitted(d->EncodeIm2colWide(CudaDriver::Im2colWideParams()),
                     "unavailable");
  uint64_t map[16] = {};
  ExpectNotSubmitted(d->ReplaceAddress(map, 0x10000), "unavailable");
}

TEST(CudaDriverUnavailableTest, LibraryWithoutCudaEntryPointsIsRejected) {
  // libc is present on every glibc host and exports no cuGetProcAddress.
  std::unique_ptr<CudaDriver> d = CudaDriver::Open("libc.so.6");
  EXPECT_FALSE(d->info().available);
  EXPECT_NE(d->info().why_unavailable.find("cuGetProcAddress"),
            std::string::npos)
      << d->info().why_unavailable;
  EXPECT_EQ(d->info().device_count, 0);
}

TEST(CudaDriverUnavailableTest, ErrorNameFallsBackToBuiltinTable) {
  std::unique_ptr<CudaDriver> d = CudaDriver::Open(kMissingLib);
  EXPECT_EQ(d->ErrorName(kCudaSuccess), "CUDA_SUCCESS");
  EXPECT_EQ(d->ErrorName(kCudaErrorInvalidValue), "CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(d->ErrorName(kCudaErrorNotInitialized),
            "CUDA_ERROR_NOT_INITIALIZED");
  EXPECT_EQ(d->ErrorName(kCudaErrorNoDevice), "CUDA_ERROR_NO_DEVICE");
  EXPECT_EQ(d->ErrorName(kCudaErrorInvalidContext),
            "CUDA_ERROR_INVALID_CONTEXT");
  EXPECT_EQ(d->ErrorName(12345), "CUDA_ERROR_12345");
  EXPECT_EQ(d->ErrorName(kNotSubmitted), "TMAPGEN_NOT_SUBMITTED");
}

TEST(CudaDriverEnvTest, DefaultLibraryPathHonorsTmapgenLibcuda) {
  const char* old = std::getenv("TMAPGEN_LIBCUDA");
  const std::string saved = old != nullptr ? old : "";
  ASSERT_EQ(setenv("TMAPGEN_LIBCUDA", kMissingLib, 1), 0);
  EXPECT_EQ(CudaDriver::DefaultLibraryPath(), kMissingLib);
  ASSERT_EQ(setenv("TMAPGEN_LIBCUDA", "", 1), 0);
  EXPECT_EQ(CudaDriver::DefaultLibraryPath(), "libcuda.so.1");
  ASSERT_EQ(unsetenv("TMAPGEN_LIBCUDA"), 0);
  EXPECT_EQ(CudaDriver::DefaultLibraryPath(), "libcuda.so.1");
  if (old != nullptr) setenv("TMAPGEN_LIBCUDA", saved.c_str(), 1);
}

// Get() must honour TMAPGEN_LIBCUDA set before its first call. The singleton
// can only be opened once per process, so this runs in a fresh child process
// ("threadsafe" death tests re-execute the binary).
TEST(CudaDriverDeathTest, GetHonorsTmapgenLibcudaInFreshProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("TMAPGEN_LIBCUDA", kMissingLib, 1);
        const DriverInfo& info = CudaDriver::Get().info();
        const bool ok = !info.available && !info.why_unavailable.empty() &&
                        info.library_path == kMissingLib &&
                        info.device_count == 0;
        std::fprintf(stderr, "why_unavailable=%s\n",
                     info.why_unavailable.c_str());
        std::fflush(stderr);
        std::_Exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "why_unavailable=dlopen");
}

TEST(CudaDriverSingletonTest, InfoIsSelfConsistent) {
  const DriverInfo& info = CudaDriver::Get().info();
  EXPECT_EQ(&info, &CudaDriver::Get().info());  // one instance
  EXPECT_EQ(info.library_path, CudaDriver::DefaultLibraryPath());
  if (info.available) {
    EXPECT_TRUE(info.why_unavailable.empty());
    EXPECT_GT(info.device_count, 0);
    EXPECT_GE(info.driver_version, 12000)
        << "a usable driver should be at least CUDA 12.0";
  } else {
    EXPECT_FALSE(info.why_unavailable.empty());
    EXPECT_EQ(info.device_count, 0);
  }
}

TEST(CudaDriverSingletonTest, UnavailableOnHostWithoutGpu) {
  if (!HostHasNoGpuDeviceNode()) {
    GTEST_SKIP() << "this host has an NVIDIA device node; covered by the GPU "
                    "tests";
  }
  const DriverInfo& info = CudaDriver::Get().info();
  EXPECT_FALSE(info.available);
  EXPECT_FALSE(info.why_unavailable.empty());
  EXPECT_EQ(info.device_count, 0);
}

TEST(StatusCodeForCuResultTest, OneVocabulary) {
  // CUresult values from cuda.h (CUDA 13.0); codes from src/util/status.h.
  EXPECT_EQ(StatusCodeForCuResult(0), absl::StatusCode::kOk);                     // CUDA_SUCCESS
  EXPECT_EQ(StatusCodeForCuResult(1), absl::StatusCode::kInvalidArgument);        // INVALID_VALUE
  EXPECT_EQ(StatusCodeForCuResult(2), absl::StatusCode::kResourceExhausted);      // OUT_OF_MEMORY
  EXPECT_EQ(StatusCodeForCuResult(3), absl::StatusCode::kUnavailable);            // NOT_INITIALIZED
  EXPECT_EQ(StatusCodeForCuResult(100), absl::StatusCode::kUnavailable);          // NO_DEVICE
  EXPECT_EQ(StatusCodeForCuResult(201), absl::StatusCode::kFailedPrecondition);   // INVALID_CONTEXT
  EXPECT_EQ(StatusCodeForCuResult(209), absl::StatusCode::kFailedPrecondition);   // NO_BINARY_FOR_GPU
  EXPECT_EQ(StatusCodeForCuResult(500), absl::StatusCode::kNotFound);             // NOT_FOUND
  EXPECT_EQ(StatusCodeForCuResult(700), absl::StatusCode::kInternal);             // ILLEGAL_ADDRESS
  EXPECT_EQ(StatusCodeForCuResult(702), absl::StatusCode::kDeadlineExceeded);     // LAUNCH_TIMEOUT
  EXPECT_EQ(StatusCodeForCuResult(719), absl::StatusCode::kInternal);             // LAUNCH_FAILED
  EXPECT_EQ(StatusCodeForCuResult(801), absl::StatusCode::kUnimplemented);        // NOT_SUPPORTED
  EXPECT_EQ(StatusCodeForCuResult(kNotSubmitted), absl::StatusCode::kUnavailable);
  std::unique_ptr<CudaDriver> d = CudaDriver::Open(kMissingLib);
  const absl::Status s = d->CudaStatus(kCudaErrorInvalidValue, "cuTensorMapEncodeTiled");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(s.message()).rfind("cuTensorMapEncodeTiled failed: CUDA_ERROR_INVALID_VALUE", 0), 0u) << s;
  EXPECT_TRUE(d->CudaStatus(kCudaSuccess, "x").ok());
}

TEST(TargetForComputeCapabilityTest, ArchSpecificTargets) {
  EXPECT_EQ(TargetForComputeCapability(9, 0), "sm_90a");
  EXPECT_EQ(TargetForComputeCapability(10, 0), "sm_100a");
  EXPECT_EQ(TargetForComputeCapability(10, 3), "sm_103a");
  EXPECT_EQ(TargetForComputeCapability(11, 0), "sm_110a");
  EXPECT_EQ(TargetForComputeCapability(12, 0), "sm_120a");
  EXPECT_EQ(TargetForComputeCapability(12, 1), "sm_121a");
}

TEST(TargetForComputeCapabilityTest, GenericTargets) {
  EXPECT_EQ(TargetForComputeCapability(7, 0), "sm_70");
  EXPECT_EQ(TargetForComputeCapability(7, 5), "sm_75");
  EXPECT_EQ(TargetForComputeCapability(8, 0), "sm_80");
  EXPECT_EQ(TargetForComputeCapability(8, 6), "sm_86");
  EXPECT_EQ(TargetForComputeCapability(8, 9), "sm_89");
  EXPECT_EQ(TargetForComputeCapability(10, 1), "sm_101");
  EXPECT_EQ(TargetForComputeCapability(13, 0), "sm_130");
}

TEST(TargetForComputeCapabilityTest, InvalidInputsGiveEmpty) {
  EXPECT_EQ(TargetForComputeCapability(0, 0), "");
  EXPECT_EQ(TargetForComputeCapability(-1, 0), "");
  EXPECT_EQ(TargetForComputeCapability(9, -1), "");
  EXPECT_EQ(TargetForComputeCapability(9, 10), "");
}

// ---------------------------------------------------------------------------
// GPU tests: need a driver, device 0 with compute capability >= 9.0.

class CudaDriverGpuTest : public ::testing::Test {
 protected:
  static constexpr std::size_t kBytes = 64 * 1024;

  void SetUp() override {
    CudaDriver& d = CudaDriver::Get();
    if (!d.info().available) {
      GTEST_SKIP() << "no CUDA driver: " << d.info().why_unavailable;
    }
    absl::StatusOr<DeviceInfo> dev = d.GetDevice(0);
    ASSERT_TRUE(dev.ok()) << dev.status();
    dev_ = *std::move(dev);
    if (!dev_.tensor_map_supported) {
      GTEST_SKIP() << "no CUDA driver: device 0 (" << dev_.name << ", cc "
                   << dev_.cc_major << "." << dev_.cc_minor
                   << ") has no tensor maps (needs cc >= 9.0)";
    }
    if (!d.has_encode_tiled() || !d.has_im2col()) {
      GTEST_SKIP() << "no CUDA driver: tensor-map encoders missing in driver "
                   << d.info().driver_version;
    }
    const absl::Status current = d.MakeCurrent(0);
    ASSERT_TRUE(current.ok()) << current;
    absl::StatusOr<uint64_t> buffer = d.AllocDevice(kBytes);
    ASSERT_TRUE(buffer.ok()) << buffer.status();
    buffer_ = *buffer;
    ASSERT_NE(buffer_, 0u);
    ASSERT_EQ(buffer_ % 256, 0u);
  }

  void TearDown() override {
    if (buffer_ != 0) {
      const absl::Status freed = CudaDriver::Get().FreeDevice(buffer_);
      EXPECT_TRUE(freed.ok()) << freed;
    }
  }

  DeviceInfo dev_;
  uint64_t buffer_ = 0;
};

TEST_F(CudaDriverGpuTest, DeviceInfoIsPlausible) {
  CudaDriver& d = CudaDriver::Get();
  EXPECT_EQ(dev_.ordinal, 0);
  EXPECT_FALSE(dev_.name.empty());
  EXPECT_GE(dev_.cc_major, 9);
  EXPECT_GT(dev_.sm_count, 0);
  EXPECT_GT(dev_.max_smem_per_block_optin, 48 * 1024);
  EXPECT_EQ(TargetForComputeCapability(dev_.cc_major, dev_.cc_minor)
                .compare(0, 3, "sm_"),
            0);
  if (d.info().driver_version >= 12080) {
    EXPECT_TRUE(d.has_im2col_wide())
        << "driver " << d.info().driver_version
        << " should provide cuTensorMapEncodeIm2colWide";
  }
  const absl::StatusOr<DeviceInfo> bad = d.GetDevice(d.info().device_count);
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(std::string(bad.status().message()).find("out of range"), std::string::npos) << bad.status();
  EXPECT_EQ(d.MakeCurrent(-1).code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(d.MakeCurrent(0).ok());  // idempotent
  EXPECT_TRUE(d.Availability().ok());
}

TEST_F(CudaDriverGpuTest, EncodeTiledPlain2dFp16Succeeds) {
  CudaDriver::EncodeResult r =
      CudaDriver::Get().EncodeTiled(Plain2dFp16(buffer_));
  EXPECT_EQ(r.cu_result, kCudaSuccess) << r.error_name << ": " << r.message;
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.error_name, "CUDA_SUCCESS");
  EXPECT_FALSE(AllZero(r.map));
}

TEST_F(CudaDriverGpuTest, EncodeTiledInnerBoxNotMultipleOf16BytesIsInvalid) {
  // Interleave none: boxDim[0] * elementSize (3 * 2 = 6 bytes) must be a
  // multiple of 16 bytes.
  CudaDriver::TiledParams p = Plain2dFp16(buffer_);
  p.box_dim[0] = 3;
  CudaDriver::EncodeResult r = CudaDriver::Get().EncodeTiled(p);
  EXPECT_EQ(r.cu_result, kCudaErrorInvalidValue) << r.error_name;
  EXPECT_EQ(r.error_name, "CUDA_ERROR_INVALID_VALUE");
  EXPECT_FALSE(r.message.empty());
  EXPECT_TRUE(AllZero(r.map));
}

TEST_F(CudaDriverGpuTest, EncodeTiledRankLimits) {
  CudaDriver& d = CudaDriver::Get();
  // Rank 6 reaches the driver (arrays zero-padded) and is rejected there.
  CudaDriver::TiledParams p = Plain2dFp16(buffer_);
  p.rank = 6;
  EXPECT_EQ(d.EncodeTiled(p).cu_result, kCudaErrorInvalidValue);
  // Rank 0 likewise.
  p.rank = 0;
  EXPECT_EQ(d.EncodeTiled(p).cu_result, kCudaErrorInvalidValue);
  // Ranks past the padded arrays are not passed to the driver at all.
  p.rank = kMaxPassedRank + 1;
  ExpectNotSubmitted(d.EncodeTiled(p), "exceeds");
}

TEST_F(CudaDriverGpuTest, EncodeWithoutCurrentContextIsInvalidContext) {
  // A fresh thread has no current context.
  CudaDriver::EncodeResult r;
  std::thread t([&r, this] {
    r = CudaDriver::Get().EncodeTiled(Plain2dFp16(buffer_));
  });
  t.join();
  EXPECT_EQ(r.cu_result, kCudaErrorInvalidContext) << r.error_name;
  // After MakeCurrent on that thread the same call succeeds.
  std::thread t2([&r, this] {
    if (CudaDriver::Get().MakeCurrent(0).ok())
      r = CudaDriver::Get().EncodeTiled(Plain2dFp16(buffer_));
  });
  t2.join();
  EXPECT_EQ(r.cu_result, kCudaSuccess) << r.error_name;
}

TEST_F(CudaDriverGpuTest, ReplaceAddressUpdatesMap) {
  CudaDriver& d = CudaDriver::Get();
  CudaDriver::EncodeResult a = d.EncodeTiled(Plain2dFp16(buffer_));
  ASSERT_TRUE(a.ok()) << a.error_name;
  CudaDriver::EncodeResult b = d.ReplaceAddress(a.map, buffer_ + 256);
  ASSERT_TRUE(b.ok()) << b.error_name << ": " << b.message;
  // Same as encoding directly at the new address.
  CudaDriver::EncodeResult c = d.EncodeTiled(Plain2dFp16(buffer_ + 256));
  ASSERT_TRUE(c.ok()) << c.error_name;
  bool differs_from_a = false;
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(b.map[i], c.map[i]) << "qword " << i;
    differs_from_a |= b.map[i] != a.map[i];
  }
  EXPECT_TRUE(differs_from_a);
  // globalAddress must be 16-byte aligned.
  EXPECT_EQ(d.ReplaceAddress(a.map, buffer_ + 8).cu_result,
            kCudaErrorInvalidValue);
}

TEST_F(CudaDriverGpuTest, EncodeIm2colNhwcFp16) {
  CudaDriver& d = CudaDriver::Get();
  CudaDriver::EncodeResult r = d.EncodeIm2col(Nhwc4dFp16(buffer_));
  EXPECT_EQ(r.cu_result, kCudaSuccess) << r.error_name << ": " << r.message;
  EXPECT_FALSE(AllZero(r.map));
  // tensorRank must be 3, 4 or 5.
  CudaDriver::Im2colParams p = Nhwc4dFp16(buffer_);
  p.rank = 2;
  EXPECT_EQ(d.EncodeIm2col(p).cu_result, kCudaErrorInvalidValue);
  // channelsPerPixel must be <= 256.
  p = Nhwc4dFp16(buffer_);
  p.channels_per_pixel = 512;
  EXPECT_EQ(d.EncodeIm2col(p).cu_result, kCudaErrorInvalidValue);
}

}  // namespace
}  // namespace driver
}  // namespace tmapgen
