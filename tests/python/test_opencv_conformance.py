"""The opencv preset against OpenCV itself: every case must be byte-identical.

cv2.Canny, cv2.GaussianBlur and cv2.cvtColor are the references; inputs are the 500 BSDS500
photographs, random crops of them from 1x1 to 512x512 (OpenCV's own test sizes), random
noise, and user gradients; thresholds include 0, negative, fractional, equal and swapped."""
import itertools

import cv2
import numpy as np
import pytest

import edgel

APERTURES = [3, 5, 7, -1]
THRESHOLDS = [(50, 150), (0, 0), (0, 50), (-10, 40), (100, 120), (120, 100), (77.5, 77.5),
              (10.25, 300.75), (0.5, 1.5), (400, 1000), (30, 31), (1e6, 2e6), (-5, -1)]


def cv_canny(img, low, high, aperture, l2):
    return cv2.Canny(img, low, high, apertureSize=aperture, L2gradient=bool(l2))


def assert_same(ours, ref, what):
    diff = np.count_nonzero(ours != ref)
    assert diff == 0, f"{what}: {diff} pixels differ (reference has {np.count_nonzero(ref)} edges)"


def cases():
    """All valid (aperture, l2) pairs: Scharr only with L2, as in OpenCV."""
    return [(a, l2) for a in APERTURES for l2 in (0, 1) if not (a == -1 and not l2)]


def test_every_photo(photo_files):
    combos = list(itertools.product(cases(), THRESHOLDS))
    for i, path in enumerate(photo_files):
        bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        assert_same(edgel.to_gray(bgr, "bgr"), gray, f"{path.name} gray")
        # The default everyone uses, on every image.
        assert_same(edgel.canny(gray, 50, 150), cv_canny(gray, 50, 150, 3, 0), path.name)
        # One more aperture/norm/threshold combination per image, cycling through all.
        (a, l2), (lo, hi) = combos[i % len(combos)]
        assert_same(edgel.canny(gray, lo, hi, a, l2), cv_canny(gray, lo, hi, a, l2),
                    f"{path.name} aperture {a} l2 {l2} {lo}/{hi}")
        # OpenCV's multi-channel Canny on the colour image.
        (a, l2), (lo, hi) = combos[(i * 7 + 3) % len(combos)]
        assert_same(edgel.canny(bgr, lo, hi, a, l2), cv_canny(bgr, lo, hi, a, l2),
                    f"{path.name} colour aperture {a} l2 {l2} {lo}/{hi}")
        # Pre-smoothing as the papers do: Gaussian by sigma, then Canny.
        sigma = [0.8, 1.0, 1.4, 2.0, 3.0][i % 5]
        blurred = cv2.GaussianBlur(gray, (0, 0), sigma)
        stages = {"smoothed": None}
        ours = edgel.canny(gray, 40, 120, blur=sigma, stages=stages)
        assert_same(stages["smoothed"], blurred, f"{path.name} blur {sigma}")
        assert_same(ours, cv_canny(blurred, 40, 120, 3, 0), f"{path.name} blurred canny")


def random_size(rng):
    """OpenCV's ArrayTest sizes: round(2 ** U(0, 9)) per side, 1..512."""
    return [int(round(2 ** rng.uniform(0, 9))) for _ in range(2)]


def random_crop(rng, images, h, w):
    img = images[rng.integers(len(images))]
    if img.shape[0] < h or img.shape[1] < w:
        return cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR_EXACT)
    y, x = rng.integers(img.shape[0] - h + 1), rng.integers(img.shape[1] - w + 1)
    return img[y:y + h, x:x + w]


