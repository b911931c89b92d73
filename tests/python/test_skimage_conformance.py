"""The skimage preset against scikit-image itself: every case must be byte-identical.

skimage.feature.canny of scikit-image 0.26.0 is the reference (pinned: other versions
compute differently, see docs/skimage-preset.md). Inputs: every photograph of the run (the
samples, and the 500 BSDS500 photographs where present) in several dtypes, random images of every dtype and
of sizes from 1x1 up (odd ones included), with NaN and infinity in float images, every
sigma class, mode, mask and threshold form; the stages against skimage's own intermediate
arrays; skimage's refusals as the same exceptions."""
import itertools
import pathlib

import cv2
import numpy as np
import pytest
import scipy.ndimage as ndi
import skimage
import skimage.feature as feature
from skimage.feature._canny import _preprocess
from skimage.feature._canny_cy import _nonmaximum_suppression_bilinear

import edgel

SKIMAGE_VERSION = "0.26.0"
MODES = ["constant", "nearest", "reflect", "mirror", "wrap"]
INT_DTYPES = [np.uint8, np.uint16, np.int16, np.int32, np.int8, np.uint32]
DTYPES = [np.bool_, *INT_DTYPES, np.float16, np.float32, np.float64]


def test_reference_version():
    assert skimage.__version__ == SKIMAGE_VERSION, \
        f"these tests pin scikit-image {SKIMAGE_VERSION} (installed: {skimage.__version__})"


def assert_same(ours, ref, what):
    assert ours.dtype == np.bool_ and ours.shape == ref.shape, what
    diff = np.count_nonzero(ours != ref)
    assert diff == 0, f"{what}: {diff} pixels differ (reference has {np.count_nonzero(ref)} edges)"


def both(image, what, **kw):
    assert_same(edgel.canny_skimage(image, **kw), feature.canny(image, **kw), f"{what} {kw}")


def as_dtype(gray_u8, dtype, rng):
    """A u8 photograph in `dtype`, using its range (floats in [0, 1] with fractions)."""
    g = gray_u8.astype(np.float64)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return gray_u8 > 127
    if dtype.kind == "f":
        return ((g + rng.random(g.shape)) / 256).astype(dtype)
    info = np.iinfo(dtype)
    return np.round(info.min + (g / 255) * (float(info.max) - info.min)).astype(dtype)


def threshold_forms(dtype):
    """(low, high, use_quantiles): the defaults, absolute ones in the dtype's units, quantiles."""
    dtype = np.dtype(dtype)
    scale = float(np.iinfo(dtype).max) if dtype.kind in "ui" else 1.0
    return [(None, None, False), (0.05 * scale, 0.15 * scale, False), (0.5, 0.9, True),
            (None, 0.95, True), (0.0, 0.0, False)]


def test_every_photo(photo_files):
    rng = np.random.default_rng(7)
    dtypes = [np.uint8, np.float32, np.float64, np.uint16, np.int16]
    sigmas = [1.0, 0.0, 0.7, 1.4, 2.0, 3.0]
    for i, path in enumerate(photo_files):
        gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        # skimage's defaults on every photograph
        both(gray, path.name)
        # one more dtype / sigma / threshold / mode / mask combination a photograph
        dtype = dtypes[i % len(dtypes)]
        img = as_dtype(gray, dtype, rng)
        low, high, q = threshold_forms(dtype)[i % 5]
        kw = dict(sigma=sigmas[i % len(sigmas)], low_threshold=low, high_threshold=high,
                  use_quantiles=q, mode=MODES[i % 5], cval=0.5 if i % 7 == 0 else 0.0)
        if i % 3 == 0:
            kw["mask"] = rng.random(gray.shape) > 0.05
        both(img, f"{path.name} {np.dtype(dtype)}", **kw)


def random_image(rng, dtype, shape, specials):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) > 0.5
    if dtype.kind == "f":
        img = (rng.random(shape) * rng.choice([1.0, 1e-3, 50.0])).astype(dtype)
        if specials and img.size > 2:
            k = rng.integers(0, img.size, 2)
            img.flat[k] = rng.choice([np.nan, np.inf, -np.inf, -0.5], 2)
        return img
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True, dtype=dtype)


