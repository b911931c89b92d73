#!/usr/bin/env python3
"""A BigTIFF of side x side gray pixels (10^10 at the default side 100000) through
`edgel detect` to a BigTIFF of edges: wall time, throughput and peak resident memory.

    python3 bench/bench_huge.py build/edgel [--side 100000] [--tile 4096x4096] [--dir /tmp]
                                [--backend cpu]

The input is the sample photograph tiled and mirrored, written strip by strip (tifffile),
uncompressed. Needs 2 x side^2 bytes of disk. Exactness is the test suite's
(tests/large_image_check.py compares 1.09 Gpx with cv2.Canny); this measures speed and memory.
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np
import tifffile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def strips(side: int, rows: int):
    photo = cv2.imread(str(ROOT / "samples" / "coffee.png"), cv2.IMREAD_GRAYSCALE)
    row = np.concatenate([photo, photo[:, ::-1]], axis=1)
    line = np.tile(row, (1, side // row.shape[1] + 1))[:, :side]
    block = np.concatenate([line, line[::-1]], axis=0)  # 2 * photo height rows, seamless
    for y in range(0, side, rows):
        idx = np.arange(y, min(side, y + rows)) % block.shape[0]
        yield np.ascontiguousarray(block[idx])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("edgel")
    ap.add_argument("--side", type=int, default=100000)
    ap.add_argument("--tile", default="4096x4096")
    ap.add_argument("--backend", default="cpu", help="edgel detect's --backend (default cpu)")
    ap.add_argument("--dir", default=tempfile.gettempdir())
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=a.dir) as work:
        src, out = os.path.join(work, "in.tif"), os.path.join(work, "edges.tif")
        t = time.time()
        tifffile.imwrite(src, strips(a.side, 256), shape=(a.side, a.side), dtype=np.uint8,
                         bigtiff=True, photometric="minisblack", rowsperstrip=256)
        made = time.time() - t
        code = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024); "
                "sys.exit(r.returncode)")
        t = time.time()
        r = subprocess.run([sys.executable, "-c", code, a.edgel, "detect", src, "-o", out,
                            "--tile", a.tile, "--blur", "1.4", "--backend", a.backend, "-q"],
                           capture_output=True,
                           text=True)
        seconds = time.time() - t
        if r.returncode != 0:
            print(r.stderr)
            return 1
        peak = float(r.stdout.split()[-1])
        px = a.side * a.side
        print(f"| {a.side}x{a.side} ({px / 1e9:.2f} Gpx) BigTIFF -> BigTIFF | tiles {a.tile} | "
              f"{seconds:.1f} s | {px / seconds / 1e9:.3f} Gpx/s | peak {peak:.0f} MB | "
              f"{a.backend}, {len(os.sched_getaffinity(0))} cores | (input written in {made:.0f} s) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
