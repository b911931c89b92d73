"""How well shapes fitted to sub-pixel edges recover the truth of synthetic scenes: the accuracy
of edgel.fit_circle, fit_ellipse and fit_line, with the peers' fits beside them, in one run.

    python3 bench/bench_fit_accuracy.py [--trials 10] [--seed 11]

Scenes (bench_subpixel_accuracy.py's rendering: each pixel the exact area fraction from
16 x 16 samples, dark 80, bright 180, blurred with a Gaussian of sigma 1): disks of radius 8,
13, 21 and 34 px; ellipses of half axes 30 and 24, 15 or 8 at random angles; straight edges
across a 128 x 128 image at random angles and offsets (about 100 px of edge between the 12 px
margins). Random sub-pixel centres. Noise none, 30 dB or 20 dB (standard deviation contrast /
10^(dB / 20)); then quantised to 8 bits, or to 16 bits (the image times 256).

Methods, each on its own points of the scene's edge (the longest curve or contour):
  edgel          edgel.subpixel_edges (sigma 1, high 15, low 5; x256 at 16 bits), then the
                 geometric fit (fit_circle, fit_ellipse, fit_line; Tukey's weights for lines
                 and plain fits otherwise);
  edgel refined  the same points through edgel.refine_curves (sigma 1, the image's blur 1,
                 window 20), then the same fits;
  opencv         cv2.GaussianBlur (sigma 1) and cv2.Canny (20 and 60) on u8 (the 16-bit image
                 scaled to u8 first), the longest
                 contour of cv2.findContours (CHAIN_APPROX_NONE), cv2.fitEllipse (a circle's
                 radius: the mean half axis) or cv2.fitLine (DIST_HUBER);
  scikit-image   skimage.measure.find_contours at the mid level, the longest contour,
                 CircleModel, EllipseModel or LineModelND.
Calipers: bars 5 and 12 px wide at random angles and offsets, edgel.measure_pairs across them
(half length 20, half width 5, sigma 1, threshold 10, x256 at 16 bits); the peers have none.
Errors against the truth, RMS over the trials: a circle's centre distance and radius; an
ellipse's half axes (both, pooled) and the angle of its major axis; a line's offset at the
image's centre and its angle; a caliper's first edge and its width. Prints a Markdown
table."""
import argparse
import datetime
import math
import pathlib
import subprocess
import sys

import numpy as np
from scipy import ndimage

ROOT = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
from bench_subpixel_accuracy import BRIGHT, DARK, edgel, render  # noqa: E402

NOISE = [None, 30, 20]
BITS = [8, 16]


def disk(radius, rng):
    size = int(2 * radius + 24)
    cx, cy = (size - 1) / 2 + rng.uniform(-0.5, 0.5, 2)
    img = render(size, lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 < radius ** 2)
    return img, {"cx": cx, "cy": cy, "r": radius}


def ellipse(b, rng, a=30.0):
    size = int(2 * a + 24)
    cx, cy = (size - 1) / 2 + rng.uniform(-0.5, 0.5, 2)
    t = rng.uniform(-math.pi / 2, math.pi / 2)
    c, s = math.cos(t), math.sin(t)

    def inside(x, y):
        u, v = c * (x - cx) + s * (y - cy), -s * (x - cx) + c * (y - cy)
        return (u / a) ** 2 + (v / b) ** 2 < 1
    return render(size, inside), {"cx": cx, "cy": cy, "a": a, "b": b, "angle": t}


def edge(rng, size=128):
    theta = rng.uniform(0, 2 * math.pi)
    nx, ny = math.cos(theta), math.sin(theta)
    c = (size - 1) / 2 + rng.uniform(-3, 3)
    img = render(size, lambda x, y: (x - c) * nx + (y - c) * ny > 0)
    # the line nx x + ny y = c (nx + ny), its offset from the image's centre and its angle
    return img, {"nx": nx, "ny": ny, "d": c * (nx + ny), "size": size}


def noisy(img, snr, bits, rng):
    img = ndimage.gaussian_filter(img, 1.0, mode="nearest")
    if snr is not None:
        img = img + rng.normal(0, (BRIGHT - DARK) / 10 ** (snr / 20), img.shape)
    if bits == 8:
        return np.clip(np.rint(img), 0, 255).astype(np.uint8)
    return np.clip(np.rint(img * 256), 0, 65535).astype(np.uint16)


