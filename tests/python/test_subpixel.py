"""The sub-pixel detector (edgel.subpixel_edges) against the reference Canny/Devernay program:
point for point, bit for bit, curve for curve, on sizes from 1x1, flat images, noise, shapes
with exact ties, every input type and the photographs; against the reference program itself
where it is built (tests/reference/devernay_oracle), else against its golden digests. Also:
the same result at every thread count, and the Python result's shape and refusals."""
import json
import os
import pathlib

import numpy as np
import pytest

import edgel
import subpixel_cases as cases
from conftest import BUILD

ORACLE = BUILD / "tests" / "devernay_oracle"
HAVE_ORACLE = ORACLE.exists()


def ours(image, sigma, high, low, ctx=None):
    return cases.canonical(edgel.subpixel_edges(image, sigma, high, low, ctx=ctx))


def all_cases():
    return {**cases.synthetic(), **cases.samples()}


@pytest.mark.parametrize("sigma,high,low", cases.PARAMS)
def test_equals_the_reference_golden(sigma, high, low):
    golden = json.loads(cases.GOLDEN.read_text())
    for name, image in all_cases().items():
        key = f"{name} s={sigma} h={high} l={low}"
        text = ours(image, sigma, high, low)
        assert cases.digest(text) == golden[key]["sha256"], key


@pytest.mark.skipif(not HAVE_ORACLE, reason="the reference program is not built here")
@pytest.mark.parametrize("sigma,high,low", cases.PARAMS)
def test_equals_the_reference_program(sigma, high, low):
    for name, image in all_cases().items():
        assert ours(image, sigma, high, low) == cases.run_oracle(ORACLE, image, sigma, high,
                                                                  low), name


@pytest.mark.skipif(not HAVE_ORACLE, reason="the reference program is not built here")
def test_random_sizes_and_parameters_equal_the_reference():
    rng = np.random.default_rng(42)
    for _ in range(60):
        h, w = rng.integers(1, 70, 2)
        kind = rng.integers(0, 3)
        if kind == 0:
            image = rng.integers(0, 256, (h, w), dtype=np.uint8)
        elif kind == 1:  # smooth blobs: long curves, closed ones
            image = (np.sin(np.add.outer(np.arange(h) * rng.uniform(0.05, 0.5),
                                         np.arange(w) * rng.uniform(0.05, 0.5))) * 100 + 128)
            image = image.astype(np.uint8)
        else:  # few grey levels: ties everywhere
            image = (rng.integers(0, 3, (h, w)) * 60).astype(np.uint8)
        sigma = float(rng.choice([0.0, 0.3, 1.0, 1.7, 4.0]))
        high = float(rng.choice([0.0, 3.0, 20.0]))
        low = float(rng.choice([0.0, high / 3, high, 2 * high + 5]))  # (low above high too)
        assert ours(image, sigma, high, low) == cases.run_oracle(ORACLE, image, sigma, high, low), \
            (h, w, kind, sigma, high, low)


@pytest.mark.skipif(not HAVE_ORACLE, reason="the reference program is not built here")
def test_photographs_equal_the_reference(photo_files):
    import cv2
    limit = int(os.environ.get("EDGEL_SUBPIXEL_PHOTOS", "40"))
    for path in photo_files[:limit]:
        image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        assert ours(image, 1.0, 15.0, 5.0) == cases.run_oracle(ORACLE, image, 1.0, 15.0, 5.0), path


def test_same_result_at_every_thread_count():
    """The links, hysteresis and listing run set by set over threads: noise and few grey
    levels make many competing proposals, a photograph long curves."""
    rng = np.random.default_rng(7)
    images = {"camera": cases.samples()["camera"],
              "noise": rng.integers(0, 256, (300, 280), dtype=np.uint8),
              "levels": (rng.integers(0, 3, (200, 230)) * 60).astype(np.uint8)}
    for name, image in images.items():
        for sigma, high, low in ((1.0, 10.0, 3.0), (0.0, 0.0, 0.0), (2.0, 30.0, 30.0),
                                 (1.0, 3.0, 12.0)):
            want = ours(image, sigma, high, low, edgel.Context("cpu", threads=1))
            for threads in (2, 3, 7, 16):
                got = ours(image, sigma, high, low, edgel.Context("cpu", threads=threads))
                assert got == want, (name, sigma, high, low, threads)


