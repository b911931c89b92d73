"""The skimage preset against scikit-image (CPU) and cuCIM (GPU), timed in the same run.

    python3 bench/bench_skimage.py [--sizes 1920x1080,3840x2160] [--sigma 1.4]

Frames are tilings of samples/camera.png (gray), as uint8 and as float32 in [0, 1]. Rows:
skimage.feature.canny (CPU), edgel.canny_skimage on the CPU (all cores), and where a GPU and
CuPy are present edgel.canny_skimage and cucim.skimage.feature.canny on CuPy arrays (CUDA
events around each call, after warm-up; medians). Every edgel result is compared with
scikit-image's, byte for byte; cuCIM's is reported as equal or not. Prints a Markdown table
with the machine, the versions and the date."""
import argparse
import datetime
import os
import pathlib
import statistics
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
if "EDGEL_LIBRARY" not in os.environ and (ROOT / "build" / "libedgel.so").exists():
    os.environ["EDGEL_LIBRARY"] = str(ROOT / "build" / "libedgel.so")
sys.path.insert(0, str(ROOT / "python"))

import cv2  # noqa: E402
import skimage  # noqa: E402
from skimage import feature  # noqa: E402

import edgel  # noqa: E402


def frame(w, h):
    gray = cv2.imread(str(ROOT / "samples" / "camera.png"), cv2.IMREAD_GRAYSCALE)
    reps = (-(-h // gray.shape[0]), -(-w // gray.shape[1]))
    return np.ascontiguousarray(np.tile(gray, reps)[:h, :w])


def host_median(fn, repeats, warmup=1):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def gpu_median(cupy, fn, repeats, warmup=3):
    for _ in range(warmup):
        fn()
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(repeats):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1920x1080,3840x2160")
    ap.add_argument("--sigma", type=float, default=1.4)
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--skimage-repeats", type=int, default=5)
    args = ap.parse_args()
    try:
        import cupy
        gpu = cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # no CuPy or no GPU: CPU rows only
        cupy, gpu = None, False
    cucim_canny = None
    if gpu:
        try:
            from cucim.skimage.feature import canny as cucim_canny
        except Exception as e:
            print(f"cuCIM not available ({e}): its rows are left out")
    device = cupy.cuda.runtime.getDeviceProperties(0)["name"].decode() if gpu else "none"
    print(f"## skimage preset, {datetime.date.today()}: CPU {os.cpu_count()} cores, GPU {device}; "
          f"scikit-image {skimage.__version__}, numpy {np.__version__}, sigma {args.sigma}")
    print()
    print("| frame | dtype | scikit-image CPU (ms) | edgel CPU (ms) | x | "
          "cuCIM GPU (ms) | edgel GPU (ms) | x | edgel = skimage | cuCIM = skimage |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    ctx = edgel.Context("cpu")
    failed = False
    for size in args.sizes.split(","):
        w, h = map(int, size.split("x"))
        base = frame(w, h)
        for img in (base, (base / 255.0).astype(np.float32)):
            kw = dict(sigma=args.sigma)
            ref = feature.canny(img, **kw)
            t_sk = host_median(lambda: feature.canny(img, **kw), args.skimage_repeats)
            ours = edgel.canny_skimage(img, ctx=ctx, **kw)
            t_cpu = host_median(lambda: edgel.canny_skimage(img, ctx=ctx, **kw), args.repeats)
            same = np.array_equal(ours, ref)
            t_cucim = t_gpu = None
            cucim_same = "-"
            if gpu:
                d = cupy.asarray(img)
                out = cupy.empty(img.shape, bool)
                t_gpu = gpu_median(cupy, lambda: edgel.canny_skimage(d, out=out, **kw),
                                   args.repeats)
                same = same and np.array_equal(cupy.asnumpy(out), ref)
                if cucim_canny is not None:
                    t_cucim = gpu_median(cupy, lambda: cucim_canny(d, **kw), args.repeats)
                    cucim_same = "yes" if np.array_equal(cupy.asnumpy(cucim_canny(d, **kw)),
                                                         ref) else "no"
            failed |= not same
            fmt = lambda v: "-" if v is None else f"{v:.3f}"
            ratio = lambda a, b: "-" if a is None or b is None else f"{a / b:.0f}"
            print(f"| {w}x{h} | {img.dtype} | {t_sk:.1f} | {t_cpu:.2f} | {ratio(t_sk, t_cpu)} | "
                  f"{fmt(t_cucim)} | {fmt(t_gpu)} | {ratio(t_cucim, t_gpu)} | "
                  f"{'yes' if same else 'NO'} | {cucim_same} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
