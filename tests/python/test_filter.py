"""The convolution engine against float64 references and cv2.filter2D.

f32: every method, border mode, odd image size and kernel size from 1x1 to 65x65 (square or
not, odd or even) within 1e-5 (relative, norm-wise) of a float64 correlation computed here
with numpy.pad and a sliding window; SciPy's ndimage.correlate where the kernel fits in the
image (SciPy's N-D filters read uninitialised memory for 'reflect' extensions several times
the image's size). u8: identical to cv2.filter2D wherever OpenCV filters directly (kernels of
fewer than 130 taps); beyond that within 1 of it and of the exact value."""
import math

import cv2
import numpy as np
import pytest

import edgel

scipy_ndimage = pytest.importorskip("scipy.ndimage")

PAD = {"constant": "constant", "replicate": "edge", "reflect": "symmetric",
       "reflect-101": "reflect", "wrap": "wrap"}
SCIPY = {"constant": "constant", "replicate": "nearest", "reflect": "reflect",
         "reflect-101": "mirror", "wrap": "grid-wrap"}
CV = {"constant": cv2.BORDER_CONSTANT, "replicate": cv2.BORDER_REPLICATE,
      "reflect": cv2.BORDER_REFLECT, "reflect-101": cv2.BORDER_REFLECT_101}


