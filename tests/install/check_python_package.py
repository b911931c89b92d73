"""Run inside a clean virtual environment after `pip install .`: the installed edgel package
must load its own bundled library and give cv2.Canny's bytes. Argument: the samples folder."""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import cv2
import numpy as np

import edgel

samples = pathlib.Path(sys.argv[1])
checks = failures = 0


def check(ok, what):
    global checks, failures
    checks += 1
    if not ok:
        failures += 1
        print("FAILED:", what)


check("site-packages" in edgel.__file__, f"edgel imported from {edgel.__file__}")
check(os.path.dirname(edgel._capi._library_path()) == os.path.dirname(edgel.__file__),
      f"library {edgel._capi._library_path()} is not the bundled one")
check(edgel._capi._hostcall is not None and
      os.path.dirname(edgel._capi._hostcall.__file__) == os.path.dirname(edgel.__file__),
      "the compiled call path (_hostcall) is not installed with the package")
cv2.setNumThreads(max(2, os.cpu_count() or 2))
for name in ("chelsea.png", "coffee.png", "camera.png"):
    bgr = cv2.imread(str(samples / name), cv2.IMREAD_COLOR)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    for lo, hi, ap, l2 in ((50, 150, 3, False), (30, 90, 5, True), (400, 1200, 7, False)):
        check(np.array_equal(edgel.canny(gray, lo, hi, ap, l2),
                             cv2.Canny(gray, lo, hi, apertureSize=ap, L2gradient=l2)),
              f"{name} {lo}/{hi} aperture {ap} l2 {l2}")
    check(np.array_equal(edgel.canny(bgr, 50, 150), cv2.Canny(bgr, 50, 150)), f"{name} colour")
    check(np.array_equal(edgel.canny(gray[::2, 1::3], 50, 150),
                         cv2.Canny(np.ascontiguousarray(gray[::2, 1::3]), 50, 150)),
          f"{name} strided view")
try:
    edgel.canny(np.zeros((4, 4), np.uint8), float("nan"), 1)
    check(False, "NaN threshold accepted")
except edgel.EdgelError as e:
    check(e.status == "EDGEL_ERROR_INVALID_ARGUMENT", f"NaN threshold gave {e.status}")
# The package's version, and its `edgel` command on PATH: it runs the bundled program, which
# finds the bundled library and sample image from any directory.
v = edgel.library_version()
check(edgel.__version__ == "%d.%d.%d" % (v // 10000, v // 100 % 100, v % 100),
      f"__version__ {edgel.__version__}")
command = shutil.which("edgel", path=os.path.dirname(sys.executable))
check(command is not None, "pip install . put no edgel command beside python")
if command:
    with tempfile.TemporaryDirectory() as work:
        env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "EDGEL_LIBRARY")}
        r = subprocess.run([command, "--version"], capture_output=True, text=True, cwd=work, env=env)
        check(r.returncode == 0 and edgel.__version__ in r.stdout, f"edgel --version: {r.stderr}")
        r = subprocess.run([command, "bench", "--sizes", "64x48", "--runs", "1"],
                           capture_output=True, text=True, cwd=work, env=env)
        check(r.returncode == 0 and "| 64x48 |" in r.stdout, f"edgel bench: {r.stderr}")
        out = os.path.join(work, "e.png")
        r = subprocess.run([command, "detect", str(samples / "camera.png"), "-o", out, "-q"],
                           capture_output=True, text=True, cwd=work, env=env)
        gray = cv2.imread(str(samples / "camera.png"), cv2.IMREAD_GRAYSCALE)
        check(r.returncode == 0 and np.array_equal(cv2.imread(out, cv2.IMREAD_UNCHANGED),
                                                   cv2.Canny(gray, 50, 150)),
              f"edgel detect: {r.stderr}")
        # TIFF through the bundled libtiff: BigTIFF edges written, then read back
        big = os.path.join(work, "e.tif")
        r = subprocess.run([command, "detect", str(samples / "camera.png"), "-o", big, "-q"],
                           capture_output=True, text=True, cwd=work, env=env)
        check(r.returncode == 0 and open(big, "rb").read(4) == b"II+\0", f"BigTIFF out: {r.stderr}")
        edges = cv2.Canny(gray, 50, 150)
        check(r.returncode == 0 and np.array_equal(cv2.imread(big, cv2.IMREAD_UNCHANGED), edges),
              "BigTIFF edges")
        again = os.path.join(work, "again.png")
        r = subprocess.run([command, "detect", big, "-o", again, "-q"], capture_output=True,
                           text=True, cwd=work, env=env)
        check(r.returncode == 0 and np.array_equal(cv2.imread(again, cv2.IMREAD_UNCHANGED),
                                                   cv2.Canny(edges, 50, 150)),
              f"BigTIFF in: {r.stderr}")
# The CPU's FFT method is built in: equal to the direct method within float rounding
img = np.random.default_rng(0).random((70, 90)).astype(np.float32)
k = np.random.default_rng(1).random((9, 9)).astype(np.float32)
fft, direct = edgel.filter2d(img, k, method="fft"), edgel.filter2d(img, k, method="direct")
check(np.abs(fft - direct).max() < 1e-4 * np.abs(direct).max(), "filter2d fft")
config = edgel.show_config(print_out=False)
check("KISS FFT" in config["build"] and "TIFF" in str(config.get("command files")),
      f"show_config: {config}")
print(f"python_package: {checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
