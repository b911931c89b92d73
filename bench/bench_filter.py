"""The convolution engine against cuDNN (PyTorch conv2d, fp32, TF32 off), CuPy
(ndimage.correlate and signal.fftconvolve) and cv2.filter2D on all CPU threads, in one run;
with --fft-peers, on the CPU also SciPy's FFT convolutions (scipy.signal.fftconvolve and
oaconvolve, pocketfft on all threads) and FFTW through pyFFTW (real 2D transforms planned
once, FFTW_MEASURE, all threads), where installed.

Frames per second of one float32 image correlated with a random float32 kernel, zero border
('same' size output) for everybody; GPU times are CUDA-event times of a loop of calls on
device-resident arrays, each call as a user makes it from Python (launch costs included),
median of 9 rounds after a warm-up, a round timing each method and peer of a cell in turn;
CPU times the same with the wall clock. Prints
Markdown tables.

  python3 bench/bench_filter.py [--sizes 64,...] [--masks 3,...] [--no-u8] [--fft-peers]
"""
import argparse
import contextlib
import os
import time

import numpy as np

import edgel


def gpu_times(fns, stream_sync, loops=9):
    """Median seconds per call of each fn() in `fns` (a dict), CUDA events around a loop of
    calls (up to 200, about 20 ms), over `loops` rounds; a round times each fn in turn, so
    that every method of a cell meets the same clocks and host load (timed one after the
    other, the same method measured up to 1.4x apart on small frames, where a call is the
    host's launch and binding costs)."""
    import cupy
    calls = {}
    for name, fn in fns.items():
        fn()
        stream_sync()
        t0 = time.perf_counter()
        fn()
        stream_sync()
        calls[name] = max(1, min(200, int(0.02 / max(time.perf_counter() - t0, 1e-6))))
    times = {name: [] for name in fns}
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    for _ in range(loops):
        for name, fn in fns.items():
            start.record()
            for _ in range(calls[name]):
                fn()
            stop.record()
            stop.synchronize()
            times[name].append(cupy.cuda.get_elapsed_time(start, stop) / 1e3 / calls[name])
    return {name: float(np.median(t)) for name, t in times.items()}


def cpu_times(fns, loops=9):
    """Median seconds per call of each fn() in `fns` (a dict) over `loops` rounds (wall
    clock). A round times a loop of calls of each fn in turn (at least about 2 ms a loop: a
    single call of a small frame is microseconds, which one preemption or thread wake-up
    would swamp), so that no fn always runs first after another cell's work; each round starts
    with the next fn, so that every fn runs first as often (timed in a fixed order, the first
    one, `auto`, measured up to 1.3x slower than `direct` on small frames, both running the
    same code)."""
    calls = {}
    for name, fn in fns.items():
        fn()
        t0 = time.perf_counter()
        fn()
        calls[name] = max(1, min(1000, int(0.002 / max(time.perf_counter() - t0, 1e-7))))
    times = {name: [] for name in fns}
    names = list(fns)
    for r in range(loops):
        for name in names[r % len(names):] + names[:r % len(names)]:
            fn = fns[name]
            t0 = time.perf_counter()
            for _ in range(calls[name]):
                fn()
            times[name].append((time.perf_counter() - t0) / calls[name])
    return {name: float(np.median(t)) for name, t in times.items()}


