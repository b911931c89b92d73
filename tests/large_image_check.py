#!/usr/bin/env python3
"""An image of more than 2^30 pixels through `edgel detect` (the tiled, streaming path),
compared byte for byte with cv2.Canny on the same pixels, with edgel's peak memory.

    python3 tests/large_image_check.py build/edgel [--side 33000] [--tile 2048x2048]

Writes a gray PGM of side x side pixels (a photograph tiled and mirrored, with noise) into
a temporary folder, runs `edgel detect` on it with --memory 256M, then cv2.Canny on the
whole array, and prints sizes, times, edgel's peak resident memory and whether the edges are
identical. Exit status 1 when they differ or the peak is over --max-rss-mb.
"""
import argparse
import os
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def make_image(side: int) -> np.ndarray:
    photo = cv2.imread(str(ROOT / "samples" / "coffee.png"), cv2.IMREAD_GRAYSCALE)
    row = np.concatenate([photo, photo[:, ::-1]], axis=1)
    block = np.concatenate([row, row[::-1]], axis=0)
    reps = (side // block.shape[0] + 1, side // block.shape[1] + 1)
    img = np.tile(block, reps)[:side, :side]
    noise = np.random.default_rng(0).integers(0, 7, (1, side), dtype=np.uint8)
    img += noise  # (a row of noise, broadcast: cheap and it breaks the exact repetition)
    return np.ascontiguousarray(img)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("edgel")
    ap.add_argument("--side", type=int, default=33000)  # 1.089e9 pixels > 2^30
    ap.add_argument("--tile", default="2048x2048")
    ap.add_argument("--max-rss-mb", type=float, default=512)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        src, out = os.path.join(work, "big.pgm"), os.path.join(work, "edges.pgm")
        img = make_image(a.side)
        with open(src, "wb") as f:
            f.write(b"P5\n%d %d\n255\n" % (a.side, a.side))
            f.write(img.data)
        t = time.time()
        code = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024); "
                "sys.exit(r.returncode)")
        r = subprocess.run([sys.executable, "-c", code, a.edgel, "detect", src, "-o", out,
                            "--memory", "256M", "--tile", a.tile, "--blur", "1.4", "-q"],
                           capture_output=True, text=True)
        seconds = time.time() - t
        if r.returncode != 0:
            print(r.stderr)
            return 1
        peak_mb = float(r.stdout.split()[-1])
        t = time.time()
        want = cv2.Canny(cv2.GaussianBlur(img, (0, 0), 1.4), 50, 150)
        cv_seconds = time.time() - t
        del img
        got = np.fromfile(out, np.uint8, offset=len(b"P5\n%d %d\n255\n" % (a.side, a.side)))
        same = got.size == want.size and np.array_equal(got.reshape(want.shape), want)
        print(f"| {a.side}x{a.side} ({a.side * a.side / 1e9:.3f} Gpx) | tiles {a.tile} | "
              f"edgel {seconds:.1f} s, peak {peak_mb:.0f} MB | cv2 (blur + Canny, in memory) "
              f"{cv_seconds:.1f} s | identical: {'yes' if same else 'NO'} |")
        return 0 if same and peak_mb <= a.max_rss_mb else 1


if __name__ == "__main__":
    sys.exit(main())
