"""The itk preset against ITK itself (the `itk` package): edge maps and non-maximum-suppression
images must be identical, float for float.

References are itk.CannyEdgeDetectionImageFilter[F, F] and itk.DiscreteGaussianImageFilter on
float images: the 500 BSDS500 photographs as float gray, random float images of odd sizes from
1x1 up, variances from 0 to 200 (past the 32-pixel radius cap), thresholds including 0, equal
and upper < lower, and u8/u16 input (ITK sees the same values as float)."""
import os

import cv2
import numpy as np
import pytest

import edgel

itk = pytest.importorskip("itk") if os.environ.get("EDGEL_REQUIRE_ITK") != "1" else __import__("itk")

F2 = itk.Image[itk.F, 2]
VARIANCES = [0.0, 0.3, 1.0, 2.0, 4.7, 10.0, 33.0, 150.0, 200.0]
THRESHOLDS = [(0.0, 0.0), (30.0, 15.0), (10.0, 5.0), (5.0, 5.0), (2.0, 8.0), (0.5, 0.1),
              (100.0, 40.0)]


def to_itk(a):
    """A float ITK image of the 2-D array a (explicit size: image_from_array may transpose
    arrays with a dimension of 1)."""
    img = F2.New()
    img.SetRegions([a.shape[1], a.shape[0]])
    img.Allocate()
    view = itk.array_view_from_image(img)
    assert view.shape == a.shape
    view[:] = a
    return img


def itk_canny(a, variance, upper, lower, maximum_error=0.01):
    f = itk.CannyEdgeDetectionImageFilter[F2, F2].New(
        Input=to_itk(a.astype(np.float32)), Variance=variance, MaximumError=maximum_error,
        UpperThreshold=upper, LowerThreshold=lower)
    f.Update()
    return (itk.array_from_image(f.GetOutput()).copy(),
            itk.array_from_image(f.GetNonMaximumSuppressionImage()).copy())


def check(a, variance, upper, lower, what, maximum_error=0.01, ctx=None):
    ref_edges, ref_nms = itk_canny(a, variance, upper, lower, maximum_error)
    stages = {"suppressed": None}
    edges = edgel.canny_itk(a, variance, maximum_error, upper, lower, stages=stages, ctx=ctx)
    bad_nms = np.count_nonzero(stages["suppressed"] != ref_nms)
    bad = np.count_nonzero(edges != ref_edges)
    assert bad_nms == 0, f"{what}: {bad_nms} suppression-image pixels differ"
    assert bad == 0, f"{what}: {bad} edge pixels differ (ITK has {int(ref_edges.sum())} edges)"
    return edges


def test_every_photo(photo_files):
    for i, path in enumerate(photo_files):
        gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE).astype(np.float32)
        variance = VARIANCES[1 + i % (len(VARIANCES) - 3)]
        upper, lower = THRESHOLDS[1 + i % (len(THRESHOLDS) - 1)]
        check(gray, variance, upper, lower, f"{path.name} variance {variance}")


def test_random_float_images_every_variance_and_threshold():
    rng = np.random.default_rng(6)
    for variance in VARIANCES:
        for upper, lower in THRESHOLDS:
            h, w = (int(v) for v in rng.integers(1, 70, 2))
            a = (rng.standard_normal((h, w)) * 40 + 100).astype(np.float32)
            check(a, variance, upper, lower, f"{w}x{h} variance {variance} {upper}/{lower}")


def test_sizes_from_1x1():
    rng = np.random.default_rng(7)
    for h, w in [(1, 1), (1, 2), (2, 1), (1, 65), (65, 1), (2, 2), (3, 3), (5, 97), (97, 5),
                 (31, 33), (64, 64), (127, 129)]:
        a = (rng.random((h, w)) * 255).astype(np.float32)
        check(a, 2.0, 10.0, 4.0, f"{w}x{h}")


