"""CuPy arrays and PyTorch CUDA tensors through the Python module: results equal to
cv2.Canny, outputs of the same kind, no copies (the `out=` buffer is the one written, by
pointer), the array's stream honoured. Skipped without a GPU; scripts/gpu-check.sh runs it."""
import cv2
import numpy as np
import pytest

import edgel

pytestmark = pytest.mark.gpu
cupy = pytest.importorskip("cupy")
try:
    if cupy.cuda.runtime.getDeviceCount() == 0:
        pytest.skip("no CUDA device", allow_module_level=True)
except cupy.cuda.runtime.CUDARuntimeError:
    pytest.skip("no CUDA device", allow_module_level=True)


@pytest.fixture(scope="module")
def photos(photo_files):
    return [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in photo_files[:20]]


def test_cupy_in_cupy_out(photos):
    for bgr in photos:
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        for img in (gray, bgr):
            d = cupy.asarray(img)
            before = d.copy()
            e = edgel.canny(d, 40, 120)
            assert isinstance(e, cupy.ndarray) and e.shape == img.shape[:2]
            assert np.array_equal(cupy.asnumpy(e), cv2.Canny(img, 40, 120))
            assert bool((d == before).all())  # the input is read, not changed


def test_cupy_out_is_written_in_place(photos):
    gray = cv2.cvtColor(photos[0], cv2.COLOR_BGR2GRAY)
    d = cupy.asarray(gray)
    out = cupy.full(gray.shape, 7, dtype=cupy.uint8)
    ptr = out.data.ptr
    got = edgel.canny(d, 50, 150, aperture=5, l2=True, out=out)
    assert got is out and out.data.ptr == ptr
    assert np.array_equal(cupy.asnumpy(out), cv2.Canny(gray, 50, 150, apertureSize=5, L2gradient=True))


def test_cupy_through_the_compiled_call(photos, monkeypatch):
    """u8 C-contiguous CuPy frames take the compiled call (no ctypes views); other layouts
    the general path; both give cv2.Canny's bytes, and the params cache keeps each call's
    own arguments."""
    calls = []
    compiled = edgel._capi._hostcall.canny_device
    monkeypatch.setattr(edgel._capi._hostcall, "canny_device",
                        lambda *a: calls.append(a) or compiled(*a), raising=False)
    for i, bgr in enumerate(photos[:6]):
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        lo, hi, aperture, l2 = [(40, 120, 3, False), (10, 60, 5, True), (0, 0, 7, False)][i % 3]
        for img in (gray, bgr):
            ref = cv2.Canny(img, lo, hi, apertureSize=aperture, L2gradient=l2)
            n = len(calls)
            e = edgel.canny(cupy.asarray(img), lo, hi, aperture, l2)
            assert len(calls) == n + 1 and np.array_equal(cupy.asnumpy(e), ref)
            out = cupy.empty(img.shape[:2], cupy.uint8)
            assert edgel.canny(cupy.asarray(img), lo, hi, aperture, l2, out=out) is out
            assert len(calls) == n + 2 and np.array_equal(cupy.asnumpy(out), ref)
        blurred = cv2.Canny(cv2.GaussianBlur(gray, (0, 0), 1.4), 40, 120)
        assert np.array_equal(cupy.asnumpy(edgel.canny(cupy.asarray(gray), 40, 120, blur=1.4)),
                              blurred)
    # rows apart (a view of every other row): the general path, the same bytes
    gray = cv2.cvtColor(photos[0], cv2.COLOR_BGR2GRAY)
    n = len(calls)
    e = edgel.canny(cupy.asarray(gray)[::2], 40, 120)
    assert len(calls) == n and np.array_equal(cupy.asnumpy(e), cv2.Canny(gray[::2].copy(), 40, 120))
    with pytest.raises(edgel.EdgelError):  # the library's refusal, as on the general path
        edgel.canny(cupy.asarray(gray), 40, 120, aperture=4)
    with pytest.raises(edgel.EdgelError) as err:  # an out= of another shape: refused
        edgel.canny(cupy.asarray(gray), 40, 120, out=cupy.empty((3, 3), cupy.uint8))
    assert err.value.status == "EDGEL_ERROR_INVALID_SIZE"


