"""The compiled call path for NumPy arrays (python/edgel/_hostcall.c) against the ctypes path
it short-cuts: the same bytes, the same exceptions, and the ctypes path wherever the
extension cannot view an array."""
import ctypes
import os

import numpy as np
import pytest

import edgel


def outcome(fn):
    try:
        out = fn()
        return ("ok", out.dtype.str, out.shape, out.tobytes())
    except Exception as e:  # noqa: BLE001 - the exception itself is what is compared
        return ("raised", type(e).__name__, str(e))


def both_paths(monkeypatch, fn):
    compiled = outcome(fn)
    with monkeypatch.context() as m:
        for module in (edgel._canny, edgel._filters):  # the modules that call it
            m.setattr(module, "_hostcall", None)
        plain = outcome(fn)
    assert compiled == plain
    return compiled


def test_the_build_has_it_and_calls_go_through_it(monkeypatch):
    assert edgel._capi._hostcall is not None, "built without Python headers? (scripts/setup.sh)"

    def boom(*args):
        raise AssertionError("the ctypes path ran")
    for name in ("edgel_filter2d", "edgel_sep_filter2d", "edgel_canny"):
        monkeypatch.setattr(edgel._capi._lib, name, boom)
    img = np.random.default_rng(0).integers(0, 256, (20, 30), dtype=np.uint8)
    edgel.filter2d(img, np.ones((3, 3), np.float32) / 9)
    edgel.sep_filter2d(img, [0.25, 0.5, 0.25], [1.0])
    edgel.canny(img, 10, 30)


def test_same_bytes_and_errors_as_ctypes(monkeypatch):
    rng = np.random.default_rng(1)
    u8 = rng.integers(0, 256, (33, 47, 3), dtype=np.uint8)
    f32 = rng.random((40, 29), dtype=np.float32)
    k = rng.standard_normal((5, 3)).astype(np.float32)
    read_only = np.empty((33, 47, 3), np.uint8)
    read_only.flags.writeable = False
    pitched = np.zeros((40, 40), np.float32)[:, 3:32]
    closed = edgel.Context("cpu")
    closed.close()
    calls = [
        lambda: edgel.filter2d(u8, k),
        lambda: edgel.filter2d(u8, k, dtype=np.float32, border="wrap", anchor=(0, 4)),
        lambda: edgel.filter2d(f32, k, method="fft", border="constant", border_value=2.5),
        lambda: edgel.filter2d(f32, k, border="constant", border_value=np.array(2.5)),  # 0-d
        lambda: edgel.filter2d(f32[::2, ::3], k),                  # strided: copied first
        lambda: edgel.filter2d(f32, k, out=pitched),               # pitched output rows
        lambda: edgel.filter2d(u8, k, out=read_only),              # ValueError
        lambda: edgel.filter2d(u8, k, out=np.empty((33, 47), np.uint8)),  # size mismatch
        lambda: edgel.filter2d(f32.astype(np.float64), k),         # TypeError: dtype
        lambda: edgel.filter2d(f32[None], k),                      # 29 channels
        lambda: edgel.filter2d(f32[None, ..., None], k),           # 4-D
        lambda: edgel.filter2d(np.zeros((0, 5), np.float32), k),   # no rows
        lambda: edgel.filter2d(f32, np.ones((200, 3), np.float32)),  # kernel too large
        lambda: edgel.filter2d(f32, k, ctx=closed),                # context closed
        lambda: edgel.filter2d(f32, k.astype(np.float64)),         # kernel converted first
        lambda: edgel.filter2d(u8, (k * 4).astype(np.uint8)),      # a u8 kernel: converted
        lambda: edgel.filter2d(f32, k.tolist()),                   # a list
        lambda: edgel.filter2d(f32, k[::-1]),                      # rows reversed: copied
        lambda: edgel.filter2d(f32, np.zeros((6, 8), np.float32)[1:4, 2:5]),  # pitched kernel
        lambda: edgel.filter2d(f32, k[..., None]),                 # ValueError: 3-D kernel
        lambda: edgel.filter2d(f32, k[0]),                         # ValueError: 1-D kernel
        lambda: edgel.sep_filter2d(u8, [0.25, 0.5, 0.25], [0.5, 0.5]),
        lambda: edgel.sep_filter2d(f32, np.arange(4.0), [1.0], method="separable"),
        lambda: edgel.sep_filter2d(f32, [], [1.0]),                # empty factor
        lambda: edgel.canny(u8[..., 0], 40, 120),
        lambda: edgel.canny(u8, 40, 120, gray="bgr", blur=1.2),
        lambda: edgel.canny(f32, 40, 120),                         # u8 only
        lambda: edgel.canny(u8[..., 0], 40, 120, out=read_only[..., 0]),
    ]
    kinds = [both_paths(monkeypatch, fn)[0] for fn in calls]
    assert kinds.count("ok") >= 14 and kinds.count("raised") >= 9


def test_arguments_it_cannot_take():
    h = edgel._capi._hostcall
    with pytest.raises(TypeError):
        h.filter2d(1, 2, 3)
    with pytest.raises(TypeError):
        h.canny("not an address", 0, 0, None, None)
    # arrays it cannot view: None, no exception, no call made
    f = np.zeros((4, 4), np.float64)
    assert h.filter2d(0, 0, 0, f, f, f) is None
    g = np.zeros((4, 4), np.float32)
    for kernel in (np.zeros((3, 3), np.uint8), np.zeros((3, 3, 1), np.float32)):  # f32 2-D only
        assert h.filter2d(0, 0, 0, g, g, kernel) is None
    assert h.sep_filter2d(0, 0, 0, np.zeros((4, 4), np.float32), np.zeros((4, 4), np.float32),
                          np.zeros(3, np.float64), np.zeros(3, np.float32)) is None
    assert h.canny(0, 0, 0, object(), object()) is None
    # the device call: its arguments are checked; the library refuses what it cannot take
    with pytest.raises(TypeError):
        h.canny_device(1, 2, 3)
    fn = edgel._capi._ADDRESS["edgel_canny"]
    ctx = edgel.Context("cpu")
    p = edgel._params._params(50, 150, 3, False, None, 0, None)
    args = [fn, edgel._capi._address(ctx._handle), ctypes.addressof(p), 0, 4, 4, 1, 0]
    for i, bad in ((4, 0), (5, -1), (6, 2**31)):
        with pytest.raises(ValueError):
            h.canny_device(*args[:i], bad, *args[i + 1:])
    assert edgel._capi._lib.edgel_status_name(h.canny_device(*args)) == b"EDGEL_ERROR_NULL_ARGUMENT"
    args[3] = args[7] = 64  # device frames on a CPU context: refused before any read
    assert edgel._capi._lib.edgel_status_name(h.canny_device(*args)) == b"EDGEL_ERROR_UNSUPPORTED"


@pytest.mark.skipif(os.environ.get("EDGEL_TEST_INSTALLED") == "1",
                    reason="a build tree's library (an installed package carries its own)")
def test_found_beside_a_library_named_by_a_relative_path():
    import os
    import pathlib
    import subprocess
    import sys
    lib = pathlib.Path(os.environ["EDGEL_LIBRARY"])
    root = pathlib.Path(edgel.__file__).resolve().parents[2]
    env = dict(os.environ, EDGEL_LIBRARY=os.path.relpath(lib, root),
               PYTHONPATH=str(root / "python"))
    r = subprocess.run([sys.executable, "-c", "import edgel; print(edgel._capi._hostcall is not None)"],
                       cwd=root, env=env, capture_output=True, text=True)
    assert r.stdout.strip() == "True", r.stderr
