"""cv2.Canny's edges (the opencv preset): canny(), its automatic thresholds and its entry from
gradients, on NumPy arrays and CUDA arrays."""
from __future__ import annotations

import ctypes
import sys
from typing import Optional

import numpy as np

from ._arrays import (_cuda_array, _cuda_fields, _device_empty_like, _device_view, _host_out,
                      _is_cupy, _packed, _stages_struct, _view)
from ._capi import _ADDRESS, _CannyParams, _address, _check, _hostcall, _lib
from ._context import Context, _ctx, _run_device
from ._params import _cached_params, _gray, _params
from ._tiled import canny_tiled


def _cv2_order(aperture, l2, sixth, out):
    """canny()'s positional arguments after the thresholds, (aperture, l2, sixth), read in
    cv2.Canny's order (edges, apertureSize, L2gradient) where the fourth argument is an array
    or None (never an aperture): (aperture, l2, what is left over, out)."""
    if aperture is None or getattr(aperture, "ndim", 0) > 0:
        return (3 if l2 is False else l2), (False if sixth is None else sixth), None, \
            (aperture if aperture is not None else out)
    return aperture, l2, sixth, out


def _canny_device(image, p: _CannyParams, out, ctx: Optional[Context], dtype=np.uint8,
                  stages: Optional[dict] = None, shapes: Optional[dict] = None,
                  preset: str = "opencv"):
    """edgel_canny on a CUDA array; `stages` (names as keys) receive CUDA arrays of the
    image's kind, of the (shape, dtype) that `shapes` gives each name."""
    st, keep = _stages_struct(stages, shapes or {}, lambda s, t: _device_empty_like(image, s, t),
                              lambda a: _device_view(a)[0], preset)
    return _run_device(image, out, lambda v: (v.height, v.width), dtype, ctx,
                       lambda h, s, d: _lib.edgel_canny(h, ctypes.byref(p), ctypes.byref(s),
                                                        ctypes.byref(d),
                                                        ctypes.byref(st) if st else None))


def _canny_cupy(a, key: tuple, out, ctx: Optional[Context]):
    """canny() on a C-contiguous u8 CuPy array on the current device, without stages, through
    the compiled call: no ctypes views or params struct per call (on the GPU the binding's
    time adds to the frame's latency). None where this does not apply: the general path
    (_canny_device) then runs, and reports what is wrong."""
    if _hostcall is None or not _is_cupy(a) or a.dtype != np.uint8 or a.ndim not in (2, 3) \
            or not a.flags.c_contiguous or a.size == 0:
        return None
    cupy = sys.modules["cupy"]
    data = a.data  # (its device_id and ptr are plain fields; a.device builds an object)
    device = data.device_id
    if device != cupy.cuda.runtime.getDevice():
        return None
    shape = a.shape
    if out is None:
        out = cupy.empty(shape[:2], np.uint8)
    elif not (_is_cupy(out) and out.dtype == np.uint8 and out.shape == shape[:2]
              and out.flags.c_contiguous and out.data.device_id == device):
        return None
    p = _cached_params(key)
    handle = _address(_ctx(ctx, "cuda", cupy.cuda.get_current_stream().ptr or 1, device)._handle)
    _check(_hostcall.canny_device(_ADDRESS["edgel_canny"], handle, ctypes.addressof(p),
                                  data.ptr, shape[1], shape[0], shape[2] if len(shape) == 3 else 1,
                                  out.data.ptr))
    return out


def _canny_shapes(h: int, w: int, cn: int, gray) -> dict:
    """(shape, dtype) of each stage of the opencv preset."""
    gray = _gray(gray)
    return {"gray": ((h, w), np.uint8),
            "smoothed": ((h, w) if gray or cn == 1 else (h, w, cn), np.uint8),
            "dx": ((h, w), np.int16), "dy": ((h, w), np.int16),
            "magnitude": ((h, w), np.int32), "suppressed": ((h, w), np.uint8)}


