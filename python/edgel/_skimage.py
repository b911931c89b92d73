"""scikit-image's Canny (the skimage preset): skimage.feature.canny's edges, byte for byte,
with its signature."""
from __future__ import annotations

import ctypes
import functools
from typing import Optional

import numpy as np

from ._arrays import (_cuda_array, _cuda_fields, _device_empty_like, _device_view, _host_out,
                      _packed, _stages_struct, _view)
from ._capi import _DTYPES, _PRESET_SKIMAGE, _S16, _S32, _U8, _U16, _CannyParams, _check, _lib
from ._context import Context, _ctx, _run_device

_SK_MODES = {"constant": 0, "nearest": 1, "reflect": 2, "mirror": 3, "wrap": 4}
_SK_STAGES = ("smoothed", "dx", "dy", "magnitude", "suppressed")


_SKIMAGE_MAX_SIGMA = 4096.0  # EDGEL_SKIMAGE_MAX_SIGMA


@functools.lru_cache(maxsize=64)
def _skimage_weights(sigma: float) -> np.ndarray:
    """scipy.ndimage's Gaussian weights for `sigma` (its _gaussian_kernel1d, truncate 4), with
    NumPy's exp as skimage gets them: NumPy's exp may differ from the C library's. Kept per
    sigma (read-only)."""
    r = int(4.0 * sigma + 0.5) if sigma > 1e-15 else 0
    x = np.arange(-r, r + 1)
    phi = np.exp(-0.5 / (sigma * sigma) * x ** 2) if r else np.ones(1)
    w = np.ascontiguousarray(phi / phi.sum(), np.float64)
    w.flags.writeable = False
    return w


def _skimage_image(image, low, high, use_quantiles):
    """(image, low, high) in a dtype the library reads: int8 and uint32 as skimage's floats
    (img_as_float) with the thresholds divided by the dtype's maximum as skimage does,
    float16 as float32; skimage's refusals as its ValueErrors."""
    dt = image.dtype
    if dt in (np.dtype(np.int64), np.dtype(np.uint64)):
        raise ValueError("64-bit integer images are not supported")
    if len(image.shape) != 2:
        raise ValueError("The parameter `image` must be a 2-dimensional array")
    if dt == np.float16:
        return image.astype(np.float32), low, high
    if dt in (np.dtype(np.int8), np.dtype(np.uint32)):
        imax = np.iinfo(dt).max
        image = np.asarray(image)
        f = np.multiply(image, 1.0 / imax, dtype=np.float64)
        if dt.kind == "i":
            np.maximum(f, -1.0, out=f)
        if not use_quantiles:
            low = None if low is None else low / imax
            high = None if high is None else high / imax
        return f, low, high
    if dt not in _DTYPES:
        raise TypeError(f"unsupported dtype {dt}")
    return image, low, high


def _skimage_params(image_dtype, sigma, low, high, use_quantiles, mode, cval):
    """The skimage preset's params and the weights they point to (keep both alive)."""
    if sigma is None or np.ndim(sigma) != 0:
        raise TypeError("sigma must be a number (one sigma for both axes)")
    sigma = float(sigma)
    if sigma < 0.0:
        raise ValueError("Sigma values less than zero are not valid")
    if mode not in _SK_MODES:
        raise ValueError(f"mode must be one of {sorted(_SK_MODES)}, not {mode!r}")
    for name, t in (("low_threshold", low), ("high_threshold", high)):
        if t is not None and np.isnan(t):
            raise ValueError(f"{name} is NaN")
        if t is not None and use_quantiles and not 0.0 <= t <= 1.0:
            raise ValueError("Quantile thresholds must be between 0 and 1.")
    imax = {_U8: 255, _U16: 65535, _S16: 32767, _S32: 2147483647}.get(_DTYPES[image_dtype], 1)
    lo = 0.1 if low is None else low if use_quantiles else low / imax
    hi = 0.2 if high is None else high if use_quantiles else high / imax
    if hi < lo:
        raise ValueError("low_threshold should be lower then high_threshold")
    p = _CannyParams()
    _lib.edgel_canny_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.preset = _PRESET_SKIMAGE
    p.low_threshold = float("nan") if low is None else float(low)
    p.high_threshold = float("nan") if high is None else float(high)
    p.sigma, p.mode, p.cval = sigma, _SK_MODES[mode], float(cval)
    p.use_quantiles = int(bool(use_quantiles))
    if not 0.0 <= sigma <= _SKIMAGE_MAX_SIGMA:  # before the weights: 1e9 would be 59.6 GiB
        raise ValueError(f"sigma {sigma:g} must be in [0, {_SKIMAGE_MAX_SIGMA:g}]")
    weights = _skimage_weights(sigma)
    p.gaussian_weights = weights.ctypes.data
    return p, weights