def longest(curves):
    return max(curves, key=len) if curves else np.empty((0, 2))


def inside_margin(pts, size, margin=12):
    keep = np.all((pts > margin) & (pts < size - 1 - margin), axis=1)
    return pts[keep]


def edgel_points(img):
    k = 256.0 if img.dtype == np.uint16 else 1.0
    c = edgel.subpixel_edges(img, 1.0, 15.0 * k, 5.0 * k)
    return longest([c.points[a:b] for a, b in zip(c.limits[:-1], c.limits[1:])])


def refined_points(img):
    k = 256.0 if img.dtype == np.uint16 else 1.0
    c = edgel.refine_curves(edgel.subpixel_edges(img, 1.0, 15.0 * k, 5.0 * k), 1.0, blur=1.0,
                            window=20)
    return longest([c.points[a:b] for a, b in zip(c.limits[:-1], c.limits[1:])])


def opencv_points(img):
    import cv2
    u8 = img if img.dtype == np.uint8 else (img >> 8).astype(np.uint8)
    edges = cv2.Canny(cv2.GaussianBlur(u8, (0, 0), 1.0), 20, 60)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    return longest([c.reshape(-1, 2).astype(np.float64) for c in contours])


def skimage_points(img):
    from skimage import measure
    k = 256.0 if img.dtype == np.uint16 else 1.0
    contours = measure.find_contours(img.astype(np.float64), k * (DARK + BRIGHT) / 2)
    return longest([c[:, ::-1] for c in contours])