def cpu_time(fn, loops=5):
    return cpu_times({"": fn}, loops)[""]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="64,128,256,512,1024,2048,4096")
    ap.add_argument("--masks", default="3,5,7,9,15,29,65")
    ap.add_argument("--no-u8", action="store_true", help="skip the 8-bit CPU table")
    ap.add_argument("--fft-peers", action="store_true",
                    help="also time SciPy's fftconvolve and oaconvolve and FFTW (pyFFTW) on the CPU")
    ap.add_argument("--cpu-limit", type=float, default=2e10,
                    help="skip CPU runs above this many multiply-adds (pixels x taps)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    masks = [int(m) for m in args.masks.split(",")]

    import cv2
    cv2.setNumThreads(os.cpu_count())
    try:
        import cupy
        import cupyx.scipy.ndimage as cnd
        import cupyx.scipy.signal as csig
    except ImportError:
        cupy = None
    try:
        import torch
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.benchmark = True
    except ImportError:
        torch = None
    gpu = edgel.Context("cuda") if cupy is not None else None
    cpu = edgel.Context("cpu")
    rng = np.random.default_rng(0)
    peers = ["edgel GPU auto", "edgel GPU direct", "edgel GPU fft", "cuDNN conv2d",
             "CuPy correlate", "CuPy fftconvolve", "edgel CPU auto", "edgel CPU direct",
             "edgel CPU fft", "cv2.filter2D"] + (list(fft_peers()) if args.fft_peers else [])
    images = {n: rng.random((n, n), np.float32) * 255 for n in sizes}
    kernels = {m: rng.standard_normal((m, m)).astype(np.float32) for m in masks}
    results = {(n, m): {} for n in sizes for m in masks}
    if gpu is not None:  # the GPU phase, then the CPU phase: no CPU threads compete with it
        sync = lambda: cupy.cuda.get_current_stream().synchronize()  # noqa: E731
        for n in sizes:
            d_img = cupy.asarray(images[n])
            d_out = cupy.empty_like(d_img)
            t_img = torch.as_tensor(d_img, device="cuda")[None, None] if torch else None
            for m in masks:
                k, row = kernels[m], results[(n, m)]
                d_k = cupy.asarray(k)
                fns = {f"edgel GPU {method}": (lambda method=method: edgel.filter2d(
                    d_img, k, border="constant", method=method, ctx=gpu, out=d_out))
                    for method in ("auto", "direct", "fft")}
                fns["CuPy correlate"] = lambda: cnd.correlate(d_img, d_k, mode="constant")
                fns["CuPy fftconvolve"] = lambda: csig.fftconvolve(d_img, d_k[::-1, ::-1],
                                                                   mode="same")
                if torch is not None:
                    w = torch.as_tensor(d_k, device="cuda")[None, None]
                    fns["cuDNN conv2d"] = lambda: torch.nn.functional.conv2d(
                        t_img, w, padding=m // 2)
                with torch.no_grad() if torch is not None else contextlib.nullcontext():
                    row.update(gpu_times(fns, sync))
                row["edgel GPU auto method"] = edgel.filter2d_method(
                    images[n], k, border="constant", ctx=gpu)
                print(f"GPU {n}x{n} {m}x{m}: " + ", ".join(
                    f"{p} {row[p] * 1e3:.3f} ms" for p in peers if p in row), flush=True)
    # The CPU phase: every edgel cell, then every cv2 cell. OpenCV's workers spin for a while
    # after a call and take cores from whoever runs next (calls of 9 ms, a scheduler
    # quantum, appeared in edgel cells timed after cv2 ones, even 0.2 s later).
    cells = [(n, m) for n in sizes for m in masks if n * n * m * m <= args.cpu_limit]
    for n, m in cells:
        img, k, row = images[n], kernels[m], results[(n, m)]
        row.update(cpu_times({f"edgel CPU {method}": (lambda method=method: edgel.filter2d(
            img, k, border="constant", method=method, ctx=cpu)) for method in ("auto", "direct", "fft")}))
    for n, m in cells if args.fft_peers else []:  # the FFT peers, checked against edgel's result
        img, k, row = images[n], kernels[m], results[(n, m)]
        want = edgel.filter2d(img, k, border="constant", method="direct", ctx=cpu)
        for name, fn in fft_peers().items():
            got = fn(img, k)
            assert np.abs(got - want).max() <= 1e-3 * np.abs(want).max() + 1e-3, name
            row[name] = cpu_time(lambda fn=fn: fn(img, k))
    for n, m in cells:
        img, k, row = images[n], kernels[m], results[(n, m)]
        row["cv2.filter2D"] = cpu_time(
            lambda: cv2.filter2D(img, -1, k, borderType=cv2.BORDER_CONSTANT))
        print(f"CPU {n}x{n} {m}x{m}: " + ", ".join(
            f"{p} {row[p] * 1e3:.3f} ms" for p in peers if p.startswith(("edgel CPU", "cv2"))
            and p in row), flush=True)

    print(f"\n### Frames per second, float32, random kernel, zero border ({os.cpu_count()} CPU threads)\n")
    for n in sizes:
        print(f"\n{n}x{n}\n")
        print("| mask | " + " | ".join(peers) + " | edgel GPU auto picked | GPU auto / best |"
              " CPU auto / best | cuDNN / edgel GPU best |")
        print("|---" * (len(peers) + 5) + "|")
        for m in masks:
            row = results[(n, m)]
            cells = [f"{1 / row[p]:,.0f}" if p in row else "-" for p in peers]
            best = min(row.get(f"edgel GPU {x}", 1e9) for x in ("direct", "fft"))
            auto = row.get("edgel GPU auto")
            ratio = f"{auto / best:.2f}" if auto else "-"
            vs = f"{row['cuDNN conv2d'] / best:.1f}x" if "cuDNN conv2d" in row else "-"
            cbest = min(row.get(f"edgel CPU {x}", 1e9) for x in ("direct", "fft"))
            cratio = f"{row['edgel CPU auto'] / cbest:.2f}" if "edgel CPU auto" in row else "-"
            print(f"| {m}x{m} | " + " | ".join(cells) +
                  f" | {row.get('edgel GPU auto method', '-')} | {ratio} | {cratio} | {vs} |")
    print("\nms per frame at 4096x4096:\n")
    if 4096 in sizes:
        print("| mask | " + " | ".join(peers) + " |")
        print("|---" * (len(peers) + 1) + "|")
        for m in masks:
            row = results[(4096, m)]
            print(f"| {m}x{m} | " + " | ".join(f"{row[p] * 1e3:.3f}" if p in row else "-" for p in peers) + " |")
    summary(results, fft_peers() if args.fft_peers else {})
    if not args.no_u8:
        u8_table(cv2, cpu, rng)


def fft_peers():
    """SciPy's and FFTW's FFT convolutions as 'same'-size correlations with a zero border
    (odd masks), by name; those whose package is missing are left out."""
    peers = {}
    try:
        import scipy.fft
        import scipy.signal
    except ImportError:
        return peers
    threads = os.cpu_count()

    def scipy_with(conv):
        def run(img, k):
            with scipy.fft.set_workers(threads):
                return conv(img, k[::-1, ::-1], mode="same")
        return run
    peers["scipy fftconvolve"] = scipy_with(scipy.signal.fftconvolve)
    peers["scipy oaconvolve"] = scipy_with(scipy.signal.oaconvolve)
    try:
        import pyfftw
        import pyfftw.builders
    except ImportError:
        return peers
    plans = {}

    def fftw(img, k):
        """FFTW's real transforms through pyFFTW's builders, planned once a padded size
        (FFTW_MEASURE, all threads): both spectra, their product, the inverse, the crop."""
        (n0, n1), (m0, m1) = img.shape, k.shape
        shape = (scipy.fft.next_fast_len(n0 + m0 - 1, True), scipy.fft.next_fast_len(n1 + m1 - 1, True))
        if shape not in plans:
            a = pyfftw.empty_aligned(shape, "float32")
            b = pyfftw.empty_aligned((shape[0], shape[1] // 2 + 1), "complex64")
            plans[shape] = (a, b, pyfftw.builders.rfft2(a, threads=threads, planner_effort="FFTW_MEASURE"),
                            pyfftw.builders.irfft2(b, s=shape, threads=threads,
                                                   planner_effort="FFTW_MEASURE"))
        a, b, forward, inverse = plans[shape]
        a[:] = 0
        a[:m0, :m1] = k[::-1, ::-1]
        kspec = forward(a).copy()
        a[:] = 0
        a[:n0, :n1] = img
        np.multiply(forward(a), kspec, out=b)
        return inverse(b)[m0 // 2:m0 // 2 + n0, m1 // 2:m1 // 2 + n1].copy()
    peers["FFTW (pyFFTW)"] = fftw
    return peers


def summary(results, peers):
    """The goals' counts: auto within 10% of the better method it could pick (GPU, CPU), and
    edgel's better CPU method at least as fast as cv2.filter2D."""
    def count(test):
        cells = [test(row) for row in results.values()]
        cells = [c for c in cells if c is not None]
        return f"{sum(cells)} of {len(cells)}"

    def auto_ok(row, side):
        methods = [row.get(f"edgel {side} {x}") for x in ("direct", "fft")]
        if row.get(f"edgel {side} auto") is None or None in methods:
            return None
        return row[f"edgel {side} auto"] <= 1.1 * min(methods)

    def cpu_ok(row):
        if "cv2.filter2D" not in row:
            return None
        return min(row[f"edgel CPU {x}"] for x in ("direct", "fft")) <= row["cv2.filter2D"]
    def beats(peer):
        def test(row):
            if peer not in row or "edgel CPU auto" not in row:
                return None
            return row["edgel CPU auto"] < row[peer]
        return test

    def fft_cell(row):  # where edgel's FFT method is its faster one: the FFT range
        return "edgel CPU fft" in row and row["edgel CPU fft"] <= row.get("edgel CPU direct", 1e9)
    for peer in peers:
        print(f"edgel CPU auto faster than {peer}: in {count(beats(peer))} cells; in the FFT range "
              f"{count(lambda r, t=beats(peer): t(r) if fft_cell(r) else None)}.")
    print("\nGoals: GPU auto within 10% of the best method in "
          f"{count(lambda r: auto_ok(r, 'GPU'))} cells; CPU auto within 10% in "
          f"{count(lambda r: auto_ok(r, 'CPU'))}; edgel's better CPU method at least as fast "
          f"as cv2.filter2D in {count(cpu_ok)}.")


def u8_table(cv2, cpu, rng):
    """8-bit images on the CPU against cv2.filter2D (the same bytes), with a random dense
    kernel (edgel's direct method) and binomial ones, whose factors are multiples of 1/256
    (edgel's fixed-point separable method; OpenCV filters them directly like any other)."""
    def binomial(m):
        row = np.array([1.0])
        for _ in range(m - 1):
            row = np.convolve(row, [0.5, 0.5])
        return np.outer(row, row).astype(np.float32)
    cases = [("random", m, rng.standard_normal((m, m)).astype(np.float32) / m) for m in (3, 5, 9)]
    cases += [("binomial", m, binomial(m)) for m in (3, 5, 9)]
    print(f"\n### u8 frames per second, CPU ({os.cpu_count()} threads), reflect-101\n")
    print("| frame | kernel | edgel CPU auto | method | cv2.filter2D | edgel / cv2 |")
    print("|---|---|---|---|---|---|")
    rows = []
    for n in (512, 1920, 4096):
        img = rng.integers(0, 256, (n if n != 1920 else 1080, n), dtype=np.uint8)
        for name, m, k in cases:
            assert np.array_equal(edgel.filter2d(img, k, ctx=cpu), cv2.filter2D(img, -1, k))
            rows.append((img, name, m, k, cpu_time(lambda: edgel.filter2d(img, k, ctx=cpu))))
    for img, name, m, k, e in rows:  # cv2 after every edgel timing, as above
        c = cpu_time(lambda: cv2.filter2D(img, -1, k))
        print(f"| {img.shape[1]}x{img.shape[0]} | {name} {m}x{m} | {1 / e:,.0f} | "
              f"{edgel.filter2d_method(img, k, ctx=cpu)} | {1 / c:,.0f} | {c / e:.2f}x |",
              flush=True)

if __name__ == "__main__":
    main()
