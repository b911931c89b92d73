"""Sub-pixel curves (edgel.subpixel_edges) against the reference Canny/Devernay program, timed
in the same run on the same frames.

    python3 bench/bench_subpixel.py [--oracle build/tests/devernay_oracle]
                                    [--sizes 1920x1080,3840x2160] [--sigma 1 --high 15 --low 5]

Frames: a mosaic of BSDS500 photographs (gray) where $EDGEL_BSDS500 (or
../shared/data/bsds500) holds them, else tilings of samples/coffee.png. The reference is its
own program's devernay() (tests/reference/devernay_oracle, built where its sources are
present), timed as a process minus the same process on a 1x1 image (its start and the
image's transfer), one run (it is slow), its points checked equal to edgel's bit for bit;
edgel: median of 5 calls after a warm-up, on 1 thread and on every core, and where a GPU is
present on a CUDA context, from a host array and from a device-resident CuPy array (median
of 20; the call returns with the curves in host memory, so wall time is the whole work), and
from a CuPy array to curves left on the device (on_device=True; the call returns when they
are there). Then frames/s of --batch frames (default: a frame a core), single calls against
one edgel.subpixel_edges_batch, each frame's curves checked equal to its single call's.
Prints a Markdown table with the machine and the date."""
import argparse
import datetime
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
if "EDGEL_LIBRARY" not in os.environ and (ROOT / "build" / "libedgel.so").exists():
    os.environ["EDGEL_LIBRARY"] = str(ROOT / "build" / "libedgel.so")
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tests" / "python"))
sys.path.insert(0, str(ROOT / "bench"))

import cv2  # noqa: E402

import edgel  # noqa: E402
import subpixel_cases as cases  # noqa: E402
from tiled_frames import tiled  # noqa: E402


def mosaic(w, h):
    bsds = pathlib.Path(os.environ.get("EDGEL_BSDS500", ROOT.parent / "shared" / "data" / "bsds500"))
    files = sorted(bsds.glob("*/*.jpg"))
    if not files:
        return tiled(cv2.imread(str(ROOT / "samples" / "coffee.png"), cv2.IMREAD_GRAYSCALE), w, h)
    out = np.zeros((h, w), np.uint8)
    i = 0
    for y in range(0, h, 321):
        for x in range(0, w, 481):
            p = cv2.imread(str(files[i % len(files)]), cv2.IMREAD_GRAYSCALE)
            p = p if p.shape == (321, 481) else cv2.resize(p, (481, 321))
            out[y:y + 321, x:x + 481] = p[:min(321, h - y), :min(481, w - x)]
            i += 1
    return out


def oracle_seconds(oracle, image, params):
    def run(a):
        a = np.ascontiguousarray(a, np.float64)
        t = time.perf_counter()
        r = subprocess.run([str(oracle), str(a.shape[1]), str(a.shape[0]),
                            *map(repr, params)], input=a.tobytes(), capture_output=True,
                           check=True)
        return time.perf_counter() - t, r.stdout.decode()
    base = min(run(np.zeros((1, 1)))[0] for _ in range(3))
    t, text = run(image)
    return t - base, cases.c_hex(text)


def edgel_seconds(image, params, ctx, runs=5, **options):
    edgel.subpixel_edges(image, *params, ctx=ctx, **options)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        curves = edgel.subpixel_edges(image, *params, ctx=ctx, **options)
        times.append(time.perf_counter() - t)
    return statistics.median(times), curves


def frames_per_s(frames, params, ctx, batch, runs=3, **options):
    """Frames/s of subpixel_edges one frame after another or of one subpixel_edges_batch
    (median of `runs` after a warm-up), and the last run's curves."""
    def once():
        if batch:
            return edgel.subpixel_edges_batch(frames, *params, ctx=ctx, **options)
        return [edgel.subpixel_edges(f, *params, ctx=ctx, **options) for f in frames]
    once()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        out = once()
        times.append(time.perf_counter() - t)
    return len(frames) / statistics.median(times), out