def test_random_images_every_dtype():
    rng = np.random.default_rng(11)
    shapes = [(1, 1), (1, 7), (7, 1), (2, 2), (3, 5), (17, 31), (64, 45), (101, 99)]
    sigmas = [0.0, 1e-16, 0.1, 0.5, 1.0, 1.6, 2.5, 9.0]
    cases = 0
    for dtype, shape in itertools.product(DTYPES, shapes):
        for k in range(3):
            img = random_image(rng, dtype, shape, specials=k == 2)
            low, high, q = threshold_forms(dtype)[(cases + k) % 5]
            kw = dict(sigma=sigmas[(cases + k) % len(sigmas)], low_threshold=low,
                      high_threshold=high, use_quantiles=q, mode=MODES[(cases + 2 * k) % 5],
                      cval=[0.0, 0.3, -1.0][k])
            if k == 1:
                kw["mask"] = rng.random(shape) > 0.25
            with np.errstate(all="ignore"):
                both(img, f"{np.dtype(dtype)} {shape}", **kw)
            cases += 1
    assert cases == len(DTYPES) * len(shapes) * 3


def test_smooth_structures():
    """Scikit-image's own test images: a ring (sigma 4, thresholds 0), a noisy ring, a step,
    and an all-ones image (no edges)."""
    x, y = np.mgrid[-1:1:complex(0, 400), -1:1:complex(0, 400)]
    r = np.sqrt(x * x + y * y)
    ring = np.abs(r - 0.5) < 0.02
    both(ring.astype(float), "ring", sigma=4, low_threshold=0, high_threshold=0)
    noisy = ring.astype(float) + np.random.default_rng(0).random(ring.shape)
    both(noisy, "noisy ring", sigma=4, low_threshold=0.1, high_threshold=0.2)
    step = np.zeros((100, 100))
    step[:, 50:] = 1
    both(step, "step")
    assert not edgel.canny_skimage(np.ones((20, 20))).any()


def test_stages_equal_skimage_arrays():
    """The intermediate arrays of skimage.feature.canny, recomputed here from its own
    functions, equal the stages bit for bit."""
    rng = np.random.default_rng(3)
    gray = cv2.imread(str(pathlib.Path(__file__).parents[2] / "samples" / "camera.png"),
                      cv2.IMREAD_GRAYSCALE)[100:260, 50:230]
    for dtype, mask in [(np.uint8, None), (np.float32, None), (np.float64, True)]:
        img = as_dtype(gray, dtype, rng)
        m = rng.random(img.shape) > 0.1 if mask else None
        smoothed, eroded = _preprocess(img, m, 1.5, "constant", 0.0)
        jsobel, isobel = ndi.sobel(smoothed, axis=1), ndi.sobel(smoothed, axis=0)
        magnitude = isobel * isobel
        magnitude += jsobel * jsobel
        np.sqrt(magnitude, out=magnitude)
        low = 0.1
        suppressed = _nonmaximum_suppression_bilinear(isobel, jsobel, magnitude, eroded, low)
        stages = dict.fromkeys(["smoothed", "dx", "dy", "magnitude", "suppressed"])
        edgel.canny_skimage(img, sigma=1.5, mask=m, stages=stages)
        for name, ref in [("smoothed", smoothed), ("dx", jsobel), ("dy", isobel),
                          ("magnitude", magnitude), ("suppressed", np.asarray(suppressed))]:
            got = stages[name]
            assert got.dtype == ref.dtype, name
            assert np.array_equal(got.view(np.uint8), np.ascontiguousarray(ref).view(np.uint8)), \
                f"{np.dtype(dtype)} {name}: {np.count_nonzero(got != ref)} values differ"


