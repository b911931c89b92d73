"""The module from many threads at once: with the default contexts (ctx=None) every call gives
the single-threaded result; one explicit Context shared by threads gives right results or
EdgelError('EDGEL_ERROR_CONTEXT_BUSY'), never a crash. Run with the compiled call path and,
in a subprocess, with ctypes alone (EDGEL_NO_EXTENSION=1)."""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import edgel

THREADS, ROUNDS = 4, 30


def frames():
    rng = np.random.default_rng(7)
    out = []
    for h, w in ((480, 640), (77, 123)):  # two sizes: workspaces grow and shrink
        base = rng.integers(0, 256, (h // 8 + 1, w // 8 + 1), dtype=np.uint8)
        img = np.repeat(np.repeat(base, 8, 0), 8, 1)[:h, :w]
        out.append(np.ascontiguousarray(img + rng.integers(0, 9, (h, w), dtype=np.uint8)))
    return out


def canny_with_dx(a):
    """Edges and the dx stage side by side (the ctypes path, which stages take)."""
    stages = {"dx": None}
    edges = edgel.canny(a, 30, 90, stages=stages)
    return np.concatenate([edges, stages["dx"].view(np.uint8)], axis=1)


CALLS = {
    "canny": lambda a: edgel.canny(a, 50, 150, blur=1.4),
    "canny_colour": lambda a: edgel.canny(np.dstack([a, a[::-1], a]), 40, 120, gray="rgb"),
    "canny_stages": canny_with_dx,
    "canny_itk": lambda a: edgel.canny_itk(a.astype(np.float32), 2.0, 0.01, 10.0, 5.0),
    "filter2d": lambda a: edgel.filter2d(a, np.ones((5, 5), np.float32) / 25),
    "filter2d_float": lambda a: edgel.filter2d(a.astype(np.float32),
                                               np.ones((9, 9), np.float32) / 81, method="fft"),
    "sep_filter2d": lambda a: edgel.sep_filter2d(a, [1, 2, 1], [1, 4, 6, 4, 1]),
    "gaussian_blur": lambda a: edgel.gaussian_blur(a, 5, 1.2),
    "to_gray": lambda a: edgel.to_gray(np.dstack([a, a, a[::-1]])),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_default_contexts_from_many_threads(name):
    call, imgs = CALLS[name], frames()
    want = [call(a) for a in imgs]

    def work(i):
        return [np.array_equal(call(imgs[(i + n) % 2]), want[(i + n) % 2]) for n in range(ROUNDS)]

    with ThreadPoolExecutor(THREADS) as pool:
        results = [r for rs in pool.map(work, range(THREADS * 2)) for r in rs]
    assert all(results), f"{results.count(False)} of {len(results)} results differ"


def test_shared_context_refuses_overlapping_calls():
    ctx = edgel.Context("cpu", threads=1)  # slow enough calls that the threads meet
    imgs = frames()
    want = [edgel.canny(a, 50, 150, blur=1.4) for a in imgs]

    def work(i):
        ran = busy = 0
        for n in range(ROUNDS):
            k = (i + n) % 2
            try:
                got = edgel.canny(imgs[k], 50, 150, blur=1.4, ctx=ctx)
            except edgel.EdgelError as e:
                assert e.status == "EDGEL_ERROR_CONTEXT_BUSY" and "another thread" in e.message
                busy += 1
                continue
            assert np.array_equal(got, want[k])
            ran += 1
        return ran, busy

    with ThreadPoolExecutor(THREADS) as pool:
        counts = list(pool.map(work, range(THREADS)))
    ran, busy = sum(c[0] for c in counts), sum(c[1] for c in counts)
    assert ran > 0 and busy > 0 and ran + busy == THREADS * ROUNDS
    assert np.array_equal(edgel.canny(imgs[0], 50, 150, blur=1.4, ctx=ctx), want[0])


def test_threads_through_ctypes_alone():
    """The same default-context test in a process where the compiled call path is off."""
    code = ("import sys; sys.path[:0] = [%r, %r]; import test_threads as t, edgel; "
            "assert edgel._capi._hostcall is None; "
            "[t.test_default_contexts_from_many_threads(n) for n in ('canny', 'filter2d')]; "
            "t.test_shared_context_refuses_overlapping_calls(); print('ok')"
            % (os.path.dirname(os.path.abspath(__file__)), os.path.dirname(edgel.__file__) + "/.."))
    env = dict(os.environ, EDGEL_NO_EXTENSION="1")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0 and run.stdout.strip().endswith("ok"), run.stderr[-2000:]
