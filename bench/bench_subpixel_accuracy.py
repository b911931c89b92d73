"""How far sub-pixel edge points lie from the true edge: a public protocol, and the numbers a
metrology user reads first.

    python3 bench/bench_subpixel_accuracy.py [--trials 20] [--figure docs/images/subpixel-accuracy.png]

Shapes: anti-aliased disks of radius 2 to 34 pixels and straight edges (radius infinite), at
random sub-pixel positions and angles; dark 80, bright 180 (each pixel the exact area
fraction, from 16 x 16 samples a pixel), blurred with a Gaussian of sigma 1 (scipy), then
Gaussian noise at 30 dB and 20 dB (standard deviation contrast / 10^(dB / 20)) or none.
Pixel centres are at integer coordinates. Each point's signed distance to the true edge
(outward, or along the edge's normal towards bright) gives the bias (mean) and the RMS;
points farther than 1.5 pixels from it count as outliers, apart.

Methods: edgel.subpixel_edges (sigma 1, high 15, low 5), which is the reference Canny/Devernay
program point for point (checked against it here where tests/reference/devernay_oracle is
built); the same points through edgel.refine_curves (sigma 1, the image's blur 1, window 20,
tolerance 0.25: apart from the exact detector); and the partial-area-effect detector of
Trujillo-Pino et al. (PyPI subpixel-edges, threshold 15, one smoothing iteration; its own
convention of pixel centres at integers).
Prints a Markdown table; writes a figure of RMS against radius where matplotlib is present."""
import argparse
import datetime
import math
import os
import pathlib
import sys

import numpy as np
from scipy import ndimage

ROOT = pathlib.Path(__file__).resolve().parents[1]
if "EDGEL_LIBRARY" not in os.environ and (ROOT / "build" / "libedgel.so").exists():
    os.environ["EDGEL_LIBRARY"] = str(ROOT / "build" / "libedgel.so")
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tests" / "python"))

import edgel  # noqa: E402
from scenes import BRIGHT, DARK, render  # noqa: E402,F401  (tests/python/scenes.py)

RADII = [2, 3, 5, 8, 13, 21, 34, math.inf]
NOISE = [None, 30, 20]


def shape(radius, rng):
    """(image, signed distance function of (x, y)) for one random trial."""
    if math.isinf(radius):
        size = 48
        theta = rng.uniform(0, 2 * math.pi)
        nx, ny = math.cos(theta), math.sin(theta)
        c = size / 2 - 0.5 + rng.uniform(-0.5, 0.5)
        dist = lambda x, y: (x - c) * nx + (y - c) * ny  # noqa: E731
        return render(size, lambda x, y: dist(x, y) > 0), dist, size
    size = int(2 * radius + 24)
    cx, cy = (size - 1) / 2 + rng.uniform(-0.5, 0.5, 2)
    dist = lambda x, y: radius - np.hypot(x - cx, y - cy)  # noqa: E731  (towards bright)
    return render(size, lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 < radius ** 2), dist, size


def edgel_points(img):
    c = edgel.subpixel_edges(img, 1.0, 15.0, 5.0)
    return c.points[:, 0], c.points[:, 1], c


def refined_points(img):
    c = edgel.refine_curves(edgel.subpixel_edges(img, 1.0, 15.0, 5.0), 1.0, blur=1.0,
                            window=20)
    return c.points[:, 0], c.points[:, 1], None


def pae_points(img):
    np.int = int  # (the package predates NumPy 2, which dropped this alias)
    from subpixel_edges import subpixel_edges
    e = subpixel_edges(img, 15, 1, 2)
    return np.asarray(e.x, float), np.asarray(e.y, float), None


