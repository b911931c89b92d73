"""The parameter structs (edgel_canny_params) of the opencv and itk presets, from the keywords
the Python calls take; values the library would refuse raise here with Python's errors."""
from __future__ import annotations

import ctypes

from ._arrays import _int32
from ._capi import _BLUR_5X5, _BLUR_GAUSSIAN, _GRAY, _PRESET_ITK, _CannyParams, _lib

def _gray(gray):
    """gray= as the library takes it: None (also "max-channel"), "rgb" or "bgr"."""
    if gray is None or (isinstance(gray, str) and gray in _GRAY):
        return None if gray in (None, "max-channel") else gray
    hint = (" (an array's channel order is the caller's to say: 'rgb', or 'bgr' for "
            "cv2.imread's arrays)" if gray == "luma" else "")
    raise ValueError(f"gray={gray!r}: None or 'max-channel' (the channel of largest gradient, "
                     f"as cv2.Canny on colour), 'rgb' or 'bgr' (luma first, as cv2.cvtColor)"
                     f"{hint}")


def _params(low, high, aperture, l2, blur, blur_size, gray) -> _CannyParams:
    """The opencv preset's struct for canny()'s keywords."""
    p = _CannyParams()
    _lib.edgel_canny_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.low_threshold, p.high_threshold = float(low), float(high)
    p.aperture, p.l2_gradient = _int32(aperture, "aperture"), int(bool(l2))
    p.gray = _GRAY[_gray(gray)]
    if blur == "5x5":
        p.blur = _BLUR_5X5
    elif blur is not None or blur_size:
        p.blur, p.blur_sigma = _BLUR_GAUSSIAN, float(blur or 0)
        p.blur_ksize = _int32(blur_size, "blur_size")
    return p


_PARAMS = {}  # canny()'s arguments -> their params struct (a ctypes struct costs microseconds)


def _cached_params(key: tuple) -> _CannyParams:
    """_params(*key), made once for each key (the C calls only read it)."""
    try:
        p = _PARAMS.get(key)
    except TypeError:  # an argument that cannot be a key: no caching
        return _params(*key)
    if p is None:
        p = _params(*key)  # (raises for bad arguments: nothing is cached then)
        if len(_PARAMS) >= 64:
            _PARAMS.clear()
        _PARAMS[key] = p
    return p


def _itk_params(variance, maximum_error, upper, lower) -> _CannyParams:
    """The itk preset's struct for canny_itk()'s arguments."""
    p = _CannyParams()
    _lib.edgel_canny_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.preset = _PRESET_ITK
    p.variance, p.maximum_error = float(variance), float(maximum_error)
    p.low_threshold, p.high_threshold = float(lower), float(upper)
    return p
