"""What a new user tries first: cv2's and the command's words in Python, `python -m edgel`,
and the examples, run as written."""
import os
import pathlib
import shutil
import subprocess
import sys

import cv2
import numpy as np
import pytest

import edgel
from conftest import INSTALLED, ROOT, SAMPLES


def test_cv2_calls_port_by_renaming_the_module():
    img = cv2.imread(str(SAMPLES / "coffee.png"))
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    for a in (img, gray):
        assert np.array_equal(edgel.canny(a, 30, 90, apertureSize=5, L2gradient=True),
                              cv2.Canny(a, 30, 90, apertureSize=5, L2gradient=True))
        assert np.array_equal(edgel.canny(a, 50, 150, None, 7), cv2.Canny(a, 50, 150, None, 7))
        edges = np.empty(a.shape[:2], np.uint8)
        assert edgel.canny(a, 50, 150, edges, 3, True) is edges  # cv2's `edges` argument
        assert np.array_equal(edges, cv2.Canny(a, 50, 150, None, 3, True))
    assert np.array_equal(edgel.canny(gray, 50, 150, 5, True),  # edgel's own order still
                          cv2.Canny(gray, 50, 150, apertureSize=5, L2gradient=True))


def test_gray_words():
    img = cv2.imread(str(SAMPLES / "coffee.png"))
    assert np.array_equal(edgel.canny(img, 50, 150, gray="max-channel"), cv2.Canny(img, 50, 150))
    luma = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert np.array_equal(edgel.canny(img, 50, 150, gray="bgr"), cv2.Canny(luma, 50, 150))
    for word in ("luma", "RGB", "gray", 1):
        with pytest.raises(ValueError, match="'max-channel'.*'rgb' or 'bgr'"):
            edgel.canny(img, 50, 150, gray=word)
    with pytest.raises(ValueError, match="channel order"):
        edgel.to_gray(img, "luma")


def test_command_takes_the_same_gray_words(edgel_cmd, tmp_path):
    img = cv2.imread(str(SAMPLES / "coffee.png"))  # BGR as read; the file holds RGB
    rgb = img[..., ::-1]
    for word, expected in (("rgb", edgel.canny(rgb, 50, 150, gray="rgb")),
                           ("luma", edgel.canny(rgb, 50, 150, gray="rgb")),
                           ("bgr", edgel.canny(rgb, 50, 150, gray="bgr")),
                           ("max-channel", edgel.canny(rgb, 50, 150, gray="max-channel"))):
        r = subprocess.run([edgel_cmd, "detect", str(SAMPLES / "coffee.png"), "-o",
                            str(tmp_path / "e.png"), "--gray", word, "-q"], capture_output=True,
                           text=True)
        assert r.returncode == 0, r.stderr
        assert np.array_equal(cv2.imread(str(tmp_path / "e.png"), cv2.IMREAD_UNCHANGED),
                              expected), word


def test_python_m_edgel():
    env = dict(os.environ)
    if not INSTALLED:
        env["PYTHONPATH"] = str(ROOT / "python") + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-m", "edgel", "--version"], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0 and r.stdout.startswith(f"edgel {edgel.__version__}"), r.stderr
    assert "library: " in r.stdout and "files: " in r.stdout


def test_typed_package():
    assert (pathlib.Path(edgel.__file__).parent / "py.typed").exists()


EXAMPLES = ["opencv_dropin.py", "skimage_canny.py", "itk_canny.py", "bigtiff.py",
            "dask_cluster.py", "gpu_arrays.py", "subpixel_gauge.py", "subpixel_bands.py",
            "volume_edges.py"]
