"""tmapgen.plan_gemm / plan_conv: the plans of `tmapgen plan gemm|conv`. Expected values from CUTLASS
(sm90_mma_tma_gmma_ss_warpspecialized.hpp TmaTransactionBytes and multicast masks, sm90_pipeline.hpp arrival
counts, conv/collective/detail.hpp fprop corners) and the PTX ISA (wgmma descriptor bits), as in
tests/plan/gemm_plan_test.cc; and the same JSON as the command line."""

import json
import subprocess

import pytest

import tmapgen


def test_gemm_bytes_masks_and_descriptor():
    p = tmapgen.plan_gemm(4096, 4096, 4096, tile=(128, 128, 64), cluster=(2, 2), multicast="ab")
    assert p["valid"] and p["plan"] == "gemm"
    ctas = p["ctas"]
    assert [c["expect_tx"] for c in ctas] == [32768] * 4  # CUTLASS TmaTransactionBytes = 16384 + 16384
    assert ctas[1]["mask_a"] == 0xA and ctas[1]["mask_b"] == 0x3  # rank = x + 2y, column-major cluster
    assert ctas[2]["empty_arrivals"] == 6  # (2 + 2 - 1) x 2 consumer warpgroups
    steps = p["descriptors"]["A"]["steps"]
    assert steps[0]["desc"] == hex((1 << 62) | (64 << 32) | (1 << 16))  # 128B, SBO 1024, LBO 1
    assert steps[1]["start"] - steps[0]["start"] == 32  # 16 bf16 per K step


def test_conv_corners_and_taps():
    p = tmapgen.plan_conv(8, 64, 128, h=28, w=28, r=3, s=3, pad=1, stride=(2, 2))
    assert p["valid"] and p["output_qpo"] == [14, 14]  # (28 + 2 - 2 - 1) / 2 + 1
    a = p["gemm"]["maps"][0]["spec"]
    assert a["pixel_box_lower_corner"] == [-1, -1] and a["pixel_box_upper_corner"] == [-1, -1]
    assert p["taps"][5]["offsets"] == [2, 1]


def test_conv_sm100_wide_forms():
    # PTX ISA 9.2 section 5.5.5.4, wOffset example 1 (traversal stride 2, lower corner W -1): buffer 1 wHalo 1
    # wOffset 0, buffer 2 wHalo 0 wOffset 1; 5.5.5.3: the halo pixels follow the 128 main pixels.
    p = tmapgen.plan_conv(2, 64, 128, h=16, w=256, r=3, s=3, pad=1, stride=(2, 2), target="sm_100a")
    forms = {f["mode"]: f for f in p["wide_forms"]}
    w = forms["im2col::w"]
    assert w["applies"]
    assert [(b["w_offset"], b["w_halo"]) for b in w["buffers"]] == [(0, 1), (1, 0)]
    assert [b["rows"] for b in w["buffers"]] == [129, 128]
    assert w["map"]["spec"]["pixel_box_lower_corner_width"] == -1
    assert [(t["buffer"], t["row"]) for t in w["taps"]] == [(0, 0), (1, 0), (0, 1)]
    # ::w::128: wHalo pixels after every 32 of the 128 (5.5.5.3): 128 + 4 x 1 rows in buffer 0.
    assert forms["im2col::w::128"]["buffers"][0]["rows"] == 132
    assert "wide_forms" not in tmapgen.plan_conv(2, 64, 128, h=16, w=256, r=3, s=3, pad=1)


def test_errors_name_the_argument():
    with pytest.raises(tmapgen.SpecError, match="^bn:"):
        tmapgen.plan_gemm(64, 64, 64, tile=(128, 264, 64))
    with pytest.raises(tmapgen.SpecError, match="^a_type:"):
        tmapgen.plan_gemm(64, 64, 64, a_type="fp8")
    with pytest.raises(tmapgen.SpecError, match="^stride:"):
        tmapgen.plan_conv(1, 64, 64, h=8, w=8, stride=9)
    assert not tmapgen.plan_gemm(4096, 4096, 4100)["valid"]  # a row pitch of 8200 B (cuda.h: 16-byte strides)


def test_same_json_as_the_cli(cli):
    cases = [
        (dict(m=1000, n=512, k=256, cluster=(2, 1), multicast="b"),
         ["gemm", "--m", "1000", "--n", "512", "--k", "256", "--cluster", "2x1", "--multicast", "b"]),
        (dict(m=64, n=64, k=64, target="sm_100a", cta_group=2, cluster=(2, 1), tile=(128, 256, 64)),
         ["gemm", "--m", "64", "--n", "64", "--k", "64", "--target", "sm_100a", "--cta-group", "2", "--cluster", "2x1",
          "--tile", "128x256x64"]),
    ]
    for kwargs, args in cases:
        py = tmapgen.plan_gemm(kwargs.pop("m"), kwargs.pop("n"), kwargs.pop("k"), format="json", **kwargs)
        out = subprocess.run([cli, "plan", *args, "--format", "json"], capture_output=True, text=True, timeout=60)
        assert out.returncode in (0, 1), out.stderr
        assert json.loads(py) == json.loads(out.stdout)
    py = tmapgen.plan_conv(2, 32, 64, d=4, h=8, w=8, t=3, r=3, s=3, pad=1, format="json")
    out = subprocess.run([cli, "plan", "conv", "--n", "2", "--c", "32", "--k", "64", "--d", "4", "--h", "8", "--w", "8",
                          "--t", "3", "--r", "3", "--s", "3", "--pad", "1", "--format", "json"],
                         capture_output=True, text=True, timeout=60)
    assert json.loads(py) == json.loads(out.stdout)