def measure(method, trials, seed, oracle):
    rows = {}
    for radius in RADII:
        for snr in NOISE:
            rng = np.random.default_rng(seed)
            d_all, outliers, checked = [], 0, 0
            for _ in range(trials):
                clean, dist, size = shape(radius, rng)
                img = ndimage.gaussian_filter(clean, 1.0, mode="nearest")
                if snr is not None:
                    img = img + rng.normal(0, (BRIGHT - DARK) / 10 ** (snr / 20), img.shape)
                x, y, curves = method(img)
                if oracle and curves is not None:
                    import subpixel_cases as cases
                    assert cases.canonical(curves) == cases.run_oracle(oracle, img, 1.0, 15.0,
                                                                       5.0)
                    checked += 1
                keep = (x > 3) & (x < size - 4) & (y > 3) & (y < size - 4)  # away from borders
                d = -dist(x[keep], y[keep])  # outward (towards dark) positive
                outliers += int(np.sum(np.abs(d) > 1.5))
                d_all.append(d[np.abs(d) <= 1.5])
            d = np.concatenate(d_all) if d_all else np.empty(0)
            rows[(radius, snr)] = (float(np.sqrt(np.mean(d ** 2))) if d.size else math.nan,
                                   float(np.mean(d)) if d.size else math.nan, d.size, outliers,
                                   checked)
    return rows


def figure(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"(matplotlib is not installed: no figure at {path})")
        return
    fig, axes = plt.subplots(1, len(NOISE), figsize=(12, 3.6), sharey=True)
    xs = [r if not math.isinf(r) else 60 for r in RADII]
    for ax, snr in zip(axes, NOISE):
        for name, rows in results.items():
            ax.plot(xs, [rows[(r, snr)][0] for r in RADII], "o-", label=name)
        ax.set_xscale("log")
        ax.minorticks_off()
        ax.set_xticks(xs)
        ax.set_xticklabels([str(r) if not math.isinf(r) else "line" for r in RADII])
        ax.set_title("no noise" if snr is None else f"{snr} dB")
        ax.set_xlabel("radius of curvature (pixels)")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("RMS distance to the true edge (pixels)")
    axes[0].legend()
    fig.tight_layout()
    pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    print(f"(figure: {path})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--oracle", default=str(ROOT / "build" / "tests" / "devernay_oracle"))
    ap.add_argument("--figure", default=None)
    a = ap.parse_args()
    oracle = a.oracle if pathlib.Path(a.oracle).exists() else None
    results = {"edgel = Canny/Devernay reference": measure(edgel_points, a.trials, a.seed, oracle),
               "edgel refined (refine_curves)": measure(refined_points, a.trials, a.seed, None)}
    try:
        results["partial area effect (subpixel-edges)"] = measure(pae_points, a.trials, a.seed,
                                                                   None)
    except ImportError:
        print("(subpixel-edges is not installed: pip install subpixel-edges)")
    print(f"## sub-pixel accuracy, {datetime.date.today()}: {a.trials} trials a row, seed "
          f"{a.seed}; blur sigma 1, contrast 100\n")
    names = list(results)
    print("| radius | noise | " + " | ".join(f"{n}: RMS, bias (px), points, outliers"
                                             for n in names) + " |")
    print("|---|---|" + "---|" * len(names))
    for radius in RADII:
        for snr in NOISE:
            cells = []
            for n in names:
                rms, bias, pts, out, _ = results[n][(radius, snr)]
                cells.append(f"{rms:.4f}, {bias:+.4f}, {pts}, {out}")
            print(f"| {'line' if math.isinf(radius) else radius} | "
                  f"{'none' if snr is None else f'{snr} dB'} | " + " | ".join(cells) + " |")
    ref, fine = results[names[0]], results[names[1]]
    noisy = [(r, n) for r in RADII for n in NOISE if n is not None]
    ratios = {key: fine[key][0] / ref[key][0] for key in noisy}
    worst = max(ratios, key=ratios.get)
    print(f"\nrefined RMS / the reference's on the {len(noisy)} noisy rows: at most "
          f"{ratios[worst]:.2f} (radius {worst[0]}, {worst[1]} dB); "
          f"{sum(v <= 0.5 for v in ratios.values())} rows at most 0.5")
    checked = sum(v[4] for v in results[names[0]].values())
    print(f"\nedgel's points equal the reference program's in {checked} of "
          f"{len(RADII) * len(NOISE) * a.trials} images" if oracle else
          "\n(the reference program is not built here: no check)")
    if a.figure:
        figure(results, a.figure)


if __name__ == "__main__":
    main()
