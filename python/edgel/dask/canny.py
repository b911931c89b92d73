"""Canny on dask images (edgel.dask.canny, canny_itk on (H, W)), byte-identical to the whole
image's, through the chunked driver (._chunks)."""
from __future__ import annotations

import ctypes
from typing import Optional

import numpy as np

import dask.array as da

from .._canny import canny as _canny
from .._capi import _check, _lib
from .._itk import canny_itk as _canny_itk
from .._params import _itk_params, _params
from ._chunks import _run, _xp

__all__ = ["canny", "canny_itk", "halo", "halo_itk"]


def _halo_of(p) -> int:
    h = ctypes.c_int32()
    _check(_lib.edgel_canny_tile_halo(ctypes.byref(p), ctypes.byref(h)))
    return int(h.value)


def halo(low=50, high=150, aperture=3, l2=False, blur=None, blur_size=0, gray=None) -> int:
    """Pixels a chunk needs from each neighbour for these options (the library's rule)."""
    return _halo_of(_params(low, high, aperture, l2, blur, blur_size, gray))


def halo_itk(variance=0.0, maximum_error=0.01, upper=0.0, lower=0.0) -> int:
    """halo() for the itk preset's options."""
    return _halo_of(_itk_params(variance, maximum_error, upper, lower))


def _image_classes(block, options):
    """The classes (0 none, 128 weak, 255 strong) of a block as a whole image (on the GPU for
    CuPy blocks)."""
    xp = _xp(block)
    block = xp.ascontiguousarray(block)
    stages = {"suppressed": None}
    if "variance" not in options:
        _canny(block, stages=stages, **options)
        return stages["suppressed"]
    _canny_itk(block, stages=stages, dtype=np.uint8, **options)
    sup = stages["suppressed"]  # ITK's values, cut by its strict thresholds
    return xp.where(sup > options["upper"], np.uint8(255),
                    xp.where(sup > options["lower"], np.uint8(128), np.uint8(0))).astype(np.uint8)


def canny(array, low: float = 50, high: float = 150, aperture: int = 3, l2: bool = False,
          blur=None, blur_size: int = 0, gray: Optional[str] = None):
    """edgel.canny on a dask array of u8, (H, W) or (H, W, C) with any chunking (the channel
    axis is joined into one chunk): a dask array of the edges (u8 0/255, chunked as the image),
    whose computed value equals edgel.canny(array.compute(), ...) byte for byte."""
    if not isinstance(array, da.Array):
        array = da.from_array(array)
    if array.ndim not in (2, 3) or array.dtype != np.uint8:
        raise ValueError("edgel.dask.canny takes u8 arrays of shape (H, W) or (H, W, C)")
    options = dict(low=low, high=high, aperture=aperture, l2=l2, blur=blur, blur_size=blur_size,
                   gray=gray)
    h = halo(**options)
    return _run(array, (h, h, None)[:array.ndim], _image_classes, options)


def canny_itk(array, variance=0.0, maximum_error=0.01, upper: float = 0.0, lower: float = 0.0,
              spacing=1.0):
    """edgel.canny_itk(..., dtype=uint8) on a dask array of u8, u16 or float32 with any
    chunking: (H, W) images, or (D, H, W) volumes chunked along any axes (variance, maximum
    error and spacing then one value or one an axis in the array's order, as canny_itk takes
    them). A dask array of the edges (u8 0/255), byte-identical to the whole array's."""
    if not isinstance(array, da.Array):
        array = da.from_array(array)
    if array.ndim not in (2, 3) or array.dtype not in (np.uint8, np.uint16, np.float32):
        raise ValueError("edgel.dask.canny_itk takes u8, u16 or float32 arrays of shape (H, W) "
                         "or (D, H, W)")
    if array.ndim == 3:
        from .volume import canny_itk_volume
        return canny_itk_volume(array, variance, maximum_error, upper, lower, spacing)
    options = dict(variance=float(variance), maximum_error=float(maximum_error),
                   upper=float(upper), lower=float(lower))
    h = halo_itk(**options)
    return _run(array, (h, h), _image_classes, options)
