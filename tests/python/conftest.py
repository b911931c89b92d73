"""Shared set-up of the Python test suites: where libedgel, the edgel command and the test
images are, and OpenCV run multi-threaded (its single-thread path may switch to IPP, which
is a different implementation)."""
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("EDGEL_BUILD_DIR", ROOT / "build"))
os.environ.setdefault("EDGEL_LIBRARY", str(BUILD / "libedgel.so"))
sys.path.insert(0, str(ROOT / "python"))

import cv2  # noqa: E402

cv2.setNumThreads(max(2, os.cpu_count() or 2))

BSDS = pathlib.Path(os.environ.get("EDGEL_BSDS500", ROOT.parent / "shared" / "data" / "bsds500"))


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs an NVIDIA GPU (run by scripts/gpu-check.sh)")


def bsds_images():
    files = sorted(BSDS.glob("*/*.jpg"))
    if not files:
        if os.environ.get("EDGEL_REQUIRE_BSDS") == "1":
            raise RuntimeError(f"BSDS500 images not found under {BSDS}")
        pytest.skip(f"BSDS500 images not found under {BSDS}")
    return files


@pytest.fixture(scope="session")
def bsds():
    return bsds_images()


@pytest.fixture(scope="session")
def edgel_cmd():
    exe = BUILD / "edgel"
    assert exe.exists(), f"build the edgel command first ({exe})"
    return str(exe)