def test_maximum_error_and_radius_cap():
    rng = np.random.default_rng(8)
    a = (rng.random((70, 90)) * 255).astype(np.float32)
    for variance, maximum_error in [(3.0, 0.5), (3.0, 0.001), (60.0, 1e-6), (200.0, 0.01)]:
        check(a, variance, 8.0, 3.0, f"variance {variance} error {maximum_error}", maximum_error)


def test_u8_and_u16_input_as_itk_sees_them():
    rng = np.random.default_rng(9)
    u8 = rng.integers(0, 256, (53, 71), dtype=np.uint8)
    u16 = rng.integers(0, 65536, (53, 71), dtype=np.uint16)
    for a, upper, lower in [(u8, 10.0, 5.0), (u16, 2000.0, 800.0)]:
        ref, _ = itk_canny(a.astype(np.float32), 2.0, upper, lower)
        assert np.array_equal(edgel.canny_itk(a, 2.0, 0.01, upper, lower), ref), a.dtype


def test_smooth_natural_image_structures():
    """Plateaus and exact ties: a blurred step, a ramp, a constant image, a checkerboard."""
    y, x = np.mgrid[0:60, 0:80].astype(np.float32)
    for name, a in [("step", (x > 40) * 100.0), ("ramp", x * 2.5), ("flat", x * 0 + 7),
                    ("checker", ((x // 8 + y // 8) % 2) * 50.0), ("disc", ((x - 40) ** 2 + (y - 30) ** 2 < 400) * 80.0)]:
        for variance in (0.0, 1.0, 4.0):
            check(a.astype(np.float32), variance, 1.0, 0.5, f"{name} variance {variance}")


def test_smoothed_stage_equals_discrete_gaussian():
    rng = np.random.default_rng(10)
    a = (rng.random((45, 67)) * 255).astype(np.float32)
    for variance in (0.5, 4.0, 150.0):
        g = itk.DiscreteGaussianImageFilter[F2, F2].New(Input=to_itk(a), Variance=variance,
                                                         MaximumError=0.01)
        g.Update()
        stages = {"smoothed": None}
        edgel.canny_itk(a, variance, stages=stages)
        assert np.array_equal(stages["smoothed"], itk.array_from_image(g.GetOutput())), variance


def test_uint8_output_and_thread_counts():
    rng = np.random.default_rng(11)
    a = (rng.random((211, 150)) * 255).astype(np.float32)
    ref = check(a, 1.5, 12.0, 6.0, "threads default")
    for threads in (1, 2, 3, 8):
        ctx = edgel.Context("cpu", threads=threads)
        assert np.array_equal(edgel.canny_itk(a, 1.5, 0.01, 12.0, 6.0, ctx=ctx), ref), threads
        u8 = edgel.canny_itk(a, 1.5, 0.01, 12.0, 6.0, dtype=np.uint8, ctx=ctx)
        assert np.array_equal(u8, (ref * 255).astype(np.uint8)), threads


def test_itk_bad_input_raises():
    a = np.zeros((10, 10), np.float32)
    with pytest.raises(edgel.EdgelError, match="variance"):
        edgel.canny_itk(a, variance=-1.0)
    with pytest.raises(edgel.EdgelError, match="maximum error"):
        edgel.canny_itk(a, maximum_error=1.0)
    with pytest.raises(edgel.EdgelError, match="INVALID_ARGUMENT"):
        edgel.canny_itk(a, upper=float("nan"))
    with pytest.raises(ValueError, match="volume"):  # (a 3-D array is a volume)
        edgel.canny_itk(np.zeros((2, 10, 10, 3), np.float32))
    with pytest.raises(edgel.EdgelError, match="UNSUPPORTED.*pixel type"):
        edgel.canny_itk(np.zeros((10, 10), np.int16))
    with pytest.raises(TypeError):
        edgel.canny_itk(a, dtype=np.int32)
    with pytest.raises(KeyError):
        edgel.canny_itk(a, stages={"dx": None})