def test_cupy_on_a_non_default_stream(photos):
    gray = cv2.cvtColor(photos[1], cv2.COLOR_BGR2GRAY)
    with cupy.cuda.Stream(non_blocking=True) as s:
        d = cupy.asarray(gray) + 0  # written on this stream
        e = edgel.canny(d, 30, 90)
        result = cupy.asnumpy(e, stream=s)
        s.synchronize()
    assert np.array_equal(result, cv2.Canny(gray, 30, 90))


def test_cupy_fields_read_as_its_interface_says():
    """CuPy arrays are read from their attributes, not their __cuda_array_interface__ (which
    costs 7 us a call): the same pointer, shape, strides and stream, on the null stream and
    on another one, contiguous or not."""
    base = cupy.zeros((40, 60, 3), dtype=cupy.uint8)
    with cupy.cuda.Stream(non_blocking=True):
        arrays = [base, base[5:, 2:], base[:, :, 1]]
        views = [(a, a.__cuda_array_interface__, edgel._arrays._cuda_fields(a)) for a in arrays]
    views += [(a, a.__cuda_array_interface__, edgel._arrays._cuda_fields(a)) for a in arrays]
    for a, cai, (shape, dtype, strides, ptr, stream) in views:
        assert tuple(cai["shape"]) == shape and np.dtype(cai["typestr"]) == dtype
        assert cai["data"][0] == ptr and cai["stream"] == stream
        assert (cai["strides"] or a.strides) == strides


def test_host_calls_after_calls_on_a_stream(photos):
    """A context keeps the stream of its last CUDA-array call only until a host call, which
    runs on the context's own stream again: results stay right when the caller's stream is
    gone by then."""
    gray = cv2.cvtColor(photos[3], cv2.COLOR_BGR2GRAY)
    ctx = edgel.Context("cuda")
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        e = edgel.canny(cupy.asarray(gray), 40, 120, ctx=ctx)
        s.synchronize()
    assert np.array_equal(cupy.asnumpy(e), cv2.Canny(gray, 40, 120))
    del s, e
    for low, high in ((40, 120), (60, 180)):
        assert np.array_equal(edgel.canny(gray, low, high, ctx=ctx), cv2.Canny(gray, low, high))
    k = np.ones((3, 3), np.float32) / 9
    assert np.array_equal(edgel.filter2d(gray, k, ctx=ctx), cv2.filter2D(gray, -1, k))


def test_torch_in_torch_out(photos):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    gray = cv2.cvtColor(photos[2], cv2.COLOR_BGR2GRAY)
    t = torch.from_numpy(gray).cuda()
    e = edgel.canny(t, 50, 150)
    assert isinstance(e, torch.Tensor) and e.device == t.device and e.dtype == torch.uint8
    assert np.array_equal(e.cpu().numpy(), cv2.Canny(gray, 50, 150))
    out = torch.zeros_like(t)
    ptr = out.data_ptr()
    assert edgel.canny(t, 50, 150, blur=1.4, out=out) is out and out.data_ptr() == ptr
    assert np.array_equal(out.cpu().numpy(), cv2.Canny(cv2.GaussianBlur(gray, (0, 0), 1.4), 50, 150))


def test_bad_cuda_arrays(photos):
    gray = cv2.cvtColor(photos[0], cv2.COLOR_BGR2GRAY)
    d = cupy.asarray(gray)
    with pytest.raises(ValueError):
        edgel.canny(d[:, ::2], 50, 150)  # pixels not packed
    with pytest.raises(edgel.EdgelError) as err:
        edgel.canny(d, float("nan"), 150)
    assert err.value.status == "EDGEL_ERROR_INVALID_ARGUMENT"


