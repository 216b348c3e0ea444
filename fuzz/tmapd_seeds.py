#!/usr/bin/env python3
"""Seed requests for the tmapd fuzz targets (fuzz/tmapd_requests_fuzz.cc): a few well-formed requests of
each RPC, serialized, one file each, in OUT/<method>/. Stubs are generated with protoc at run time.

usage: tmapd_seeds.py OUT
"""
import os
import shutil
import subprocess
import sys
import tempfile

OUT = sys.argv[1]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "proto")
tmp = tempfile.mkdtemp(prefix="tmapd-seeds-")
subprocess.run(["protoc", "-I" + SRC, "--python_out=" + tmp] +
               [os.path.join(SRC, p) for p in ("tmapgen.proto", "tmapd.proto", "tmapd_v2.proto")], check=True)
sys.path.insert(0, tmp)
import tmapd_pb2 as v1  # noqa: E402
import tmapd_v2_pb2 as v2  # noqa: E402
import tmapgen_pb2 as s  # noqa: E402


def spec(**kw):
    m = s.TensorMapSpec(mode=s.TILED, tensor_data_type=s.CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, tensor_rank=2,
                        global_dim=[1024, 1024], global_strides=[2048], box_dim=[64, 64],
                        swizzle=s.CU_TENSOR_MAP_SWIZZLE_128B, target="sm_90a", name="a_tile")
    for k, v in kw.items():
        if isinstance(v, list):
            del getattr(m, k)[:]
            getattr(m, k).extend(v)
        else:
            setattr(m, k, v)
    return m


im2col = s.TensorMapSpec(mode=s.IM2COL, tensor_data_type=s.CU_TENSOR_MAP_DATA_TYPE_FLOAT16, tensor_rank=4,
                         global_dim=[64, 32, 32, 8], box_dim=[64, 1, 1, 1], pixel_box_lower_corner=[-1, -1],
                         pixel_box_upper_corner=[1, 1], channels_per_pixel=64, pixels_per_column=128)
