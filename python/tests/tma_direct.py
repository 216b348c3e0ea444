"""A TMA load of a real tensor's memory through a map from tmapgen.for_tensor, for the GPU tests.

Nothing here comes from tmapgen except the spec under test: the map is encoded by the CUDA driver
(cuTensorMapEncodeTiled, opened with ctypes), the enum values are read from the toolkit's cuda.h, the
kernel is compiled here with nvcc, and the expected bytes are the framework's own slice of the tensor.
The kernel (one block) arms an mbarrier with the report's transaction_bytes, issues
cp.async.bulk.tensor.Nd.tile, waits with a bound, and copies the report's smem_bytes of shared memory
out; the host places each expected byte with the report's smem_row_pitch and the swizzle's XOR rule
(PTX ISA 5.5.7: 32B swaps bit 4 with bit 7, 64B bits 4-5 with 7-8, 128B bits 4-6 with 7-9, on a
destination aligned to 1024 bytes).
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import tempfile
from typing import Dict, List, Sequence

KERNEL = r"""
#include <cstdint>
struct alignas(64) Map { unsigned long long w[16]; };
extern "C" __global__ void __launch_bounds__(128) tma_load(const __grid_constant__ Map map, int rank, int c0, int c1,
                                                           int c2, int c3, int c4, unsigned tx, unsigned copy_bytes,
                                                           unsigned char* out, int* status) {
  extern __shared__ unsigned char dyn[];
  __shared__ __align__(8) unsigned long long mbar;
  const unsigned mb = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(dyn));
  const unsigned pad = (1024u - base % 1024u) % 1024u;
  const unsigned dst = base + pad;
  for (unsigned i = threadIdx.x; i < copy_bytes; i += blockDim.x) dyn[pad + i] = 0xA5;  // sentinel
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb));
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(tx) : "memory");
    const void* m = &map;
    switch (rank) {
      case 1: asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                           ::"r"(dst), "l"(m), "r"(c0), "r"(mb) : "memory"); break;
      case 2: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                           ::"r"(dst), "l"(m), "r"(c0), "r"(c1), "r"(mb) : "memory"); break;
      case 3: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                           ::"r"(dst), "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(mb) : "memory"); break;
      case 4: asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];"
                           ::"r"(dst), "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(mb) : "memory"); break;
      default: asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                            ::"r"(dst), "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(mb) : "memory"); break;
    }
    const long long t0 = clock64();
    unsigned done = 0;
    while (!done) {
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(mb) : "memory");
      if (!done && clock64() - t0 > 2000000000ll) { *status = 1; break; }  // about a second: a wrong tx count
    }
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < copy_bytes; i += blockDim.x) out[i] = dyn[pad + i];
}
"""


def _cuda_headers() -> List[str]:
    """Candidate cuda.h files, most specific first."""
    c = []
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            c.append(os.path.join(home, "include", "cuda.h"))
    nvcc = shutil.which("nvcc")
    if nvcc:
        c.append(os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))), "include", "cuda.h"))
    c.append("/usr/local/cuda/targets/x86_64-linux/include/cuda.h")
    return [p for p in c if os.path.exists(p)]


def _cuda_home() -> str:
    for h in _cuda_headers():
        home = os.path.dirname(os.path.dirname(h))
        if os.path.exists(os.path.join(home, "bin", "nvcc")):
            return home
    nvcc = shutil.which("nvcc")
    if nvcc:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    raise RuntimeError("no CUDA toolkit (nvcc) found")


_ENUM = re.compile(r"typedef\s+enum\s+(CUtensorMap\w*?)_enum\s*\{(.*?)\}", re.S)


def cuda_h_enums() -> Dict[str, int]:
    """Every enumerator of the CUtensorMap* enums of the toolkit's cuda.h with its value (C rules: an
    enumerator without a value is the previous one plus 1)."""
    for h in _cuda_headers():
        # Without comments: cuda.h's documentation repeats the enums inside /** ... */ blocks.
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", open(h).read(), flags=re.S)
        out: Dict[str, int] = {}
        for m in _ENUM.finditer(text):
            nxt = 0
            body = m.group(2)
            for item in body.split(","):
                item = item.strip()
                if not item:
                    continue
                if "=" in item:
                    name, val = (x.strip() for x in item.split("=", 1))
                    nxt = int(val, 0)
                else:
                    name = item
                out[name] = nxt
                nxt += 1
        if "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16" in out:
            out["__file__"] = h  # type: ignore[assignment]
            return out
    raise RuntimeError("no cuda.h with the CUtensorMap enums among %s" % _cuda_headers())


class Driver:
    """The few driver entry points the test needs, through ctypes (libcuda.so.1)."""

    def __init__(self) -> None:
        self.cu = ctypes.CDLL("libcuda.so.1")
        self._check(self.cu.cuInit(0), "cuInit")
        ctx = ctypes.c_void_p()
        self._check(self.cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0), "cuDevicePrimaryCtxRetain")
        self._check(self.cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        self.enums = cuda_h_enums()
        self._func = None
        self._tmp = tempfile.mkdtemp(prefix="tmapgen_tma_")

    def _check(self, rc: int, what: str) -> None:
        if rc != 0:
            name = ctypes.c_char_p()
            self.cu.cuGetErrorName(rc, ctypes.byref(name))
            raise RuntimeError("%s failed: %d %s" % (what, rc, name.value.decode() if name.value else ""))

    def kernel(self):
        if self._func is None:
            src = os.path.join(self._tmp, "tma_load.cu")
            cubin = os.path.join(self._tmp, "tma_load.cubin")
            open(src, "w").write(KERNEL)
            nvcc = os.path.join(_cuda_home(), "bin", "nvcc")
            subprocess.run([nvcc, "-cubin", "-arch=sm_90a", "-O2", "-o", cubin, src], check=True, timeout=120)
            image = open(cubin, "rb").read()
            mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
            self._image = ctypes.create_string_buffer(image)
            self._check(self.cu.cuModuleLoadData(ctypes.byref(mod), self._image), "cuModuleLoadData")
            self._check(self.cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"tma_load"), "cuModuleGetFunction")
            self._func = fn
        return self._func

    def encode_tiled(self, spec) -> bytes:
        """cuTensorMapEncodeTiled with the spec's parameters at the spec's global_address."""
        e = self.enums
        r = spec.tensor_rank
        u64 = ctypes.c_uint64 * 5
        u32 = ctypes.c_uint32 * 5
        dims = u64(*spec.global_dim)
        strides = u64(*(list(spec.global_strides) + [0] * (5 - len(spec.global_strides))))
        box = u32(*spec.box_dim)
        es = u32(*spec.element_strides)
        d = spec.to_dict()  # canonical: cuda.h enumerator names
        buf = (ctypes.c_uint64 * 24)()
        addr = ctypes.addressof(buf)
        aligned = (addr + 63) // 64 * 64
        rc = self.cu.cuTensorMapEncodeTiled(
            ctypes.c_void_p(aligned), ctypes.c_int(e[d["tensor_data_type"]]), ctypes.c_uint32(r),
            ctypes.c_void_p(spec.global_address), dims, strides, box, es, ctypes.c_int(e[d["interleave"]]),
            ctypes.c_int(e[d["swizzle"]]), ctypes.c_int(e[d["l2_promotion"]]), ctypes.c_int(e[d["oob_fill"]]))
        self._check(rc, "cuTensorMapEncodeTiled")
        return ctypes.string_at(aligned, 128)

    def load(self, map_bytes: bytes, rank: int, coords: Sequence[int], tx: int, copy_bytes: int,
             out_ptr: int, status_ptr: int) -> None:
        fn = self.kernel()
        mapbuf = (ctypes.c_uint64 * 24)()
        aligned = (ctypes.addressof(mapbuf) + 63) // 64 * 64
        ctypes.memmove(aligned, map_bytes, 128)
        c = list(coords) + [0] * (5 - len(coords))
        args = [ctypes.c_int(rank)] + [ctypes.c_int(x) for x in c] + [ctypes.c_uint(tx), ctypes.c_uint(copy_bytes),
                                                                    ctypes.c_void_p(out_ptr), ctypes.c_void_p(status_ptr)]
        ptrs = [ctypes.c_void_p(aligned)] + [ctypes.cast(ctypes.pointer(a), ctypes.c_void_p) for a in args]
        params = (ctypes.c_void_p * len(ptrs))(*[p.value for p in ptrs])
        smem = copy_bytes + 1024
        if smem > 48 * 1024:
            self._check(self.cu.cuFuncSetAttribute(fn, 8, smem), "cuFuncSetAttribute")  # MAX_DYNAMIC_SHARED_SIZE
        self._check(self.cu.cuLaunchKernel(fn, 1, 1, 1, 128, 1, 1, smem, None, params, None), "cuLaunchKernel")
        self._check(self.cu.cuCtxSynchronize(), "cuCtxSynchronize")


def swizzle_offset(addr: int, swizzle: str) -> int:
    """Where byte `addr` of a 1024-byte-aligned destination lands under a swizzle (PTX ISA 5.5.7)."""
    if swizzle == "32B":
        return addr ^ (((addr >> 7) & 1) << 4)
    if swizzle == "64B":
        return addr ^ (((addr >> 7) & 3) << 4)
    if swizzle == "128B":
        return addr ^ (((addr >> 7) & 7) << 4)
    assert swizzle == "none", swizzle
    return addr


def expected_image(data: "numpy.ndarray", elem_bytes: int, box_tensor_order: Sequence[int],
                   coords_inner_first: Sequence[int], row_pitch: int, swizzle: str, size: int) -> "numpy.ndarray":
    """The shared-memory image a tile load must produce: the tensor's bytes of the box at the coordinates,
    zeros outside the tensor (oob_fill none), rows `row_pitch` apart, swizzled. `data` is the tensor's
    logical content as uint8 with its last axis in bytes."""
    import numpy as np

    rank = data.ndim
    coords = list(reversed(coords_inner_first))  # tensor order
    box = list(box_tensor_order)
    out_box = np.zeros(box[:-1] + [box[-1] * elem_bytes], dtype=np.uint8)
    src, dst = [], []
    for d in range(rank):
        scale = elem_bytes if d == rank - 1 else 1
        lo, n = coords[d] * scale, box[d] * scale
        extent = data.shape[d]
        a, b = max(lo, 0), min(lo + n, extent)
        if a >= b:
            return _place(out_box, row_pitch, swizzle, size)
        src.append(slice(a, b))
        dst.append(slice(a - lo, b - lo))
    out_box[tuple(dst)] = data[tuple(src)]
    return _place(out_box, row_pitch, swizzle, size)


def _place(box_bytes, row_pitch: int, swizzle: str, size: int):
    import numpy as np

    rows = box_bytes.reshape(-1, box_bytes.shape[-1])
    img = np.full(size, -1, dtype=np.int16)  # -1: bytes the copy does not write
    for r in range(rows.shape[0]):
        for b in range(rows.shape[1]):
            img[swizzle_offset(r * row_pitch + b, swizzle)] = rows[r, b]
    return img


def first_mismatch(actual: "numpy.ndarray", expected: "numpy.ndarray") -> List[int]:
    import numpy as np

    idx = np.nonzero((expected >= 0) & (actual.astype(np.int16) != expected))[0]
    return [int(i) for i in idx[:4]]