def test_the_result_object():
    image = cases.synthetic()["disk-offset"]
    curves = edgel.subpixel_edges(image, 1.0, 10.0, 5.0)
    assert len(curves) >= 1 and curves.points.shape == (curves.limits[-1], 2)
    assert curves.limits[0] == 0 and np.all(np.diff(curves.limits) > 0)
    assert curves.gradient.shape == curves.points.shape
    assert curves.modulus.shape == (len(curves.points),)
    assert np.allclose(curves.modulus, np.hypot(*curves.gradient.T))
    disk = max(curves, key=len)
    k = max(range(len(curves)), key=lambda i: len(curves[i]))
    assert curves.closed[k] and np.array_equal(disk[0], disk[-1])  # a closed curve repeats
    radius = np.hypot(disk[:, 0] - 23.37, disk[:, 1] - 24.81)
    assert abs(radius.mean() - 9.6) < 0.5, radius.mean()
    lines = curves.polylines(shift=4)
    assert lines[k].dtype == np.int32 and lines[k].shape == (len(disk), 1, 2)
    assert np.array_equal(lines[k][:, 0], np.rint(disk * 16).astype(np.int32))
    assert list(curves)[k] is not None and "closed" in repr(curves)
    with pytest.raises(IndexError):
        curves[len(curves)]


def test_tiny_and_flat_images_have_no_points():
    for shape in [(1, 1), (4, 100), (100, 4), (5, 5)]:
        curves = edgel.subpixel_edges(np.full(shape, 9, np.uint8), 1.0)
        assert len(curves) == 0 and curves.points.shape == (0, 2)
        assert list(curves.limits) == [0]


def test_refusals():
    image = np.zeros((8, 8), np.uint8)
    with pytest.raises(ValueError, match="sigma"):
        edgel.subpixel_edges(image, -1.0)
    with pytest.raises(ValueError, match="sigma"):
        edgel.subpixel_edges(image, float("nan"))
    with pytest.raises(ValueError, match="sigma"):
        edgel.subpixel_edges(image, 1e9)
    with pytest.raises(ValueError, match="NaN"):
        edgel.subpixel_edges(image, 1.0, float("nan"))
    with pytest.raises(TypeError, match="int16"):
        edgel.subpixel_edges(image.astype(np.int16))
    with pytest.raises(ValueError, match="2-D"):
        edgel.subpixel_edges(np.zeros((8, 8, 3), np.uint8))
    with pytest.raises(ValueError):
        edgel.subpixel_edges(np.zeros((0, 8), np.uint8))
    cpu = edgel.Context("cpu")
    assert cpu.backend == "cpu"
    with pytest.raises(ValueError, match="on_device=True.*CUDA context"):
        edgel.subpixel_edges(image, on_device=True, ctx=cpu)


