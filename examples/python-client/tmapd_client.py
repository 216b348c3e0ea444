#!/usr/bin/env python3
"""tmapd_client.py: calls a tmapd server from Python with stubs generated from proto/ (docs/service.md).

Generate the stubs once (Debian 12: protobuf-compiler, protobuf-compiler-grpc; or python3-grpc-tools where
its protoc knows proto3 `optional`), then run the client with the stubs on PYTHONPATH:

    protoc -I proto --python_out=stubs --grpc_python_out=stubs \\
        --plugin=protoc-gen-grpc_python=$(command -v grpc_python_plugin) \\
        proto/tmapgen.proto proto/tmapd.proto proto/tmapd_v2.proto
    tmapd --listen 127.0.0.1:50051 --no-gpu &
    PYTHONPATH=stubs python3 examples/python-client/tmapd_client.py 127.0.0.1:50051

It validates two maps (one valid, one that breaks three rules of cuda.h) and prints one line per map.
examples/go-client prints the same lines.
"""
import sys

import grpc

import tmapd_pb2
import tmapd_pb2_grpc
import tmapgen_pb2


def spec(dims, strides, box, swizzle):
    # Every scalar field of TensorMapSpec is proto3 `optional`: a field that is set is sent, even when its
    # value is the enum's zero, and HasField() says which were set.
    s = tmapgen_pb2.TensorMapSpec(
        mode=tmapgen_pb2.TILED,
        tensor_data_type=tmapgen_pb2.CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        tensor_rank=len(dims),
        global_dim=dims,
        global_strides=strides,
        box_dim=box,
        swizzle=swizzle,
        target="sm_90a",
    )
    assert s.HasField("target") and not s.HasField("oob_fill")
    return s


def main():
    address = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"
    with grpc.insecure_channel(address) as channel:
        stub = tmapd_pb2_grpc.TmapdStub(channel)
        about = stub.Describe(tmapd_pb2.DescribeRequest(), timeout=10)
        print("server: tmapgen %s, services %s" % (about.version, " ".join(about.services)))
        maps = [
            ("good", spec([1024, 1024], [2048], [64, 64], tmapgen_pb2.CU_TENSOR_MAP_SWIZZLE_128B)),
            ("bad", spec([500, 64], [1000], [3, 300], tmapgen_pb2.CU_TENSOR_MAP_SWIZZLE_64B)),
        ]
        for name, s in maps:
            r = stub.Validate(tmapd_pb2.ValidateRequest(spec=s), timeout=10)
            if r.valid:
                print("%s: valid for %s, %d transaction bytes" % (name, r.report.target, r.report.derived.transaction_bytes))
            else:
                print("%s: INVALID for %s: %s" % (name, r.report.target, ", ".join(r.error_rules)))


if __name__ == "__main__":
    main()