def test_filter2d_and_itk_on_cupy_and_torch():
    """filter2d (direct: the CPU's floats) and canny_itk on CuPy arrays and torch tensors,
    outputs of the same kind, out= written in place."""
    rng = np.random.default_rng(9)
    img = rng.random((123, 157, 3), np.float32) * 255
    k = rng.standard_normal((7, 5)).astype(np.float32)
    ref = edgel.filter2d(img, k, border="reflect", method="direct", ctx=edgel.Context("cpu"))
    d = cupy.asarray(img)
    out = cupy.empty_like(d)
    ptr = out.data.ptr
    got = edgel.filter2d(d, k, border="reflect", method="direct", out=out)
    assert got is out and out.data.ptr == ptr
    assert np.array_equal(cupy.asnumpy(out), ref)
    fft = edgel.filter2d(d, k, border="reflect", method="fft")
    assert isinstance(fft, cupy.ndarray)
    err = np.linalg.norm(cupy.asnumpy(fft) - ref) / np.linalg.norm(ref)
    assert err < 1e-5
    gray = img[:, :, 0].copy()
    itk_ref = edgel.canny_itk(gray, 2.0, 0.01, 10.0, 5.0, ctx=edgel.Context("cpu"))
    assert np.array_equal(cupy.asnumpy(edgel.canny_itk(cupy.asarray(gray), 2.0, 0.01, 10.0, 5.0)),
                          itk_ref)
    torch = pytest.importorskip("torch")
    t = torch.as_tensor(img, device="cuda")
    got = edgel.filter2d(t, k, border="reflect", method="direct")
    assert isinstance(got, torch.Tensor) and got.is_cuda
    assert np.array_equal(got.cpu().numpy(), ref)