@pytest.fixture(scope="module")
def photos(photo_files):
    step = max(1, len(photo_files) // 20)  # about 20 photographs
    return [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in photo_files[::step]]


@pytest.mark.parametrize("seed", range(8))
def test_random_crops_every_option(photos, seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        h, w = random_size(rng)
        img = random_crop(rng, photos, h, w)
        cn = int(rng.choice([1, 3, 4]))
        if cn == 1:
            img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        elif cn == 4:
            img = np.dstack([img, rng.integers(0, 256, img.shape[:2], dtype=np.uint8)])
        if rng.random() < 0.5:  # OpenCV's test blurs its crops first
            img = cv2.GaussianBlur(img, (5, 5), 0)
        a, l2 = cases()[rng.integers(len(cases()))]
        lo, hi = (THRESHOLDS[rng.integers(len(THRESHOLDS))] if rng.random() < 0.5 else
                  (rng.uniform(0, 300), rng.uniform(0, 1000)))
        img = np.ascontiguousarray(img)
        assert_same(edgel.canny(img, lo, hi, a, l2), cv_canny(img, lo, hi, a, l2),
                    f"{w}x{h}x{cn} aperture {a} l2 {l2} {lo}/{hi}")


@pytest.mark.parametrize("seed", range(3))
def test_noise_images(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(40):
        h, w = random_size(rng)
        cn = int(rng.choice([1, 3, 4]))
        img = rng.integers(0, 256, (h, w, cn) if cn > 1 else (h, w), dtype=np.uint8)
        a, l2 = cases()[rng.integers(len(cases()))]
        lo, hi = THRESHOLDS[rng.integers(len(THRESHOLDS))]
        assert_same(edgel.canny(img, lo, hi, a, l2), cv_canny(img, lo, hi, a, l2),
                    f"noise {w}x{h}x{cn} aperture {a} l2 {l2} {lo}/{hi}")


def test_extreme_contrast_every_aperture():
    """Checkerboards and single dots reach the largest Sobel values of each aperture."""
    board = (np.indices((64, 64)).sum(0) % 2 * 255).astype(np.uint8)
    dots = np.zeros((33, 35), np.uint8)
    dots[::4, ::3] = 255
    for img in (board, dots, 255 - dots):
        for (a, l2), (lo, hi) in itertools.product(cases(), THRESHOLDS):
            assert_same(edgel.canny(img, lo, hi, a, l2), cv_canny(img, lo, hi, a, l2),
                        f"pattern aperture {a} l2 {l2} {lo}/{hi}")


@pytest.mark.parametrize("seed", range(3))
def test_user_gradients(photos, seed):
    """cv2.Canny(dx, dy, ...): Sobel gradients and full-range random int16 ones."""
    rng = np.random.default_rng(200 + seed)
    for k in range(30):
        h, w = random_size(rng)
        cn = int(rng.choice([1, 3]))
        if k % 2:
            shape = (h, w, cn) if cn > 1 else (h, w)
            limit = int(rng.choice([300, 5000, 32768]))
            dx = rng.integers(-limit, limit, shape, dtype=np.int16)
            dy = rng.integers(-limit, limit, shape, dtype=np.int16)
        else:
            img = random_crop(rng, photos, h, w)
            if cn == 1:
                img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
            img = np.ascontiguousarray(img)
            dx = cv2.Sobel(img, cv2.CV_16S, 1, 0, ksize=3, borderType=cv2.BORDER_REPLICATE)
            dy = cv2.Sobel(img, cv2.CV_16S, 0, 1, ksize=3, borderType=cv2.BORDER_REPLICATE)
        lo, hi = THRESHOLDS[rng.integers(len(THRESHOLDS))]
        l2 = bool(rng.integers(2))
        ref = cv2.Canny(dx, dy, lo, hi, L2gradient=l2)
        assert_same(edgel.canny_gradients(dx, dy, lo, hi, l2), ref,
                    f"gradients {w}x{h}x{cn} l2 {l2} {lo}/{hi}")


def test_stages_match_opencv(photos):
    gray = cv2.cvtColor(photos[0], cv2.COLOR_BGR2GRAY)
    for a in (3, 5, 7):
        stages = {"dx": None, "dy": None, "magnitude": None}
        edgel.canny(gray, 50, 150, a, stages=stages)
        scale = 1 / 16 if a == 7 else 1
        dx = cv2.Sobel(gray, cv2.CV_16S, 1, 0, ksize=a, scale=scale, borderType=cv2.BORDER_REPLICATE)
        dy = cv2.Sobel(gray, cv2.CV_16S, 0, 1, ksize=a, scale=scale, borderType=cv2.BORDER_REPLICATE)
        assert_same(stages["dx"], dx, f"dx aperture {a}")
        assert_same(stages["dy"], dy, f"dy aperture {a}")
        assert_same(stages["magnitude"], np.abs(dx.astype(np.int32)) + np.abs(dy), "magnitude")


@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_thread_counts(photos, threads):
    ctx = edgel.Context("cpu", threads=threads)
    for img in photos[:6]:
        big = np.ascontiguousarray(np.tile(img, (3, 2, 1)))
        for a, l2 in cases():
            assert_same(edgel.canny(big, 30, 90, a, l2, ctx=ctx), cv_canny(big, 30, 90, a, l2),
                        f"{threads} threads aperture {a} l2 {l2}")


def test_gaussian_blur_sizes_and_sigmas(photos):
    rng = np.random.default_rng(7)
    shapes = [(1, 1), (1, 9), (9, 1), (2, 2), (3, 5), (7, 4), (31, 17), (64, 65), (200, 131)]
    for (h, w), cn in itertools.product(shapes, (1, 3, 4)):
        img = rng.integers(0, 256, (h, w, cn) if cn > 1 else (h, w), dtype=np.uint8)
        for k, sigma in [(3, 0), (5, 0), (7, 0), (9, 0), (11, 0), (3, 0.5), (5, 1.1), (0, 0.3),
                         (0, 1.4), (0, 2.5), (0, 5.0), (15, 2.0), (31, 0), (1, 0)]:
            ref = cv2.GaussianBlur(img, (k, k), sigma)
            assert_same(edgel.gaussian_blur(img, k, sigma), ref, f"{w}x{h}x{cn} k{k} s{sigma}")
    for img in photos:
        for sigma in np.linspace(0.3, 8, 23):
            assert_same(edgel.gaussian_blur(img, 0, sigma), cv2.GaussianBlur(img, (0, 0), sigma),
                        f"photo sigma {sigma}")


def test_gray_every_colour():
    """All 2^24 colours, both channel orders, with and without alpha."""
    v = np.arange(1 << 24, dtype=np.uint32)
    img = np.stack([(v >> 16) & 255, (v >> 8) & 255, v & 255], -1).astype(np.uint8)
    img = img.reshape(4096, 4096, 3)
    assert_same(edgel.to_gray(img, "bgr"), cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), "BGR")
    assert_same(edgel.to_gray(img, "rgb"), cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), "RGB")


def test_gray_conversions(photos):
    rng = np.random.default_rng(3)
    for img in photos:
        rgba = np.dstack([img, rng.integers(0, 256, img.shape[:2], dtype=np.uint8)])
        assert_same(edgel.to_gray(img, "bgr"), cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), "BGR")
        assert_same(edgel.to_gray(img, "rgb"), cv2.cvtColor(img, cv2.COLOR_RGB2GRAY), "RGB")
        assert_same(edgel.to_gray(rgba, "bgr"), cv2.cvtColor(rgba, cv2.COLOR_BGRA2GRAY), "BGRA")
        assert_same(edgel.to_gray(rgba, "rgb"), cv2.cvtColor(rgba, cv2.COLOR_RGBA2GRAY), "RGBA")
        # The whole pipeline: colour -> gray -> Gaussian -> Canny in one call.
        ref = cv2.Canny(cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (0, 0), 1.4), 40, 100)
        assert_same(edgel.canny(img, 40, 100, gray="bgr", blur=1.4), ref, "pipeline")


