"""Sub-pixel edges chained into curves: the Canny/Devernay detector (von Gioi and Randall,
IPOL 2017), equal to its reference program point for point."""
from __future__ import annotations

import ctypes
import threading
from typing import Iterator, Optional

import numpy as np

from ._arrays import _cuda_array, _cuda_fields, _device_of, _device_view, _packed, _view
from ._capi import (_CurvesView, _Image, _RefineParams, _SubpixelParams, _SubpixelPoints,
                    _check, _lib)
from ._context import Context, _ctx

_SUBPIXEL_TYPES = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.float32),
                   np.dtype(np.float64))


class Curves:
    """Curves of sub-pixel edge points, as subpixel_edges() gives them.

    Attributes
    ----------
    points : numpy.ndarray, float64, (N, 2)
        Every point's (x, y), curve after curve; pixel centres are at integer coordinates.
    limits : numpy.ndarray, int64, (M + 1,)
        Curve k is ``points[limits[k]:limits[k + 1]]``.
    closed : numpy.ndarray of bool, (M,)
        True where a curve is a loop; its last point then repeats its first.
    gradient : numpy.ndarray, float64, (N, 2)
        The (blurred) image's gradient (gx, gy) at each point's pixel (centred differences).
    modulus : numpy.ndarray, float64, (N,)
        Its modulus, sqrt(gx^2 + gy^2).

    With ``subpixel_edges(..., on_device=True)``, points, gradient and modulus are CuPy
    arrays on the GPU.

    Notes
    -----
    ``len(curves)`` is the number of curves and ``curves[k]`` curve k's (n, 2) points (a
    view), so ``list(curves)`` is what matplotlib's LineCollection takes;
    ``curves.polylines()`` is what cv2.polylines takes.
    """

    def __init__(self, points, limits, closed, gradient, modulus):
        self.points, self.limits, self.closed = points, limits, closed
        self.gradient, self.modulus = gradient, modulus

    def __len__(self) -> int:
        return len(self.limits) - 1

    def __getitem__(self, k: int) -> np.ndarray:
        if not -len(self) <= k < len(self):
            raise IndexError(f"curve {k} of {len(self)}")
        k %= len(self)
        return self.points[self.limits[k]:self.limits[k + 1]]

    def __iter__(self) -> Iterator[np.ndarray]:
        return (self[k] for k in range(len(self)))

    def __repr__(self) -> str:
        return (f"Curves({len(self)} curves, {len(self.points)} points, "
                f"{int(self.closed.sum())} closed)")

    def polylines(self, shift: int = 4) -> list:
        """The curves for ``cv2.polylines(image, curves.polylines(), False, colour,
        shift=shift)``: int32 (n, 1, 2) arrays of the points times 2**shift, rounded (OpenCV
        draws sub-pixel positions with `shift` fractional bits; pixel centres are integers,
        as here)."""
        if isinstance(shift, bool) or not isinstance(shift, (int, np.integer)) or \
                not 0 <= shift <= 16:
            raise ValueError(f"shift is an integer 0 .. 16 (cv2.polylines' range), not {shift!r}")
        scale = float(1 << shift)
        points = self.points if isinstance(self.points, np.ndarray) else self.points.get()
        scaled = np.rint(points * scale)
        if scaled.size and not np.abs(scaled).max() <= 2**31 - 1:
            raise ValueError(f"points times 2**{shift} do not fit int32: use a smaller shift")
        return [scaled[a:b].astype(np.int32).reshape(-1, 1, 2)
                for a, b in zip(self.limits[:-1], self.limits[1:])]


class _CurvesHandle:
    """An edgel_curves kept for a thread's calls: its memory is reused from call to call."""

    def __init__(self):
        self.handle = ctypes.c_void_p()
        _check(_lib.edgel_curves_create(ctypes.byref(self.handle)))

    def __del__(self):
        if self.handle:
            _lib.edgel_curves_destroy(self.handle)
            self.handle = None


_threads = threading.local()


def _thread_curves() -> ctypes.c_void_p:
    """The calling thread's edgel_curves (an edgel_curves serves one call at a time; the
    calls release the GIL)."""
    mine = getattr(_threads, "curves", None)
    if mine is None:
        mine = _threads.curves = _CurvesHandle()
    return mine.handle


