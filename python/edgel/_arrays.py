"""Arrays as the library sees them: image views (edgel_image) of NumPy arrays, of CUDA arrays
(__cuda_array_interface__: CuPy, PyTorch) and of DLPack CUDA arrays (JAX, ...), and new
arrays of the caller's kind for results."""
from __future__ import annotations

import ctypes
import struct
import sys
from typing import Optional

import numpy as np

from ._capi import _DTYPES, _Image, _Stages

def _int32(value, name: str) -> int:
    """value as a C int32, or ValueError: nothing wraps (2**32 + 3 is not 3)."""
    v = int(value)
    if not -2**31 <= v < 2**31:
        raise ValueError(f"{name} {v} is out of range")
    return v


def _check_sizes(h: int, w: int, c: int) -> None:
    """Image sizes that fit the C view (the library then checks its own limits)."""
    if max(h, w, c) >= 2**31:
        raise ValueError(f"image of {h}x{w}x{c} is larger than edgel accepts (2**20 a side, "
                         f"2**40 pixels, in tiles)")


def _data_pointer(a: np.ndarray) -> int:
    """The address of a's first element. Through the buffer protocol where numpy allows it
    (writable C-contiguous arrays): 0.5 us, against 2 us for a.ctypes.data, which small frames
    notice (three views a call)."""
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(a))
    except (TypeError, ValueError, BufferError):
        return a.ctypes.data


def _rows_packed(shape, strides, item) -> bool:
    """Whether an (H, W) or (H, W, C) array's rows hold packed pixels, going forward. A side
    of one element may have any stride (NumPy gives a[:, None] a stride of 0 there)."""
    if len(shape) == 2:
        return (shape[1] == 1 or strides[1] == item) and (shape[0] == 1 or strides[0] >= 0)
    h, w, c = shape
    return ((c == 1 or strides[2] == item) and (w == 1 or strides[1] == c * item) and
            (h == 1 or strides[0] >= 0))


def _view_fields(a: np.ndarray, output: bool) -> tuple:
    """The fields of an image view of a 2-D (H, W) or 3-D (H, W, C) array whose rows hold
    packed pixels; `output`: the library writes it, so it must not be read-only."""
    if output and not a.flags.writeable:
        raise ValueError("out is read-only")
    t = _DTYPES.get(a.dtype)
    if t is None:
        raise TypeError(f"unsupported dtype {a.dtype}")
    shape, strides, item = a.shape, a.strides, a.itemsize
    if len(shape) == 2:
        (h, w), c = shape, 1
    elif len(shape) == 3:
        h, w, c = shape
    else:
        raise ValueError("image must be 2-D (H, W) or 3-D (H, W, C)")
    if not _rows_packed(shape, strides, item) and a.size:  # (empty: the library's size error)
        raise ValueError("rows must hold packed pixels")
    _check_sizes(h, w, c)
    return _data_pointer(a), w, h, strides[0] if h > 1 else w * c * item, t, c, 0


def _view(a: np.ndarray, output: bool = False) -> _Image:
    return _Image(*_view_fields(a, output))


_PACKED_VIEW = struct.Struct("@PiiNiii4x")  # an edgel_image, laid out as _Image
assert _PACKED_VIEW.size == ctypes.sizeof(_Image)


def _packed_view(a: np.ndarray, output: bool = False) -> bytes:
    """_view as bytes, for arguments declared c_void_p: half the cost of an _Image, which
    small frames notice (three views a call)."""
    return _PACKED_VIEW.pack(*_view_fields(a, output))


def _host_out(out, shape, dtype) -> np.ndarray:
    """The host array a call writes: `out` as given (the library checks its size and type,
    _view(..., output=True) that it is writable with packed rows), or a new one."""
    if out is None:
        return np.empty(shape, dtype)
    if not isinstance(out, np.ndarray):
        raise TypeError("out must be a NumPy array for a host image")
    return out


def _packed(a: np.ndarray) -> np.ndarray:
    """a, or a packed copy when its rows do not hold packed pixels (checked from the strides
    alone: making a view costs microseconds)."""
    if a.ndim not in (2, 3) or _rows_packed(a.shape, a.strides, a.itemsize):
        return a
    return np.ascontiguousarray(a)



class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    pass


_DLManagedTensor._fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                             ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor)))]
_DL_CUDA = 2
_DL_TYPES = {(1, 8): "|u1", (1, 16): "<u2", (0, 16): "<i2", (0, 32): "<i4", (2, 32): "<f4"}
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_rename = ctypes.pythonapi.PyCapsule_SetName
_capsule_rename.argtypes = [ctypes.py_object, ctypes.c_char_p]


class _DLPackCUDA:
    """A CUDA array that speaks only DLPack (JAX, ...), seen through __cuda_array_interface__.

    The producer is asked for the legacy default stream (stream=1): its work is then ordered
    before anything queued there, and edgel runs there too. The tensor is released (its
    deleter called) when this object goes.
    """

    def __init__(self, obj):
        capsule = obj.__dlpack__(stream=1)
        self._managed = ctypes.cast(_capsule_pointer(capsule, b"dltensor"),
                                    ctypes.POINTER(_DLManagedTensor))
        _capsule_rename(capsule, b"used_dltensor")  # ours to release now
        t = self._managed.contents.dl_tensor
        key = (t.dtype.code, t.dtype.bits)
        if key not in _DL_TYPES or t.dtype.lanes != 1:
            self.close()
            raise TypeError(f"unsupported DLPack dtype {key}")
        shape = tuple(t.shape[i] for i in range(t.ndim))
        item = t.dtype.bits // 8
        strides = (tuple(t.strides[i] * item for i in range(t.ndim)) if t.strides else None)
        self.device_id = t.device.device_id
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": _DL_TYPES[key], "strides": strides, "version": 3,
            "data": ((t.data or 0) + t.byte_offset, False), "stream": 1}

    def close(self):
        if self._managed:
            deleter = self._managed.contents.deleter
            if deleter:
                deleter(self._managed)
            self._managed = None

    def __del__(self):
        self.close()