class _DLPackOnly:
    """A CUDA array that offers only DLPack (as JAX arrays do)."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, stream=None):
        return self.tensor.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()


def test_dlpack_only_arrays(photos):
    torch = pytest.importorskip("torch")
    gray = cv2.cvtColor(photos[1], cv2.COLOR_BGR2GRAY)
    t = torch.as_tensor(gray, device="cuda")
    e = edgel.canny(_DLPackOnly(t), 40, 120)
    assert isinstance(e, cupy.ndarray)
    assert np.array_equal(cupy.asnumpy(e), cv2.Canny(gray, 40, 120))
    k = np.full((3, 3), 1 / 9, np.float32)
    f = edgel.filter2d(_DLPackOnly(t), k, method="direct")
    assert isinstance(f, cupy.ndarray) and f.dtype == cupy.uint8
    assert np.array_equal(cupy.asnumpy(f), cv2.filter2D(gray, -1, k))


def test_stages_of_cuda_arrays(photos):
    img = photos[0]
    want = {"suppressed": None, "dx": None, "magnitude": None}
    edgel.canny(img, 40, 120, blur=1.4, stages=want)
    got = {"suppressed": None, "dx": None, "magnitude": None}
    edges = edgel.canny(cupy.asarray(img), 40, 120, blur=1.4, stages=got)
    assert np.array_equal(edges.get(), edgel.canny(img, 40, 120, blur=1.4))
    for name in want:
        assert type(got[name]) is cupy.ndarray and np.array_equal(got[name].get(), want[name])
    f = np.ascontiguousarray(img[:, :, 0], np.float32) * 0.3
    a, b = {"suppressed": None}, {"suppressed": None}
    edgel.canny_itk(f, variance=2.0, upper=8, lower=3, stages=a)
    edgel.canny_itk(cupy.asarray(f), variance=2.0, upper=8, lower=3, stages=b)
    assert np.array_equal(b["suppressed"].get(), a["suppressed"])


def test_dask_with_cupy_chunks(photos):
    """edgel.dask on CuPy chunks: the chunks' work on the GPU, CuPy edges, the whole image's
    bytes, for both presets; on dask-cuda's LocalCUDACluster where it is installed."""
    da = pytest.importorskip("dask.array")
    import edgel.dask
    img = photos[0]
    gpu = da.from_array(cupy.asarray(img), chunks=(77, 130, 3), asarray=False)
    got = edgel.dask.canny(gpu, 40, 120, blur=1.4, gray="rgb").compute(scheduler="threads")
    assert type(got) is cupy.ndarray
    assert np.array_equal(got.get(), edgel.canny(img, 40, 120, blur=1.4, gray="rgb"))
    f = np.ascontiguousarray(img[:, :, 1], np.float32) * 0.41
    fg = da.from_array(cupy.asarray(f), chunks=(64, 90), asarray=False)
    got = edgel.dask.canny_itk(fg, variance=2.0, upper=9, lower=3).compute(scheduler="threads")
    assert np.array_equal(got.get(), edgel.canny_itk(f, variance=2.0, upper=9, lower=3,
                                                     dtype=np.uint8))
    dask_cuda = pytest.importorskip("dask_cuda")
    distributed = pytest.importorskip("distributed")
    with dask_cuda.LocalCUDACluster(dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = client.compute(edgel.dask.canny(gpu, 40, 120, blur=1.4, gray="rgb")).result()
    assert type(got) is cupy.ndarray
    assert np.array_equal(got.get(), edgel.canny(img, 40, 120, blur=1.4, gray="rgb"))


def test_batches_of_cuda_arrays(photos):
    torch = pytest.importorskip("torch")
    img = photos[0][:120, :160]
    batch = np.stack([img, img[::-1], img[:, ::-1]])
    want = [edgel.canny(np.ascontiguousarray(f), 40, 120, gray="rgb") for f in batch]
    for arr in (cupy.asarray(batch), torch.from_numpy(batch).cuda()):
        got = edgel.canny_batch(arr, 40, 120, gray="rgb")
        host = got.get() if isinstance(got, cupy.ndarray) else got.cpu().numpy()
        assert type(got) is type(arr)
        assert all(np.array_equal(host[i], want[i]) for i in range(3))
    mixed = [cupy.asarray(np.ascontiguousarray(img)), cupy.asarray(np.ascontiguousarray(img[:50]))]
    got = edgel.canny_batch(mixed, 40, 120, gray="rgb")
    assert np.array_equal(got[1].get(), edgel.canny(np.ascontiguousarray(img[:50]), 40, 120,
                                                    gray="rgb"))
    # gray frames of many sizes: one launch sequence, each equal to its own call
    gray = cv2.cvtColor(photos[1], cv2.COLOR_BGR2GRAY)
    frames = [np.ascontiguousarray(gray[: 20 + 13 * i, : 30 + 17 * i]) for i in range(12)]
    got = edgel.canny_batch([cupy.asarray(f) for f in frames], 35, 105)
    assert all(np.array_equal(g.get(), cv2.Canny(f, 35, 105)) for g, f in zip(got, frames))


def test_batches_over_every_gpu(photos):
    """devices="all": host frames in equal shares over one context a GPU (several contexts on
    one GPU too), the bytes of cv2.Canny frame by frame."""
    frames = np.stack([cv2.cvtColor(p[:240, :320], cv2.COLOR_BGR2GRAY) for p in photos[:9]])
    want = np.stack([cv2.Canny(f, 40, 120) for f in frames])
    assert edgel.cuda_device_count() == cupy.cuda.runtime.getDeviceCount()
    assert np.array_equal(edgel.canny_batch(frames, 40, 120, devices="all"), want)
    on_one = [edgel.Context("cuda", device=0) for _ in range(3)]
    assert np.array_equal(edgel.canny_batch(frames, 40, 120, ctx=on_one), want)


@pytest.mark.skipif(cupy.cuda.runtime.getDeviceCount() < 2, reason="one GPU")
def test_arrays_on_a_second_gpu(photos):
    """A CuPy array on device 1 runs on device 1's default context; a context of another
    device is refused (never a fault); a call leaves the caller's current device as it was."""
    gray = cv2.cvtColor(photos[1], cv2.COLOR_BGR2GRAY)
    with cupy.cuda.Device(1):
        d = cupy.asarray(gray)
        got = edgel.canny(d, 40, 120)
        assert got.device.id == 1
        assert np.array_equal(got.get(), cv2.Canny(gray, 40, 120))
        got = edgel.canny_batch(cupy.stack([d, d]), 40, 120)
        assert got.device.id == 1 and np.array_equal(got[1].get(), cv2.Canny(gray, 40, 120))
        with pytest.raises(edgel.EdgelError, match="device 1 but the context is on device 0"):
            edgel.canny(d, 40, 120, ctx=edgel.Context("cuda", device=0))
        assert cupy.cuda.runtime.getDevice() == 1
    with cupy.cuda.Device(0):
        edgel.canny(gray, 40, 120, ctx=edgel.Context("cuda", device=1))
        assert cupy.cuda.runtime.getDevice() == 0


def test_skimage_preset_on_cuda_arrays(photos):
    """canny_skimage on CuPy arrays and PyTorch tensors equals the CPU's (itself equal to
    scikit-image: test_skimage_conformance.py), with masks, quantiles, stages and every dtype
    the library reads; and scikit-image itself where it is installed."""
    rng = np.random.default_rng(4)
    gray = cv2.cvtColor(photos[2], cv2.COLOR_BGR2GRAY)
    forms = [gray, gray > 127, gray.astype(np.uint16) * 257, gray.astype(np.int16) * 100,
             gray.astype(np.int32) * 1000, (gray / 255.0).astype(np.float32), gray / 255.0]
    for i, img in enumerate(forms):
        mask = rng.random(img.shape) > 0.1
        kw = [dict(), dict(sigma=2.0, mode="reflect"), dict(use_quantiles=True,
              low_threshold=0.5, high_threshold=0.8), dict(sigma=0.0, mask=mask)][i % 4]
        ref = edgel.canny_skimage(img, ctx=edgel.Context("cpu"), **kw)
        dkw = dict(kw)
        if "mask" in dkw:
            dkw["mask"] = cupy.asarray(mask)
        stages = dict.fromkeys(["smoothed", "dx", "dy", "magnitude", "suppressed"])
        got = edgel.canny_skimage(cupy.asarray(img), stages=stages, **dkw)
        assert isinstance(got, cupy.ndarray) and got.dtype == cupy.bool_
        assert np.array_equal(cupy.asnumpy(got), ref), (img.dtype, kw.keys())
        host_stages = dict.fromkeys(stages)
        edgel.canny_skimage(img, stages=host_stages, ctx=edgel.Context("cpu"), **kw)
        for name in stages:
            assert np.array_equal(cupy.asnumpy(stages[name]).view(np.uint8),
                                  host_stages[name].view(np.uint8)), (img.dtype, name)
    torch = pytest.importorskip("torch")
    t = torch.from_numpy(forms[5]).cuda()
    got = edgel.canny_skimage(t, sigma=1.5)
    assert got.dtype == torch.bool and torch.equal(
        got.cpu(), torch.from_numpy(edgel.canny_skimage(forms[5], sigma=1.5)))
    try:
        from skimage import feature
    except ImportError:
        return
    for img in forms:
        assert np.array_equal(cupy.asnumpy(edgel.canny_skimage(cupy.asarray(img), sigma=1.4)),
                              feature.canny(img, sigma=1.4)), img.dtype


def test_subpixel_edges_on_cuda_arrays(photos):
    """Sub-pixel curves of CuPy arrays, PyTorch tensors and (on a CUDA context) NumPy arrays
    equal the CPU's bit for bit, in every input type."""
    cpu = edgel.Context("cpu")
    gpu = edgel.Context("cuda")

    def same(a, b):
        return all(np.array_equal(getattr(a, k), getattr(b, k))
                   for k in ("points", "limits", "closed", "gradient", "modulus"))

    for bgr in photos[:8]:
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        for img in (gray, gray.astype(np.uint16) * 200, gray.astype(np.float32) / 3,
                    gray.astype(np.float64) + 0.25):
            want = edgel.subpixel_edges(img, 1.0, 15.0, 5.0, ctx=cpu)
            assert len(want) > 0
            assert same(edgel.subpixel_edges(cupy.asarray(img), 1.0, 15.0, 5.0), want)
            assert same(edgel.subpixel_edges(img, 1.0, 15.0, 5.0, ctx=gpu), want)
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        t = torch.from_numpy(gray).cuda()
        assert same(edgel.subpixel_edges(t, 2.0, 0.0, 0.0),
                    edgel.subpixel_edges(gray, 2.0, 0.0, 0.0, ctx=cpu))
    with pytest.raises(edgel.EdgelError):  # device memory on a CPU context
        edgel.subpixel_edges(cupy.asarray(gray), 1.0, 15.0, 5.0, ctx=cpu)


def test_subpixel_edges_on_device(photos):
    """on_device=True: the points, gradients and moduli as CuPy arrays on the GPU, equal to the
    CPU's; the limits and closed flags as NumPy arrays; curves index as CuPy views; low above
    high (chained on the host) and no points too; a CPU context is refused."""
    cpu, gpu = edgel.Context("cpu"), edgel.Context("cuda")
    for bgr in photos[:4]:
        gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        for img, thresholds in ((cupy.asarray(gray), (15.0, 5.0)), (gray, (15.0, 5.0)),
                                (cupy.asarray(gray), (5.0, 15.0))):
            want = edgel.subpixel_edges(gray, 1.0, *thresholds, ctx=cpu)
            got = edgel.subpixel_edges(img, 1.0, *thresholds, ctx=None if
                                       isinstance(img, cupy.ndarray) else gpu, on_device=True)
            for k in ("points", "gradient", "modulus"):
                assert isinstance(getattr(got, k), cupy.ndarray)
                assert np.array_equal(cupy.asnumpy(getattr(got, k)), getattr(want, k)), k
            assert isinstance(got.limits, np.ndarray) and np.array_equal(got.limits, want.limits)
            assert np.array_equal(got.closed, want.closed) and len(got) == len(want) > 0
            assert np.array_equal(cupy.asnumpy(got[len(got) - 1]), want[len(want) - 1])
            assert all(np.array_equal(a, b) for a, b in zip(got.polylines(), want.polylines()))
    flat = edgel.subpixel_edges(cupy.zeros((30, 40), cupy.uint8), on_device=True)
    assert len(flat) == 0 and flat.points.shape == (0, 2) and list(flat.limits) == [0]
    with pytest.raises(ValueError, match="CUDA context"):
        edgel.subpixel_edges(gray, on_device=True, ctx=cpu)


def test_subpixel_edges_batch_on_the_gpu(photos):
    """subpixel_edges_batch on a GPU: CuPy arrays, NumPy arrays through a CUDA context, curves
    on the host and on the device: each frame's the CPU's single call's."""
    cpu, gpu = edgel.Context("cpu"), edgel.Context("cuda")
    grays = [cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) for bgr in photos[:10]]
    want = [edgel.subpixel_edges(g, 1.0, 15.0, 5.0, ctx=cpu) for g in grays]
    for frames, ctx in (([cupy.asarray(g) for g in grays], None), (grays, gpu)):
        for on_device in (False, True):
            got = edgel.subpixel_edges_batch(frames, 1.0, 15.0, 5.0, ctx=ctx,
                                             on_device=on_device)
            for g, w in zip(got, want):
                for k in ("points", "gradient", "modulus"):
                    a = getattr(g, k)
                    assert np.array_equal(cupy.asnumpy(a) if on_device else a, getattr(w, k))
                assert np.array_equal(g.limits, w.limits) and np.array_equal(g.closed, w.closed)


