"""for_tensor on real GPU tensors (torch, cupy, jax), and the maps used to copy them on the GPU.

Each case builds a map with for_tensor and checks it against the framework's own description of the
tensor (data_ptr, strides, element size, shape: the expected values come from the framework, not from
tmapgen). Then the map is used twice:
  - directly: the CUDA driver encodes it at the tensor's own address and a TMA tile load (tma_direct.py)
    copies boxes of the tensor (interior, hanging past the end, before the start) into shared memory;
    every byte must equal the framework's slice of the tensor, placed by the report's row pitch and the
    swizzle's documented XOR rule, with zeros outside the tensor; the mbarrier is armed with the report's
    transaction_bytes, so a wrong count times out;
  - through the project's own GPU check (`tmapgen check SPEC.json`, when the command line was built with
    kernels): every copy kind of the map's geometry, byte-exact against the reference model.
Without a GPU (or without the framework) every test skips and says why.
"""

import json
import os
import subprocess

import pytest

import tmapgen

from conftest import cli_path

pytestmark = pytest.mark.gpu


def _driver():
    try:
        import tma_direct  # noqa: F401
        from tma_direct import Driver
        return Driver()
    except Exception as e:  # noqa: BLE001
        pytest.skip("no CUDA driver/toolkit for the direct TMA load: %s" % e)


_DRIVER = None


def driver():
    global _DRIVER
    if _DRIVER is None:
        _DRIVER = _driver()
    return _DRIVER


def torch_cuda():
    torch = pytest.importorskip("torch", reason="torch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device (torch.cuda.is_available() is False)")
    return torch


def cupy_cuda():
    cupy = pytest.importorskip("cupy", reason="cupy is not installed")
    try:
        if cupy.cuda.runtime.getDeviceCount() == 0:
            pytest.skip("no CUDA device (cupy sees none)")
    except Exception as e:  # noqa: BLE001
        pytest.skip("no CUDA device for cupy: %s" % e)
    return cupy


def test_cuda_h_enumerators():
    """The direct loads encode with the toolkit's own enum values; the parser reads them as C does
    (the values in the comments of src/tmap/types.h are cuda.h's)."""
    from tma_direct import cuda_h_enums
    try:
        e = cuda_h_enums()
    except RuntimeError as err:
        pytest.skip(str(err))
    assert (e["CU_TENSOR_MAP_DATA_TYPE_UINT8"], e["CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"],
            e["CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B"]) == (0, 9, 15)
    assert (e["CU_TENSOR_MAP_SWIZZLE_128B"], e["CU_TENSOR_MAP_L2_PROMOTION_L2_128B"],
            e["CU_TENSOR_MAP_INTERLEAVE_32B"], e["CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"]) == (3, 2, 2, 1)


def check_mapping(spec, *, address, shape, strides_bytes, elem_bytes):
    """The map describes the tensor as the framework does: address, shape reversed, strides in bytes."""
    assert spec.global_address == address
    assert spec.global_dim == tuple(reversed(shape))
    rank = len(shape)
    for j in range(rank - 1):  # global_strides[j] belongs to map dimension j + 1 = tensor axis rank-2-j
        axis = rank - 2 - j
        if shape[axis] > 1:
            assert spec.global_strides[j] == strides_bytes[axis], (j, spec.global_strides, strides_bytes)
    if shape[-1] > 1:
        assert strides_bytes[-1] == elem_bytes


