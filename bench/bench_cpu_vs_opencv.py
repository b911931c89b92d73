#!/usr/bin/env python3
"""edgel's CPU backend against cv2.Canny in one run, at equal thread counts.

Both get the same gray u8 frame (a photograph tiled to the size, mirrored so tiles meet
without seams) and the same parameters; each figure is the median of --runs timed calls
after warm-up. Prints a Markdown table. With 1 thread OpenCV may run Intel IPP's Canny
instead of its own code (pip wheels gate IPP on getNumThreads() <= 1); the table says which.

    EDGEL_LIBRARY=build/libedgel.so PYTHONPATH=python python3 bench/bench_cpu_vs_opencv.py

With --blur SIGMA both run the blurred pipeline: edgel.canny(img, blur=SIGMA) against
cv2.GaussianBlur(img, (0, 0), SIGMA) then cv2.Canny on its result.
"""
import argparse
import os
import pathlib
import platform
import statistics
import time

import cv2
import numpy as np

import edgel
from tiled_frames import tiled

ROOT = pathlib.Path(__file__).resolve().parents[1]
SIZES = {"640x480": (640, 480), "1080p": (1920, 1080), "4K": (3840, 2160), "8K": (7680, 4320)}


def median_ms(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--image", default=str(ROOT / "samples" / "coffee.png"))
    ap.add_argument("--sizes", default="640x480,1080p,4K,8K")
    ap.add_argument("--threads", default=f"1,{os.cpu_count()}")
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--low", type=float, default=50)
    ap.add_argument("--high", type=float, default=150)
    ap.add_argument("--l2", action="store_true")
    ap.add_argument("--aperture", type=int, default=3)
    ap.add_argument("--blur", type=float, default=None,
                    help="Gaussian sigma of a pre-blur (cv2.GaussianBlur then cv2.Canny)")
    args = ap.parse_args()

    photo = cv2.cvtColor(cv2.imread(args.image, cv2.IMREAD_COLOR), cv2.COLOR_BGR2GRAY)
    print(f"edgel {edgel.library_version()} vs OpenCV {cv2.__version__}, "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"{pathlib.Path(args.image).name} tiled; Canny {args.low}/{args.high}, "
          f"aperture {args.aperture}, {'L2' if args.l2 else 'L1'}"
          f"{f'; Gaussian pre-blur sigma {args.blur}' if args.blur else ''}; "
          f"median of {args.runs} runs\n")
    print("| size | threads | edgel ms | OpenCV ms | OpenCV path | edgel / OpenCV | identical |")
    print("|---|---|---|---|---|---|---|")
    for name in args.sizes.split(","):
        w, h = SIZES.get(name) or tuple(map(int, name.split("x")))
        img = tiled(photo, w, h)
        for t in map(int, args.threads.split(",")):
            # edgel is timed before OpenCV runs at this size, so OpenCV's idle worker threads
            # (which spin for a while after each call) do not compete with edgel's.
            ctx = edgel.Context("cpu", threads=t)
            cv2.setNumThreads(t)
            def ours():
                return edgel.canny(img, args.low, args.high, args.aperture, args.l2,
                                   blur=args.blur, ctx=ctx)

            def ref():
                src = cv2.GaussianBlur(img, (0, 0), args.blur) if args.blur else img
                return cv2.Canny(src, args.low, args.high, apertureSize=args.aperture,
                                 L2gradient=args.l2)

            e = median_ms(ours, args.runs)
            o = median_ms(ref, args.runs)
            same = np.array_equal(ours(), ref())
            path = "IPP (1 thread)" if t <= 1 and cv2.ipp.useIPP() else "OpenCV"
            print(f"| {w}x{h} | {t} | {e:.2f} | {o:.2f} | {path} | {e / o:.2f} | "
                  f"{'yes' if same else 'NO'} |", flush=True)
            ctx.close()


if __name__ == "__main__":
    main()
