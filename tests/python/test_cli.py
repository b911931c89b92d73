"""The edgel command: help texts, exit codes, outputs equal to OpenCV, compare figures,
error messages for bad input."""
import pathlib
import subprocess

import cv2
import numpy as np
import pytest

import edgel

from conftest import ROOT

SAMPLES = ROOT / "samples"
EXPECTED = ROOT / "tests" / "cli"


def run(cmd, *args):
    return subprocess.run([cmd, *map(str, args)], capture_output=True, text=True, timeout=120)


def rgb(path):
    return cv2.cvtColor(cv2.imread(str(path), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


@pytest.mark.parametrize("args,expected", [(["--help"], "main_help.txt"),
                                           (["detect", "--help"], "detect_help.txt"),
                                           (["compare", "--help"], "compare_help.txt"),
                                           (["convolve", "--help"], "convolve_help.txt"),
                                           (["contours", "--help"], "contours_help.txt")])
def test_help_texts(edgel_cmd, args, expected):
    r = run(edgel_cmd, *args)
    assert r.returncode == 0
    assert r.stdout == (EXPECTED / expected).read_text()


def test_version_and_usage_errors(edgel_cmd):
    r = run(edgel_cmd, "--version")
    assert r.returncode == 0 and r.stdout.startswith(f"edgel {edgel.__version__}")
    assert run(edgel_cmd).returncode == 2
    r = run(edgel_cmd, "frobnicate")
    assert r.returncode == 2 and "unknown command 'frobnicate'" in r.stderr
    for args, needle in [(["in.png"], "no output file"),
                         (["-o", "x.png"], "no input file"),
                         (["a.png", "b.png", "-o", "x.png"], "more than one input"),
                         (["a.png", "-o", "x.png", "--aperture", "4"], "--aperture is 3, 5, 7"),
                         (["a.png", "-o", "x.png", "--aperture", "scharr"], "needs --l2"),
                         (["a.png", "-o", "x.png", "--low", "nan"], "finite number"),
                         (["a.png", "-o", "x.png", "--low"], "needs a value"),
                         (["a.png", "-o", "x.png", "--threads", "-2"], "--threads"),
                         (["a.png", "-o", "x.png", "--blur", "-1"], "positive sigma"),
                         (["a.png", "-o", "x.png", "--blur-size", "4"], "odd"),
                         (["a.png", "-o", "x.png", "--stage", "foo"], "--stage is"),
                         (["a.png", "-o", "x.png", "--wat"], "unknown option"),
                         (["a.png", "-o", "x.jpg"], "as .png, .pgm or .tif"),
                         (["a.png", "-o", "x.png", "--stage", "dx"], "as .pfm"),
                         (["a.png", "-o", "x.png", "--preset", "sobel"], "opencv, itk or skimage"),
                         (["a.png", "-o", "x.png", "--variance", "2"], "needs --preset itk"),
                         (["a.png", "-o", "x.png", "--preset", "itk", "--l2"], "opencv preset"),
                         (["a.png", "-o", "x.png", "--preset", "itk", "--variance", "-1"],
                          "--variance is"),
                         (["a.png", "-o", "x.png", "--preset", "itk", "--maximum-error", "1"],
                          "--maximum-error is"),
                         (["a.png", "-o", "x.pfm", "--preset", "itk", "--stage", "dx"],
                          "smoothed and suppressed"),
                         (["a.png", "-o", "x.png", "--preset", "itk", "--stage", "suppressed"],
                          "as .pfm"),
                         (["a.png", "-o", "x.pfm"], "as .png, .pgm or .tif")]:
        r = run(edgel_cmd, "detect", *args)
        assert r.returncode == 2, (args, r.stderr)
        assert needle in r.stderr, (args, r.stderr)


@pytest.mark.parametrize("flags,reference", [
    ([], lambda g: cv2.Canny(g, 50, 150)),
    (["--low", "30", "--high", "90", "--aperture", "5", "--l2"],
     lambda g: cv2.Canny(g, 30, 90, apertureSize=5, L2gradient=True)),
    (["--low", "120", "--high", "20", "--aperture", "7"],
     lambda g: cv2.Canny(g, 120, 20, apertureSize=7)),
    (["--aperture", "scharr", "--l2", "--low", "100", "--high", "300"],
     lambda g: cv2.Canny(g, 100, 300, apertureSize=-1, L2gradient=True)),
    (["--blur", "1.4", "--low", "40", "--high", "100"],
     lambda g: cv2.Canny(cv2.GaussianBlur(g, (0, 0), 1.4), 40, 100)),
    (["--blur", "2", "--blur-size", "7"],
     lambda g: cv2.Canny(cv2.GaussianBlur(g, (7, 7), 2), 50, 150)),
])
def test_detect_equals_opencv(edgel_cmd, tmp_path, flags, reference):
    for name in ("chelsea.png", "coffee.png", "camera.png"):
        out = tmp_path / "edges.png"
        r = run(edgel_cmd, "detect", SAMPLES / name, "-o", out, *flags)
        assert r.returncode == 0, r.stderr
        assert "edge pixels" in r.stdout
        img = rgb(SAMPLES / name)
        gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
        got = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
        assert got.dtype == np.uint8 and got.ndim == 2
        assert np.array_equal(got, reference(gray)), (name, flags)


def test_detect_colour_max_channel_pgm_and_ppm(edgel_cmd, tmp_path):
    img = rgb(SAMPLES / "coffee.png")
    ppm = tmp_path / "coffee.ppm"
    cv2.imwrite(str(ppm), cv2.cvtColor(img, cv2.COLOR_RGB2BGR))  # PPM holds RGB in file order
    out = tmp_path / "edges.pgm"
    r = run(edgel_cmd, "detect", ppm, "-o", out, "--gray", "max-channel", "--low", "60")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(cv2.imread(str(out), cv2.IMREAD_UNCHANGED), cv2.Canny(img, 60, 150))
    pgm = tmp_path / "gray.pgm"
    gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    cv2.imwrite(str(pgm), gray)
    r = run(edgel_cmd, "detect", pgm, "-o", out, "-q")
    assert r.returncode == 0 and r.stdout == ""
    assert np.array_equal(cv2.imread(str(out), cv2.IMREAD_UNCHANGED), cv2.Canny(gray, 50, 150))


def test_detect_jpeg_and_stages(edgel_cmd, tmp_path, photo_files):
    jpg = photo_files[0]
    bgr = cv2.imread(str(jpg), cv2.IMREAD_COLOR)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    r = run(edgel_cmd, "detect", jpg, "-o", tmp_path / "g.png", "--stage", "gray")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(cv2.imread(str(tmp_path / "g.png"), cv2.IMREAD_UNCHANGED), gray)
    r = run(edgel_cmd, "detect", jpg, "-o", tmp_path / "dx.pfm", "--stage", "dx")
    assert r.returncode == 0, r.stderr
    dx = cv2.imread(str(tmp_path / "dx.pfm"), cv2.IMREAD_UNCHANGED)
    ref = cv2.Sobel(gray, cv2.CV_16S, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE)
    assert np.array_equal(dx, ref.astype(np.float32))
    r = run(edgel_cmd, "detect", jpg, "-o", tmp_path / "s.png", "--stage", "suppressed")
    assert r.returncode == 0
    sup = cv2.imread(str(tmp_path / "s.png"), cv2.IMREAD_UNCHANGED)
    edges = cv2.Canny(gray, 50, 150)
    assert set(np.unique(sup)) <= {0, 128, 255}
    assert np.all(sup[edges > 0] > 0) and np.all(edges[sup == 255] == 255)


def test_detect_itk_preset(edgel_cmd, tmp_path):
    """--preset itk on float (PFM), 16-bit and 8-bit colour input equals edgel.canny_itk (itself
    equal to ITK, tests/python/test_itk_conformance.py); PFM out is 0/1, PNG out 0/255."""
    import edgel
    rng = np.random.default_rng(3)
    img = cv2.GaussianBlur(rng.random((90, 130)).astype(np.float32) * 200, (0, 0), 2)
    cv2.imwrite(str(tmp_path / "in.pfm"), img)
    flags = ["--preset", "itk", "--variance", "1.5", "--upper", "3", "--lower", "1"]
    ref = edgel.canny_itk(img, 1.5, 0.01, 3.0, 1.0)
    assert 0 < ref.sum() < ref.size / 4
    r = run(edgel_cmd, "detect", tmp_path / "in.pfm", "-o", tmp_path / "e.pfm", *flags)
    assert r.returncode == 0, r.stderr
    assert np.array_equal(cv2.imread(str(tmp_path / "e.pfm"), cv2.IMREAD_UNCHANGED), ref)
    r = run(edgel_cmd, "detect", tmp_path / "in.pfm", "-o", tmp_path / "e.png", *flags)
    assert r.returncode == 0, r.stderr
    assert np.array_equal(cv2.imread(str(tmp_path / "e.png"), cv2.IMREAD_UNCHANGED), ref * 255)
    stages = {"suppressed": None, "smoothed": None}
    edgel.canny_itk(img, 1.5, 0.01, 3.0, 1.0, stages=stages)
    for name in stages:
        r = run(edgel_cmd, "detect", tmp_path / "in.pfm", "-o", tmp_path / f"{name}.pfm", *flags,
                "--stage", name)
        assert r.returncode == 0, r.stderr
        got = cv2.imread(str(tmp_path / f"{name}.pfm"), cv2.IMREAD_UNCHANGED)
        assert np.array_equal(got, stages[name]), name

    deep = (rng.random((40, 50)) * 60000).astype(np.uint16)
    cv2.imwrite(str(tmp_path / "deep.png"), deep)
    r = run(edgel_cmd, "detect", tmp_path / "deep.png", "-o", tmp_path / "d.pgm", "--preset", "itk",
            "--variance", "2", "--upper", "500", "--lower", "200")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(cv2.imread(str(tmp_path / "d.pgm"), cv2.IMREAD_UNCHANGED),
                          edgel.canny_itk(deep, 2.0, 0.01, 500.0, 200.0, dtype=np.uint8))

    r = run(edgel_cmd, "detect", SAMPLES / "chelsea.png", "-o", tmp_path / "c.png", "--preset",
            "itk", "--variance", "2", "--upper", "10", "--lower", "4")
    assert r.returncode == 0, r.stderr
    luma = cv2.cvtColor(rgb(SAMPLES / "chelsea.png"), cv2.COLOR_RGB2GRAY)
    assert np.array_equal(cv2.imread(str(tmp_path / "c.png"), cv2.IMREAD_UNCHANGED),
                          edgel.canny_itk(luma, 2.0, 0.01, 10.0, 4.0, dtype=np.uint8))

    colour16 = np.zeros((8, 8, 3), np.uint16)
    cv2.imwrite(str(tmp_path / "c16.png"), colour16)
    r = run(edgel_cmd, "detect", tmp_path / "c16.png", "-o", tmp_path / "o.png", "--preset", "itk")
    assert r.returncode == 1 and "gray input" in r.stderr


def test_detect_skimage_preset(edgel_cmd, tmp_path):
    """--preset skimage on 8-bit, 16-bit and float (PFM) gray input equals
    skimage.feature.canny (sigmas where the C library's exp gives NumPy's kernel, see
    test_skimage_conformance.py), with a mask, quantiles, modes and the float stages."""
    from skimage import feature
    from test_skimage_conformance import _libm_weights
    sigma = next(s for s in (1.0, 3.0, 2.0, 0.8) if
                 np.array_equal(edgel._skimage._skimage_weights(s), _libm_weights(s)))
    gray = cv2.imread(str(SAMPLES / "camera.png"), cv2.IMREAD_GRAYSCALE)[:200, :240]
    cv2.imwrite(str(tmp_path / "g.png"), gray)
    r = run(edgel_cmd, "detect", tmp_path / "g.png", "-o", tmp_path / "e.png", "--preset",
            "skimage", "--sigma", sigma)
    assert r.returncode == 0, r.stderr
    ref = feature.canny(gray, sigma=sigma)
    assert 0 < ref.sum() and np.array_equal(cv2.imread(str(tmp_path / "e.png"), 0), ref * 255)

    mask = (np.random.default_rng(1).random(gray.shape) > 0.1).astype(np.uint8) * 255
    cv2.imwrite(str(tmp_path / "m.png"), mask)
    deep = gray.astype(np.uint16) * 257
    cv2.imwrite(str(tmp_path / "d.png"), deep)
    flags = ["--preset", "skimage", "--sigma", sigma, "--mask", tmp_path / "m.png",
             "--quantiles", "--low", "0.6", "--high", "0.9", "--mode", "reflect"]
    r = run(edgel_cmd, "detect", tmp_path / "d.png", "-o", tmp_path / "d.pgm", *flags)
    assert r.returncode == 0, r.stderr
    ref = feature.canny(deep, sigma=sigma, mask=mask > 0, use_quantiles=True,
                        low_threshold=0.6, high_threshold=0.9, mode="reflect")
    assert np.array_equal(cv2.imread(str(tmp_path / "d.pgm"), cv2.IMREAD_UNCHANGED), ref * 255)

    img = (gray / 255.0).astype(np.float32)
    cv2.imwrite(str(tmp_path / "f.pfm"), img)
    flags = ["--preset", "skimage", "--sigma", sigma, "--low", "0.05", "--high", "0.1"]
    r = run(edgel_cmd, "detect", tmp_path / "f.pfm", "-o", tmp_path / "f.png", *flags)
    assert r.returncode == 0, r.stderr
    ref = feature.canny(img, sigma=sigma, low_threshold=0.05, high_threshold=0.1)
    assert np.array_equal(cv2.imread(str(tmp_path / "f.png"), 0), ref * 255)
    stages = dict.fromkeys(["smoothed", "dx", "dy", "magnitude", "suppressed"])
    edgel.canny_skimage(img, sigma=sigma, low_threshold=0.05, high_threshold=0.1, stages=stages)
    for name in stages:
        r = run(edgel_cmd, "detect", tmp_path / "f.pfm", "-o", tmp_path / f"{name}.pfm", *flags,
                "--stage", name)
        assert r.returncode == 0, r.stderr
        got = cv2.imread(str(tmp_path / f"{name}.pfm"), cv2.IMREAD_UNCHANGED)
        assert np.array_equal(got, stages[name]), name

    for args, message in [(["--sigma", "2"], "needs --preset skimage"),
                          (["--preset", "skimage", "--l2"], "belongs to the opencv preset"),
                          (["--preset", "skimage", "--tile", "64x64"], "whole images"),
                          (["--preset", "skimage", "--mode", "edge"], "--mode is constant"),
                          (["--preset", "skimage", "--stage", "gray"], "no gray stage")]:
        r = run(edgel_cmd, "detect", tmp_path / "g.png", "-o", tmp_path / "x.png", *args)
        assert r.returncode == 2 and message in r.stderr, (args, r.stderr)
    r = run(edgel_cmd, "detect", SAMPLES / "chelsea.png", "-o", tmp_path / "c.png", "--preset",
            "skimage")  # 8-bit colour: luma first, as the itk preset does
    assert r.returncode == 0, r.stderr
    luma = cv2.cvtColor(rgb(SAMPLES / "chelsea.png"), cv2.COLOR_RGB2GRAY)
    assert np.array_equal(cv2.imread(str(tmp_path / "c.png"), cv2.IMREAD_UNCHANGED),
                          feature.canny(luma).astype(np.uint8) * 255)
    deep = np.zeros((20, 30, 3), np.uint16)
    cv2.imwrite(str(tmp_path / "rgb16.png"), deep)
    r = run(edgel_cmd, "detect", tmp_path / "rgb16.png", "-o", tmp_path / "x.png", "--preset",
            "skimage")
    assert r.returncode == 1 and "gray input (or 8-bit colour)" in r.stderr
    r = run(edgel_cmd, "detect", tmp_path / "g.png", "-o", tmp_path / "x.png", "--preset",
            "skimage", "--quantiles", "--low", "0.9", "--high", "0.5")
    assert r.returncode != 0 and "below the low threshold" in r.stderr
    assert not (tmp_path / "x.png").exists()
    for given, said in ((["--low", "40", "--high", "20"], "(20) is below the low threshold (40)"),
                        (["--high", "10"], "(10) is below the low threshold (25.5, the default)")):
        r = run(edgel_cmd, "detect", tmp_path / "g.png", "-o", tmp_path / "x.png", "--preset",
                "skimage", *given)  # in the units typed, not skimage's scaled ones
        assert r.returncode != 0 and said in r.stderr, r.stderr


def test_convolve(edgel_cmd, tmp_path):
    """edgel convolve: text, PFM and PGM kernels; 8-bit out equal to cv2.filter2D, float out
    equal to edgel.filter2d; usage errors and bad kernel files."""
    import edgel
    rng = np.random.default_rng(8)
    k = (rng.standard_normal((5, 4)) * 0.2).astype(np.float32)
    (tmp_path / "k.txt").write_text("# a 5x4 kernel\n" + "\n".join(
        " ".join(repr(float(v)) for v in row) for row in k) + "\n")
    img = rgb(SAMPLES / "coffee.png")
    r = run(edgel_cmd, "convolve", SAMPLES / "coffee.png", "-o", tmp_path / "o.png", "--kernel",
            tmp_path / "k.txt", "--border", "replicate")
    assert r.returncode == 0 and "direct" in r.stdout, r.stderr
    got = cv2.cvtColor(cv2.imread(str(tmp_path / "o.png")), cv2.COLOR_BGR2RGB)
    assert np.array_equal(got, cv2.filter2D(img, -1, k, borderType=cv2.BORDER_REPLICATE))

    cv2.imwrite(str(tmp_path / "k.pfm"), k)
    f = rng.random((60, 70), np.float32) * 100
    cv2.imwrite(str(tmp_path / "in.pfm"), f)
    for method in ("direct", "fft"):
        r = run(edgel_cmd, "convolve", tmp_path / "in.pfm", "-o", tmp_path / "o.pfm", "--kernel",
                tmp_path / "k.pfm", "--border", "wrap", "--method", method, "--anchor", "0,4",
                "--convolve")
        assert r.returncode == 0, r.stderr
        ref = edgel.filter2d(f, k, border="wrap", method=method, anchor=(0, 4), convolve=True)
        assert np.array_equal(cv2.imread(str(tmp_path / "o.pfm"), cv2.IMREAD_UNCHANGED), ref)
    ones = np.full((3, 3), 1, np.uint8)
    cv2.imwrite(str(tmp_path / "ones.pgm"), ones)
    r = run(edgel_cmd, "convolve", tmp_path / "in.pfm", "-o", tmp_path / "s.pfm", "--kernel",
            tmp_path / "ones.pgm", "--border", "zero", "--border-value", "2")
    assert r.returncode == 0, r.stderr
    ref = edgel.filter2d(f, ones.astype(np.float32), border="constant", border_value=2)
    assert np.array_equal(cv2.imread(str(tmp_path / "s.pfm"), cv2.IMREAD_UNCHANGED), ref)

    (tmp_path / "ragged.txt").write_text("1 2 3\n4 5\n")
    (tmp_path / "nan.txt").write_text("1 nan\n")
    (tmp_path / "big.txt").write_text(" ".join(["1"] * 130) + "\n")
    for args, code, needle in [
            ([], 2, "no kernel"),
            (["--kernel", tmp_path / "k.txt", "--method", "magic"], 2, "--method is"),
            (["--kernel", tmp_path / "k.txt", "--border", "mirror"], 2, "--border is"),
            (["--kernel", tmp_path / "k.txt", "--anchor", "1"], 2, "--anchor is"),
            (["--kernel", tmp_path / "ragged.txt"], 1, "row 2 has 2 values"),
            (["--kernel", tmp_path / "nan.txt"], 1, "not a finite number"),
            (["--kernel", tmp_path / "big.txt"], 1, "larger than 129x129"),
            (["--kernel", tmp_path / "missing.txt"], 1, "missing.txt"),
            (["--kernel", tmp_path / "k.txt", "--anchor", "9,9"], 1, "anchor"),
            (["--kernel", tmp_path / "k.txt", "--method", "separable"], 1,
             "rank-1")]:
        r = run(edgel_cmd, "convolve", SAMPLES / "camera.png", "-o", tmp_path / "x.png", *args)
        assert r.returncode == code and needle in r.stderr, (args, r.stderr)
    r = run(edgel_cmd, "convolve", tmp_path / "in.pfm", "-o", tmp_path / "x.png", "--kernel",
            tmp_path / "k.txt")
    assert r.returncode == 2 and ".pfm" in r.stderr


def test_detect_bad_files(edgel_cmd, tmp_path):
    r = run(edgel_cmd, "detect", tmp_path / "missing.png", "-o", tmp_path / "o.png")
    assert r.returncode == 1 and "missing.png" in r.stderr
    broken = tmp_path / "broken.png"
    broken.write_bytes((SAMPLES / "camera.png").read_bytes()[:5000])
    r = run(edgel_cmd, "detect", broken, "-o", tmp_path / "o.png")
    assert r.returncode == 1 and "PNG" in r.stderr and "EDGEL_ERROR_FORMAT" in r.stderr
    deep = tmp_path / "deep.png"
    cv2.imwrite(str(deep), np.zeros((4, 4), np.uint16))
    r = run(edgel_cmd, "detect", deep, "-o", tmp_path / "o.png")
    assert r.returncode == 1 and "8-bit" in r.stderr
    r = run(edgel_cmd, "detect", SAMPLES / "camera.png", "-o", tmp_path / "no" / "o.png")
    assert r.returncode == 1 and "writing" in r.stderr
    r = run(edgel_cmd, "detect", SAMPLES / "camera.png", "-o", tmp_path / "o.png",
            "--backend", "cuda")
    assert r.returncode == 1 and "EDGEL_ERROR_BACKEND_UNAVAILABLE" in r.stderr


def test_man_page_is_the_help(edgel_cmd):
    """edgel --man: every help text, preformatted, as troff that man renders."""
    r = run(edgel_cmd, "--man")
    assert r.returncode == 0 and r.stdout.startswith(".TH EDGEL 1")
    for command in ("detect", "convolve", "compare", "bench"):
        assert f'.SH "EDGEL {command.upper()}"' in r.stdout
        help_text = run(edgel_cmd, command, "--help").stdout
        first = help_text.splitlines()[0]
        assert first in r.stdout, command
    macros = {".TH", ".SH", ".nf", ".fi", ".B", ".I"}
    for line in r.stdout.splitlines():  # help text never read as a request
        assert not line.startswith((".", "'")) or line.split()[0] in macros, line


def test_compare(edgel_cmd, tmp_path):
    a = cv2.Canny(cv2.cvtColor(rgb(SAMPLES / "chelsea.png"), cv2.COLOR_RGB2GRAY), 50, 150)
    b = a.copy()
    b[:40] = 0              # lose some edges
    b[200:210, 10:30] = 255  # add some
    pa, pb = tmp_path / "a.png", tmp_path / "b.pgm"
    cv2.imwrite(str(pa), a)
    cv2.imwrite(str(pb), b)
    r = run(edgel_cmd, "compare", pa, pa)
    assert r.returncode == 0
    assert "identical: yes" in r.stdout and "Pco: 100.0000%" in r.stdout
    assert "Pnd: 0.0000%" in r.stdout and "Pfa: 0.0000%" in r.stdout
    r = run(edgel_cmd, "compare", pa, pb)
    assert r.returncode == 1  # as cmp: the images differ
    na, nb = np.count_nonzero(a), np.count_nonzero(b)
    common = np.count_nonzero((a > 0) & (b > 0))
    assert r.stdout == (f"identical: no\nsize: {a.shape[1]}x{a.shape[0]}\n"
                        f"edges A: {na}\nedges B: {nb}\ncommon: {common}\n"
                        f"Pco: {100 * common / na:.4f}%\nPnd: {100 * (na - common) / na:.4f}%\n"
                        f"Pfa: {100 * (nb - common) / na:.4f}%\n")
    cv2.imwrite(str(tmp_path / "small.png"), a[:10])
    r = run(edgel_cmd, "compare", pa, tmp_path / "small.png")
    assert r.returncode == 1 and "sizes differ" in r.stderr
    assert run(edgel_cmd, "compare", pa).returncode == 2
    r = run(edgel_cmd, "compare", pa, tmp_path / "missing.png")
    assert r.returncode == 2 and "missing.png" in r.stderr
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.zeros_like(a))
    r = run(edgel_cmd, "compare", blank, pa)
    assert r.returncode == 1 and "Pco: n/a" in r.stdout


def test_bench_runs(edgel_cmd):
    r = run(edgel_cmd, "bench", "--image", SAMPLES / "coffee.png", "--sizes", "64x48,33x17",
            "--runs", "3", "--threads", "2")
    assert r.returncode == 0, r.stderr
    assert "| size | threads | gray | blur | canny | total | MP/s |" in r.stdout
    assert "| 64x48 | 1 |" in r.stdout and "| 33x17 | 2 |" in r.stdout
    assert run(edgel_cmd, "bench", "--runs", "0").returncode == 2
    r = run(edgel_cmd, "bench", "--backend", "tpu")
    assert r.returncode == 2 and "--backend is cpu or cuda" in r.stderr
    assert run(edgel_cmd, "bench", "--sizes", "12").returncode == 2


@pytest.mark.parametrize("rule", ["otsu", "median"])
def test_auto_thresholds_are_printed_and_used(edgel_cmd, tmp_path, rule):
    src = ROOT / "samples" / "coffee.png"
    r = run(edgel_cmd, "detect", src, "-o", tmp_path / "e.png", "--auto", rule, "--blur", "1.4")
    assert r.returncode == 0, r.stderr
    seen = cv2.GaussianBlur(cv2.cvtColor(rgb(src), cv2.COLOR_RGB2GRAY), (0, 0), 1.4)
    if rule == "otsu":
        high = cv2.threshold(seen, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
        low = high / 2
    else:
        v = np.median(seen)
        low, high = int(max(0, (1.0 - 0.33) * v)), int(min(255, (1.0 + 0.33) * v))
    assert f"thresholds {low:g} and {high:g} ({rule})" in r.stdout
    got = cv2.imread(str(tmp_path / "e.png"), cv2.IMREAD_UNCHANGED)
    assert np.array_equal(got, cv2.Canny(seen, low, high))
    for bad in (["--auto", "mean"], ["--auto", "otsu", "--tile", "64x64"],
                ["--auto", "otsu", "--preset", "itk"]):
        r = run(edgel_cmd, "detect", src, "-o", tmp_path / "f.png", *bad)
        assert r.returncode == 2 and "--auto" in r.stderr, bad


def test_auto_quantiles(edgel_cmd, tmp_path):
    import edgel
    src = ROOT / "samples" / "coffee.png"
    gray = cv2.cvtColor(rgb(src), cv2.COLOR_RGB2GRAY)
    low, high = edgel.auto_thresholds(gray, "quantiles", blur=1.4, quantiles=(0.7, 0.9))
    r = run(edgel_cmd, "detect", src, "-o", tmp_path / "e.png", "--auto", "quantiles:0.7,0.9",
            "--blur", "1.4")
    assert r.returncode == 0 and f"thresholds {low:g} and {high:g} (quantiles)" in r.stdout
    got = cv2.imread(str(tmp_path / "e.png"), cv2.IMREAD_UNCHANGED)
    assert np.array_equal(got, cv2.Canny(cv2.GaussianBlur(gray, (0, 0), 1.4), low, high))
    for bad in ("quantiles:0.7", "quantiles:0.2,1.5", "quantiles:a,b"):
        r = run(edgel_cmd, "detect", src, "-o", tmp_path / "f.png", "--auto", bad)
        assert r.returncode == 2 and "quantiles:LOW,HIGH" in r.stderr, bad


@pytest.mark.parametrize("tile", [[], ["--tile", "64x48"]])
def test_cv2_canny_of_imread_is_max_channel_bgr(edgel_cmd, tmp_path, photo_files, tile):
    """cv2.Canny(cv2.imread(f), ...) takes B, G, R: --gray max-channel alone differs from it
    where channels tie (39 of 25,418 edge pixels on coffee.png); --channel-order bgr equals it,
    whole and in tiles, and leaves a colour stage in the file's order."""
    differs = 0
    jpegs = [] if tile else photo_files[:2]  # (tiles stream PNG, PGM/PPM and TIFF)
    for f in [SAMPLES / "coffee.png", SAMPLES / "chelsea.png", *jpegs]:
        want = cv2.Canny(cv2.imread(str(f), cv2.IMREAD_COLOR), 40, 120, apertureSize=3)
        out = tmp_path / "e.png"
        common = ["--gray", "max-channel", "--low", "40", "--high", "120", "-q", *tile]
        r = run(edgel_cmd, "detect", f, "-o", out, *common, "--channel-order", "bgr")
        assert r.returncode == 0, r.stderr
        assert np.array_equal(cv2.imread(str(out), cv2.IMREAD_UNCHANGED), want), f
        r = run(edgel_cmd, "detect", f, "-o", out, *common)
        differs += int((cv2.imread(str(out), cv2.IMREAD_UNCHANGED) != want).sum())
    assert differs > 0  # (the test would not see a wrong order otherwise)
    f = SAMPLES / "coffee.png"
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.png", "--gray", "max-channel",
            "--channel-order", "bgr", "--stage", "smoothed", "--blur", "1.4")
    assert r.returncode == 0, r.stderr
    r2 = run(edgel_cmd, "detect", f, "-o", tmp_path / "s2.png", "--gray", "max-channel",
             "--stage", "smoothed", "--blur", "1.4")
    assert (tmp_path / "s.png").read_bytes() == (tmp_path / "s2.png").read_bytes()
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "x.png", "--channel-order", "grb")
    assert r.returncode == 2 and "rgb or bgr" in r.stderr
