"""Shared fixtures: where the repository and the command line are, and a log for the GPU tests."""

import json
import os
import shutil

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cli_path():
    """The tmapgen binary: $TMAPGEN_CLI, else build/tmapgen of this clone, else tmapgen on PATH; or None."""
    for c in (os.environ.get("TMAPGEN_CLI"), os.path.join(REPO, "build", "tmapgen"), shutil.which("tmapgen")):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


@pytest.fixture
def cli():
    p = cli_path()
    if p is None:
        pytest.skip("the tmapgen command line is not built (build/tmapgen, $TMAPGEN_CLI or PATH): "
                    "agreement with it cannot be checked")
    return p


@pytest.fixture
def gpu_log():
    """Appends one JSON object per call to $TMAPGEN_GPU_LOG (the device run collects it); no-op otherwise."""
    path = os.environ.get("TMAPGEN_GPU_LOG")

    def log(**record):
        if path:
            with open(path, "a") as f:
                f.write(json.dumps(record, default=str) + "\n")
    return log
