"""Images of any size in tiles (edgel_canny_tiled): any array that slices in, any that takes
slice assignment out, with memory for a tile and its halo only."""
from __future__ import annotations

import ctypes
from typing import Optional

import numpy as np

from ._arrays import _host_view_array, _int32
from ._capi import _DTYPES, _READ_FN, _STATUS_IO, _WRITE_FN, _CannyParams, _TileIO, _check, _lib
from ._context import Context, _ctx
from ._params import _itk_params, _params

def _tiled(image, p: _CannyParams, tile, ctx: Optional[Context], out):
    """edgel_canny_tiled with callbacks that slice `image` and assign into `out`."""
    shape = image.shape
    if len(shape) not in (2, 3):
        raise ValueError("image must be 2-D (H, W) or 3-D (H, W, C)")
    dtype = np.dtype(image.dtype)
    if dtype not in _DTYPES:
        raise TypeError(f"unsupported dtype {dtype}")
    h, w = int(shape[0]), int(shape[1])
    cn = 1 if len(shape) == 2 else int(shape[2])
    if out is None:
        out = np.empty((h, w), np.uint8)
    elif tuple(out.shape) != (h, w):
        raise ValueError(f"out has shape {tuple(out.shape)}, not {(h, w)}")
    th, tw = (_int32(tile[0], "tile height"), _int32(tile[1], "tile width"))
    failure = []

    def read(_user, x, y, view):
        try:
            v = view.contents
            _host_view_array(v, cn, dtype)[...] = np.asarray(image[y:y + v.height, x:x + v.width])
            return 0
        except BaseException as e:  # (a status for C; raised again below)
            failure.append(e)
            return _STATUS_IO

    def write(_user, x, y, view):
        try:
            v = view.contents
            out[y:y + v.height, x:x + v.width] = _host_view_array(v, 1)
            return 0
        except BaseException as e:
            failure.append(e)
            return _STATUS_IO

    io = _TileIO(w, h, cn, _DTYPES[dtype], _READ_FN(read), _WRITE_FN(write), None)
    status = _lib.edgel_canny_tiled(_ctx(ctx)._handle, ctypes.byref(p), ctypes.byref(io), tw, th)
    if failure:
        raise failure[0]
    _check(status)
    return out


def canny_tiled(image, low: float = 50, high: float = 150, aperture: int = 3, l2: bool = False,
                *, blur=None, blur_size: int = 0, gray: Optional[str] = None, tile=(1024, 1024),
                ctx: Optional[Context] = None, out=None):
    """canny() of an image of any size, in tiles, byte-identical to canny() of the whole image.

    Parameters
    ----------
    image : array_like, uint8, (H, W) or (H, W, C)
        Any array that slices: NumPy, numpy.memmap, Zarr, h5py...
    low, high, aperture, l2, blur, blur_size, gray
        As for canny().
    tile : (int, int)
        The tiles' (height, width); memory holds one tile and its halo.
    ctx : Context, optional
    out : array_like, optional
        An (H, W) uint8 array that takes slice assignment (a numpy.memmap opened for writing
        keeps the result out of memory); without it a NumPy array is returned.

    Returns
    -------
    out or numpy.ndarray
        The edges, 255 and 0.

    Notes
    -----
    canny() sends numpy.memmap input here by itself.
    """
    if np.dtype(image.dtype) != np.uint8:
        raise TypeError(f"canny_tiled needs uint8 input, not {image.dtype}")
    return _tiled(image, _params(low, high, aperture, l2, blur, blur_size, gray), tile, ctx, out)


def canny_itk_tiled(image, variance: float = 0.0, maximum_error: float = 0.01,
                    upper: float = 0.0, lower: float = 0.0, *, tile=(1024, 1024),
                    ctx: Optional[Context] = None, out=None):
    """canny_itk(..., dtype=numpy.uint8) of a 2-D image of any size, in tiles, byte for byte.

    Parameters
    ----------
    image : array_like, uint8, uint16 or float32, (H, W)
        Any array that slices, as for canny_tiled().
    variance, maximum_error, upper, lower
        As for canny_itk().
    tile : (int, int)
        The tiles' (height, width).
    ctx : Context, optional
    out : array_like, optional
        An (H, W) uint8 array that takes slice assignment.

    Returns
    -------
    out or numpy.ndarray
        The edges, 255 and 0.

    Notes
    -----
    canny_itk() sends numpy.memmap input here by itself when dtype is uint8.
    """
    if len(image.shape) != 2:
        raise ValueError("the itk preset takes 2-D (H, W) images")
    return _tiled(image, _itk_params(variance, maximum_error, upper, lower), tile, ctx, out)