def _view_of(pointer, count: int) -> np.ndarray:
    """A NumPy view of `count` elements at a ctypes pointer (valid until the next call on the
    curves; empty for none)."""
    if count == 0:
        return np.empty(0, np.dtype(pointer._type_))
    return np.ctypeslib.as_array(pointer, shape=(count,))


def subpixel_edges(image, sigma: float = 0.0, high: float = 0.0, low: float = 0.0, *,
                   ctx: Optional[Context] = None, on_device: bool = False) -> Curves:
    """Sub-pixel edge points chained into curves (the Canny/Devernay detector).

    Equal to the reference program of von Gioi and Randall ("A Sub-Pixel Edge Detector: an
    Implementation of the Canny/Devernay Algorithm", IPOL 2017, devernay 1.0) point for
    point, bit for bit, in its order of curves and points, at every thread count.

    Parameters
    ----------
    image : array, (H, W) of uint8, uint16, float32 or float64
        Gray values as they are (an 8-bit pixel is its value): a NumPy array (on the CPU, or
        on the GPU with a CUDA `ctx`), or a CuPy or PyTorch CUDA array (on its GPU; the curves
        come back in host memory unless `on_device`).
    sigma : float
        The Gaussian blur's standard deviation (0: none), as the reference's -s.
    high, low : float
        Hysteresis on the gradient modulus along the chains, as the reference's -h and -l.
    ctx : Context, optional
    on_device : bool
        Keep the points on the GPU (a CUDA context; needs CuPy): ``points``, ``gradient`` and
        ``modulus`` are CuPy arrays on the context's device and never pass through host
        memory; ``limits`` and ``closed`` (a few numbers a curve) stay NumPy arrays, so that
        ``curves[k]`` is a CuPy view without a device round trip.

    Returns
    -------
    Curves
        The curves: ``curves.points``, ``curves.limits``, ``curves.closed``,
        ``curves.gradient``, ``curves.modulus``; ``curves[k]`` is curve k's (n, 2) points.

    Examples
    --------
    >>> curves = edgel.subpixel_edges(gray, sigma=1.0, high=15, low=5)
    >>> for c in curves:                    # (n, 2) arrays of (x, y)
    ...     length = numpy.hypot(*numpy.diff(c, axis=0).T).sum()
    >>> cv2.polylines(bgr, curves.polylines(), False, (0, 0, 255), shift=4)
    """
    image, cuda = _checked_image(image, "subpixel_edges")
    p = _params_of(sigma, high, low)
    handle = _thread_curves()
    if cuda is None:
        src, context = _view(image), _ctx(ctx, "cuda" if on_device else "auto")
    else:  # after the work queued on the array's stream
        src, stream = _device_view(cuda)
        context = _ctx(ctx, "cuda", stream or None, _device_of(cuda))
    _check_place(context, on_device, "subpixel_edges")
    _check(_lib.edgel_curves_set_place(handle, 1 if on_device else 0))
    _check(_lib.edgel_subpixel_edges(context._handle, ctypes.byref(p), ctypes.byref(src),
                                     handle))
    return _device_curves_of(handle) if on_device else _curves_of(handle)