def test_batch_equals_single_calls():
    """subpixel_edges_batch: each image's curves those of its own call, for images of several
    sizes and types (one without points), a frame a thread and frames in turn; refusals name
    the image."""
    rng = np.random.default_rng(11)
    camera = cases.samples()["camera"]
    images = [camera, camera[:200, 30:].astype(np.float32) + 0.5,
              rng.integers(0, 256, (90, 120), dtype=np.uint8), np.zeros((4, 9), np.uint8),
              (rng.integers(0, 3, (70, 80)) * 60).astype(np.uint16), camera[40:, :150].copy()]

    def same(a, b):
        return all(np.array_equal(getattr(a, k), getattr(b, k))
                   for k in ("points", "limits", "closed", "gradient", "modulus"))

    cpu = edgel.Context("cpu")
    want = [edgel.subpixel_edges(im, 1.0, 12.0, 4.0, ctx=cpu) for im in images]
    assert sum(len(w) for w in want) > 100 and len(want[3]) == 0
    for threads in (1, 2, 16):
        got = edgel.subpixel_edges_batch(images, 1.0, 12.0, 4.0,
                                         ctx=edgel.Context("cpu", threads=threads))
        assert len(got) == len(images)
        assert all(same(g, w) for g, w in zip(got, want)), threads
    got = edgel.subpixel_edges_batch(images[:2] + images[:2], 1.0, 12.0, 4.0)
    assert same(got[0], want[0]) and same(got[3], want[1])  # an image twice in a batch
    assert edgel.subpixel_edges_batch([], 1.0) == []
    with pytest.raises(TypeError, match="image 2 .*int16"):
        edgel.subpixel_edges_batch([camera, camera, camera.astype(np.int16)])
    with pytest.raises(ValueError, match="image 1 .*2-D"):
        edgel.subpixel_edges_batch([camera, np.zeros((8, 8, 3), np.uint8)])
    with pytest.raises(ValueError, match="sigma"):
        edgel.subpixel_edges_batch([camera], -1.0)
    with pytest.raises(ValueError, match="on_device=True.*CUDA context"):
        edgel.subpixel_edges_batch([camera], on_device=True, ctx=cpu)


def test_golden_file_covers_every_case():
    golden = json.loads(cases.GOLDEN.read_text())
    keys = {f"{n} s={s} h={h} l={low}" for n in all_cases() for s, h, low in cases.PARAMS}
    assert keys == set(golden), "run scripts/make-subpixel-golden.py"
    assert pathlib.Path(cases.GOLDEN).stat().st_size < 100_000


# ---- the command ---------------------------------------------------------------------------

def run(cmd, *args):
    import subprocess
    return subprocess.run([cmd, *map(str, args)], capture_output=True, text=True)


def reference_text(curves) -> str:
    """devernay's -t text for these curves ('%g %g' a point, '-1 -1' after a curve)."""
    return "".join("".join("%g %g\n" % (x, y) for x, y in c) + "-1 -1\n" for c in curves)


def test_contours_writes_every_format(edgel_cmd, tmp_path):
    import cv2
    import xml.etree.ElementTree as ET
    src = cases.ROOT / "samples" / "coffee.png"  # colour: luma first
    luma = cv2.cvtColor(cv2.imread(str(src), cv2.IMREAD_COLOR), cv2.COLOR_BGR2GRAY)
    want = edgel.subpixel_edges(luma, 1.0, 15.0, 5.0)
    for ext in ("txt", "svg", "json", "geojson", "npz"):
        out = tmp_path / f"c.{ext}"
        r = run(edgel_cmd, "contours", src, "-o", out, "--sigma", 1, "--high", 15, "--low", 5)
        assert r.returncode == 0 and f"{len(want)} curves" in r.stdout, r.stderr
    assert (tmp_path / "c.txt").read_text() == reference_text(want)
    z = np.load(tmp_path / "c.npz")
    for name in ("points", "limits", "closed", "gradient", "modulus"):
        assert np.array_equal(z[name], getattr(want, name)), name
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["width"] == 600 and doc["sigma"] == 1.0 and len(doc["curves"]) == len(want)
    for k, c in enumerate(doc["curves"]):
        assert c["closed"] == bool(want.closed[k])
        assert np.array_equal(np.array([c["x"], c["y"]]).T, want[k])
        assert np.array_equal(c["modulus"], want.modulus[want.limits[k]:want.limits[k + 1]])
    geo = json.loads((tmp_path / "c.geojson").read_text())
    assert geo["type"] == "FeatureCollection" and len(geo["features"]) == len(want)
    for k, f in enumerate(geo["features"]):
        coords = f["geometry"]["coordinates"]
        if f["geometry"]["type"] == "Polygon":
            assert want.closed[k] and coords[0][0] == coords[0][-1]
            coords = coords[0]
        assert np.array_equal(np.array(coords), want[k])
    svg = ET.parse(tmp_path / "c.svg").getroot()
    drawn = [e for e in svg.iter() if e.tag.endswith(("polyline", "polygon"))]
    assert len(drawn) == len(want) and any(e.tag.endswith("image") for e in svg.iter())
    first = np.array([p.split(",") for p in drawn[0].get("points").split()], float)
    end = len(want[0]) - (1 if want.closed[0] else 0)
    assert np.allclose(first, want[0][:end] + 0.5, atol=1e-4)  # pixel centres at +0.5