def reference(img, k, border, value=0.0, anchor=None):
    """float64 correlation: out[y, x] = sum k[j, i] * img[y + j - ay, x + i - ax]."""
    kh, kw = k.shape
    ax, ay = anchor if anchor else (kw // 2, kh // 2)
    a = img.astype(np.float64)
    if a.ndim == 2:
        a = a[:, :, None]
    pad = ((ay, kh - 1 - ay), (ax, kw - 1 - ax), (0, 0))
    extra = {"constant_values": value} if border == "constant" else {}
    if border == "reflect-101" and min(img.shape[:2]) == 1:  # numpy cannot mirror one pixel
        p = np.pad(a, pad, mode="edge")
    else:
        p = np.pad(a, pad, mode=PAD[border], **extra)
    win = np.lib.stride_tricks.sliding_window_view(p, (kh, kw), axis=(0, 1))
    out = np.einsum("yxcji,ji->yxc", win, k.astype(np.float64))
    return out[:, :, 0] if img.ndim == 2 else out


def rel_error(ours, ref):
    return np.linalg.norm(ours.astype(np.float64) - ref) / max(np.linalg.norm(ref), 1e-300)


def methods_for(k):
    rank1 = np.linalg.matrix_rank(k.astype(np.float64)) <= 1
    return ["direct", "fft", "auto"] + (["separable"] if rank1 else [])


def test_reference_agrees_with_scipy():
    rng = np.random.default_rng(0)
    img = rng.standard_normal((40, 50))
    k = rng.standard_normal((7, 6))
    for border in PAD:
        ref = scipy_ndimage.correlate(img, k, mode=SCIPY[border], cval=0.5)
        assert np.allclose(reference(img, k, border, 0.5), ref), border


def test_f32_every_method_border_and_size():
    rng = np.random.default_rng(1)
    sizes = [(1, 1), (1, 2), (3, 1), (2, 2), (3, 5), (6, 4), (7, 7), (15, 15), (9, 21),
             (29, 29), (33, 16), (65, 65), (64, 63)]
    for kh, kw in sizes:
        h, w = (int(v) | 1 for v in rng.integers(1, 90, 2))
        img = rng.standard_normal((h, w)).astype(np.float32)
        k = rng.standard_normal((kh, kw)).astype(np.float32)
        if kh * kw % 3 == 0:  # some rank-1 kernels, for the separable method
            k = np.outer(rng.standard_normal(kh), rng.standard_normal(kw)).astype(np.float32)
        for border in PAD:
            ref = reference(img, k, border, 0.25)
            for m in methods_for(k):
                out = edgel.filter2d(img, k, border=border, border_value=0.25, method=m)
                assert out.dtype == np.float32 and out.shape == img.shape
                err = rel_error(out, ref)
                assert err <= 1e-5, f"{w}x{h} kernel {kw}x{kh} {border} {m}: {err:.2e}"


def test_f32_kernels_larger_than_the_image():
    rng = np.random.default_rng(2)
    img = rng.standard_normal((5, 3)).astype(np.float32)
    k = rng.standard_normal((25, 29)).astype(np.float32)
    for border in PAD:
        for m in ("direct", "fft"):
            err = rel_error(edgel.filter2d(img, k, border=border, method=m), reference(img, k, border))
            assert err <= 1e-5, (border, m, err)


def test_multichannel_anchor_and_convolution():
    rng = np.random.default_rng(3)
    img = rng.standard_normal((31, 37, 3)).astype(np.float32)
    k = rng.standard_normal((5, 4)).astype(np.float32)
    for m in ("direct", "fft"):
        out = edgel.filter2d(img, k, anchor=(0, 4), border="replicate", method=m)
        assert rel_error(out, reference(img, k, "replicate", anchor=(0, 4))) <= 1e-5, m
        conv = edgel.filter2d(img[:, :, 1], k, convolve=True, border="reflect", method=m)
        ref = scipy_ndimage.convolve(img[:, :, 1].astype(np.float64), k.astype(np.float64),
                                     mode="reflect")
        assert rel_error(conv, ref) <= 1e-5, m
    rgba = rng.integers(0, 256, (20, 30, 4), dtype=np.uint8)
    out = edgel.filter2d(rgba, k, dtype=np.float32)
    assert rel_error(out, reference(rgba, k, "reflect-101")) <= 1e-5


def test_u8_identical_to_cv2_filter2d():
    rng = np.random.default_rng(4)
    cases = 0
    for _ in range(60):
        kh, kw = (int(v) for v in rng.integers(1, 14, 2))
        if kh * kw >= 130:
            continue
        h, w = (int(v) for v in rng.integers(1, 120, 2))
        cn = int(rng.choice([1, 3, 4]))
        img = rng.integers(0, 256, (h, w, cn) if cn > 1 else (h, w), dtype=np.uint8)
        k = (rng.standard_normal((kh, kw)) * rng.choice([0.05, 0.3, 1.0])).astype(np.float32)
        if rng.random() < 0.5:  # zero taps, which OpenCV skips (dense kernels take other code)
            k[rng.random((kh, kw)) < 0.2] = 0
        for border, cb in CV.items():
            ref = cv2.filter2D(img, -1, k, borderType=cb)
            for m in ("direct", "auto"):
                out = edgel.filter2d(img, k, border=border, method=m)
                bad = np.count_nonzero(out != ref)
                assert bad == 0, f"{w}x{h}x{cn} kernel {kw}x{kh} {border} {m}: {bad} differ"
            cases += 1
    assert cases > 100


def test_u8_large_kernels_within_one_of_cv2_filter2d_and_exact():
    """Kernels of 130 taps and more, where cv2.filter2D rounds the result of its DFT, whose
    bytes change with IPP on or off (bench/cv2_filter2d_large_u8.py): every method stays
    within 1 of cv2 and of the exact value (float64, rounded half to even), and differs from
    them on few pixels (a wrong rounding rule would differ on about half of them)."""
    rng = np.random.default_rng(130)
    pixels = 0
    differ = {"cv2": 0, "exact": 0}
    for case in range(12):
        kh, kw = (int(v) for v in rng.integers(10, 66, 2))
        if kh * kw < 130:
            kh = 13
        h, w = (int(v) for v in rng.integers(20, 90, 2))
        cn = 3 if case % 4 == 3 else 1
        img = rng.integers(0, 256, (h, w, cn) if cn > 1 else (h, w), dtype=np.uint8)
        k = (rng.standard_normal((kh, kw)) * 1.5 / math.sqrt(kh * kw) + 1.0 / (kh * kw)).astype(np.float32)
        border = list(CV)[case % len(CV)]
        ref = cv2.filter2D(img, -1, k, borderType=CV[border])
        exact = np.clip(np.rint(reference(img, k, border)), 0, 255).astype(np.uint8)
        for m in ("direct", "fft", "auto"):
            out = edgel.filter2d(img, k, border=border, method=m)
            for name, want in (("cv2", ref), ("exact", exact)):
                gap = np.abs(out.astype(np.int16) - want)
                assert gap.max() <= 1, f"{w}x{h} kernel {kw}x{kh} {border} {m} vs {name}: {gap.max()}"
                differ[name] += int(np.count_nonzero(gap))
            pixels += out.size
    for name, count in differ.items():
        assert count <= pixels * 0.002, f"{count} of {pixels} pixels differ from {name}"


def test_u8_fixed_point_identical_to_cv2_filter2d():
    """u8 kernels whose factors are multiples of 1/256 (binomial, box of 2^k taps, Canny's
    Gaussians) run in integers; cv2.filter2D's floats reach the same exact sums."""
    rng = np.random.default_rng(8)
    for case in range(40):
        kw, kh = (int(v) for v in rng.integers(1, 12, 2))
        qx = rng.integers(0, 256 // kw + 1, kw)
        qy = rng.integers(0, 256 // kh + 1, kh)
        if case % 4 == 0:  # normalised binomial factors, given as one 2-D kernel
            kw = min(kw, 9)
            qx = np.array([math.comb(kw - 1, i) for i in range(kw)]) * (256 // 2 ** (kw - 1))
            qy = np.array([256])
        kx, ky = (qx / 256).astype(np.float32), (qy / 256).astype(np.float32)
        h, w = (int(v) for v in rng.integers(1, 90, 2))
        cn = int(rng.choice([1, 3, 4]))
        img = rng.integers(0, 256, (h, w, cn) if cn > 1 else (h, w), dtype=np.uint8)
        k2 = np.outer(ky, kx)
        border, cb = list(CV.items())[case % len(CV)]
        ref = cv2.filter2D(img, -1, k2, borderType=cb)
        if case % 4 == 0:
            assert edgel.filter2d_method(img, k2, border=border) == "separable"
            out = edgel.filter2d(img, k2, border=border)
        else:
            out = edgel.sep_filter2d(img, kx, ky, border=border)
        assert np.array_equal(out, ref), f"{w}x{h}x{cn} kernel {kw}x{kh} {border}"


def test_u8_other_methods_round_their_float_results():
    rng = np.random.default_rng(5)
    img = rng.integers(0, 256, (64, 80), dtype=np.uint8)
    k = np.outer(rng.random(15), rng.random(15)).astype(np.float32)
    k /= k.sum()
    exact = np.clip(np.rint(reference(img, k, "reflect-101")), 0, 255)
    for m in ("direct", "separable", "fft"):
        out = edgel.filter2d(img, k, method=m).astype(np.float64)
        assert np.abs(out - exact).max() <= 1, m
        assert np.count_nonzero(out != exact) <= img.size // 100, m


def test_separable_api_and_auto():
    rng = np.random.default_rng(6)
    img = rng.standard_normal((70, 90)).astype(np.float32)
    kx, ky = rng.standard_normal(9).astype(np.float32), rng.standard_normal(5).astype(np.float32)
    ref = reference(img, np.outer(ky, kx), "wrap")
    for m in ("separable", "direct", "fft", "auto"):
        assert rel_error(edgel.sep_filter2d(img, kx, ky, border="wrap", method=m), ref) <= 1e-5
    box = np.ones((31, 31), np.float32) / 961
    assert edgel.filter2d_method(img, box) in ("separable", "fft")
    assert edgel.filter2d_method(img, rng.standard_normal((3, 3))) == "direct"
    u8 = rng.integers(0, 256, (50, 50), dtype=np.uint8)
    assert edgel.filter2d_method(u8, np.ones((11, 11)) / 121) == "direct"  # cv2-exact


def test_threads_give_the_same_bytes():
    rng = np.random.default_rng(7)
    img = rng.standard_normal((123, 77, 3)).astype(np.float32)
    k = rng.standard_normal((9, 11)).astype(np.float32)
    for m in ("direct", "fft"):
        outs = [edgel.filter2d(img, k, method=m, ctx=edgel.Context("cpu", threads=t))
                for t in (1, 2, 5)]
        assert all(np.array_equal(outs[0], o) for o in outs[1:]), m


def test_filter_errors():
    img = np.zeros((10, 10), np.float32)
    with pytest.raises(edgel.EdgelError, match="INVALID_SIZE.*kernel"):
        edgel.filter2d(img, np.ones((130, 1), np.float32))
    with pytest.raises(edgel.EdgelError, match="not finite"):
        edgel.filter2d(img, np.array([[1, np.nan]], np.float32))
    with pytest.raises(edgel.EdgelError, match="rank-1"):
        edgel.filter2d(img, np.eye(3, dtype=np.float32), method="separable")
    with pytest.raises(edgel.EdgelError, match="anchor"):
        edgel.filter2d(img, np.ones((3, 3), np.float32), anchor=(3, 0))
    with pytest.raises(edgel.EdgelError, match="output"):
        edgel.filter2d(img, np.ones((3, 3), np.float32), dtype=np.uint8)
    with pytest.raises(edgel.EdgelError, match="pixel type"):
        edgel.filter2d(np.zeros((4, 4), np.int16), np.ones((3, 3), np.float32))
    with pytest.raises(ValueError):
        edgel.filter2d(img, np.ones((3, 3)), border="mirror")
    with pytest.raises(edgel.EdgelError, match="overlaps"):
        edgel.filter2d(img, np.ones((3, 3), np.float32), out=img)