def test_canny_itk_on_cuda_volumes():
    """ITK's Canny on CuPy and PyTorch volumes (z, y, x) and on NumPy volumes through a CUDA
    context: the CPU's edges and stages (and so ITK's), outputs of the array's kind."""
    rng = np.random.default_rng(30)
    z, y, x = np.mgrid[0:40, 0:56, 0:48].astype(np.float32)
    a = (((x - 24) ** 2 + (y - 28) ** 2 + (z - 20) ** 2 < 225) * 90 +
         rng.standard_normal(x.shape) * 8).astype(np.float32)
    cpu = edgel.Context("cpu")
    opts = dict(spacing=(2.0, 1.0, 0.8))
    st_cpu = {"suppressed": None, "smoothed": None}
    want = edgel.canny_itk(a, (4.0, 2.0, 1.5), 0.01, 15.0, 6.0, stages=st_cpu, ctx=cpu, **opts)
    assert want.sum() > 100
    st = {"suppressed": None, "smoothed": None}
    got = edgel.canny_itk(cupy.asarray(a), (4.0, 2.0, 1.5), 0.01, 15.0, 6.0, stages=st, **opts)
    assert isinstance(got, cupy.ndarray) and np.array_equal(cupy.asnumpy(got), want)
    for name in st:
        assert np.array_equal(cupy.asnumpy(st[name]), st_cpu[name]), name
    got = edgel.canny_itk(a, (4.0, 2.0, 1.5), 0.01, 15.0, 6.0, ctx=edgel.Context("cuda"), **opts)
    assert np.array_equal(got, want)
    u8 = edgel.canny_itk(cupy.asarray(a.astype(np.uint8)), 2.0, 0.01, 15.0, 6.0,
                         dtype=np.uint8)
    assert np.array_equal(cupy.asnumpy(u8),
                          edgel.canny_itk(a.astype(np.uint8), 2.0, 0.01, 15.0, 6.0,
                                          dtype=np.uint8, ctx=cpu))
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        t = torch.from_numpy(a).cuda()
        e = edgel.canny_itk(t, (4.0, 2.0, 1.5), 0.01, 15.0, 6.0, **opts)
        assert isinstance(e, torch.Tensor) and np.array_equal(e.cpu().numpy(), want)
