#!/usr/bin/env python3
"""How much flooding the GPU hysteresis does per 32x32 tile (the work of link_tiles in
src/cuda/cuda_hysteresis.cuh), counted on the CPU from edgel's suppressed stage: rounds of
the strong flood (one row step per round, runs filled at once), unreached components that
touch a tile side, and the rounds of their floods.

    EDGEL_LIBRARY=build/libedgel.so PYTHONPATH=python \\
        python3 bench/hysteresis_tile_stats.py data-local/bsds500 [WxH]

Frames: the first 16 BSDS500 training photographs (gray) tiled to WxH (default 1920x1080);
Canny 50/150, Sobel 3x3, L1."""
import glob
import sys

import numpy as np
from scipy import ndimage

import edgel

T = 32


def tiled_frame(root, w, h):
    import cv2
    photos = [cv2.cvtColor(cv2.imread(f), cv2.COLOR_BGR2GRAY)
              for f in sorted(glob.glob(f"{root}/train/*.jpg"))[:16]]
    frame = np.zeros((h, w), np.uint8)
    i = 0
    for y in range(0, h, 321):
        x = 0
        while x < w:
            p = photos[i % len(photos)]
            i += 1
            ph, pw = min(p.shape[0], h - y), min(p.shape[1], w - x)
            frame[y:y + ph, x:x + pw] = p[:ph, :pw]
            x += pw
    return frame


def fill_runs(f, c):
    """Whole runs of c (along rows) that hold a pixel of f."""
    out = np.zeros_like(f)
    for r in range(f.shape[0]):
        runs, _ = ndimage.label(c[r])
        hit = np.unique(runs[f[r] & c[r]])
        out[r] = np.isin(runs, hit[hit > 0])
    return out


def flood_rounds(seed, c):
    """The flood of warp_flood: returns (flooded pixels, rounds that grew it)."""
    f = fill_runs(seed & c, c)
    rounds = 0
    while True:
        v = np.zeros_like(f)
        v[1:] |= f[:-1]
        v[:-1] |= f[1:]
        grown = (v | np.roll(v, 1, 1) * (np.arange(v.shape[1]) > 0)
                 | np.roll(v, -1, 1) * (np.arange(v.shape[1]) < v.shape[1] - 1)) & c & ~f
        if not grown.any():
            return f, rounds
        rounds += 1
        f = fill_runs(f | grown, c)


def main():
    root = sys.argv[1]
    w, h = (int(v) for v in (sys.argv[2] if len(sys.argv) > 2 else "1920x1080").split("x"))
    stages = {"suppressed": None}
    edgel.canny(tiled_frame(root, w, h), 50, 150, stages=stages)
    cand, strong = stages["suppressed"] > 0, stages["suppressed"] == 255
    rows = []
    for ty in range(0, h, T):
        for tx in range(0, w, T):
            c, s = cand[ty:ty + T, tx:tx + T], strong[ty:ty + T, tx:tx + T]
            reach, strong_rounds = flood_rounds(s, c)
            side = np.zeros_like(c)
            side[0, :], side[-1, :] = ty > 0, ty + T < h
            side[:, 0] |= tx > 0
            side[:, -1] |= tx + T < w
            open_ = c & side & ~reach
            labels, _ = ndimage.label(c & ~reach, structure=np.ones((3, 3)))
            comps = [k for k in np.unique(labels[open_]) if k > 0]
            comp_rounds = 0
            for k in comps:
                y, x = np.argwhere((labels == k) & open_)[0]
                seed = np.zeros_like(c)
                seed[y, x] = True
                comp_rounds += flood_rounds(seed, c)[1]
            rows.append((strong_rounds, len(comps), comp_rounds))
    a = np.array(rows)
    total = a[:, 0] + a[:, 2]
    print(f"{w}x{h}: {len(a)} tiles, {cand.mean():.1%} of pixels candidates")
    print(f"strong flood rounds: mean {a[:, 0].mean():.1f}, max {a[:, 0].max()}")
    print(f"unreached side components per tile: mean {a[:, 1].mean():.1f}, max {a[:, 1].max()}")
    print(f"all flood rounds per tile: mean {total.mean():.1f}, max {total.max()}")


if __name__ == "__main__":
    main()
