"""ITK's Canny on volumes: (z, y, x) arrays through edgel_canny_volume."""
from __future__ import annotations

import ctypes
from typing import Optional

import numpy as np

from ._capi import _DTYPES, _Volume, _VolumeCannyParams, _VolumeCannyStages, _check, _lib
from ._context import Context, _ctx

_MEMORY_DEVICE = 1


def _xyz(value, name: str) -> tuple:
    """A scalar for every axis, or three values in the array's axis order (z, y, x), as
    scikit-image takes spacing; returned in ITK's order (x, y, z)."""
    v = np.asarray(value, dtype=np.float64)
    if v.ndim == 0:
        return (float(v),) * 3
    if v.shape != (3,):
        raise ValueError(f"{name} takes one value or three (z, y, x), not {value!r}")
    return float(v[2]), float(v[1]), float(v[0])


def _volume_view(a: np.ndarray, output: bool = False) -> _Volume:
    """A view of a (z, y, x) host array whose voxels are packed along x."""
    if output and not a.flags.writeable:
        raise ValueError("the output array is read-only")
    d, h, w = a.shape
    item = a.itemsize
    pitch = a.strides[1] if h > 1 else w * item
    slice_pitch = a.strides[0] if d > 1 else h * pitch
    return _Volume(a.ctypes.data if a.size else None, w, h, d, pitch, slice_pitch,
                   _DTYPES.get(a.dtype, -1), 0)


def _packed_volume(a: np.ndarray) -> np.ndarray:
    """a, or a contiguous copy when its voxels are not packed along x or a stride is
    negative."""
    if a.strides[2] == a.itemsize and min(a.strides) >= 0:
        return a
    return np.ascontiguousarray(a)


def canny_itk_volume(image, variance, maximum_error, upper: float, lower: float, *,
                     spacing=1.0, dtype=np.float32, stages: Optional[dict] = None,
                     ctx: Optional[Context] = None, out=None):
    """canny_itk on a (z, y, x) volume (the public entry is canny_itk)."""
    p = _VolumeCannyParams()
    _lib.edgel_volume_canny_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.variance[:] = _xyz(variance, "variance")
    p.maximum_error[:] = _xyz(maximum_error, "maximum_error")
    p.spacing[:] = _xyz(spacing, "spacing")
    p.upper_threshold, p.lower_threshold = float(upper), float(lower)
    if hasattr(image, "__cuda_array_interface__") or hasattr(image, "__dlpack_device__") \
            and not isinstance(image, np.ndarray):
        # the library says what it takes (device volumes are not taken yet)
        src = _Volume(1, 1, 1, 1, 1, 1, _DTYPES[np.dtype(np.float32)], _MEMORY_DEVICE)
        edges = _Volume(1, 1, 1, 1, 1, 1, _DTYPES[np.dtype(np.uint8)], _MEMORY_DEVICE)
        _check(_lib.edgel_canny_volume(_ctx(ctx)._handle, ctypes.byref(p), ctypes.byref(src),
                                       ctypes.byref(edges), None))
    image = _packed_volume(np.asarray(image))
    if out is None:
        out = np.empty(image.shape, dtype)
    elif not isinstance(out, np.ndarray) or out.ndim != 3 or out.strides[2] != out.itemsize:
        raise TypeError("out must be a (z, y, x) NumPy array with voxels packed along x")
    keep = []
    st = None
    if stages is not None:
        unknown = set(stages) - {"smoothed", "suppressed"}
        if unknown:
            raise ValueError(f"unknown stages for a volume: {sorted(unknown)} (smoothed, "
                             f"suppressed)")
        st = _VolumeCannyStages()
        for name in stages:
            a = np.empty(image.shape, np.float32)
            stages[name] = a
            v = _volume_view(a, output=True)
            keep.append(v)
            setattr(st, name, ctypes.pointer(v))
    src, dst = _volume_view(image), _volume_view(out, output=True)
    _check(_lib.edgel_canny_volume(_ctx(ctx)._handle, ctypes.byref(p), ctypes.byref(src),
                                   ctypes.byref(dst), ctypes.byref(st) if st else None))
    return out