def batch_table(sizes, params, count, every, gpu, cupy):
    """Frames/s of `count` different frames a size: single calls against one batch, on every
    core and on the GPU (host arrays to host curves; device arrays to device curves)."""
    print(f"\nBatches of {count} frames (the mosaic shifted 37 columns a frame), frames/s, "
          "single calls one after another against one edgel.subpixel_edges_batch:\n")
    heads = [f"{os.cpu_count()} threads"]
    ways = [("cpu", every, False, {})]
    if gpu is not None:
        heads.append("GPU, host arrays and curves")
        ways.append(("host", gpu, False, {}))
        if cupy is not None:
            heads.append("GPU, device arrays and curves")
            ways.append(("device", None, True, {"on_device": True}))
    print("| frame | " + " | ".join(f"{h}: single | batch | x" for h in heads) + " | equal |")
    print("|---|" + "---:|---:|---:|" * len(heads) + "---|")
    for size in sizes:
        w, h = map(int, size.split("x"))
        image = mosaic(w, h)
        frames = [np.ascontiguousarray(np.roll(image, 37 * i, axis=1)) for i in range(count)]
        want = None
        cells, equal = [], True
        for name, ctx, device, options in ways:
            fr = [cupy.asarray(f) for f in frames] if device else frames
            single, a = frames_per_s(fr, params, ctx, False, **options)
            batch, b = frames_per_s(fr, params, ctx, True, **options)
            got = [cases.canonical(on_host(c) if device else c) for c in a + b]
            want = want or got[:count]
            equal &= got == want + want
            cells.append(f"{single:.0f} | {batch:.0f} | {batch / single:.2f}")
        print(f"| {w}x{h} | " + " | ".join(cells) + f" | {'yes' if equal else 'NO'} |")


def on_host(curves):
    """Curves of on_device=True with their CuPy arrays copied to NumPy."""
    return edgel.Curves(*(a if isinstance(a, np.ndarray) else a.get() for a in
                          (curves.points, curves.limits, curves.closed, curves.gradient,
                           curves.modulus)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle", default=str(ROOT / "build" / "tests" / "devernay_oracle"))
    ap.add_argument("--sizes", default="1920x1080,3840x2160")
    ap.add_argument("--sigma", type=float, default=1.0)
    ap.add_argument("--high", type=float, default=15.0)
    ap.add_argument("--low", type=float, default=5.0)
    ap.add_argument("--batch", type=int, default=os.cpu_count(),
                    help="frames of the batch table (0: no batch table)")
    a = ap.parse_args()
    params = (a.sigma, a.high, a.low)
    cores = os.cpu_count()
    one, every = edgel.Context("cpu", threads=1), edgel.Context("cpu", threads=0)
    print(f"## sub-pixel curves, {datetime.date.today()}: {platform.processor() or platform.machine()}, "
          f"{cores} cores; sigma {a.sigma:g}, high {a.high:g}, low {a.low:g}\n")
    gpu = edgel.Context("cuda") if edgel.cuda_device_count() else None
    try:
        import cupy
    except ImportError:
        cupy = None
    if gpu is not None and cupy is not None:
        print(f"GPU: {cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}\n")
    gpu_heads = (" GPU, host array (ms) | x | GPU, device array (ms) | x | GPU, device array "
                 "and curves (ms) | x |" if gpu else "")
    print("| frame | curves | points | reference (s) | edgel 1 thread (ms) | x | "
          f"edgel {cores} threads (ms) | x |{gpu_heads} equal |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" * 6 if gpu else "") + "---|")
    for size in a.sizes.split(","):
        w, h = map(int, size.split("x"))
        image = mosaic(w, h)
        t1, curves = edgel_seconds(image, params, one)
        tn, again = edgel_seconds(image, params, every)
        ref_t, ref_text = (oracle_seconds(a.oracle, image, params)
                           if pathlib.Path(a.oracle).exists() else (float("nan"), None))
        ours = cases.canonical(curves)
        same = cases.canonical(again) == ours
        cells = ""
        if gpu is not None:
            tg, on_gpu = edgel_seconds(image, params, gpu, 20)
            same &= cases.canonical(on_gpu) == ours
            td = tk = float("nan")
            if cupy is not None:
                td, resident = edgel_seconds(cupy.asarray(image), params, None, 20)
                same &= cases.canonical(resident) == ours
                tk, kept = edgel_seconds(cupy.asarray(image), params, None, 20, on_device=True)
                same &= cases.canonical(on_host(kept)) == ours
            cells = (f" {tg * 1e3:.1f} | {ref_t / tg:.0f} | {td * 1e3:.1f} | "
                     f"{ref_t / td:.0f} | {tk * 1e3:.2f} | {ref_t / tk:.0f} |")
        equal = ("yes" if ref_text == ours and same else
                 "NO" if ref_text is not None or not same else "(no reference)")
        print(f"| {w}x{h} | {len(curves)} | {len(curves.points)} | {ref_t:.2f} | "
              f"{t1 * 1e3:.1f} | {ref_t / t1:.0f} | {tn * 1e3:.1f} | {ref_t / tn:.0f} |"
              f"{cells} {equal} |")
    if a.batch > 0:
        batch_table(a.sizes.split(","), params, a.batch, every, gpu, cupy)


if __name__ == "__main__":
    main()