def fit(method, kind, pts):
    """(cx, cy, a, b, angle) for circles and ellipses, (nx, ny, d) for lines."""
    if len(pts) < 6:
        return None
    if method.startswith("edgel"):
        if kind == "line":
            f = edgel.fit_line(pts, weight="tukey")
            return f.nx, f.ny, f.distance
        if kind == "circle":
            f = edgel.fit_circle(pts)
            return f.cx, f.cy, f.radius, f.radius, 0.0
        f = edgel.fit_ellipse(pts)
        return f.cx, f.cy, f.a, f.b, f.angle
    if method == "opencv":
        import cv2
        p32 = pts.astype(np.float32)
        if kind == "line":
            vx, vy, x0, y0 = cv2.fitLine(p32, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            nx, ny = -vy, vx
            return nx, ny, nx * x0 + ny * y0
        (cx, cy), (w, h), ang = cv2.fitEllipse(p32)
        a, b = max(w, h) / 2, min(w, h) / 2
        angle = math.radians(ang) + (0 if w >= h else math.pi / 2)
        return cx, cy, a, b, angle
    from skimage import measure
    if kind == "line":
        m = measure.LineModelND.from_estimate(pts)
        ox, oy = m.origin
        dx, dy = m.direction
        return -dy, dx, -dy * ox + dx * oy
    if kind == "circle":
        m = measure.CircleModel.from_estimate(pts)
        return m.center[0], m.center[1], m.radius, m.radius, 0.0
    m = measure.EllipseModel.from_estimate(pts)
    (cx, cy), (a, b), t = m.center, m.axis_lengths, m.theta
    return cx, cy, max(a, b), min(a, b), t + (0 if a >= b else math.pi / 2)


def angle_error(a, b, period):
    d = (a - b + period / 2) % period - period / 2
    return math.degrees(d)


def errors(kind, truth, got):
    if kind == "line":
        nx, ny, d = got
        if nx * truth["nx"] + ny * truth["ny"] < 0:
            nx, ny, d = -nx, -ny, -d
        c = (truth["size"] - 1) / 2
        # offset of each line at the image's centre, along the true normal
        off = (d - nx * c - ny * c) - (truth["d"] - truth["nx"] * c - truth["ny"] * c)
        return off, angle_error(math.atan2(ny, nx), math.atan2(truth["ny"], truth["nx"]),
                                2 * math.pi)
    cx, cy, a, b, angle = got
    centre = math.hypot(cx - truth["cx"], cy - truth["cy"])
    if kind == "circle":
        return centre, (a + b) / 2 - truth["r"]
    axes = math.sqrt(((a - truth["a"]) ** 2 + (b - truth["b"]) ** 2) / 2)
    return axes, angle_error(angle, truth["angle"], math.pi)


SCENES = [("circle", r) for r in (8, 13, 21, 34)] + [("ellipse", b) for b in (24, 15, 8)] + \
    [("line", None)] + [("caliper", w) for w in (5.0, 12.0)]


def caliper_scene(width, rng, size=80):
    """A bright bar of `width` at a random angle and offset, and the measure rectangle across
    it (half length 20, half width 5)."""
    t = rng.uniform(-math.pi, math.pi)
    nx, ny = math.cos(t), math.sin(t)
    c = (size - 1) / 2
    o1 = rng.uniform(-3, 3) - width / 2

    def inside(x, y):
        d = (x - c) * nx + (y - c) * ny
        return (d > o1) & (d < o1 + width)
    return render(size, inside), {"t": t, "c": c, "o1": o1, "width": width}


def measure_caliper(width, snr, bits, trials, seed):
    rng = np.random.default_rng(seed)
    pos, widths = [], []
    for _ in range(trials):
        clean, truth = caliper_scene(width, rng)
        img = noisy(clean, snr, bits, rng)
        k = 256.0 if bits == 16 else 1.0
        pairs = edgel.measure_pairs(img, (truth["c"], truth["c"], truth["t"], 20, 5), 1.0,
                                    10.0 * k)
        if len(pairs) != 1:
            pos.append(math.inf), widths.append(math.inf)
            continue
        first, _, w = pairs[0]
        off = (first["x"] - truth["c"]) * math.cos(truth["t"]) + \
            (first["y"] - truth["c"]) * math.sin(truth["t"])
        pos.append(off - truth["o1"]), widths.append(w - truth["width"])
    return tuple(math.sqrt(np.mean(np.square(v))) for v in (pos, widths))
METHODS = {"edgel": edgel_points, "edgel refined": refined_points, "opencv": opencv_points,
           "scikit-image": skimage_points}


def measure_scene(kind, param, snr, bits, trials, seed):
    rng = np.random.default_rng(seed)
    sums = {m: [[], []] for m in METHODS}
    for _ in range(trials):
        clean, truth = disk(param, rng) if kind == "circle" else \
            ellipse(param, rng) if kind == "ellipse" else edge(rng)
        img = noisy(clean, snr, bits, rng)
        for name, points in METHODS.items():
            pts = points(img)
            if kind == "line":
                pts = inside_margin(pts, truth["size"])
            got = fit(name, kind, pts)
            if got is None:
                sums[name][0].append(math.inf), sums[name][1].append(math.inf)
                continue
            e1, e2 = errors(kind, truth, got)
            sums[name][0].append(e1), sums[name][1].append(e2)
    return {m: tuple(math.sqrt(np.mean(np.square(v))) for v in s) for m, s in sums.items()}


def label(kind, param):
    if kind == "caliper":
        return f"bar {param:g} px, caliper"
    return {"circle": f"disk r={param}", "ellipse": f"ellipse 30 x {param}",
            "line": "edge, 100 px"}[kind]


def metric(kind):
    return {"circle": "centre / radius (px)", "ellipse": "half axes (px) / angle (deg)",
            "line": "offset (px) / angle (deg)",
            "caliper": "edge position / width (px)"}[kind]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"bench_fit_accuracy: {args.trials} trials a row, seed {args.seed}, "
          f"{datetime.date.today()}, {commit}\n")
    print("| scene | noise | bits | error (RMS) | edgel | edgel, refined | OpenCV | scikit-image |")
    print("|---|---|---:|---|---:|---:|---:|---:|")
    for kind, param in SCENES:
        for snr in NOISE:
            for bits in BITS:
                if kind == "caliper":  # (the peers have no caliper)
                    e = measure_caliper(param, snr, bits, args.trials, args.seed)
                    cells = [f"{e[0]:.4f} / {e[1]:.4f}", "-", "-", "-"]
                else:
                    r = measure_scene(kind, param, snr, bits, args.trials, args.seed)
                    cells = [f"{r[m][0]:.4f} / {r[m][1]:.4f}" for m in METHODS]
                print(f"| {label(kind, param)} | {'none' if snr is None else f'{snr} dB'} | "
                      f"{bits} | {metric(kind)} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