def subpixel_edges_batch(images, sigma: float = 0.0, high: float = 0.0, low: float = 0.0, *,
                         ctx: Optional[Context] = None, on_device: bool = False) -> list:
    """subpixel_edges() of many images in one call, the frames run side by side.

    The curves equal those of one subpixel_edges() call an image. On the CPU, a frame a
    thread where the frames fill at least half the context's threads; on a GPU, several
    frames at once, each on a stream and memory of its own, so that one frame's kernels run
    while another's call waits for its counts.

    Parameters
    ----------
    images : sequence of arrays, each (H, W) of uint8, uint16, float32 or float64
        Any sizes: NumPy arrays, or CuPy or PyTorch CUDA arrays of one device (host and
        device arrays may mix on a CUDA `ctx`).
    sigma, high, low, ctx, on_device
        As subpixel_edges().

    Returns
    -------
    list of Curves
        The curves of images[i] at i.

    Examples
    --------
    >>> batch = edgel.subpixel_edges_batch(frames, sigma=1.0, high=15, low=5)
    >>> [len(curves) for curves in batch]
    """
    checked = [_checked_image(im, f"subpixel_edges_batch: image {i}")
               for i, im in enumerate(images)]
    if not checked:
        return []
    p = _params_of(sigma, high, low)
    devices = {_device_of(cuda) for _, cuda in checked if cuda is not None}
    if len(devices) > 1:
        raise ValueError(f"subpixel_edges_batch: the CUDA arrays are on devices "
                         f"{sorted(devices)}; a batch runs on one")
    views, stream = [], None
    for image, cuda in checked:
        if cuda is None:
            views.append(_view(image))
        else:  # after the work queued on the first array's stream
            view, s = _device_view(cuda)
            views.append(view)
            stream = s if stream is None else stream
    if devices:
        context = _ctx(ctx, "cuda", stream or None, devices.pop())
    else:
        context = _ctx(ctx, "cuda" if on_device else "auto")
    _check_place(context, on_device, "subpixel_edges_batch")
    handles = _thread_batch_curves(len(views))
    for h in handles:
        _check(_lib.edgel_curves_set_place(h, 1 if on_device else 0))
    n = len(views)
    _check(_lib.edgel_subpixel_edges_batch(context._handle, ctypes.byref(p),
                                           (_Image * n)(*views), (ctypes.c_void_p * n)(*handles),
                                           n))
    return [_device_curves_of(h) if on_device else _curves_of(h) for h in handles]


def _checked_image(image, what: str) -> tuple:
    """(the image, packed where it is a host array; its CUDA array interface or None), or
    TypeError / ValueError naming `what`."""
    cuda = _cuda_array(image)
    if cuda is None:
        image = np.asarray(image)
        shape, dtype = image.shape, image.dtype
    else:
        shape, dtype = _cuda_fields(cuda)[:2]
    if dtype not in _SUBPIXEL_TYPES:
        raise TypeError(f"{what} reads uint8, uint16, float32 or float64 images, not {dtype}")
    if len(shape) != 2:
        raise ValueError(f"{what} takes a 2-D (H, W) gray image, not shape {shape}")
    return (_packed(image) if cuda is None else image), cuda


def _check_place(context: Context, on_device: bool, what: str) -> None:
    if on_device and context.backend != "cuda":
        raise ValueError(f"{what}(on_device=True) runs on a CUDA context, not {context!r}")


def _thread_batch_curves(n: int) -> list:
    """The calling thread's first n edgel_curves of batches (grown as batches grow)."""
    mine = getattr(_threads, "batch", None)
    if mine is None:
        mine = _threads.batch = []
    while len(mine) < n:
        mine.append(_CurvesHandle())
    return [h.handle for h in mine[:n]]


def _curves_of(handle) -> Curves:
    """The curves an edgel_curves holds, copied into NumPy arrays (on every core, without
    the GIL: a 4K frame's million points take milliseconds)."""
    v = _CurvesView()
    _lib.edgel_curves_view_init(ctypes.byref(v), ctypes.sizeof(v))
    _check(_lib.edgel_curves_get(handle, ctypes.byref(v)))
    n, m = int(v.points), int(v.curves)
    points, gradient = np.empty((n, 2), np.float64), np.empty((n, 2), np.float64)
    modulus, limits = np.empty(n, np.float64), np.empty(m + 1, np.int64)
    closed = np.empty(m, np.bool_)
    _check(_lib.edgel_curves_copy(handle, points.ctypes.data, gradient.ctypes.data,
                                  modulus.ctypes.data, limits.ctypes.data, closed.ctypes.data, 0))
    return Curves(points, limits, closed, gradient, modulus)


def _device_curves_of(handle) -> Curves:
    """The curves an edgel_curves holds in device memory, copied into CuPy arrays on its
    device (limits and closed into NumPy arrays)."""
    import cupy
    v = _CurvesView()
    _lib.edgel_curves_view_init(ctypes.byref(v), ctypes.sizeof(v))
    _check(_lib.edgel_curves_get(handle, ctypes.byref(v)))
    n, m = int(v.points), int(v.curves)
    with cupy.cuda.Device(int(v.device)):
        points, gradient = cupy.empty((n, 2), cupy.float64), cupy.empty((n, 2), cupy.float64)
        modulus = cupy.empty(n, cupy.float64)
    limits, closed = np.empty(m + 1, np.int64), np.empty(m, np.bool_)
    _check(_lib.edgel_curves_copy(handle, points.data.ptr or None, gradient.data.ptr or None,
                                  modulus.data.ptr or None, limits.ctypes.data,
                                  closed.ctypes.data, 0))
    return Curves(points, limits, closed, gradient, modulus)