def test_out_and_threads():
    img = np.random.default_rng(5).random((90, 70))
    out = np.empty(img.shape, bool)
    assert edgel.canny_skimage(img, out=out) is out
    ref = feature.canny(img)
    assert_same(out, ref, "out=")
    assert_same(edgel.canny_skimage(img, ctx=edgel.Context("cpu", threads=1)), ref, "1 thread")


@pytest.mark.parametrize("call", [
    lambda: np.zeros((4, 4, 3)),                                 # 3-D
    lambda: np.zeros((4, 4), np.int64),                          # 64-bit ints
])
def test_refused_images_as_skimage(call):
    img = call()
    with pytest.raises(ValueError):
        feature.canny(img)
    with pytest.raises(ValueError):
        edgel.canny_skimage(img)


@pytest.mark.parametrize("kw", [
    dict(use_quantiles=True, low_threshold=-0.1),
    dict(use_quantiles=True, high_threshold=1.5),
    dict(low_threshold=0.5, high_threshold=0.2),
    dict(use_quantiles=True, low_threshold=0.5),                 # above the default 0.2
    dict(sigma=-1.0),
])
def test_refused_arguments_as_skimage(kw):
    img = np.random.default_rng(0).random((16, 16))
    with pytest.raises(ValueError):
        feature.canny(img, **kw)
    with pytest.raises(ValueError):
        edgel.canny_skimage(img, **kw)


def test_clear_errors():
    img = np.zeros((8, 8))
    with pytest.raises(ValueError, match="mode"):
        edgel.canny_skimage(img, mode="bogus")
    with pytest.raises(ValueError, match="mask"):
        edgel.canny_skimage(img, mask=np.ones((4, 4), bool))
    with pytest.raises(TypeError):
        edgel.canny_skimage(np.zeros((8, 8), np.complex64))
    with pytest.raises(KeyError):
        edgel.canny_skimage(img, stages={"gray": None})
    with pytest.raises(ValueError, match="NaN"):
        edgel.canny_skimage(img, low_threshold=float("nan"))
    for sigma in (1e9, float("inf"), float("nan"), 4096.5):  # refused before any weight is made
        with pytest.raises(ValueError, match="sigma"):
            edgel.canny_skimage(img, sigma=sigma)


def test_tiles_refused_naming_whole_images():
    import ctypes
    p, _w = edgel._skimage._skimage_params(np.dtype(np.uint8), 1.0, None, None, False, "constant", 0.0)
    halo = ctypes.c_int32()
    with pytest.raises(edgel.EdgelError, match="whole images"):
        edgel._capi._check(edgel._capi._lib.edgel_canny_tile_halo(ctypes.byref(p), ctypes.byref(halo)))


def test_c_library_kernel_agrees_where_exp_agrees():
    """Without the binding's weights the library computes the kernel with the C library's
    exp; for every sigma where that equals NumPy's on this machine, the edges are skimage's
    too (and the weights themselves are the Python model's)."""
    import ctypes
    img = np.random.default_rng(9).random((60, 50))
    agree = [s for s in (1.0, 3.0, 2.0, 1.4, 0.8, 5.0)
             if np.array_equal(edgel._skimage._skimage_weights(s), _libm_weights(s))]
    if not agree:
        pytest.skip("NumPy's exp differs from the C library's at every sigma tried")
    for sigma in agree:
        p, _w = edgel._skimage._skimage_params(img.dtype, sigma, None, None, False, "constant", 0.0)
        p.gaussian_weights = None
        edges = np.empty(img.shape, bool)
        src, dst = edgel._arrays._view(img), edgel._arrays._view(edges, output=True)
        edgel._capi._check(edgel._capi._lib.edgel_canny_masked(edgel._context._ctx(None)._handle, ctypes.byref(p),
                                                   ctypes.byref(src), None, ctypes.byref(dst),
                                                   None))
        assert_same(edges, feature.canny(img, sigma=sigma), f"C kernel sigma {sigma}")


def _libm_weights(sigma):
    import math
    r = int(4.0 * sigma + 0.5)
    phi = np.array([math.exp(-0.5 / (sigma * sigma) * (x * x)) for x in range(-r, r + 1)])
    return phi / np.sum(phi)
