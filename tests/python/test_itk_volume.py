"""The itk preset on volumes (edgel.canny_itk on (z, y, x) arrays, edgel_canny_volume) against
ITK itself (the `itk` package): itk::CannyEdgeDetectionImageFilter<Image<float, 3>, ...>'s
edges and non-maximum-suppression volume, float for float, and its Gaussian's output, on
random float volumes of odd sizes from 1x1x1 up (slabs one voxel thick along each axis),
anisotropic variances and spacings, the kernel's 32-voxel radius cap, thresholds including 0,
equal and upper < lower, u8 and u16 input, flat and smooth shapes, every thread count."""
import os

import numpy as np
import pytest

import edgel

itk = pytest.importorskip("itk") if os.environ.get("EDGEL_REQUIRE_ITK") != "1" else __import__("itk")

F3 = itk.Image[itk.F, 3]


def to_itk(a, spacing_zyx=(1.0, 1.0, 1.0)):
    """A float ITK volume of the (z, y, x) array a (sizes and spacing in ITK's x, y, z)."""
    img = F3.New()
    img.SetRegions([a.shape[2], a.shape[1], a.shape[0]])
    img.Allocate()
    img.SetSpacing([float(s) for s in spacing_zyx[::-1]])
    view = itk.array_view_from_image(img)
    assert view.shape == a.shape
    view[:] = a
    return img


def itk_canny(a, variance_zyx, upper, lower, error_zyx=(0.01,) * 3, spacing_zyx=(1.0,) * 3):
    f = itk.CannyEdgeDetectionImageFilter[F3, F3].New(
        Input=to_itk(a.astype(np.float32), spacing_zyx), UpperThreshold=upper,
        LowerThreshold=lower)
    f.SetVariance([float(v) for v in variance_zyx[::-1]])
    f.SetMaximumError([float(e) for e in error_zyx[::-1]])
    f.Update()
    return (itk.array_from_image(f.GetOutput()).copy(),
            itk.array_from_image(f.GetNonMaximumSuppressionImage()).copy())


def check(a, variance, upper, lower, what, error=(0.01,) * 3, spacing=(1.0,) * 3, ctx=None):
    ref_edges, ref_nms = itk_canny(a, variance, upper, lower, error, spacing)
    stages = {"suppressed": None}
    edges = edgel.canny_itk(a, variance, error, upper, lower, spacing=spacing, stages=stages,
                            ctx=ctx)
    assert edges.shape == a.shape and edges.dtype == np.float32
    bad_nms = np.count_nonzero(stages["suppressed"] != ref_nms)
    bad = np.count_nonzero(edges != ref_edges)
    assert bad_nms == 0, f"{what}: {bad_nms} suppression voxels differ"
    assert bad == 0, f"{what}: {bad} edge voxels differ (ITK has {int(ref_edges.sum())} edges)"
    return edges


def noise(rng, shape):
    return (rng.standard_normal(shape) * 40 + 100).astype(np.float32)


def test_random_volumes_anisotropic_variance_and_spacing():
    rng = np.random.default_rng(20)
    cases = [((1.0, 1.0, 1.0), (1.0, 1.0, 1.0)), ((2.0, 2.0, 2.0), (1.0, 1.0, 1.0)),
             ((0.0, 1.5, 3.0), (1.0, 1.0, 1.0)), ((4.0, 2.0, 2.0), (2.5, 0.7, 0.7)),
             ((0.5, 0.5, 0.5), (1.0, 2.0, 0.5))]
    for variance, spacing in cases:
        for upper, lower in [(0.0, 0.0), (30.0, 15.0), (10.0, 5.0), (5.0, 5.0), (2.0, 8.0)]:
            shape = tuple(int(v) for v in rng.integers(2, 24, 3))
            check(noise(rng, shape), variance, upper, lower,
                  f"{shape} variance {variance} spacing {spacing} {upper}/{lower}",
                  spacing=spacing)


def test_sizes_from_1x1x1_and_thin_slabs():
    rng = np.random.default_rng(21)
    for shape in [(1, 1, 1), (1, 1, 7), (1, 7, 1), (7, 1, 1), (1, 9, 11), (9, 1, 11),
                  (9, 11, 1), (2, 2, 2), (3, 3, 3), (5, 17, 4), (33, 8, 9)]:
        check(noise(rng, shape), (2.0, 2.0, 2.0), 10.0, 4.0, f"{shape}")


def test_maximum_error_and_radius_cap():
    rng = np.random.default_rng(22)
    a = noise(rng, (12, 20, 26))
    for variance, error in [((3.0,) * 3, (0.5,) * 3), ((3.0, 1.0, 2.0), (0.001, 0.1, 0.01)),
                            ((150.0, 2.0, 60.0), (0.01, 0.01, 1e-6))]:
        check(a, variance, 8.0, 3.0, f"variance {variance} error {error}", error=error)


def test_u8_and_u16_input_as_itk_sees_them():
    rng = np.random.default_rng(23)
    u8 = rng.integers(0, 256, (9, 21, 17), dtype=np.uint8)
    u16 = rng.integers(0, 65536, (9, 21, 17), dtype=np.uint16)
    for a, upper, lower in [(u8, 10.0, 5.0), (u16, 2000.0, 800.0)]:
        ref, _ = itk_canny(a.astype(np.float32), (2.0,) * 3, upper, lower)
        assert np.array_equal(edgel.canny_itk(a, 2.0, 0.01, upper, lower), ref), a.dtype


