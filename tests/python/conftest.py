"""Shared set-up of the Python test suites: where libedgel, the edgel command and the test
images are, and OpenCV run multi-threaded (its single-thread path may switch to IPP, which
is a different implementation).

Photographs: every run tests the bundled samples (CC0, samples/) and JPEG versions of them;
the 500 BSDS500 photographs are an extended set, added where ../shared/data/bsds500 (or
$EDGEL_BSDS500) holds them, and required with EDGEL_REQUIRE_BSDS=1."""
import atexit
import functools
import os
import pathlib
import shutil
import sys
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("EDGEL_BUILD_DIR", ROOT / "build"))
# EDGEL_TEST_INSTALLED=1: test the installed package (a wheel in a virtual environment), its
# library and its `edgel` command, instead of the build tree's.
INSTALLED = os.environ.get("EDGEL_TEST_INSTALLED") == "1"
if not INSTALLED:
    os.environ.setdefault("EDGEL_LIBRARY", str(BUILD / "libedgel.so"))
    sys.path.insert(0, str(ROOT / "python"))

import cv2  # noqa: E402

cv2.setNumThreads(max(2, os.cpu_count() or 2))

BSDS = pathlib.Path(os.environ.get("EDGEL_BSDS500", ROOT.parent / "shared" / "data" / "bsds500"))


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs an NVIDIA GPU (run by scripts/gpu-check.sh)")


SAMPLES = ROOT / "samples"


def default_photos(folder):
    """The samples, each also as JPEG of quality 75 and 95 (written here with cv2), JPEGs
    first: the photographs every run tests."""
    jpegs, pngs = [], sorted(SAMPLES.glob("*.png"))
    for png in pngs:
        img = cv2.imread(str(png), cv2.IMREAD_COLOR)
        for quality in (75, 95):
            f = folder / f"{png.stem}-q{quality}.jpg"
            cv2.imwrite(str(f), img, [cv2.IMWRITE_JPEG_QUALITY, quality])
            jpegs.append(f)
    return jpegs + pngs


def bsds_images():
    files = sorted(BSDS.glob("*/*.jpg"))
    if not files and os.environ.get("EDGEL_REQUIRE_BSDS") == "1":
        raise RuntimeError(f"BSDS500 images not found under {BSDS} (EDGEL_REQUIRE_BSDS=1)")
    return files


@functools.lru_cache(maxsize=None)
def _photos() -> list:
    """The photographs, written once a test process into a folder removed at its exit."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="edgel-photos-"))
    atexit.register(shutil.rmtree, folder, True)
    return default_photos(folder) + bsds_images()


@pytest.fixture(scope="module")
def photo_files():
    """Every photograph of this run: the default set, then BSDS500 where present."""
    return _photos()


@pytest.fixture(scope="module")
def edgel_cmd():
    if INSTALLED:
        exe = shutil.which("edgel", path=os.path.dirname(sys.executable))
        assert exe, "the installed package has no edgel command"
        return exe
    exe = BUILD / "edgel"
    assert exe.exists(), f"build the edgel command first ({exe})"
    return str(exe)


def run_peak(cmd, *args, timeout=300):
    """Runs a command under /usr/bin/time (Debian's `time`, which scripts/setup.sh installs):
    (exit code, stderr, its peak resident memory in MB). (A child's own rusage from Python
    counts the forked interpreter's pages as its own.)"""
    import subprocess
    if not os.path.exists("/usr/bin/time"):
        pytest.skip("no /usr/bin/time (Debian's time) to measure peak memory")
    r = subprocess.run(["/usr/bin/time", "-f", "edgel-peak-kb %M", str(cmd), *map(str, args)],
                       capture_output=True, text=True, timeout=timeout)
    lines = r.stderr.splitlines()
    peak = [int(l.split()[1]) for l in lines if l.startswith("edgel-peak-kb ")]
    err = "\n".join(l for l in lines if not l.startswith("edgel-peak-kb ") and
                    not l.startswith("Command exited with non-zero status"))
    assert peak, r.stderr
    return r.returncode, err, peak[-1] / 1024