def test_blur_inside_the_sweep(photos):
    """Without the smoothed stage asked for, the Gaussian runs inside the Canny sweep (each
    stripe blurs the rows it reads): cv2.GaussianBlur then cv2.Canny, for every aperture,
    1 and 3 channels, kernel sizes and sigmas, thread counts that cut stripes anywhere, and
    frames from 1x1 up (the stage asked for takes the separate pass: both must agree)."""
    rng = np.random.default_rng(11)
    contexts = {t: edgel.Context("cpu", threads=t) for t in (1, 2, 3, 7)}
    for i in range(60):
        img = photos[i % len(photos)]
        h, w = int(rng.integers(1, 90)), int(rng.integers(1, 90))
        y, x = int(rng.integers(0, img.shape[0] - h)), int(rng.integers(0, img.shape[1] - w))
        crop = np.ascontiguousarray(img[y:y + h, x:x + w])
        if i % 2:
            crop = np.ascontiguousarray(crop[:, :, 0])
        (a, l2), (lo, hi) = cases()[i % len(cases())], THRESHOLDS[i % 5]
        k, sigma = [(0, 1.4), (3, 0.0), (5, 1.1), (0, 2.5), (9, 0.0)][i % 5]
        blurred = cv2.GaussianBlur(crop, (k, k), sigma)
        ref = cv_canny(blurred, lo, hi, a, l2)
        what = f"{w}x{h}x{crop.ndim} aperture {a} l2 {l2} k{k} sigma {sigma}"
        for t, ctx in contexts.items():
            assert_same(edgel.canny(crop, lo, hi, a, l2, blur=sigma, blur_size=k, ctx=ctx), ref,
                        f"{what} threads {t}")
        stages = {"smoothed": None}
        assert_same(edgel.canny(crop, lo, hi, a, l2, blur=sigma, blur_size=k, stages=stages),
                    ref, f"{what} (separate pass)")
        assert_same(stages["smoothed"], blurred, f"{what} smoothed")


