"""ITK's Canny on volumes: (z, y, x) arrays through edgel_canny_volume."""
from __future__ import annotations

import ctypes
from typing import Optional

import numpy as np

from ._arrays import _cuda_array, _cuda_fields, _device_empty_like, _device_of
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


def _device_volume_view(a) -> tuple:
    """A view of a (z, y, x) CUDA array (CuPy, PyTorch, DLPack) and the stream it names."""
    shape, dtype, strides, data, stream = _cuda_fields(a)
    if len(shape) != 3:
        raise ValueError(f"a volume is a 3-D (z, y, x) array, not shape {shape}")
    d, h, w = shape
    item = dtype.itemsize
    strides = strides or (h * w * item, w * item, item)
    if strides[2] != item or min(strides) < 0:
        raise ValueError("a CUDA volume's voxels must be packed along x (use a contiguous "
                         "array)")
    pitch = strides[1] if h > 1 else w * item
    return _Volume(data, w, h, d, pitch, strides[0] if d > 1 else h * pitch,
                   _DTYPES.get(dtype, -1), _MEMORY_DEVICE), stream


def _packed_volume(a: np.ndarray) -> np.ndarray:
    """a, or a contiguous copy when its voxels are not packed along x, a stride is negative
    or its memory is not aligned to the voxel's size (as arrays unpickled from a dask
    worker's message can be)."""
    if a.strides[2] == a.itemsize and min(a.strides) >= 0 and a.flags.aligned and \
            all(st % a.itemsize == 0 for st in a.strides):
        return a
    return a.copy()


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
    cuda = _cuda_array(image)
    if cuda is not None:  # on its GPU, after the work queued on its stream
        src, stream = _device_volume_view(cuda)
        shape = (src.depth, src.height, src.width)
        empty = lambda dt: _device_empty_like(cuda, shape, dt)  # noqa: E731
        view = lambda a: _device_volume_view(_cuda_array(a))[0]  # noqa: E731
        context = _ctx(ctx, "cuda", stream or None, _device_of(cuda))
    else:
        image = _packed_volume(np.asarray(image))
        src, shape = _volume_view(image), image.shape
        empty = lambda dt: np.empty(shape, dt)  # noqa: E731
        view = lambda a: _volume_view(a, output=True)  # noqa: E731
        context = _ctx(ctx)
    if out is None:
        out = empty(dtype)
    elif cuda is None and (not isinstance(out, np.ndarray) or out.ndim != 3 or
                           out.strides[2] != out.itemsize):
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
            a = stages[name] = empty(np.float32)
            v = view(a)
            keep.append(v)
            setattr(st, name, ctypes.pointer(v))
    dst = view(out)
    _check(_lib.edgel_canny_volume(context._handle, ctypes.byref(p), ctypes.byref(src),
                                   ctypes.byref(dst), ctypes.byref(st) if st else None))
    return out