def refine_curves(curves: Curves, sigma: float, *, blur: float = 0.0, window: int = 20,
                  tolerance: float = 0.25, ctx: Optional[Context] = None) -> Curves:
    """The curves with their points refined: closer to the true edge than the exact
    detector's on noisy and curved edges (edgel_curves_refine; docs/subpixel.md measures it).

    Each point moves onto the circle (or line) fitted to its `window` neighbours on each side
    along its curve, which averages the noise out, then outwards from that circle's centre by
    the distance that blurring moves a disk's edge inwards. Not the reference's points: the
    exact detector stays subpixel_edges().

    Parameters
    ----------
    curves : Curves
        As subpixel_edges() (or edgel.dask's) gives them; CuPy curves are refined on the
        host's cores and come back as CuPy arrays.
    sigma : float
        The sigma the curves were found with.
    blur : float
        The image's own blur before the detector's (its optics' Gaussian standard deviation,
        in pixels; 0: sharp).
    window : int
        Neighbours on each side fitted with a point (2 to 4096): more averages more noise and
        rounds corners more.
    ctx : Context, optional
        Its CPU threads do the work.

    Returns
    -------
    Curves
        New curves: refined ``points``; the same ``limits``, ``closed``, ``gradient`` and
        ``modulus``.

    Examples
    --------
    >>> curves = edgel.subpixel_edges(gray, sigma=1.0, high=15, low=5)
    >>> fine = edgel.refine_curves(curves, sigma=1.0, blur=1.0)
    """
    p = _RefineParams()
    _lib.edgel_refine_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.sigma, p.blur, p.window = float(sigma), float(blur), int(window)
    p.tolerance = float(tolerance)
    on_device = not isinstance(curves.points, np.ndarray)
    points = np.ascontiguousarray(curves.points.get() if on_device else curves.points,
                                  np.float64)
    limits = np.ascontiguousarray(curves.limits, np.int64)
    closed = np.ascontiguousarray(curves.closed, np.uint8)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"refine_curves: points must be (N, 2), not {points.shape}")
    if limits.shape != (len(closed) + 1,):
        raise ValueError(f"refine_curves: {len(limits)} limits for {len(closed)} curves")
    refined = np.empty_like(points)
    _check(_lib.edgel_curves_refine(_ctx(ctx, "cpu")._handle, ctypes.byref(p), len(points),
                                    len(closed), points.ctypes.data, limits.ctypes.data,
                                    closed.ctypes.data, refined.ctypes.data))
    if on_device:
        import cupy
        refined = cupy.asarray(refined)
    return Curves(refined, curves.limits, curves.closed, curves.gradient, curves.modulus)


# ---- in bands of columns --------------------------------------------------------------