NEEDS = {"skimage_canny.py": "skimage", "itk_canny.py": "itk", "bigtiff.py": "tifffile",
         "subpixel_bands.py": "tifffile",
         "dask_cluster.py": "distributed", "subpixel_gauge.py": "scipy",
         "volume_edges.py": "nibabel"}


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_runs(name, edgel_cmd, tmp_path):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(edgel_cmd) + os.pathsep + env.get("PATH", "")
    if not INSTALLED:
        env["PYTHONPATH"] = str(ROOT / "python") + os.pathsep + env.get("PYTHONPATH", "")
    args = ["2000"] if name == "bigtiff.py" else []
    r = subprocess.run([sys.executable, str(ROOT / "examples" / name), *args], env=env,
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_c_example(tmp_path):
    if INSTALLED:
        pytest.skip("the C example builds against the build tree (tests/install covers pkg-config)")
    lib = pathlib.Path(os.environ["EDGEL_LIBRARY"]).parent
    cc = shutil.which("cc") or shutil.which("gcc")
    exe = tmp_path / "canny"
    subprocess.run([cc, str(ROOT / "examples" / "canny.c"), "-I", str(ROOT / "include"),
                    "-L", str(lib), "-ledgel", f"-Wl,-rpath,{lib}", "-o", str(exe)], check=True)
    gray = cv2.imread(str(SAMPLES / "camera.png"), cv2.IMREAD_GRAYSCALE)
    cv2.imwrite(str(tmp_path / "in.pgm"), gray)
    r = subprocess.run([str(exe), str(tmp_path / "in.pgm"), str(tmp_path / "out.pgm"), "40",
                        "120"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    expected = cv2.Canny(cv2.GaussianBlur(gray, (0, 0), 1.4), 40, 120)
    assert np.array_equal(cv2.imread(str(tmp_path / "out.pgm"), cv2.IMREAD_UNCHANGED), expected)


def test_python_api_reference_is_current():
    """docs/python-api.md is made from the module's docstrings; a change to them remakes it."""
    if INSTALLED:
        pytest.skip("the reference is made from the source tree's module")
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "make-python-api.py"), "--check"],
                       capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "python")})
    assert r.returncode == 0, r.stdout + r.stderr


def readme_snippets():
    """The README's Python examples as written: ```python blocks, and the program of each
    `python3 -c "..."` in its shell blocks (those on CUDA arrays need a GPU: left out)."""
    import re
    text = (ROOT / "README.md").read_text()
    snippets = re.findall(r"```python\n(.*?)```", text, re.S)
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        snippets += re.findall(r'python3 -c "\n(.*?)"\n', block, re.S)
    return [s for s in snippets if "cupy" not in s and "torch" not in s]


@pytest.mark.parametrize("snippet", readme_snippets(), ids=lambda s: s.split("\n")[0][:40])
def test_readme_python_examples_run(snippet):
    for module in ("skimage", "itk"):
        if f"import {module}" in snippet or f"from {module}" in snippet:
            pytest.importorskip(module)
    env = dict(os.environ)
    if not INSTALLED:
        env["PYTHONPATH"] = str(ROOT / "python") + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", snippet], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_readme_convolve_example_runs(edgel_cmd, tmp_path):
    import re
    block = next(b for b in re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(),
                                       re.S) if "sharpen.txt" in b)
    (tmp_path / "samples").symlink_to(SAMPLES)
    env = {**os.environ, "PATH": os.path.dirname(edgel_cmd) + os.pathsep + os.environ["PATH"]}
    r = subprocess.run(["bash", "-euc", block], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    img = cv2.imread(str(SAMPLES / "coffee.png"))
    k = np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float32)
    assert np.array_equal(cv2.imread(str(tmp_path / "out" / "sharp.png")),
                          cv2.filter2D(img, -1, k))


def test_errors_are_python_errors_too():
    """The caller's mistakes are ValueError or TypeError, memory MemoryError, and all of them
    EdgelError with the library's status (what existing code catches)."""
    img = np.zeros((8, 8), np.uint8)
    with pytest.raises(ValueError) as e:
        edgel.canny(img, float("nan"), 1)
    assert isinstance(e.value, edgel.EdgelError)
    assert e.value.status == "EDGEL_ERROR_INVALID_ARGUMENT"
    with pytest.raises(TypeError) as e:  # the itk preset reads u8, u16 or f32
        edgel.canny_itk(np.zeros((8, 8), np.int16), 1.0)
    assert isinstance(e.value, edgel.EdgelTypeError)
    assert e.value.status == "EDGEL_ERROR_UNSUPPORTED"
    assert issubclass(edgel.EdgelMemoryError, MemoryError)
    assert issubclass(edgel.EdgelMemoryError, edgel.EdgelError)


def test_context_in_a_with_block():
    with edgel.Context("cpu", threads=1) as ctx:
        assert repr(ctx) == "Context('cpu', threads=1)"
        img = cv2.imread(str(SAMPLES / "camera.png"), cv2.IMREAD_GRAYSCALE)
        assert np.array_equal(edgel.canny(img, 50, 150, ctx=ctx), cv2.Canny(img, 50, 150))
    assert repr(ctx) == "Context(closed)"
