"""Image filters: cv2.filter2D's and scipy.ndimage.correlate's 2-D correlation (direct,
separable or by FFT), cv2.GaussianBlur and cv2.cvtColor's luma."""
from __future__ import annotations

import ctypes
from typing import Optional

import numpy as np

from ._arrays import _cuda_array, _int32, _packed, _packed_view, _view
from ._capi import (_ADDRESS, _BORDERS, _GRAY, _METHODS, _FilterParams, _address, _check,
                    _hostcall, _lib)
from ._context import Context, _ctx, _run_device


def to_gray(image, order: str = "rgb", *, ctx: Optional[Context] = None) -> np.ndarray:
    """Luma of a colour image, = ``cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)`` (or BGR2GRAY).

    Parameters
    ----------
    image : numpy.ndarray, uint8, (H, W, 3) or (H, W, 4)
    order : {"rgb", "bgr"}
        The image's channel order ("bgr" for cv2.imread's arrays).
    ctx : Context, optional

    Returns
    -------
    numpy.ndarray
        uint8 (H, W).
    """
    if order not in ("rgb", "bgr"):
        raise ValueError(f"order={order!r}: 'rgb' or 'bgr', the image's channel order")
    image = _packed(np.asarray(image))
    out = np.empty(image.shape[:2], np.uint8)
    a, b = _view(image), _view(out)
    _check(_lib.edgel_to_gray(_ctx(ctx)._handle, _GRAY[order], ctypes.byref(a), ctypes.byref(b)))
    return out


def gaussian_blur(image, ksize: int = 0, sigma: float = 0.0, *,
                  ctx: Optional[Context] = None) -> np.ndarray:
    """A Gaussian blur, = ``cv2.GaussianBlur(image, (ksize, ksize), sigma)``.

    Parameters
    ----------
    image : numpy.ndarray, uint8, (H, W) or (H, W, C)
    ksize : int
        The kernel's size, odd (0: from sigma, as OpenCV).
    sigma : float
        The standard deviation (0: from ksize, as OpenCV).
    ctx : Context, optional

    Returns
    -------
    numpy.ndarray
        Of the image's shape and dtype.
    """
    image = _packed(np.asarray(image))
    out = np.empty_like(image)
    a, b = _view(image), _view(out)
    _check(_lib.edgel_gaussian_blur(_ctx(ctx)._handle, ctypes.byref(a), ctypes.byref(b),
                                    _int32(ksize, "ksize"), float(sigma)))
    return out


_FILTER_PARAMS = {}  # (method, border, border_value, anchor, convolve) -> _FilterParams


def _filter_params(method, border, border_value, anchor, convolve) -> _FilterParams:
    """The C parameters for these arguments, made once (the C calls only read them)."""
    # (0 and 0.0, False and 0 hash alike, so the values serve as they are)
    key = (method, border, border_value, None if anchor is None else tuple(anchor), convolve)
    try:
        p = _FILTER_PARAMS.get(key)
    except TypeError:  # an unhashable value, such as a 0-d array: as a float
        key = (method, border, float(border_value), key[3], bool(convolve))
        p = _FILTER_PARAMS.get(key)
    if p is None:
        p = _make_filter_params(method, border, border_value, anchor, convolve)
        if len(_FILTER_PARAMS) > 64:
            _FILTER_PARAMS.clear()
        _FILTER_PARAMS[key] = p
    return p


def _make_filter_params(method, border, border_value, anchor, convolve) -> _FilterParams:
    p = _FilterParams()
    _lib.edgel_filter_params_init(ctypes.byref(p), ctypes.sizeof(p))
    if method not in _METHODS:
        raise ValueError(f"method must be one of {sorted(_METHODS)}, not {method!r}")
    if border not in _BORDERS:
        raise ValueError(f"border must be one of {sorted(_BORDERS)}, not {border!r}")
    p.method, p.border, p.border_value = _METHODS[method], _BORDERS[border], float(border_value)
    if anchor is not None:
        p.anchor_x, p.anchor_y = _int32(anchor[0], "anchor x"), _int32(anchor[1], "anchor y")
    p.convolve = int(bool(convolve))
    return p


def _run_filter(image, dtype, ctx, out, call, fast=None):
    """Runs call(ctx_handle, src_view_ref, dst_view_ref) on host or CUDA arrays; returns the
    output. fast(ctx_address, src, dst): the compiled path for NumPy arrays (None where it
    cannot view them, and call runs instead)."""
    cuda = _cuda_array(image)
    if cuda is not None:
        def shape(v):
            return (v.height, v.width) + ((v.channels,) if v.channels > 1 else ())
        return _run_device(cuda, out, shape, None if dtype is None else np.dtype(dtype), ctx,
                           lambda h, s, d: call(h, ctypes.byref(s), ctypes.byref(d)))
    image = _packed(image if type(image) is np.ndarray else np.asarray(image))
    if out is None:
        out = np.empty(image.shape, np.dtype(dtype) if dtype is not None else
                       (np.uint8 if image.dtype == np.uint8 else np.float32))
    handle = _ctx(ctx)._handle
    status = fast(_address(handle), image, out) if fast and type(out) is np.ndarray else None
    if status is None:
        status = call(handle, _packed_view(image), _packed_view(out, output=True))
    _check(status)
    return out