def _is_cupy(a) -> bool:
    cupy = sys.modules.get("cupy")  # (loaded already wherever a CuPy array exists)
    return cupy is not None and type(a) is cupy.ndarray


def _cuda_array(a):
    """a itself when it has __cuda_array_interface__, an adapter for a DLPack CUDA array,
    or None for host arrays. (hasattr calls the interface's property: CuPy's builds a
    dictionary, 7 us, so CuPy and NumPy arrays are told by their type.)"""
    if type(a) is np.ndarray:  # (the common case first: small calls notice each test)
        return None
    if _is_cupy(a):
        return a
    if isinstance(a, np.ndarray):
        return None
    if hasattr(a, "__cuda_array_interface__"):
        return a
    if hasattr(a, "__dlpack__") and hasattr(a, "__dlpack_device__") and \
            a.__dlpack_device__()[0] == _DL_CUDA:
        return _DLPackCUDA(a)
    return None


def _cuda_fields(a) -> tuple:
    """(shape, dtype, strides or None, data pointer, stream or None) of a CUDA array. CuPy
    arrays are read from their attributes, with the stream their interface would name (the
    current one; the legacy default stream, 1, for the null stream): 1 us instead of 7."""
    if _is_cupy(a):
        stream = sys.modules["cupy"].cuda.get_current_stream().ptr
        return a.shape, a.dtype, a.strides, a.data.ptr if a.size else 0, stream or 1
    cai = a.__cuda_array_interface__
    return (tuple(cai["shape"]), np.dtype(cai["typestr"]), cai.get("strides"), cai["data"][0],
            cai.get("stream"))


def _device_view(a) -> tuple:
    """An image view of a CUDA array (CuPy, PyTorch, ...) and the stream it names."""
    shape, dtype, strides, data, stream = _cuda_fields(a)
    if dtype not in _DTYPES:
        raise TypeError(f"unsupported dtype {dtype}")
    if len(shape) == 2:
        (h, w), c = shape, 1
    elif len(shape) == 3:
        h, w, c = shape
    else:
        raise ValueError("image must be 2-D (H, W) or 3-D (H, W, C)")
    _check_sizes(h, w, c)
    item = dtype.itemsize
    strides = strides or tuple(int(np.prod(shape[i + 1:])) * item for i in range(len(shape)))
    if not _rows_packed(shape, strides, item):
        raise ValueError("rows must hold packed pixels (use a contiguous array)")
    return _Image(data, w, h, strides[0] if h > 1 else w * c * item, _DTYPES[dtype], c,
                  1), stream


def _device_of(a) -> int:
    """The CUDA device ordinal of a CUDA array (DLPack's word for it; 0 where it has none)."""
    try:
        return int(a.__dlpack_device__()[1])
    except (AttributeError, TypeError, ValueError, IndexError):
        return 0



def _device_empty_like(a, shape, dtype=np.uint8):
    """An array of `dtype` of the same kind and device as the CUDA array `a`."""
    module = type(a).__module__.split(".")[0]
    if module == "torch":
        import torch
        tdtype = {np.dtype(np.float32): torch.float32, np.dtype(np.int16): torch.int16,
                  np.dtype(np.int32): torch.int32, np.dtype(np.float64): torch.float64,
                  np.dtype(np.bool_): torch.bool}.get(np.dtype(dtype), torch.uint8)
        return torch.empty(shape, dtype=tdtype, device=a.device)
    try:  # CuPy's own arrays, and the results for other CUDA arrays (DLPack ones)
        import cupy
    except ImportError:
        raise TypeError(f"pass out= for CUDA arrays of type {type(a).__name__}") from None
    device = a.device.id if module == "cupy" else getattr(a, "device_id", 0)
    with cupy.cuda.Device(device):
        return cupy.empty(shape, dtype=dtype)



def _host_view_array(v: "_Image", channels: int, dtype=np.uint8) -> np.ndarray:
    """A NumPy array over a host image view of the library (valid during the callback)."""
    dtype = np.dtype(dtype)
    item = v.width * channels * dtype.itemsize
    buf = (ctypes.c_uint8 * (v.pitch * (v.height - 1) + item)).from_address(v.data)
    a = np.ndarray((v.height, v.width, channels), dtype, buf, 0,
                   (v.pitch, channels * dtype.itemsize, dtype.itemsize))
    return a if channels > 1 else a[:, :, 0]


def _stages_struct(stages: Optional[dict], shapes: dict, empty, view, preset: str):
    """The edgel_canny_stages struct for a `stages` dict (None or empty: no struct): each name
    it holds as a key receives a new array, empty(shape, dtype) with the (shape, dtype) that
    `shapes` gives it, seen through view(array). Returns (struct or None, the views to keep
    alive while the call runs)."""
    if not stages:
        return None, []
    st, keep = _Stages(), []
    for name in stages:
        if name not in shapes:
            raise KeyError(f"the {preset} preset has no stage {name!r} (it has "
                           f"{', '.join(shapes)})")
        stages[name] = empty(*shapes[name])
        keep.append(view(stages[name]))
        setattr(st, name, ctypes.pointer(keep[-1]))
    return st, keep