def direct_loads(spec, data_u8, elem_bytes, box, coords_list, alloc_out, log, label):
    """TMA-loads each box of the real tensor through the map and compares every byte."""
    from tma_direct import expected_image, first_mismatch

    r = tmapgen.validate(spec, target="sm_90a")
    assert r.valid, str(r)
    drv = driver()
    m = drv.encode_tiled(spec)
    size = r.smem_bytes
    for coords in coords_list:
        out, status, read_out, read_status = alloc_out(size)
        drv.load(m, spec.tensor_rank, coords, r.transaction_bytes, size, out, status)
        st = read_status()
        actual = read_out()
        exp = expected_image(data_u8, elem_bytes, box, coords, r.smem_row_pitch, spec.swizzle, size)
        bad = first_mismatch(actual, exp)
        log(kind="direct-load", case=label, coords=list(coords), tx=r.transaction_bytes, smem=size,
            status=int(st), mismatches=len(bad), spec=spec.to_dict(explicit_only=True))
        assert st == 0, "%s at %s: the mbarrier did not complete with %d transaction bytes" % (label, coords,
                                                                                               r.transaction_bytes)
        assert not bad, "%s at %s: bytes differ at shared-memory offsets %s (got %s, want %s)" % (
            label, coords, bad, [int(actual[i]) for i in bad], [int(exp[i]) for i in bad])
        assert int((exp >= 0).sum()) > 0


# Maps made by the tests above, checked together by the project's GPU check in the last test of this file.
CHECKED = []


def project_check(spec, log, label, tmp_path):
    """Queues the map for `tmapgen check` (test_project_check_on_every_map, one run for all maps)."""
    CHECKED.append((label, spec.replace(target="sm_90a", name=label.replace("-", "_"))))


def torch_out(torch):
    def alloc(size):
        out = torch.zeros(size, dtype=torch.uint8, device="cuda")
        status = torch.zeros(1, dtype=torch.int32, device="cuda")
        return out.data_ptr(), status.data_ptr(), (lambda: out.cpu().numpy()), (lambda: int(status.item()))
    return alloc


def torch_bytes(torch, x):
    """The tensor's logical content as uint8 with the last axis in bytes (the framework does the slicing)."""
    return x.contiguous().cpu().view(torch.uint8).numpy()


TORCH_CASES = [
    # label, build(torch) -> tensor, box (tensor order), swizzle, coords (map order, innermost first)
    ("torch-bf16-2d", lambda t: t.randn(1024, 768, device="cuda").to(t.bfloat16), (64, 64), "128B",
     [(64, 128), (736, 1000), (-32, -16)]),
    ("torch-f16-slice", lambda t: t.randn(1024, 1024, device="cuda").half()[100:900, 64:576], (32, 64), "128B",
     [(0, 0), (448, 784), (-64, 5)]),
    ("torch-f32-size1-4d", lambda t: t.randn(1, 3, 40, 64, device="cuda"), (1, 2, 8, 32), "128B",
     [(0, 0, 0, 0), (32, 36, 2, 0)]),
    ("torch-u8-3d", lambda t: t.randint(0, 256, (8, 64, 96), dtype=t.uint8, device="cuda"), (2, 16, 32), "none",
     [(0, 0, 0), (80, 56, 7), (-16, -8, -1)]),
    ("torch-i32-2d", lambda t: t.randint(-2**31, 2**31 - 1, (200, 300), dtype=t.int32, device="cuda")[:, :256],
     (16, 32), "128B", [(0, 0), (224, 192)]),
]