def _host_canny(ctx, p: _CannyParams, image: np.ndarray, edges: np.ndarray, st) -> np.ndarray:
    """edgel_canny on host arrays (st: _Stages, or None for none): through the compiled call
    path where it applies, else ctypes."""
    handle = _ctx(ctx)._handle
    if st is None and _hostcall and type(edges) is np.ndarray:
        status = _hostcall.canny(_ADDRESS["edgel_canny"], _address(handle), ctypes.addressof(p),
                                 image, edges)
        if status is not None:
            _check(status)
            return edges
    src, dst = _view(image), _view(edges, output=True)
    _check(_lib.edgel_canny(handle, ctypes.byref(p), ctypes.byref(src), ctypes.byref(dst),
                            ctypes.byref(st) if st is not None else None))
    return edges



_AUTO_RULES = {"otsu": 1, "median": 2, "quantiles": 3}


def auto_thresholds(image, rule: str = "otsu", *, blur=None, blur_size: int = 0,
                    gray: Optional[str] = None, aperture: int = 3, l2: bool = False,
                    quantiles=(0.1, 0.9), ctx: Optional[Context] = None) -> tuple:
    """The (low, high) thresholds that `rule` chooses for an image.

    They are computed on the image Canny reads: after `gray` and `blur`, as canny() takes
    them (colour images need gray, except for "quantiles").

    Parameters
    ----------
    image : numpy.ndarray, uint8, (H, W) or (H, W, C)
    rule : {"otsu", "median", "quantiles"}
        "otsu": high = ``cv2.threshold(img, 0, 255, THRESH_BINARY + THRESH_OTSU)[0]``,
        low = high / 2. "median": with v = ``numpy.median(img)``, low =
        ``int(max(0, 0.67 * v))``, high = ``int(min(255, 1.33 * v))`` (the "auto Canny"
        recipe). "quantiles": ``numpy.percentile`` of the gradient magnitude (|dx|+|dy|, or
        sqrt(dx^2+dy^2) with l2; of `aperture`) at 100 times the two `quantiles`, as
        scikit-image's use_quantiles.
    blur, blur_size, gray, aperture, l2
        As for canny().
    quantiles : (float, float)
        The low and high quantiles in [0, 1] of rule "quantiles".
    ctx : Context, optional

    Returns
    -------
    (float, float)
        low and high.
    """
    if rule not in _AUTO_RULES:
        raise ValueError(f"rule is one of {sorted(_AUTO_RULES)}, not {rule!r}")
    image = _packed(np.asarray(image))
    q = (float(quantiles[0]), float(quantiles[1])) if rule == "quantiles" else (50.0, 150.0)
    p = _params(q[0], q[1], aperture, l2, blur, blur_size, gray)
    low, high = ctypes.c_double(), ctypes.c_double()
    v = _view(image)
    _check(_lib.edgel_canny_auto_thresholds(_ctx(ctx)._handle, ctypes.byref(p), ctypes.byref(v),
                                            _AUTO_RULES[rule], ctypes.byref(low),
                                            ctypes.byref(high)))
    return low.value, high.value


def _is_array(a) -> bool:
    return hasattr(a, "shape") and getattr(a, "ndim", 0) > 0