def test_smooth_shapes_flat_and_ties():
    z, y, x = np.mgrid[0:20, 0:24, 0:28].astype(np.float32)
    for name, a in [("sphere", ((x - 14) ** 2 + (y - 12) ** 2 + (z - 10) ** 2 < 49) * 80.0),
                    ("step", (x > 13) * 100.0), ("ramp", z * 2.5), ("flat", x * 0 + 7),
                    ("checker", ((x // 5 + y // 5 + z // 5) % 2) * 50.0)]:
        for variance in (0.0, 1.0, 4.0):
            check(a.astype(np.float32), (variance,) * 3, 1.0, 0.5, f"{name} variance {variance}")


def test_smoothed_stage_equals_discrete_gaussian():
    rng = np.random.default_rng(24)
    a = noise(rng, (10, 15, 19))
    for variance, spacing in [((0.5, 0.5, 0.5), (1, 1, 1)), ((4.0, 1.0, 2.0), (2.0, 1.0, 0.5))]:
        g = itk.DiscreteGaussianImageFilter[F3, F3].New(Input=to_itk(a, spacing))
        g.SetVariance([float(v) for v in variance[::-1]])
        g.SetMaximumError([0.01] * 3)
        g.Update()
        stages = {"smoothed": None}
        edgel.canny_itk(a, variance, spacing=spacing, stages=stages)
        assert np.array_equal(stages["smoothed"], itk.array_from_image(g.GetOutput())), variance


def test_uint8_output_strided_input_and_thread_counts():
    rng = np.random.default_rng(25)
    a = noise(rng, (14, 40, 33))
    ref = check(a, (1.5, 1.5, 1.5), 12.0, 6.0, "threads default")
    for threads in (1, 2, 3, 8):
        ctx = edgel.Context("cpu", threads=threads)
        assert np.array_equal(edgel.canny_itk(a, 1.5, 0.01, 12.0, 6.0, ctx=ctx), ref), threads
        u8 = edgel.canny_itk(a, 1.5, 0.01, 12.0, 6.0, dtype=np.uint8, ctx=ctx)
        assert np.array_equal(u8, (ref * 255).astype(np.uint8)), threads
    big = np.zeros((14, 50, 40), np.float32)
    big[:, 5:45, 3:36] = a
    view = big[:, 5:45, 3:36]  # pitched rows and slices
    assert np.array_equal(edgel.canny_itk(view, 1.5, 0.01, 12.0, 6.0), ref)
    out = np.full(a.shape, 7, np.uint8)
    assert edgel.canny_itk(a, 1.5, 0.01, 12.0, 6.0, dtype=np.uint8, out=out) is out
    assert np.array_equal(out, (ref * 255).astype(np.uint8))


def test_unaligned_arrays_are_copied():
    """An array whose memory is not aligned to its voxels (as unpickled ones can be) is read
    through an aligned copy: the library refuses misaligned views."""
    rng = np.random.default_rng(26)
    a = rng.integers(0, 4000, (6, 9, 11), dtype=np.uint16)
    raw = np.zeros(a.nbytes + 1, np.uint8)
    raw[1:] = np.frombuffer(a.tobytes(), np.uint8)
    odd = raw[1:].view(np.uint16).reshape(a.shape)
    assert not odd.flags.aligned
    assert np.array_equal(edgel.canny_itk(odd, 1.0, 0.01, 300.0, 100.0),
                          edgel.canny_itk(a, 1.0, 0.01, 300.0, 100.0))


def test_volume_bad_input_raises():
    a = np.zeros((4, 5, 6), np.float32)
    with pytest.raises(edgel.EdgelError, match="variance along z"):
        edgel.canny_itk(a, variance=(-1.0, 0.0, 0.0))
    with pytest.raises(edgel.EdgelError, match="variance along x.*voxels"):
        edgel.canny_itk(a, variance=10.0, spacing=(1.0, 1.0, 0.1))
    with pytest.raises(edgel.EdgelError, match="maximum error along y"):
        edgel.canny_itk(a, maximum_error=(0.01, 1.0, 0.01))
    with pytest.raises(edgel.EdgelError, match="spacing along x"):
        edgel.canny_itk(a, spacing=(1.0, 1.0, 0.0))
    with pytest.raises(edgel.EdgelError, match="INVALID_ARGUMENT"):
        edgel.canny_itk(a, upper=float("nan"))
    with pytest.raises(edgel.EdgelError, match="UNSUPPORTED.*pixel type"):
        edgel.canny_itk(np.zeros((4, 5, 6), np.int16))
    with pytest.raises(edgel.EdgelError, match="INVALID_SIZE"):
        edgel.canny_itk(np.zeros((4, 5, 6), np.float32), out=np.zeros((4, 5, 7), np.float32))
    with pytest.raises(ValueError, match="three"):
        edgel.canny_itk(a, variance=(1.0, 2.0))
    with pytest.raises(ValueError, match="volumes"):
        edgel.canny_itk(np.zeros((5, 6), np.float32), spacing=2.0)
