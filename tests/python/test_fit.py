"""edgel.fit_line / fit_circle / fit_ellipse against the peers' own fits of the same formulas
(scikit-image's Kasa circle centre and Halir-Flusser ellipse, a total-least-squares line by
SVD, SciPy's least squares on the orthogonal distances), and what a user sees."""
import math

import numpy as np
import pytest

import edgel

skimage_measure = pytest.importorskip("skimage.measure")


def arc(rng, cx, cy, a, b, angle, t0, t1, n, noise):
    t = np.linspace(t0, t1, n)
    u, v = a * np.cos(t), b * np.sin(t)
    x = cx + math.cos(angle) * u - math.sin(angle) * v
    y = cy + math.sin(angle) * u + math.cos(angle) * v
    return np.c_[x, y] + rng.normal(0, noise, (n, 2))


def test_kasa_centre_is_scikit_images():
    rng = np.random.default_rng(3)
    for _ in range(20):
        pts = arc(rng, *rng.uniform(-50, 50, 2), *(rng.uniform(3, 60),) * 2, 0,
                  0, rng.uniform(1, 6), int(rng.integers(5, 400)), 0.05)
        model = skimage_measure.CircleModel.from_estimate(pts)
        ours = edgel.fit_circle(pts, geometric=False, algebraic="kasa")
        assert ours.cx == pytest.approx(model.center[0], rel=1e-9, abs=1e-9)
        assert ours.cy == pytest.approx(model.center[1], rel=1e-9, abs=1e-9)


def test_geometric_circle_is_least_squares_of_the_distances():
    optimize = pytest.importorskip("scipy.optimize")
    rng = np.random.default_rng(4)
    for _ in range(10):
        pts = arc(rng, 10, -5, 20, 20, 0, 0.3, rng.uniform(0.8, 6.2), 200, 0.3)
        ours = edgel.fit_circle(pts)

        def residuals(c):
            return np.hypot(pts[:, 0] - c[0], pts[:, 1] - c[1]) - c[2]
        want = optimize.least_squares(residuals, [ours.cx + 0.5, ours.cy - 0.5, ours.radius + 1],
                                      xtol=1e-15, ftol=1e-15, gtol=1e-15).x
        assert [ours.cx, ours.cy, ours.radius] == pytest.approx(want, rel=1e-8, abs=1e-8)
        assert ours.rms == pytest.approx(np.sqrt(np.mean(residuals(want) ** 2)), rel=1e-8)
        assert 0 < ours.sd_radius < 0.1


def test_algebraic_ellipse_is_halir_flussers():
    rng = np.random.default_rng(5)
    for k in range(10):
        truth = (rng.uniform(-20, 20), rng.uniform(-20, 20), rng.uniform(10, 40),
                 rng.uniform(3, 9), rng.uniform(-1.5, 1.5))
        pts = arc(rng, *truth, 0, rng.uniform(2, 6.2), 300, 0.05)
        model = skimage_measure.EllipseModel.from_estimate(pts)
        ours = edgel.fit_ellipse(pts, geometric=False)
        a, b = sorted(model.axis_lengths, reverse=True)
        assert [ours.cx, ours.cy] == pytest.approx(list(model.center), rel=1e-8, abs=1e-8)
        assert [ours.a, ours.b] == pytest.approx([a, b], rel=1e-8)
        # the major axis's direction, as a direction (mod pi)
        theta = model.theta + (0 if model.axis_lengths[0] >= model.axis_lengths[1] else math.pi / 2)
        d = (ours.angle - theta + math.pi / 2) % math.pi - math.pi / 2
        assert abs(d) < 1e-7


def test_line_is_total_least_squares():
    rng = np.random.default_rng(6)
    pts = np.c_[np.arange(100.0), 3 + 0.25 * np.arange(100.0)] + rng.normal(0, 0.2, (100, 2))
    ours = edgel.fit_line(pts)
    centred = pts - pts.mean(axis=0)
    normal = np.linalg.svd(centred)[2][1]
    assert abs(abs(normal @ [ours.nx, ours.ny]) - 1) < 1e-12
    assert ours.distance == pytest.approx(abs(normal @ pts.mean(axis=0)), rel=1e-12)
    assert ours.angle == pytest.approx(math.atan(0.25), abs=0.01)


def test_robust_weights_and_kept_points():
    rng = np.random.default_rng(7)
    pts = arc(rng, 0, 0, 10, 10, 0, 0, 3, 200, 0.01)
    pts[::10] *= 1.4  # a tenth of the points far outwards
    plain = edgel.fit_circle(pts)
    tukey = edgel.fit_circle(pts, weight="tukey", iterations=10)
    assert abs(plain.radius - 10) > 0.2
    assert abs(tukey.radius - 10) < 0.01 and math.hypot(tukey.cx, tukey.cy) < 0.01
    assert not tukey.kept[::10].any() and tukey.kept.sum() > 150
    assert edgel.fit_line(np.c_[np.arange(10.0), np.zeros(10)], clip_ends=2).kept.tolist() == \
        [False] * 2 + [True] * 6 + [False] * 2


def test_x_and_y_apart_and_what_prints():
    t = np.linspace(0, 2, 50)
    c = edgel.fit_circle(5 + 2 * np.cos(t), 7 + 2 * np.sin(t))
    assert (c.cx, c.cy, c.radius) == pytest.approx((5, 7, 2), abs=1e-9)
    assert repr(c).startswith("CircleFit(centre (5.0000, 7.0000), radius 2.0000")
    assert "half axes" in repr(edgel.fit_ellipse(np.c_[3 * np.cos(t * 3), np.sin(t * 3)]))


def test_bad_points_and_options():
    line = np.c_[np.arange(10.0), 2 * np.arange(10.0)]
    with pytest.raises(edgel.EdgelError, match="collinear"):
        edgel.fit_circle(line)
    with pytest.raises(edgel.EdgelError, match="fewer than 5"):
        edgel.fit_ellipse(line[:4])
    bad = line.copy()
    bad[3, 1] = np.nan
    with pytest.raises(edgel.EdgelError, match="not finite"):
        edgel.fit_line(bad)
    with pytest.raises(ValueError, match="weight"):
        edgel.fit_line(line, weight="cauchy")
    with pytest.raises(ValueError, match="shape"):
        edgel.fit_line(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="x values"):
        edgel.fit_line(np.zeros(4), np.zeros(5))