@pytest.mark.parametrize("label,build,box,swizzle,coords", TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_torch(label, build, box, swizzle, coords, gpu_log, tmp_path):
    torch = torch_cuda()
    torch.manual_seed(7)
    x = build(torch)
    spec = tmapgen.for_tensor(x, box, swizzle=swizzle)
    es = x.element_size()
    check_mapping(spec, address=x.data_ptr(), shape=tuple(x.shape), strides_bytes=[s * es for s in x.stride()],
                  elem_bytes=es)
    assert spec.box_dim == tuple(reversed(box))
    gpu_log(kind="for_tensor", case=label, spec=spec.to_dict(explicit_only=True), origin=spec.origin)
    direct_loads(spec, torch_bytes(torch, x), es, box, coords, torch_out(torch), gpu_log, label)
    project_check(spec, gpu_log, label, tmp_path)


def test_torch_float8(gpu_log, tmp_path):
    torch = torch_cuda()
    if not hasattr(torch, "float8_e4m3fn"):
        pytest.skip("this torch has no float8_e4m3fn")
    raw = torch.randint(0, 256, (512, 256), dtype=torch.uint8, device="cuda")
    x = raw.view(torch.float8_e4m3fn)
    spec = tmapgen.for_tensor(x, (64, 128), swizzle="128B")
    assert spec.dtype == "u8"
    assert any("float8_e4m3fn -> CU_TENSOR_MAP_DATA_TYPE_UINT8" in o for o in spec.origin), spec.origin
    check_mapping(spec, address=x.data_ptr(), shape=tuple(x.shape), strides_bytes=list(x.stride()), elem_bytes=1)
    gpu_log(kind="for_tensor", case="torch-float8_e4m3fn", spec=spec.to_dict(explicit_only=True), origin=spec.origin)
    direct_loads(spec, raw.cpu().numpy(), 1, (64, 128), [(0, 0), (128, 448), (-16, 3)], torch_out(torch), gpu_log,
                 "torch-float8_e4m3fn")
    project_check(spec, gpu_log, "torch-float8_e4m3fn", tmp_path)


def test_torch_float4_pairs(gpu_log):
    torch = torch_cuda()
    if not hasattr(torch, "float4_e2m1fn_x2"):
        pytest.skip("this torch has no float4_e2m1fn_x2")
    x = torch.zeros(256, 64, dtype=torch.uint8, device="cuda").view(torch.float4_e2m1fn_x2)
    spec = tmapgen.for_tensor(x, (32, 128))
    # 64 bytes per row hold 128 packed 4-bit values; cuda.h's packed 4-bit type carries them.
    assert spec.dtype == "16u4_align8b" and spec.global_dim == (128, 256) and spec.global_strides == (64,)
    assert spec.global_address == x.data_ptr()
    gpu_log(kind="for_tensor", case="torch-float4_e2m1fn_x2", spec=spec.to_dict(explicit_only=True), origin=spec.origin)
    padded = tmapgen.for_tensor(x, (32, 128), dtype="16U4_ALIGN16B")
    assert padded.dtype == "16u4_align16b"
    r = tmapgen.validate(padded, target="sm_100a")
    gpu_log(kind="validate", case="torch-float4-padded-sm_100a", valid=r.valid, rules=[d.rule for d in r.diagnostics])


def test_torch_non_contiguous_inner_raises():
    torch = torch_cuda()
    x = torch.zeros(64, 128, device="cuda").t()
    with pytest.raises(tmapgen.SpecError) as e:
        tmapgen.for_tensor(x, (8, 8))
    assert "innermost dimension" in str(e.value) and e.value.field == "tensor"


def cupy_out(cupy):
    def alloc(size):
        out = cupy.zeros(size, dtype=cupy.uint8)
        status = cupy.zeros(1, dtype=cupy.int32)
        return out.data.ptr, status.data.ptr, (lambda: cupy.asnumpy(out)), (lambda: int(status.get()[0]))
    return alloc


CUPY_CASES = [
    ("cupy-f32-2d", lambda c: c.random.rand(256, 256, dtype=c.float32), (32, 32), "128B", [(0, 0), (224, 240), (-32, -4)]),
    ("cupy-f16-slice", lambda c: c.random.rand(300, 256).astype(c.float16)[10:200, 64:192], (16, 64), "128B",
     [(0, 0), (64, 180)]),
    ("cupy-i8-2d", lambda c: c.random.randint(-128, 128, (128, 512)).astype(c.int8), (8, 128), "128B", [(0, 0), (384, 124)]),
    ("cupy-u16-3d", lambda c: c.random.randint(0, 65536, (4, 32, 64)).astype(c.uint16), (2, 8, 64), "128B",
     [(0, 0, 0), (0, 28, 3)]),
]


@pytest.mark.parametrize("label,build,box,swizzle,coords", CUPY_CASES, ids=[c[0] for c in CUPY_CASES])
def test_cupy(label, build, box, swizzle, coords, gpu_log, tmp_path):
    cupy = cupy_cuda()
    cupy.random.seed(7)
    x = build(cupy)
    spec = tmapgen.for_tensor(x, box, swizzle=swizzle)
    es = x.itemsize
    check_mapping(spec, address=x.data.ptr, shape=tuple(x.shape), strides_bytes=list(x.strides), elem_bytes=es)
    gpu_log(kind="for_tensor", case=label, spec=spec.to_dict(explicit_only=True), origin=spec.origin)
    import numpy as np
    data = np.ascontiguousarray(cupy.asnumpy(x))
    data_u8 = data.view("uint8").reshape(data.shape[:-1] + (data.shape[-1] * es,))
    direct_loads(spec, data_u8, es, box, coords, cupy_out(cupy), gpu_log, label)
    project_check(spec, gpu_log, label, tmp_path)


def test_cupy_cuda_array_interface(gpu_log):
    """The same map from __cuda_array_interface__ as from DLPack (cupy offers both)."""
    cupy = cupy_cuda()
    x = cupy.zeros((64, 256), dtype=cupy.float32)[:, 64:]

    class CaiOnly:  # only the CUDA array interface of the same array
        def __init__(self, a):
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    a = tmapgen.for_tensor(x, (8, 32))
    b = tmapgen.for_tensor(CaiOnly(x), (8, 32))
    assert "DLPack" in a.origin[1] and "__cuda_array_interface__" in b.origin[1]
    assert a.to_json() == b.to_json()
    gpu_log(kind="for_tensor", case="cupy-cai-vs-dlpack", same=True, origin=[a.origin, b.origin])


def test_jax(gpu_log, tmp_path):
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    jax = pytest.importorskip("jax", reason="jax is not installed")
    try:
        gpus = jax.devices("gpu")
    except Exception as e:  # noqa: BLE001
        pytest.skip("jax has no GPU backend here: %s" % e)
    if not gpus:
        pytest.skip("jax sees no GPU")
    import numpy as np
    host = (np.arange(128 * 192, dtype=np.float32) % 977).reshape(128, 192)
    x = jax.device_put(host, gpus[0])
    spec = tmapgen.for_tensor(x, (16, 32), swizzle="128B")
    assert spec.global_address == x.unsafe_buffer_pointer()
    assert spec.global_dim == (192, 128) and spec.global_strides == (768,)
    gpu_log(kind="for_tensor", case="jax-f32", spec=spec.to_dict(explicit_only=True), origin=spec.origin)
    torch = None
    try:
        import torch as torch  # noqa: F811
    except ImportError:
        pass
    if torch is None or not torch.cuda.is_available():
        pytest.skip("the direct load of the jax array needs torch for its output buffers")
    data_u8 = host.view(np.uint8).reshape(128, 192 * 4)
    direct_loads(spec, data_u8, 4, (16, 32), [(0, 0), (160, 120)], torch_out(torch), gpu_log, "jax-f32")
    project_check(spec, gpu_log, "jax-f32", tmp_path)


def test_project_check_on_every_map(gpu_log, tmp_path):
    """`tmapgen check` (the project's GPU check, docs/gpu-checks.md) on every map the tests above made from
    real tensors: each copy kind of the map's geometry at the coordinate set, byte-exact against the model."""
    if not CHECKED:
        pytest.skip("no map was made from a GPU tensor in this run")
    cli = cli_path()
    if cli is None:
        pytest.skip("the tmapgen command line is not built: the project's GPU check cannot run")
    f = tmp_path / "maps.jsonl"
    f.write_text("".join(s.to_json() + "\n" for _, s in CHECKED))
    p = subprocess.run([cli, "check", str(f)], capture_output=True, text=True, timeout=120)
    gpu_log(kind="tmapgen-check", maps=[l for l, _ in CHECKED], rc=p.returncode, out=p.stdout[-20000:],
            err=p.stderr[-4000:])
    if "no kernels" in p.stdout + p.stderr:
        pytest.skip("this tmapgen was built without nvcc: no kernels to run")
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