def canny(image=None, low: float = 50, high: float = 150, aperture: int = 3,
          l2: bool = False, *cv2_l2gradient, blur=None, blur_size: int = 0,
          gray: Optional[str] = None, stages: Optional[dict] = None,
          ctx: Optional[Context] = None, out=None, auto: Optional[str] = None,
          apertureSize: Optional[int] = None, L2gradient: Optional[bool] = None,
          threshold1: Optional[float] = None, threshold2: Optional[float] = None,
          edges=None, dx=None, dy=None):
    """Canny edges, byte for byte those of cv2.Canny.

    Parameters
    ----------
    image : array_like, uint8, (H, W) or (H, W, C) with C = 1, 3 or 4
        A NumPy array; or a CuPy array or PyTorch CUDA tensor (the result is then one too,
        computed on the array's stream; `out` a CUDA array too); other CUDA arrays that speak
        DLPack (JAX, ...) give a CuPy array. A numpy.memmap (perhaps larger than memory) runs
        in tiles (canny_tiled) with the same bytes.
    low, high : float
        The hysteresis thresholds on the gradient magnitude, as cv2's threshold1, threshold2.
    aperture : {3, 5, 7, -1}
        The Sobel aperture (-1: Scharr, needs l2).
    l2 : bool
        sqrt(dx^2 + dy^2) instead of |dx| + |dy|.
    *cv2_l2gradient
        cv2.Canny's own positional order works as it is written: ``canny(image, threshold1,
        threshold2, edges, apertureSize, L2gradient)``, where the fourth argument is an
        output array or None (never an aperture).
    blur : None, float or "5x5"
        A Gaussian blur first: its sigma (cv2.GaussianBlur's), or OpenCV's fixed 5x5 kernel.
    blur_size : int
        The Gaussian's kernel size (0: from sigma, as cv2.GaussianBlur).
    gray : {None, "max-channel", "rgb", "bgr"}
        Colour images: None or "max-channel" takes the channel of largest gradient (as
        cv2.Canny on colour); "rgb" or "bgr" take luma first (cv2.cvtColor of that order).
    stages : dict, optional
        Receives intermediate arrays for the names it holds as keys: "gray", "smoothed",
        "dx", "dy", "magnitude", "suppressed" (of the image's kind).
    ctx : Context, optional
    out : array, optional
        A uint8 (H, W) array to fill and return instead of a new one.
    auto : {None, "otsu", "median", "quantiles"}
        Chooses low and high from the image (auto_thresholds; host arrays) instead of the
        values given; with "quantiles", low and high are quantiles in [0, 1] of the gradient
        magnitude (scikit-image's use_quantiles).
    apertureSize, L2gradient, threshold1, threshold2, edges
        cv2.Canny's names for aperture, l2, low, high and out: a cv2.Canny call with keywords
        gives the same bytes.
    dx, dy
        cv2.Canny's gradient form, ``canny(dx, dy, threshold1, threshold2[, edges[,
        L2gradient]])`` (positional or by name): int16 derivatives, as canny_gradients.

    Returns
    -------
    array
        uint8 (H, W): 255 on edges, 0 elsewhere, of the image's kind (or `out`).

    Raises
    ------
    ValueError, TypeError
        For arguments the call does not take (EdgelValueError, EdgelTypeError where the
        library refused them).

    Examples
    --------
    >>> edges = edgel.canny(image, 50, 150)                # = cv2.Canny(image, 50, 150)
    >>> edges = edgel.canny(image, 50, 150, None, 5, True) # cv2's positional order
    >>> edges = edgel.canny(image, 0.1, 0.9, auto="quantiles", blur=1.4)
    >>> edges = edgel.canny(dx, dy, 50, 150)                # = cv2.Canny(dx, dy, 50, 150)
    """
    if dx is not None or dy is not None or (_is_array(image) and _is_array(low)):
        # cv2's gradient form: (dx, dy, threshold1, threshold2, edges, L2gradient)
        if dx is None and dy is None:
            dx, dy, t1, t2 = image, low, high, aperture
            out = l2 if _is_array(l2) else (edges if edges is not None else out)
            flag = cv2_l2gradient[0] if cv2_l2gradient else False
        else:  # canny(dx=..., dy=..., threshold1=..., threshold2=...)
            if threshold1 is None or threshold2 is None:
                raise TypeError("canny(dx=, dy=, threshold1=, threshold2=): the thresholds "
                                "by name too")
            t1, t2, flag = threshold1, threshold2, False
            out = edges if edges is not None else out
        t1 = threshold1 if threshold1 is not None else t1
        t2 = threshold2 if threshold2 is not None else t2
        got = canny_gradients(dx, dy, t1, t2, bool(flag if L2gradient is None else L2gradient),
                              ctx=ctx)
        if out is None:
            return got
        out[...] = got
        return out
    if image is None:
        raise TypeError("canny() needs an image")
    low = threshold1 if threshold1 is not None else low
    high = threshold2 if threshold2 is not None else high
    out = edges if edges is not None else out
    if len(cv2_l2gradient) > 1:
        raise TypeError(f"canny() takes at most 6 positional arguments "
                        f"({5 + len(cv2_l2gradient)} given)")
    aperture, l2, tail, out = _cv2_order(aperture, l2, cv2_l2gradient[0] if cv2_l2gradient
                                         else None, out)
    if tail is not None:
        raise TypeError("a sixth positional argument is cv2's L2gradient, after an output "
                        "array or None")
    aperture = aperture if apertureSize is None else apertureSize
    l2 = l2 if L2gradient is None else L2gradient
    gray = _gray(gray)
    if auto is not None:
        low, high = auto_thresholds(image, auto, blur=blur, blur_size=blur_size, gray=gray,
                                    aperture=aperture, l2=l2, quantiles=(low, high), ctx=ctx)
    cuda = _cuda_array(image)
    if cuda is not None:
        if stages is None:
            edges = _canny_cupy(cuda, (low, high, aperture, l2, blur, blur_size, gray), out, ctx)
            if edges is not None:
                return edges
        shape = _cuda_fields(cuda)[0]
        return _canny_device(cuda, _params(low, high, aperture, l2, blur, blur_size, gray),
                             out, ctx, stages=stages,
                             shapes=_canny_shapes(shape[0], shape[1],
                                                  shape[2] if len(shape) == 3 else 1, gray))
    if isinstance(image, np.memmap) and stages is None:  # may not fit in memory: in tiles
        return canny_tiled(image, low, high, aperture, l2, blur=blur, blur_size=blur_size,
                           gray=gray, ctx=ctx, out=out)
    image = _packed(np.asarray(image))
    h, w = image.shape[:2]
    if image.ndim in (2, 3) and h == 0 and stages is None:  # (cv2.Canny: an empty result)
        return _host_out(out, (h, w), np.uint8)
    edges = _host_out(out, (h, w), np.uint8)
    p = _params(low, high, aperture, l2, blur, blur_size, gray)
    st, keep = _stages_struct(stages, _canny_shapes(h, w, 1 if image.ndim == 2 else
                                                    image.shape[2], gray),
                              np.empty, _view, "opencv")
    return _host_canny(ctx, p, image, edges, st)


def canny_gradients(dx, dy, low: float, high: float, l2: bool = False, *,
                    ctx: Optional[Context] = None) -> np.ndarray:
    """Canny edges from gradients, = ``cv2.Canny(dx, dy, low, high, L2gradient=l2)``.

    Parameters
    ----------
    dx, dy : numpy.ndarray, int16, (H, W)
        The x and y derivatives (cv2.Sobel's, say).
    low, high : float
        The hysteresis thresholds.
    l2 : bool
        sqrt(dx^2 + dy^2) instead of |dx| + |dy|.
    ctx : Context, optional

    Returns
    -------
    numpy.ndarray
        uint8 (H, W), 255 on edges.
    """
    dx, dy = _packed(np.asarray(dx)), _packed(np.asarray(dy))
    edges = np.empty(dx.shape[:2], np.uint8)
    p = _params(low, high, 3, l2, None, 0, None)
    a, b, e = _view(dx), _view(dy), _view(edges)
    _check(_lib.edgel_canny_gradients(_ctx(ctx)._handle, ctypes.byref(p), ctypes.byref(a),
                                      ctypes.byref(b), ctypes.byref(e), None))
    return edges