class SubpixelStream:
    """Sub-pixel curves of an image given in bands of columns, left to right, with memory
    bounded by a band and the chains still open (edgel_subpixel_stream_*): the result is
    subpixel_edges() on the whole image, point for point, in its order.

    Each piece is a (height, columns) array of the image's columns x0 on, every row; it must
    start at column 0 or at least ``halo`` columns before ``columns`` (the first column not
    yet added) and reach past it by more than ``halo`` (or to the image's last column). It
    adds the columns up to its last less ``halo``.

    Examples
    --------
    >>> s = edgel.SubpixelStream(width, height, sigma=1.0, high=15, low=5)
    >>> while s.columns < width:
    ...     x0 = max(0, s.columns - s.halo)
    ...     x1 = min(width, s.columns + 1024 + s.halo)
    ...     s.add(read_columns(x0, x1), x0)     # (height, x1 - x0)
    >>> curves = s.finish()
    """

    def __init__(self, width: int, height: int, sigma: float = 0.0, high: float = 0.0,
                 low: float = 0.0, *, ctx: Optional[Context] = None):
        self.width, self.height = int(width), int(height)
        self.halo = _subpixel_halo(sigma)
        self._ctx = _ctx(ctx, "cpu")
        self._handle = ctypes.c_void_p()
        _check(_lib.edgel_subpixel_stream_create(ctypes.byref(_params_of(sigma, high, low)),
                                                 self.width, self.height,
                                                 ctypes.byref(self._handle)))

    def __del__(self):
        if getattr(self, "_handle", None):
            _lib.edgel_subpixel_stream_destroy(self._handle)
            self._handle = None

    @property
    def columns(self) -> int:
        """The columns added so far: the next piece adds from this column on."""
        return int(_lib.edgel_subpixel_stream_columns(self._handle))

    @property
    def points(self) -> int:
        """The points of the curves finished so far (about 96 bytes each until finish), to
        bound the memory of a long stream."""
        return int(_lib.edgel_subpixel_stream_points(self._handle))

    def add(self, piece, x0: int) -> None:
        """Adds a (height, columns) piece of uint8, uint16, float32 or float64 starting at
        column x0 of the image (on the context's CPU threads)."""
        piece = np.asarray(piece)
        if piece.dtype not in _SUBPIXEL_TYPES or piece.ndim != 2:
            raise TypeError(f"a piece is a 2-D uint8, uint16, float32 or float64 array, not "
                            f"{piece.dtype} of shape {piece.shape}")
        piece = _packed(piece)
        _check(_lib.edgel_subpixel_stream_add(self._ctx._handle, self._handle,
                                              ctypes.byref(_view(piece)), int(x0)))

    def finish(self) -> Curves:
        """Once every column is in: the curves (once; the stream then lets them go)."""
        handle = _thread_curves()
        _check(_lib.edgel_subpixel_stream_finish(self._ctx._handle, self._handle, handle))
        return _curves_of(handle)


# ---- in pieces (edgel.dask.subpixel_edges) ------------------------------------------------

_POINT_DOUBLES = ("x", "y", "gx", "gy", "modulus", "fwd_score", "bck_score")
_POINT_INTS = ("px", "py", "fwd", "bck")


def _params_of(sigma: float, high: float, low: float) -> _SubpixelParams:
    p = _SubpixelParams()
    _lib.edgel_subpixel_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.sigma, p.high, p.low = float(sigma), float(high), float(low)
    return p


def _subpixel_halo(sigma: float) -> int:
    h = int(_lib.edgel_subpixel_halo(float(sigma)))
    if h < 0:
        raise ValueError(f"sigma {sigma} must be in [0, 1024]")
    return h


def _find_points(image: np.ndarray, sigma: float, x0: int, y0: int,
                 ctx: Optional[Context] = None) -> dict:
    """A piece's edge points (edgel_subpixel_find_points): arrays by name, positions in the
    whole image's frame, pixels px, py and neighbours fwd, bck (indices) in the piece's."""
    image = _packed(np.asarray(image))
    handle = _thread_curves()
    p = _params_of(sigma, 0.0, 0.0)
    _check(_lib.edgel_subpixel_find_points(_ctx(ctx, "cpu")._handle, ctypes.byref(p),
                                           ctypes.byref(_view(image)), int(x0), int(y0), handle))
    v = _SubpixelPoints()
    _lib.edgel_subpixel_points_init(ctypes.byref(v), ctypes.sizeof(v))
    _check(_lib.edgel_curves_get_points(handle, ctypes.byref(v)))
    n = int(v.count)
    return {k: _view_of(getattr(v, k), n).copy() for k in _POINT_DOUBLES + _POINT_INTS}


def _chain_points(points: dict, high: float, low: float,
                  ctx: Optional[Context] = None) -> Curves:
    """The curves of an image's points (edgel_subpixel_chain_points): `points` as
    _find_points gives them, pixels in the whole image's frame, in the reference's order."""
    arrays = {k: np.ascontiguousarray(points[k], np.float64) for k in _POINT_DOUBLES}
    arrays.update({k: np.ascontiguousarray(points[k], np.int32) for k in _POINT_INTS})
    v = _SubpixelPoints()
    _lib.edgel_subpixel_points_init(ctypes.byref(v), ctypes.sizeof(v))
    v.count = len(arrays["x"])
    for k, a in arrays.items():
        setattr(v, k, a.ctypes.data_as(type(getattr(v, k))))
    handle = _thread_curves()
    p = _params_of(0.0, high, low)
    _check(_lib.edgel_subpixel_chain_points(_ctx(ctx, "cpu")._handle, ctypes.byref(p),
                                            ctypes.byref(v), handle))
    return _curves_of(handle)
