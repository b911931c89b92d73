#!/usr/bin/env python3
"""How much flooding the GPU hysteresis does per 32x32 tile (the work of link_tiles in
src/cuda/cuda_hysteresis.cuh), counted on the CPU from edgel's suppressed stage: rounds of
the strong flood (one row step per round, runs filled at once), unreached components that
touch a tile side, and the rounds of their floods. Also how many of those components touch
a candidate across the side (the only side pixels another tile's join can reach), and how
many floods remain when the last component of a tile needs none (its side pixels are then
the only ones left, all connected along the sides).

    EDGEL_LIBRARY=build/libedgel.so PYTHONPATH=python \\
        python3 bench/gpu-lab/hysteresis_tile_stats.py data-local/bsds500 [WxH]

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


def component_floods(pixels, labels, c):
    """The components (labels) holding a pixel of `pixels`, and the rounds of flooding each
    from its first such pixel."""
    comps = [k for k in np.unique(labels[pixels]) if k > 0]
    rounds = 0
    for k in comps:
        y, x = np.argwhere((labels == k) & pixels)[0]
        seed = np.zeros_like(c)
        seed[y, x] = True
        rounds += flood_rounds(seed, c)[1]
    return comps, rounds


def floods_skipping_last(t, labels, side, top, bottom):
    """Floods of link_tiles' seed loop over the touching unreached side pixels t when a flood
    is skipped once a single run start is left. Starts: a row side's pixels after a gap, a
    column's after a gap above; taken lowest row first, then lowest column."""
    starts = []
    for y in range(t.shape[0]):
        row_side = (y == 0 and top) or (y == t.shape[0] - 1 and bottom)
        for x in range(t.shape[1]):
            if not t[y, x]:
                continue
            if row_side:
                if x == 0 or not t[y, x - 1]:
                    starts.append((y, x))
            elif side[y, x] and (y == 0 or not t[y - 1, x]):
                starts.append((y, x))
    floods = 0
    while len(starts) > 1:
        k = labels[starts[0]]
        starts = [p for p in starts if labels[p] != k]
        floods += 1
    return floods


def main():
    root = sys.argv[1]
    w, h = (int(v) for v in (sys.argv[2] if len(sys.argv) > 2 else "1920x1080").split("x"))
    stages = {"suppressed": None}
    edgel.canny(tiled_frame(root, w, h), 50, 150, stages=stages)
    cand, strong = stages["suppressed"] > 0, stages["suppressed"] == 255
    # Pixels with a candidate 8-neighbour in another tile.
    tile_id = (np.arange(h)[:, None] // T) * ((w + T - 1) // T) + np.arange(w)[None, :] // T
    touching = np.zeros_like(cand)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy == 0 and dx == 0:
                continue
            ys, xs = slice(max(dy, 0), h + min(dy, 0)), slice(max(dx, 0), w + min(dx, 0))
            yd, xd = slice(max(-dy, 0), h + min(-dy, 0)), slice(max(-dx, 0), w + min(-dx, 0))
            touching[yd, xd] |= cand[ys, xs] & (tile_id[ys, xs] != tile_id[yd, xd])
    touching &= cand
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
            comps, comp_rounds = component_floods(open_, labels, c)
            t = touching[ty:ty + T, tx:tx + T] & open_
            touched, t_rounds = component_floods(t, labels, c)
            tt = touching[ty:ty + T, tx:tx + T]
            # one warp a tile hooks the touching nodes of its bottom and right sides only
            bottom_right = int(tt[-1, :].sum()) * (ty + T < h) + int(tt[:, -1].sum()) * (tx + T < w)
            hooks = int((c & side).sum()), int((tt & side).sum()), bottom_right
            rows.append((strong_rounds, len(comps), comp_rounds, len(touched), t_rounds,
                         floods_skipping_last(t, labels, side, ty > 0, ty + T < h)) + hooks)
    a = np.array(rows)
    total = a[:, 0] + a[:, 2]
    print(f"{w}x{h}: {len(a)} tiles, {cand.mean():.1%} of pixels candidates")
    print(f"strong flood rounds: mean {a[:, 0].mean():.1f}, max {a[:, 0].max()}")
    print(f"unreached side components per tile: mean {a[:, 1].mean():.1f}, max {a[:, 1].max()}")
    print(f"all flood rounds per tile: mean {total.mean():.1f}, max {total.max()}")
    print(f"of those components, touching a candidate across a side: mean {a[:, 3].mean():.1f}, "
          f"their rounds {a[:, 4].mean():.1f}; floods when a lone start needs none {a[:, 5].mean():.1f}")
    print(f"candidate side pixels per tile: {a[:, 6].mean():.1f}; touching across: {a[:, 7].mean():.1f}; "
          f"touching nodes of the bottom and right sides (hooked with one warp a tile): {a[:, 8].mean():.1f}")


if __name__ == "__main__":
    main()
