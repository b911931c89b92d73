"""Small float frames on the CPU from Python: edgel.filter2d with 1, 2, 4 and all threads
against cv2.filter2D on all threads, zero border, random 3x3 and 5x5 kernels. Microseconds a
call, median of 15 rounds of loops, each round starting with the next contender (so that none
always runs first). Shows where a second thread starts to pay and how the call's fixed costs
compare with OpenCV's.

  EDGEL_LIBRARY=build/libedgel.so PYTHONPATH=python python3 bench/gpu-lab/small_frames_threads.py
"""
import os
import time

import cv2
import numpy as np

import edgel


def main():
    cv2.setNumThreads(os.cpu_count())
    contexts = {t: edgel.Context("cpu", threads=t) for t in (1, 2, 4, 0)}
    rng = np.random.default_rng(0)
    for n in (64, 96, 128, 192, 256, 384):
        img = rng.random((n, n), np.float32) * 255
        for m in (3, 5):
            k = rng.standard_normal((m, m)).astype(np.float32)
            fns = {f"edgel t={t}": (lambda c=c: edgel.filter2d(img, k, border="constant", ctx=c))
                   for t, c in contexts.items()}
            fns["cv2"] = lambda: cv2.filter2D(img, -1, k, borderType=cv2.BORDER_CONSTANT)
            calls = 2000 if n <= 128 else 500
            times = {name: [] for name in fns}
            names = list(fns)
            for r in range(15):
                for name in names[r % len(names):] + names[:r % len(names)]:
                    t0 = time.perf_counter()
                    for _ in range(calls):
                        fns[name]()
                    times[name].append((time.perf_counter() - t0) / calls * 1e6)
            print(f"{n}x{n} {m}x{m}: " + ", ".join(
                f"{name} {np.median(t):.1f}" for name, t in times.items()), flush=True)


if __name__ == "__main__":
    main()