def test_strided_views_equal_packed(photos):
    img = photos[1]
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    window = gray[13:211, 7:300]          # a view with a pitch wider than its rows
    ref = cv_canny(np.ascontiguousarray(window), 50, 150, 3, 0)
    assert not window.flags.c_contiguous
    assert_same(edgel.canny(window, 50, 150), ref, "pitched view")
    assert_same(edgel.canny(gray[::2, ::3], 50, 150),
                cv_canny(np.ascontiguousarray(gray[::2, ::3]), 50, 150, 3, 0), "strided copy")


@pytest.mark.parametrize("seed", range(4))
def test_auto_thresholds_equal_the_rules(seed, photo_files):
    """auto="otsu" and "median": the thresholds the rules give with cv2 and NumPy on the image
    after the gray conversion and blur, and cv2.Canny's edges with them."""
    rng = np.random.default_rng(seed)
    files = photo_files[seed::4][:6]
    for path in files:
        bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
        y0, x0 = (int(v) for v in rng.integers(0, 40, 2))
        img = np.ascontiguousarray(bgr[y0:y0 + int(rng.integers(1, 300)),
                                       x0:x0 + int(rng.integers(1, 400))])
        sigma = [None, 1.4, 2.0][int(rng.integers(3))]
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        seen = cv2.GaussianBlur(gray, (0, 0), sigma) if sigma else gray
        otsu = cv2.threshold(seen, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0]
        v = np.median(seen)
        rules = {"otsu": (otsu / 2, otsu),
                 "median": (int(max(0, (1.0 - 0.33) * v)), int(min(255, (1.0 + 0.33) * v)))}
        for rule, (low, high) in rules.items():
            assert edgel.auto_thresholds(img, rule, blur=sigma, gray="bgr") == (low, high)
            got = edgel.canny(img, auto=rule, blur=sigma, gray="bgr")
            assert np.array_equal(got, cv2.Canny(seen, low, high)), (path, rule, sigma)


def test_auto_thresholds_refuse_what_they_cannot_take():
    img = np.zeros((20, 20, 3), np.uint8)
    with pytest.raises(edgel.EdgelError, match="gray conversion"):
        edgel.auto_thresholds(img, "otsu")
    with pytest.raises(ValueError, match="rule is one of"):
        edgel.auto_thresholds(img, "mean", gray="rgb")
    flat = np.full((9, 9), 77, np.uint8)  # one value: Otsu finds no split, as cv2
    assert edgel.auto_thresholds(flat, "otsu") == (
        cv2.threshold(flat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0] / 2,
        cv2.threshold(flat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0])


@pytest.mark.parametrize("l2,aperture", [(False, 3), (True, 3), (False, 5), (True, 7), (False, 7)])
def test_quantile_thresholds_equal_numpy_percentile(l2, aperture, photo_files):
    """auto="quantiles": numpy.percentile of the magnitude cv2.Canny compares (from
    cv2.Sobel), and cv2.Canny's edges with those thresholds."""
    rng = np.random.default_rng(aperture + l2)
    for path in photo_files[:5]:
        gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
        gray = np.ascontiguousarray(gray[:int(rng.integers(2, 260)), :int(rng.integers(2, 300))])
        seen = cv2.GaussianBlur(gray, (0, 0), 1.2)
        # OpenCV's Canny: 16-bit Sobel; for aperture 7 scaled by 1/16, and thresholds / 16
        scale = 1 / 16 if aperture == 7 else 1
        dx, dy = (cv2.Sobel(seen, cv2.CV_16S, 1 - i, i, ksize=aperture, scale=scale,
                            borderType=cv2.BORDER_REPLICATE).astype(np.int64) for i in (0, 1))
        mag = np.sqrt((dx ** 2 + dy ** 2).astype(np.float64)) \
            if l2 else np.abs(dx) + np.abs(dy)
        q = (float(rng.uniform(0, 0.6)), float(rng.uniform(0.6, 1)))
        unit = 16 if aperture == 7 else 1
        want = tuple(unit * float(v) for v in np.percentile(mag, [100.0 * q[0], 100.0 * q[1]]))
        got = edgel.auto_thresholds(gray, "quantiles", blur=1.2, aperture=aperture, l2=l2,
                                    quantiles=q)
        assert got == want, (path, q, got, want)
        edges = edgel.canny(gray, q[0], q[1], auto="quantiles", blur=1.2, aperture=aperture,
                            l2=l2)
        assert np.array_equal(edges, cv2.Canny(seen, want[0], want[1], apertureSize=aperture,
                                               L2gradient=l2)), (path, q)