@pytest.mark.skipif(not (cases.ROOT.parent / "shared" / "reference" / "devernay_1.0").exists(),
                    reason="the reference program's sources are not beside the repository")
def test_contours_text_is_the_reference_programs(edgel_cmd, tmp_path):
    """Byte for byte the file the reference program writes (built here from its sources)."""
    import shutil
    import subprocess
    import cv2
    ref = tmp_path / "ref"
    shutil.copytree(cases.ROOT.parent / "shared" / "reference" / "devernay_1.0", ref)
    subprocess.run(["make", "-s", "-C", ref, "devernay"], check=True, capture_output=True)
    pgm = tmp_path / "camera.pgm"
    cv2.imwrite(str(pgm), cv2.imread(str(cases.ROOT / "samples" / "camera.png"),
                                     cv2.IMREAD_GRAYSCALE))
    for s, h, low in cases.PARAMS:
        subprocess.run([ref / "devernay", pgm, "-t", tmp_path / "want.txt", "-s", str(s), "-h",
                        str(h), "-l", str(low)], check=True, capture_output=True)
        r = run(edgel_cmd, "contours", pgm, "-o", tmp_path / "got.txt", "-s", s, "-h", h,
                "-l", low, "-q")
        assert r.returncode == 0 and r.stdout == ""
        assert (tmp_path / "got.txt").read_bytes() == (tmp_path / "want.txt").read_bytes()
    # the reference's own example: its ASCII image.pgm (P2), its -t, -g, -p and -w flags
    for extra in ([], ["-w", "0.5"]):
        flags = ["-s", "1", "-h", "15", "-l", "5", *extra]
        subprocess.run([ref / "devernay", ref / "image.pgm", "-t", tmp_path / "w.txt", "-g",
                        tmp_path / "w.svg", "-p", tmp_path / "w.pdf", *flags], check=True,
                       capture_output=True)
        r = run(edgel_cmd, "contours", ref / "image.pgm", "-t", tmp_path / "g.txt", "-g",
                tmp_path / "g.svg", "-p", tmp_path / "g.pdf", *flags, "-q")
        assert r.returncode == 0, r.stderr
        for ext in ("txt", "svg", "pdf"):
            assert (tmp_path / f"g.{ext}").read_bytes() == (tmp_path / f"w.{ext}").read_bytes(), ext


