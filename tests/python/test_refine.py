"""The curves' refinement (edgel.refine_curves, edgel contours --refine): closer to the true
edge than the exact detector's points on a blurred, noisy disk and along a noisy line; the same
points at every thread count; curves' layout kept; refusals; the command writes the refined
points, whole and in bands, and refuses bad options leaving nothing."""
import subprocess

import numpy as np
import pytest

import edgel
import subpixel_cases as cases


def render(size, inside, rng, snr_db):
    """An anti-aliased image (8 x 8 samples a pixel) of `inside`, dark 80, bright 180, blurred
    with a Gaussian of sigma 1, plus Gaussian noise at `snr_db` (contrast / noise)."""
    import cv2
    offs = (np.arange(8) + 0.5) / 8 - 0.5
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float64)
    cover = sum(inside(xx + dx, yy + dy) for dy in offs for dx in offs) / 64.0
    img = cv2.GaussianBlur(80.0 + 100.0 * cover, (0, 0), 1.0, borderType=cv2.BORDER_REPLICATE)
    return img + rng.normal(0, 100.0 / 10 ** (snr_db / 20), img.shape)


def rms(points, distance):
    d = distance(points[:, 0], points[:, 1])
    return float(np.sqrt(np.mean(d[np.abs(d) < 1.5] ** 2)))


@pytest.mark.parametrize("shape", ["disk", "line"])
def test_closer_to_the_true_edge(shape):
    rng = np.random.default_rng(5)
    before, after = [], []
    for _ in range(6):
        cx, cy = 23.5 + rng.uniform(-0.5, 0.5, 2)
        if shape == "disk":  # radius 8: the detector's points lie 0.16 pixels inside
            dist = lambda x, y: np.hypot(x - cx, y - cy) - 8.0  # noqa: E731
        else:
            t = rng.uniform(0, np.pi)
            dist = lambda x, y: (x - cx) * np.cos(t) + (y - cy) * np.sin(t)  # noqa: E731
        img = render(48, lambda x, y: dist(x, y) < 0, rng, 25)
        curves = edgel.subpixel_edges(img, 1.0, 15.0, 5.0)
        inner = np.all((curves.points > 4) & (curves.points < 43), axis=1)  # away from sides
        fine = edgel.refine_curves(curves, 1.0, blur=1.0)
        before.append(rms(curves.points[inner], dist))
        after.append(rms(fine.points[inner], dist))
    assert np.mean(after) < np.mean(before) / 2, (before, after)


def test_same_points_at_every_thread_count_and_layout_kept():
    curves = edgel.subpixel_edges(cases.samples()["camera"], 1.0, 15.0, 5.0)
    assert len(curves.points) > 3 * 4096  # several threads' chunks
    want = edgel.refine_curves(curves, 1.0, ctx=edgel.Context("cpu", threads=1))
    for threads in (2, 5):
        got = edgel.refine_curves(curves, 1.0, ctx=edgel.Context("cpu", threads=threads))
        assert np.array_equal(got.points, want.points), threads
    assert want.limits is curves.limits and want.closed is curves.closed
    assert want.gradient is curves.gradient and want.modulus is curves.modulus
    moved = np.hypot(*(want.points - curves.points).T)
    assert 0 < np.median(moved) < 0.25 and moved.max() < 1.0
    ends = want.limits[1:][want.closed] - 1  # a loop's last point repeats its first
    assert np.array_equal(want.points[ends], want.points[want.limits[:-1][want.closed]])


def test_refusals():
    curves = edgel.subpixel_edges(cases.samples()["camera"][:128, :128], 1.0, 15.0, 5.0)
    assert len(curves) > 0
    for kwargs, words in [({"window": 1}, "window"), ({"blur": -1}, "blur"),
                          ({"tolerance": 0}, "tolerance")]:
        with pytest.raises(edgel.EdgelValueError, match=words):
            edgel.refine_curves(curves, 1.0, **kwargs)
    with pytest.raises(edgel.EdgelValueError, match="sigma"):
        edgel.refine_curves(curves, float("nan"))
    broken = edgel.Curves(curves.points[:-1], curves.limits, curves.closed, curves.gradient,
                          curves.modulus)
    with pytest.raises(edgel.EdgelError, match="limits"):
        edgel.refine_curves(broken, 1.0)
    with pytest.raises(ValueError, match="limits"):
        edgel.refine_curves(edgel.Curves(curves.points, curves.limits[:-1], curves.closed,
                                         curves.gradient, curves.modulus), 1.0)


def run(cmd, *args):
    return subprocess.run([cmd, *map(str, args)], capture_output=True, text=True)


def test_contours_refine_writes_the_refined_points(edgel_cmd, tmp_path):
    import cv2
    src = cases.ROOT / "samples" / "camera.png"
    gray = cv2.imread(str(src), cv2.IMREAD_GRAYSCALE)
    want = edgel.refine_curves(edgel.subpixel_edges(gray, 1.0, 15.0, 5.0), 1.0, blur=0.5,
                               window=12)
    for extra in ([], ["--band-columns", "100"]):
        out = tmp_path / "c.npz"
        r = run(edgel_cmd, "contours", src, "-o", out, "-s", 1, "-h", 15, "-l", 5, "--refine",
                "--blur", 0.5, "--refine-window", 12, *extra)
        assert r.returncode == 0, r.stderr
        z = np.load(out)
        assert np.array_equal(z["points"], want.points), extra
        assert np.array_equal(z["limits"], want.limits) and np.array_equal(z["modulus"],
                                                                            want.modulus)
        out.unlink()
    for args, words in [(["--refine-window", 1], "--refine-window"), (["--blur", -2], "--blur"),
                        (["--blur", "x"], "finite")]:
        r = run(edgel_cmd, "contours", src, "-o", tmp_path / "c.txt", *args)
        assert r.returncode == 2 and words in r.stderr, (args, r.stderr)
        assert list(tmp_path.iterdir()) == [], args