def canny_skimage(image, sigma: float = 1.0, low_threshold=None, high_threshold=None,
                  mask=None, use_quantiles: bool = False, *, mode: str = "constant",
                  cval: float = 0.0, stages: Optional[dict] = None,
                  ctx: Optional[Context] = None, out=None):
    """skimage.feature.canny of scikit-image 0.26, byte for byte, with its signature.

    Parameters
    ----------
    image : array_like, (H, W)
        Of any dtype skimage takes: bool, int8, uint8, uint16, uint32, int16, int32,
        float16, float32, float64. A CuPy array or PyTorch CUDA tensor (bool, uint8, uint16,
        int16, int32, float32, float64) runs on the GPU, as for canny(); then mask is one too,
        and the result is of that kind.
    sigma : float
        The Gaussian's standard deviation (0: none).
    low_threshold, high_threshold : float, optional
        In the image's units (None: 10% and 20% of the dtype's range), or quantiles of the
        gradient magnitude with use_quantiles.
    mask : array_like of bool, optional
        True where the image takes part.
    use_quantiles : bool
        The thresholds are quantiles in [0, 1].
    mode : {"constant", "nearest", "reflect", "mirror", "wrap"}
        The Gaussian's borders.
    cval : float
        The value outside the image for mode "constant".
    stages : dict, optional
        Keys among "smoothed", "dx" (jsobel), "dy" (isobel), "magnitude" and "suppressed"
        receive skimage's float arrays (float32 for float32 input, else float64).
    ctx : Context, optional
    out : array of bool, optional
        An array of the image's shape to fill and return.

    Returns
    -------
    array of bool
        The edge map, (H, W).

    Raises
    ------
    ValueError
        Where skimage raises it (negative sigma, thresholds out of order, 64-bit integers...),
        with skimage's message.
    """
    cuda = _cuda_array(image)
    if cuda is None:
        image = np.asarray(image)
    dtype = _cuda_fields(cuda)[1] if cuda is not None else image.dtype
    if cuda is None:
        image, low_threshold, high_threshold = _skimage_image(image, low_threshold,
                                                              high_threshold, use_quantiles)
        dtype = image.dtype
    elif dtype not in _DTYPES:
        raise TypeError(f"unsupported dtype {dtype} for a CUDA array (convert it first)")
    p, weights = _skimage_params(dtype, sigma, low_threshold, high_threshold, use_quantiles,
                                 mode, cval)
    ft = np.float32 if dtype == np.float32 else np.float64
    if cuda is not None:
        mask_view = None
        if mask is not None:
            m = _cuda_array(mask)
            if m is None:
                raise TypeError("mask must be a CUDA array like the image")
            mask_view = _device_view(m)[0]
        hw = tuple(_cuda_fields(cuda)[0][:2])
        st, keep = _stages_struct(stages, {n: (hw, ft) for n in _SK_STAGES},
                                  lambda s, t: _device_empty_like(cuda, s, t),
                                  lambda a: _device_view(a)[0], "skimage")
        return _run_device(cuda, out, lambda v: (v.height, v.width), np.bool_, ctx,
                           lambda h, s, d: _lib.edgel_canny_masked(
                               h, ctypes.byref(p), ctypes.byref(s),
                               ctypes.byref(mask_view) if mask_view is not None else None,
                               ctypes.byref(d), ctypes.byref(st) if st else None))
    image = _packed(image)
    edges = _host_out(out, image.shape, np.bool_)
    mask_view = None
    if mask is not None:
        mask = _packed(np.asarray(mask))
        if mask.dtype != np.bool_:
            mask = mask.astype(bool)  # (skimage: mask.astype(bool))
        if mask.shape != image.shape:
            raise ValueError(f"mask of shape {mask.shape} for an image of {image.shape}")
        mask_view = _view(mask)
    st, keep = _stages_struct(stages, {n: (image.shape, ft) for n in _SK_STAGES}, np.empty,
                              _view, "skimage")
    src, dst = _view(image), _view(edges, output=True)
    _check(_lib.edgel_canny_masked(_ctx(ctx)._handle, ctypes.byref(p), ctypes.byref(src),
                                   ctypes.byref(mask_view) if mask_view is not None else None,
                                   ctypes.byref(dst), ctypes.byref(st) if st else None))
    del weights
    return edges