text = v1.RenderOptions(format=v1.OUTPUT_TEXT)
seeds = {
    "validate": [v1.ValidateRequest(spec=spec(), options=text), v1.ValidateRequest(spec=im2col),
                 v1.ValidateRequest(spec=spec(box_dim=[3, 64]), options=v1.RenderOptions(format=v1.OUTPUT_TEXTPROTO))],
    "build": [v1.BuildRequest(spec=spec(), options=v1.RenderOptions(format=v1.OUTPUT_JSON))],
    "describe": [v1.DescribeRequest()],
    "matrix_descriptor": [
        v2.MatrixDescriptorRequest(operation=v2.MatrixDescriptorRequest.BUILD, family=v2.WGMMA,
                                   layout=v2.MatrixLayout(tile=v2.Tile(mn=64, k=16)),
                                   render=v2.Rendering(format=v2.Rendering.TEXT)),
        v2.MatrixDescriptorRequest(operation=v2.MatrixDescriptorRequest.DERIVE, family=v2.TCGEN05, map=spec(), draw=True,
                                   render=v2.Rendering(format=v2.Rendering.JSON)),
        v2.MatrixDescriptorRequest(operation=v2.MatrixDescriptorRequest.CHECK, family=v2.WGMMA, map=spec(),
                                   value=0x4000004000010001, k_slice=1),
        v2.MatrixDescriptorRequest(operation=v2.MatrixDescriptorRequest.DECODE, value=0x4000004000010001,
                                   layout=v2.MatrixLayout(tile=v2.Tile(mn=128, k=64), major=v2.MN_MAJOR), svg=True)],
    "instruction_descriptor": [
        v2.InstructionDescriptorRequest(operation=v2.InstructionDescriptorRequest.BUILD,
                                        spec=v2.InstructionDescriptorSpec(kind=v2.KIND_F16, m=128, n=256),
                                        render=v2.Rendering(format=v2.Rendering.TEXT)),
        v2.InstructionDescriptorRequest(operation=v2.InstructionDescriptorRequest.DECODE, value=0x08200490,
                                        render=v2.Rendering(format=v2.Rendering.JSON))],
    "codegen": [
        v2.CodegenRequest(specs=[spec()], language=v2.CPP,
                          matrix_descriptors=[v2.CodegenMatrixDescriptor(map="a_tile", family=v2.WGMMA)],
                          instruction_descriptors=[v2.CodegenInstructionDescriptor(
                              name="mma", spec=v2.InstructionDescriptorSpec(kind=v2.KIND_F16, m=64, n=64))]),
        v2.CodegenRequest(specs=[spec(), im2col], language=v2.PTX),
        v2.CodegenRequest(specs=[spec()], language=v2.JSON, sources=["a.json"])],
    "check": [v2.CheckRequest(specs=[v2.NamedSpec(name="a.json:1", spec=spec())], seed=7)],
    "plan_gemm": [
        v2.PlanGemmRequest(output=v2.PlanOutput(render=v2.Rendering(format=v2.Rendering.TEXT))),
        v2.PlanGemmRequest(m=1000, n=1000, k=1000, cluster_m=2, cluster_n=2, multicast_a=True, multicast_b=True,
                           output=v2.PlanOutput(render=v2.Rendering(format=v2.Rendering.JSON), header=True)),
        v2.PlanGemmRequest(target="sm_100a", cta_group=2, cluster_m=2, bn=256, c_type=s.CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                           cd_layout=v2.CD_COL, output=v2.PlanOutput(header=True, cpp_namespace="g")),
        v2.PlanGemmRequest(a_type=v2.ELEMENT_E4M3, b_type=v2.ELEMENT_E4M3, bk=128, bn=256, stages=4,
                           multicast_issue=v2.MULTICAST_LEADER, cluster_n=2, multicast_a=True,
                           output=v2.PlanOutput(render=v2.Rendering(format=v2.Rendering.TEXT), header=True))],
    "plan_conv": [
        v2.PlanConvRequest(output=v2.PlanOutput(render=v2.Rendering(format=v2.Rendering.TEXT))),
        v2.PlanConvRequest(spatial=3, d=8, t=3, pad_d=1, cluster_m=2, multicast_b=True,
                           output=v2.PlanOutput(render=v2.Rendering(format=v2.Rendering.JSON), pretty=True, header=True)),
        v2.PlanConvRequest(h=30, w=30, stride_h=2, stride_w=2, dilation_h=2, target="sm_100a",
                           output=v2.PlanOutput(header=True)),
        v2.PlanConvRequest(spatial=3, d=40, t=32, r=32, s=32, output=v2.PlanOutput(header=True))],
}
# Decode: maps the real driver wrote (tests/blob/data), one and several per request.
corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "blob", "data", "shared_corpus_sample.jsonl.gz")
maps = []
if os.path.exists(corpus):
    import gzip
    import json
    with gzip.open(corpus, "rt") as f:
        for line in f:
            b = json.loads(line).get("bytes")
            if b:
                maps.append(bytes.fromhex(b))
            if len(maps) >= 24:
                break
seeds["decode"] = [v2.DecodeRequest(maps=[m], render=v2.Rendering(format=v2.Rendering.TEXT)) for m in maps[:8]]
seeds["decode"].append(v2.DecodeRequest(maps=maps[8:24], labels=["a"], target="sm_90a",
                                        render=v2.Rendering(format=v2.Rendering.JSON)))
seeds["decode"].append(v2.DecodeRequest(maps=[bytes(128), bytes([255]) * 128], no_validate=True))
batch = b""
for m in (v1.BatchRequest(specs=[spec(), im2col], options=text, first_index=3), v1.BatchRequest(specs=[spec()] * 3)):
    b = m.SerializeToString()
    batch += bytes([len(b) & 255, len(b) >> 8]) + b
for method, reqs in seeds.items():
    d = os.path.join(OUT, method)
    os.makedirs(d, exist_ok=True)
    for i, r in enumerate(reqs):
        with open(os.path.join(d, "seed%d" % i), "wb") as f:
            f.write(r.SerializeToString())
os.makedirs(os.path.join(OUT, "validate_batch"), exist_ok=True)
with open(os.path.join(OUT, "validate_batch", "seed0"), "wb") as f:
    f.write(batch)
shutil.rmtree(tmp)
print("seeds:", {m: len(r) for m, r in seeds.items()}, "+ validate_batch: 1")
