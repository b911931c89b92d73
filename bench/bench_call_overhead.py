"""Where a small filter call's time goes, from Python: edgel's binding against the C call it
makes, cv2.filter2D, and (with a GPU) CuPy arrays against PyTorch's conv2d (cuDNN).

Per call, microseconds, best of 5 loops of N calls (host: wall clock; GPU: wall clock of
the loop with the stream synchronised at its end, so the launch and binding costs that a
Python caller pays are included), one CPU thread for the host calls:

  python3 bench/bench_call_overhead.py [--calls 2000]
"""
import argparse
import ctypes
import time

import numpy as np

import edgel


def per_call(fn, calls, sync=None):
    fn()
    if sync:
        sync()
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        if sync:
            sync()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best * 1e6


def event_median(cupy, fn, calls=200):
    """Median device time of one call, CUDA events on the current stream around it: time the
    GPU waits for the binding counts, as a latency-bound caller sees it."""
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    for _ in range(20):
        fn()
    times = []
    for _ in range(calls):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop) * 1e3)
    times.sort()
    return times[len(times) // 2]


def canny_latency(cupy, gctx):
    """edgel.canny on a 1920x1080 CuPy frame against the C call it makes (views made once):
    what the Python binding adds to a frame's latency."""
    gray = cupy.asarray(np.random.default_rng(2).integers(0, 256, (1080, 1920), dtype=np.uint8))
    out = cupy.empty_like(gray)
    p = edgel._params._params(50, 150, 3, False, None, 0, None)
    src, _ = edgel._arrays._device_view(gray)
    dst, _ = edgel._arrays._device_view(out)
    edgel._context._ctx(gctx, "cuda", cupy.cuda.get_current_stream().ptr or 1)
    h = gctx._handle
    c_call = event_median(cupy, lambda: edgel._capi._lib.edgel_canny(
        h, ctypes.byref(p), ctypes.byref(src), ctypes.byref(dst), None))
    rows = [("1920x1080 GPU", "Canny: edgel_canny (the C call through ctypes, views made once)",
             c_call)]
    for what, fn in (("edgel.canny (CuPy, out=)",
                      lambda: edgel.canny(gray, 50, 150, ctx=gctx, out=out)),
                     ("edgel.canny (CuPy, new output)", lambda: edgel.canny(gray, 50, 150, ctx=gctx)),
                     ("edgel.canny (CuPy, out=, default context)",
                      lambda: edgel.canny(gray, 50, 150, out=out))):
        t = event_median(cupy, fn)
        rows.append(("1920x1080 GPU", f"Canny: {what}: {t - c_call:+.1f} us over the C call", t))
    pb = edgel._params._params(50, 150, 3, False, 1.4, 0, None)  # with the Gaussian pre-blur
    c_blur = event_median(cupy, lambda: edgel._capi._lib.edgel_canny(
        h, ctypes.byref(pb), ctypes.byref(src), ctypes.byref(dst), None))
    rows.append(("1920x1080 GPU", "Canny, blur=1.4: edgel_canny (the C call through ctypes)", c_blur))
    t = event_median(cupy, lambda: edgel.canny(gray, 50, 150, blur=1.4, ctx=gctx, out=out))
    rows.append(("1920x1080 GPU",
                 f"Canny, blur=1.4: edgel.canny (CuPy, out=): {t - c_blur:+.1f} us over the C call", t))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000)
    a = ap.parse_args()
    rows = []
    ctx = edgel.Context("cpu", threads=1)
    k3 = np.random.default_rng(0).random((3, 3), dtype=np.float32)
    for n in (1, 64, 256):
        img = np.random.default_rng(1).random((n, n), dtype=np.float32)
        out = np.empty_like(img)
        p = edgel._filters._filter_params("direct", "reflect-101", 0.0, None, False)
        s, d, kv = edgel._arrays._view(img), edgel._arrays._view(out, output=True), edgel._arrays._view(k3)
        h = ctx._handle
        path = "compiled call path" if edgel._capi._hostcall else "no compiled call path: ctypes"
        rows.append((f"{n}x{n} host", f"edgel.filter2d (Python, {path})", per_call(
            lambda: edgel.filter2d(img, k3, method="direct", ctx=ctx, out=out), a.calls)))
        compiled, edgel._capi._hostcall = edgel._capi._hostcall, None
        rows.append((f"{n}x{n} host", "edgel.filter2d (Python, ctypes only)", per_call(
            lambda: edgel.filter2d(img, k3, method="direct", ctx=ctx, out=out), a.calls)))
        edgel._capi._hostcall = compiled
        rows.append((f"{n}x{n} host", "edgel_filter2d (the C call through ctypes, views made once)", per_call(
            lambda: edgel._capi._lib.edgel_filter2d(h, ctypes.byref(p), ctypes.byref(s),
                                              ctypes.byref(d), ctypes.byref(kv)), a.calls)))
        if edgel._capi._hostcall:
            fn, pa = edgel._capi._ADDRESS["edgel_filter2d"], ctypes.addressof(p)
            rows.append((f"{n}x{n} host", "_hostcall.filter2d (the compiled call alone: views and C call)",
                         per_call(lambda: edgel._capi._hostcall.filter2d(fn, h.value, pa, img, out, k3),
                                  a.calls)))
        try:
            import cv2
            cv2.setNumThreads(1)
            rows.append((f"{n}x{n} host", "cv2.filter2D", per_call(
                lambda: cv2.filter2D(img, -1, k3, dst=out), a.calls)))
        except ImportError:
            pass
    rows.append(("-", "edgel._view of one array", per_call(lambda: edgel._arrays._view(k3), a.calls)))
    try:
        import cupy
        import torch
    except ImportError:
        cupy = None
    if cupy is not None:
        sync = cupy.cuda.get_current_stream().synchronize
        gctx = edgel.Context("cuda")
        kt = torch.from_numpy(k3).cuda()[None, None]
        for n in (64, 1024):
            g = cupy.random.random((n, n), dtype=cupy.float32)
            gout = cupy.empty_like(g)
            rows.append((f"{n}x{n} GPU", "edgel.filter2d (CuPy, out=)", per_call(
                lambda: edgel.filter2d(g, k3, method="direct", border="constant", ctx=gctx,
                                       out=gout), a.calls, sync)))
            rows.append((f"{n}x{n} GPU", "edgel.filter2d (CuPy, new output)", per_call(
                lambda: edgel.filter2d(g, k3, method="direct", border="constant", ctx=gctx),
                a.calls, sync)))
            src, _ = edgel._arrays._device_view(g)
            dst, _ = edgel._arrays._device_view(gout)
            p = edgel._filters._filter_params("direct", "constant", 0.0, None, False)
            kv = edgel._arrays._view(k3)
            h = gctx._handle
            rows.append((f"{n}x{n} GPU", "edgel_filter2d (the C call, views made once)", per_call(
                lambda: edgel._capi._lib.edgel_filter2d(h, ctypes.byref(p), ctypes.byref(src),
                                                  ctypes.byref(dst), ctypes.byref(kv)),
                a.calls, lambda: edgel._capi._lib.edgel_context_synchronize(h))))
            rows.append((f"{n}x{n} GPU", "edgel._arrays._device_view (CuPy)", per_call(
                lambda: edgel._arrays._device_view(g), a.calls)))
            rows.append((f"{n}x{n} GPU", "cupy.empty", per_call(
                lambda: cupy.empty((n, n), cupy.float32), a.calls)))
            t = torch.from_dlpack(g)[None, None]
            torch.backends.cudnn.allow_tf32 = False
            rows.append((f"{n}x{n} GPU", "torch conv2d (cuDNN)", per_call(
                lambda: torch.nn.functional.conv2d(t, kt, padding=1), a.calls,
                torch.cuda.synchronize)))
    if cupy is not None:
        rows.extend(canny_latency(cupy, gctx))
    print("| frame | call (3x3 kernel, f32; Canny where named) | us per call |")
    print("|---|---|---|")
    for frame, what, us in rows:
        print(f"| {frame} | {what} | {us:.1f} |")


if __name__ == "__main__":
    main()
