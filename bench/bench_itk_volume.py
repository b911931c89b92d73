"""ITK's Canny on volumes (edgel.canny_itk on (z, y, x) arrays) against ITK itself, timed in
the same run on the same volumes.

    python3 bench/bench_itk_volume.py [--sizes 128,256,512] [--variance 2] [--itk-max 256]

Volumes: a float sphere of radius n/3 (contrast 100) with Gaussian noise (sigma 10), upper
20, lower 10. ITK: itk.CannyEdgeDetectionImageFilter[F3, F3] from the `itk` package on every
core (where it is installed; sizes up to --itk-max: its time grows fast), one run after a
warm-up of the filter on a small volume; edgel: median of 3 after a warm-up, on 1 thread, on
every core, and where a GPU is present on a CUDA context from a host array and from a
device-resident CuPy array (the call returns with the edges in place, so wall time is the
whole work). Every result is checked equal to the first. Prints a Markdown table."""
import argparse
import datetime
import os
import pathlib
import platform
import statistics
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
if "EDGEL_LIBRARY" not in os.environ and (ROOT / "build" / "libedgel.so").exists():
    os.environ["EDGEL_LIBRARY"] = str(ROOT / "build" / "libedgel.so")
sys.path.insert(0, str(ROOT / "python"))

import edgel  # noqa: E402


def volume(n):
    rng = np.random.default_rng(1)
    z, y, x = np.ogrid[0:n, 0:n, 0:n]
    sphere = ((x - n / 2) ** 2 + (y - n / 2) ** 2 + (z - n / 2) ** 2) < (n / 3) ** 2
    return (sphere * 100.0 + rng.standard_normal((n, n, n)) * 10).astype(np.float32)


def timed(fn, runs=3):
    fn()
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="128,256,512")
    ap.add_argument("--variance", type=float, default=2.0)
    ap.add_argument("--itk-max", type=int, default=256)
    a = ap.parse_args()
    try:
        import itk
    except ImportError:
        itk = None
    try:
        import cupy
    except ImportError:
        cupy = None
    gpu = edgel.Context("cuda") if edgel.cuda_device_count() else None
    one, every = edgel.Context("cpu", threads=1), edgel.Context("cpu", threads=0)
    cores = os.cpu_count()
    print(f"## volumes, {datetime.date.today()}: {platform.machine()}, {cores} cores"
          + (f", {cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}"
             if gpu is not None and cupy is not None else "")
          + f"; variance {a.variance:g}, upper 20, lower 10\n")
    print(f"| volume | edges | ITK (s) | edgel 1 thread (s) | edgel {cores} threads (s) | x ITK |"
          " GPU, host array (ms) | GPU, device array (ms) | equal |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    args = (a.variance, 0.01, 20.0, 10.0)
    for n in map(int, a.sizes.split(",")):
        v = volume(n)
        t1, want = timed(lambda: edgel.canny_itk(v, *args, ctx=one), 1 if n >= 512 else 3)
        tn, e = timed(lambda: edgel.canny_itk(v, *args, ctx=every))
        same = np.array_equal(e, want)
        ti = float("nan")
        if itk is not None and n <= a.itk_max:
            f3 = itk.Image[itk.F, 3]
            f = itk.CannyEdgeDetectionImageFilter[f3, f3].New(
                Input=itk.image_from_array(v), Variance=[a.variance] * 3,
                MaximumError=[0.01] * 3, UpperThreshold=20.0, LowerThreshold=10.0)
            t = time.perf_counter()
            f.Update()
            ti = time.perf_counter() - t
            same &= np.array_equal(itk.array_from_image(f.GetOutput()), want)
        tg = td = float("nan")
        if gpu is not None:
            tg, e = timed(lambda: edgel.canny_itk(v, *args, ctx=gpu), 5)
            same &= np.array_equal(e, want)
            if cupy is not None:
                d = cupy.asarray(v)
                td, e = timed(lambda: edgel.canny_itk(d, *args), 5)
                same &= np.array_equal(cupy.asnumpy(e), want)
        print(f"| {n}^3 | {int(want.sum())} | {ti:.2f} | {t1:.2f} | {tn:.3f} | {ti / tn:.1f} | "
              f"{tg * 1e3:.1f} | {td * 1e3:.1f} | {'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