def filter2d(image, kernel, *, border: str = "reflect-101", border_value: float = 0.0,
             method: str = "auto", anchor=None, convolve: bool = False, dtype=None,
             ctx: Optional[Context] = None, out=None):
    """2-D correlation of each channel of an image with a kernel.

    = ``cv2.filter2D(image, -1, kernel, anchor=anchor, borderType=...)`` and
    ``scipy.ndimage.correlate(image, kernel, mode=...)``: scipy's modes 'constant',
    'nearest', 'reflect', 'mirror', 'grid-wrap' are borders 'constant', 'replicate',
    'reflect', 'reflect-101', 'wrap'.

    Parameters
    ----------
    image : array_like, uint8 or float32, (H, W) or (H, W, C)
        NumPy, or a CuPy array or PyTorch CUDA tensor as in canny().
    kernel : array_like, 2-D
        Taken as float32.
    border : {"reflect-101", "reflect", "replicate", "constant", "wrap"}
    border_value : float
        The value outside the image for border "constant".
    method : {"auto", "direct", "separable", "fft"}
        "separable" needs a rank-1 kernel; "auto" chooses by cost (filter2d_method tells).
    anchor : (int, int), optional
        (x, y) in the kernel; default its centre (k // 2).
    convolve : bool
        Flip the kernel: true convolution.
    dtype : numpy.uint8 or numpy.float32, optional
        The output's: uint8 (uint8 input only: rounded, saturated; the default for uint8) or
        float32.
    ctx : Context, optional
    out : array, optional
        An array of the output's shape and dtype to fill and return.

    Returns
    -------
    array
        Of the image's shape, of the image's kind.
    """
    p = _filter_params(method, border, border_value, anchor, convolve)
    if _hostcall and type(image) is np.ndarray and dtype is None and (
            out is None or type(out) is np.ndarray):
        # The common call, NumPy arrays as they are: the extension views them, or gives None
        # for any it cannot (then the general path below converts or reports them). Small
        # frames notice each Python step (a 64x64 call is a few microseconds).
        dst = out if out is not None else np.empty(
            image.shape, np.uint8 if image.dtype.char == "B" else np.float32)
        status = _hostcall.filter2d(_ADDRESS["edgel_filter2d"], _address(_ctx(ctx)._handle),
                                    ctypes.addressof(p), image, dst, kernel)
        if status is not None:
            _check(status)
            return dst
    k = np.ascontiguousarray(np.asarray(kernel, np.float32))
    if k.ndim != 2:
        raise ValueError("kernel must be 2-D")
    fast = _hostcall and (lambda h, s, d: _hostcall.filter2d(
        _ADDRESS["edgel_filter2d"], h, ctypes.addressof(p), s, d, k))
    return _run_filter(image, dtype, ctx, out, lambda h, s, d: _lib.edgel_filter2d(
        h, p, s, d, _packed_view(k)), fast)


def sep_filter2d(image, kx, ky, *, border: str = "reflect-101", border_value: float = 0.0,
                 method: str = "auto", anchor=None, convolve: bool = False, dtype=None,
                 ctx: Optional[Context] = None, out=None):
    """filter2d() with the kernel ``numpy.outer(ky, kx)``: kx along x (columns), ky along y.

    Parameters
    ----------
    image : array_like
        As for filter2d().
    kx, ky : array_like, 1-D
        The row and column kernels (float32).
    border, border_value, method, anchor, convolve, dtype, ctx, out
        As for filter2d().

    Returns
    -------
    array
        As filter2d() gives.
    """
    kx = np.ascontiguousarray(np.asarray(kx, np.float32).ravel())
    ky = np.ascontiguousarray(np.asarray(ky, np.float32).ravel())
    p = _filter_params(method, border, border_value, anchor, convolve)
    fast = _hostcall and (lambda h, s, d: _hostcall.sep_filter2d(
        _ADDRESS["edgel_sep_filter2d"], h, ctypes.addressof(p), s, d, kx, ky))
    return _run_filter(image, dtype, ctx, out, lambda h, s, d: _lib.edgel_sep_filter2d(
        h, p, s, d, kx.ctypes.data, kx.size, ky.ctypes.data, ky.size), fast)


def filter2d_method(image, kernel, *, border: str = "reflect-101", method: str = "auto",
                    dtype=None, ctx: Optional[Context] = None) -> str:
    """The method filter2d() would use for these arguments.

    Returns
    -------
    str
        "direct", "separable" or "fft".
    """
    k = np.ascontiguousarray(np.asarray(kernel, np.float32))
    p = _filter_params(method, border, 0.0, None, False)
    image = _packed(np.asarray(image))
    out = np.empty(image.shape, np.dtype(dtype) if dtype is not None else
                   (np.uint8 if image.dtype == np.uint8 else np.float32))
    m = ctypes.c_int()
    _check(_lib.edgel_filter2d_method(_ctx(ctx)._handle, ctypes.byref(p),
                                      ctypes.byref(_view(image)), ctypes.byref(_view(out)),
                                      ctypes.byref(_view(k)), ctypes.byref(m)))
    return {v: k for k, v in _METHODS.items()}[m.value]