def test_contours_in_bands_equal_the_whole_image(edgel_cmd, tmp_path):
    """Images taken in bands of columns (--band-columns, or by themselves past --memory):
    the same files as the whole image's, for colour PNG, gray PGM, 16-bit and float TIFF,
    bands down to one column, with and without blur; the scratch file is gone after."""
    import cv2
    tifffile = pytest.importorskip("tifffile")
    camera = cv2.imread(str(cases.ROOT / "samples" / "camera.png"), cv2.IMREAD_GRAYSCALE)
    cv2.imwrite(str(tmp_path / "camera.pgm"), camera)
    rng = np.random.default_rng(3)
    tifffile.imwrite(tmp_path / "u16.tif", camera.astype(np.uint16) * 200 +
                     rng.integers(0, 150, camera.shape, dtype=np.uint16), rowsperstrip=16)
    tifffile.imwrite(tmp_path / "f32.tif", camera.astype(np.float32) / 3, tile=(64, 64))
    inputs = [(cases.ROOT / "samples" / "coffee.png", 1.0, 15.0, 5.0),
              (tmp_path / "camera.pgm", 0.0, 0.0, 0.0), (tmp_path / "camera.pgm", 2.0, 10.0, 3.0),
              (tmp_path / "u16.tif", 1.0, 3000.0, 1000.0), (tmp_path / "f32.tif", 1.0, 5.0, 2.0)]
    for src, sigma, high, low in inputs:
        flags = ["--sigma", sigma, "--high", high, "--low", low, "-q"]
        whole = tmp_path / "whole.npz"
        r = run(edgel_cmd, "contours", src, "-o", whole, *flags)
        assert r.returncode == 0, r.stderr
        want = (tmp_path / "whole.npz").read_bytes()
        assert len(np.load(whole)["points"]) > 100, src
        for extra in (["--band-columns", 1], ["--band-columns", 5], ["--band-columns", 77],
                      ["--memory", "16M"]):
            r = run(edgel_cmd, "contours", src, "-o", tmp_path / "bands.npz", *flags, *extra)
            assert r.returncode == 0, (src, extra, r.stderr)
            assert (tmp_path / "bands.npz").read_bytes() == want, (src, extra)
            assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
    r = run(edgel_cmd, "contours", tmp_path / "camera.pgm", "-o", tmp_path / "s.svg",
            "--band-columns", 50, "-q")
    assert r.returncode == 0 and b"<image" not in (tmp_path / "s.svg").read_bytes()
    for bad in ("0", "x", "2000000"):
        r = run(edgel_cmd, "contours", tmp_path / "camera.pgm", "-o", tmp_path / "x.txt",
                "--band-columns", bad)
        assert r.returncode == 2 and "--band-columns" in r.stderr, r.stderr
    cv2.imwrite(str(tmp_path / "camera.jpg"), camera)
    r = run(edgel_cmd, "contours", tmp_path / "camera.jpg", "-o", tmp_path / "x.txt",
            "--band-columns", 8)
    assert r.returncode != 0 and not (tmp_path / "x.txt").exists(), r.stderr


def test_contours_refusals_leave_nothing(edgel_cmd, tmp_path):
    import cv2
    src = cases.ROOT / "samples" / "camera.png"
    jpeg = tmp_path.parent / (tmp_path.name + "-camera.jpg")  # a format read whole only
    cv2.imwrite(str(jpeg), cv2.imread(str(src), cv2.IMREAD_GRAYSCALE))
    out = tmp_path / "c.txt"
    for args, status, words in [
            ((src, "-o", tmp_path / "c.png"), 2, ".txt, .svg"),
            ((src, "-o", out, "--sigma", -1), 2, "--sigma"),
            ((src, "-o", out, "--high", "nan"), 2, "finite"),
            ((src, "-o", src), 2, "write .txt"),
            ((src,), 2, "no output"),
            ((tmp_path / "missing.png", "-o", out), 1, "missing.png"),
            ((jpeg, "-o", out, "--memory", "1M"), 1, "--memory"),
            ((src, "-o", out, "--memory", "100K"), 1, "a band of one column"),
            ((src, "-o", tmp_path / "no" / "dir" / "c.txt"), 1, "c.txt"),
            ((src, "-o", out, "--frobnicate", 1), 2, "unknown option")]:
        r = run(edgel_cmd, "contours", *args)
        assert r.returncode == status and words in r.stderr, (args, r.stderr)
        assert not out.exists() and list(tmp_path.iterdir()) == [], args
    # a file that ends early, found while its rows go to the bands' scratch file: nothing left
    whole = tmp_path.parent / (tmp_path.name + "-camera.pgm")
    cv2.imwrite(str(whole), cv2.imread(str(src), cv2.IMREAD_GRAYSCALE))
    cut = tmp_path.parent / (tmp_path.name + "-cut.pgm")
    cut.write_bytes(whole.read_bytes()[:-3000])
    for extra in (["--band-columns", "40"], ["--memory", "3M"]):
        r = run(edgel_cmd, "contours", cut, "-o", tmp_path / "c.npz", *extra)
        assert r.returncode == 2 and "cut.pgm" in r.stderr and "truncated" in r.stderr, \
            r.stderr
        assert list(tmp_path.iterdir()) == [], extra
