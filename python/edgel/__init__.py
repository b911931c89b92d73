"""Python interface to libedgel (ctypes over the C API; NumPy arrays in and out).

    >>> import edgel, numpy as np
    >>> edges = edgel.canny(image_u8, 50, 150)          # like cv2.Canny(image_u8, 50, 150)

CuPy arrays and PyTorch CUDA tensors (anything with __cuda_array_interface__) go in and come
back without copies: edgel runs on the GPU, on the stream the array names, and returns an
array of the same kind (or fills `out=`).

The shared library is the one named by the EDGEL_LIBRARY environment variable (a path to
libedgel.so), else the one installed with this package (`pip install .`), else the one on
the system's library search path.
"""
from __future__ import annotations

import ctypes
import functools
import os
import struct
import sys
import threading
from typing import Optional

import numpy as np

__all__ = ["__version__", "EdgelError", "EdgelValueError", "EdgelTypeError", "EdgelMemoryError",
           "Context", "canny", "canny_tiled", "canny_itk", "canny_itk_tiled", "canny_skimage", "auto_thresholds", "canny_batch", "cuda_device_count", "canny_gradients", "to_gray",
           "gaussian_blur", "filter2d", "sep_filter2d", "filter2d_method", "library_version",
           "show_config"]

# The oldest library whose structs this module's match (0.4.0: the skimage preset's fields);
# newer ones read them too. The version itself is the library's (__version__ below).
MIN_VERSION_NUMBER = 400

_U8, _U16, _S16, _S32, _F32, _F64, _BOOL = 0, 1, 2, 3, 4, 5, 6
_DTYPES = {np.dtype(np.uint8): _U8, np.dtype(np.uint16): _U16, np.dtype(np.int16): _S16,
           np.dtype(np.int32): _S32, np.dtype(np.float32): _F32, np.dtype(np.float64): _F64,
           np.dtype(np.bool_): _BOOL}
_BACKENDS = {"auto": 0, "cpu": 1, "cuda": 2}
_GRAY = {None: 0, "max-channel": 0, "rgb": 1, "bgr": 2}


def _gray(gray):
    """gray= as the library takes it: None (also "max-channel"), "rgb" or "bgr"."""
    if gray is None or (isinstance(gray, str) and gray in _GRAY):
        return None if gray in (None, "max-channel") else gray
    hint = (" (an array's channel order is the caller's to say: 'rgb', or 'bgr' for "
            "cv2.imread's arrays)" if gray == "luma" else "")
    raise ValueError(f"gray={gray!r}: None or 'max-channel' (the channel of largest gradient, "
                     f"as cv2.Canny on colour), 'rgb' or 'bgr' (luma first, as cv2.cvtColor)"
                     f"{hint}")


def _cv2_order(aperture, l2, blur, out):
    """cv2.Canny's positional order, Canny(image, threshold1, threshold2, edges, apertureSize,
    L2gradient), where the fourth argument is an array or None (never an aperture):
    (aperture, l2, blur, out) as edgel's order has them."""
    if aperture is None or getattr(aperture, "ndim", 0) > 0:
        return (3 if l2 is False else l2), (False if blur is None else blur), None, \
            (aperture if aperture is not None else out)
    return aperture, l2, blur, out
_BLUR_NONE, _BLUR_GAUSSIAN, _BLUR_5X5 = 0, 1, 2


class _Image(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("width", ctypes.c_int32), ("height", ctypes.c_int32),
                ("pitch", ctypes.c_size_t), ("type", ctypes.c_int), ("channels", ctypes.c_int32),
                ("memory", ctypes.c_int)]


class _ContextOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("threads", ctypes.c_int32),
                ("device", ctypes.c_int32)]


# The parameter structs begin with their size in this module's layout: the library gives the
# fields this module does not know their defaults (a newer library keeps working).
class _CannyParams(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("preset", ctypes.c_int), ("low_threshold", ctypes.c_double),
                ("high_threshold", ctypes.c_double), ("aperture", ctypes.c_int32),
                ("l2_gradient", ctypes.c_int32), ("gray", ctypes.c_int), ("blur", ctypes.c_int),
                ("blur_sigma", ctypes.c_double), ("blur_ksize", ctypes.c_int32),
                ("variance", ctypes.c_double), ("maximum_error", ctypes.c_double),
                ("sigma", ctypes.c_double), ("mode", ctypes.c_int), ("cval", ctypes.c_double),
                ("use_quantiles", ctypes.c_int32), ("gaussian_weights", ctypes.c_void_p)]

_PRESET_ITK, _PRESET_SKIMAGE = 1, 2


class _FilterParams(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("method", ctypes.c_int), ("border", ctypes.c_int),
                ("border_value", ctypes.c_double), ("anchor_x", ctypes.c_int32),
                ("anchor_y", ctypes.c_int32), ("convolve", ctypes.c_int32)]


_METHODS = {"auto": 0, "direct": 1, "separable": 2, "fft": 3}
_BORDERS = {"constant": 0, "replicate": 1, "reflect": 2, "reflect-101": 3, "wrap": 4}


_IMG_P = ctypes.POINTER(_Image)


class _Stages(ctypes.Structure):
    _fields_ = [(n, _IMG_P) for n in ("gray", "smoothed", "dx", "dy", "magnitude", "suppressed")]


_READ_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, _IMG_P)
_WRITE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, _IMG_P)


class _TileIO(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int64), ("height", ctypes.c_int64), ("channels", ctypes.c_int32),
                ("type", ctypes.c_int), ("read", _READ_FN), ("write", _WRITE_FN),
                ("user", ctypes.c_void_p)]


def _library_path() -> str:
    if os.environ.get("EDGEL_LIBRARY"):
        return os.environ["EDGEL_LIBRARY"]
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("libedgel.so.0", "libedgel.so"):
        if os.path.exists(os.path.join(here, name)):
            return os.path.join(here, name)
    return "libedgel.so.0"


def _load() -> ctypes.CDLL:
    path = _library_path()
    lib = ctypes.CDLL(path)
    lib.edgel_version_number.restype = ctypes.c_uint
    lib.edgel_version_string.restype = ctypes.c_char_p
    lib.edgel_status_name.restype = ctypes.c_char_p
    lib.edgel_last_error.restype = ctypes.c_char_p
    lib.edgel_context_create.argtypes = [ctypes.c_int, ctypes.POINTER(_ContextOptions),
                                         ctypes.POINTER(ctypes.c_void_p)]
    lib.edgel_context_destroy.argtypes = [ctypes.c_void_p]
    lib.edgel_canny_params_init.argtypes = [ctypes.POINTER(_CannyParams), ctypes.c_size_t]
    lib.edgel_context_options_init.argtypes = [ctypes.POINTER(_ContextOptions), ctypes.c_size_t]
    lib.edgel_canny.argtypes = [ctypes.c_void_p, ctypes.POINTER(_CannyParams), _IMG_P, _IMG_P,
                                ctypes.POINTER(_Stages)]
    lib.edgel_canny_masked.argtypes = [ctypes.c_void_p, ctypes.POINTER(_CannyParams), _IMG_P,
                                       _IMG_P, _IMG_P, ctypes.POINTER(_Stages)]
    lib.edgel_canny_tiled.argtypes = [ctypes.c_void_p, ctypes.POINTER(_CannyParams),
                                      ctypes.POINTER(_TileIO), ctypes.c_int32, ctypes.c_int32]
    lib.edgel_canny_tile_halo.argtypes = [ctypes.POINTER(_CannyParams), ctypes.POINTER(ctypes.c_int32)]
    lib.edgel_canny_auto_thresholds.argtypes = [ctypes.c_void_p, ctypes.POINTER(_CannyParams),
                                                _IMG_P, ctypes.c_int,
                                                ctypes.POINTER(ctypes.c_double),
                                                ctypes.POINTER(ctypes.c_double)]
    lib.edgel_canny_gradients.argtypes = [ctypes.c_void_p, ctypes.POINTER(_CannyParams), _IMG_P,
                                          _IMG_P, _IMG_P, ctypes.POINTER(_Stages)]
    lib.edgel_to_gray.argtypes = [ctypes.c_void_p, ctypes.c_int, _IMG_P, _IMG_P]
    lib.edgel_gaussian_blur.argtypes = [ctypes.c_void_p, _IMG_P, _IMG_P, ctypes.c_int32,
                                        ctypes.c_double]
    lib.edgel_filter_params_init.argtypes = [ctypes.POINTER(_FilterParams), ctypes.c_size_t]
    # views: byref(_Image) or _packed_view bytes
    lib.edgel_filter2d.argtypes = [ctypes.c_void_p, ctypes.POINTER(_FilterParams),
                                   ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.edgel_sep_filter2d.argtypes = [ctypes.c_void_p, ctypes.POINTER(_FilterParams),
                                       ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                       ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32]
    lib.edgel_filter2d_method.argtypes = [ctypes.c_void_p, ctypes.POINTER(_FilterParams), _IMG_P,
                                          _IMG_P, _IMG_P, ctypes.POINTER(ctypes.c_int)]
    lib.edgel_context_set_stream.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.edgel_context_synchronize.argtypes = [ctypes.c_void_p]
    if lib.edgel_version_number() < MIN_VERSION_NUMBER:
        raise ImportError(f"libedgel at {path} is version {lib.edgel_version_number()}, "
                          f"this module needs {MIN_VERSION_NUMBER} or newer")
    return lib


_lib = _load()


def _load_hostcall():
    """The compiled call path for NumPy arrays (_hostcall.c): installed beside this module, or
    in the python/ folder beside the library loaded (a build tree). None without it, or with
    EDGEL_NO_EXTENSION=1: ctypes then does every call."""
    if os.environ.get("EDGEL_NO_EXTENSION") == "1":
        return None
    try:
        from . import _hostcall
        return _hostcall
    except ImportError:
        pass
    lib = _library_path()
    if os.sep not in lib:  # found on the library search path: no build tree to look in
        return None
    lib = os.path.abspath(lib)
    import importlib.machinery
    import importlib.util
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(os.path.dirname(lib), "python", "_hostcall" + suffix)
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location("edgel._hostcall", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    return None


_hostcall = _load_hostcall()


def _address(handle) -> int:
    """A context handle (c_void_p, or None once closed) as the int the extension takes."""
    return (handle.value or 0) if handle is not None else 0
# The library functions the extension calls, by address (it does not link the library).
_ADDRESS = {name: ctypes.cast(getattr(_lib, name), ctypes.c_void_p).value
            for name in ("edgel_filter2d", "edgel_sep_filter2d", "edgel_canny")}


def library_version() -> int:
    return int(_lib.edgel_version_number())


__version__ = _lib.edgel_version_string().decode()  # the library's: one version for both


def show_config(print_out: bool = True) -> dict:
    """What this installation has, as numpy.show_config tells NumPy's: the library (its file,
    version, CUDA architectures and CPU FFT), whether NumPy calls take the compiled path, CUDA
    devices seen, and the `edgel` command with the file formats it reads (TIFF among them).
    Printed unless print_out is False; returned as a dict either way."""
    import subprocess
    try:
        build = _lib.edgel_build_config
        build.restype = ctypes.c_char_p
        build = build().decode()
    except AttributeError:  # a library older than this call
        build = "unknown (library before 0.4.0's edgel_build_config)"
    config = {"version": __version__, "library": _library_path(), "build": build,
              "compiled calls": _hostcall is not None, "cuda devices": cuda_device_count()}
    command = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "edgel")
    if os.access(command, os.X_OK):
        r = subprocess.run([command, "--version"], capture_output=True, text=True)
        files = [line for line in r.stdout.splitlines() if line.startswith("files:")]
        config["command"] = command
        config["command files"] = files[0][len("files: "):] if files else r.stderr.strip()
    else:
        config["command"] = None
    if print_out:
        for key, value in config.items():
            print(f"{key}: {value}")
    return config


class EdgelError(RuntimeError):
    """A failed edgel call: .status is the status name (e.g. 'EDGEL_ERROR_INVALID_SIZE')."""

    def __init__(self, status: int):
        self.code = status
        self.status = _lib.edgel_status_name(status).decode()
        self.message = _lib.edgel_last_error().decode()
        super().__init__(f"{self.status}: {self.message}")


class EdgelValueError(EdgelError, ValueError):
    """A value the library refused (a NULL or out-of-range argument, a size or pitch): the
    caller's to mend. Also an EdgelError and a ValueError."""


class EdgelTypeError(EdgelError, TypeError):
    """A valid but unsupported kind of input (a pixel type, channel count or memory kind the
    call does not take). Also an EdgelError and a TypeError."""


class EdgelMemoryError(EdgelError, MemoryError):
    """Out of memory, host or device. Also an EdgelError and a MemoryError."""


# edgel_status values -> the Python error each raises (others: EdgelError itself)
_ERRORS = {1: EdgelValueError, 2: EdgelValueError, 3: EdgelValueError, 4: EdgelValueError,
           5: EdgelTypeError, 6: EdgelMemoryError}


def _check(status: int) -> None:
    if status != 0:
        raise _ERRORS.get(status, EdgelError)(status)


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
        packed = strides[1] == item
    elif len(shape) == 3:
        h, w, c = shape
        packed = strides[2] == item and strides[1] == c * item
    else:
        raise ValueError("image must be 2-D (H, W) or 3-D (H, W, C)")
    if (not packed or strides[0] < 0) and a.size:  # (empty arrays: the library's size error)
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
    item, st = a.itemsize, a.strides
    if a.ndim == 2 and st[1] == item and st[0] >= 0:
        return a
    if a.ndim == 3 and st[2] == item and st[1] == a.shape[2] * item and st[0] >= 0:
        return a
    return np.ascontiguousarray(a) if a.ndim in (2, 3) else a


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
    if strides[1] != c * item or (len(shape) == 3 and strides[2] != item):
        raise ValueError("rows must hold packed pixels (use a contiguous array)")
    return _Image(data, w, h, strides[0] if h > 1 else w * c * item, _DTYPES[dtype], c,
                  1), stream


def _device_of(a) -> int:
    """The CUDA device ordinal of a CUDA array (DLPack's word for it; 0 where it has none)."""
    try:
        return int(a.__dlpack_device__()[1])
    except (AttributeError, TypeError, ValueError, IndexError):
        return 0


def cuda_device_count() -> int:
    """CUDA devices present (0 without a GPU or a CUDA build): one context a device, as in
    canny_batch(frames, devices="all")."""
    n = ctypes.c_int32()
    _check(_lib.edgel_cuda_device_count(ctypes.byref(n)))
    return int(n.value)


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


class Context:
    """A backend context: Context('cpu', threads=1) is the single-thread reference.

    A context serves one thread at a time: a call on it while another thread's call runs
    raises EdgelError with status 'EDGEL_ERROR_CONTEXT_BUSY'. Calls without ctx= use a
    default context of the calling thread, so they may run from any number of threads."""

    def __init__(self, backend: str = "auto", threads: int = 0, device: int = 0):
        self._handle = None
        self._stream = None  # the stream bound with edgel_context_set_stream (None: its own)
        handle = ctypes.c_void_p()
        if backend not in _BACKENDS:
            raise ValueError(f"backend must be one of {sorted(_BACKENDS)}, not {backend!r}")
        options = _ContextOptions()
        _lib.edgel_context_options_init(ctypes.byref(options), ctypes.sizeof(options))
        options.threads, options.device = _int32(threads, "threads"), _int32(device, "device")
        _check(_lib.edgel_context_create(_BACKENDS[backend], ctypes.byref(options),
                                         ctypes.byref(handle)))
        self._handle = handle

    def close(self) -> None:
        """Releases the context's memory and threads (also at the end of a `with` block)."""
        if self._handle:
            _lib.edgel_context_destroy(self._handle)
            self._handle = None

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        if not self._handle:
            return "Context(closed)"
        backend, threads = ctypes.c_int(), ctypes.c_int32()
        _check(_lib.edgel_context_backend(self._handle, ctypes.byref(backend)))
        _check(_lib.edgel_context_threads(self._handle, ctypes.byref(threads)))
        name = {v: k for k, v in _BACKENDS.items()}.get(backend.value, backend.value)
        return f"Context({name!r}, threads={threads.value})"

    def __del__(self):
        self.close()


# Each thread's default contexts (backend name -> Context), made on its first call: a context
# serves one thread at a time, and the calls release the GIL.
_defaults = threading.local()


def _ctx(ctx: Optional[Context], backend: str = "auto", stream=None, device: int = 0) -> Context:
    """The context to run on, bound to `stream` (None: the context's own; host calls always
    pass None, so that no call runs on a caller's stream that may since have gone). A binding
    is a library call, so it is made only when the stream changes. Without ctx, the thread's
    default context of `backend` on CUDA device `device` (that of the arrays)."""
    if ctx is None:
        mine = _defaults.__dict__
        key = (backend, device)
        ctx = mine.get(key)
        if ctx is None:
            ctx = mine[key] = Context(backend, device=device)
    if ctx._stream != stream:
        _check(_lib.edgel_context_set_stream(ctx._handle, stream))
        ctx._stream = stream
    return ctx


def _params(low, high, aperture, l2, blur, blur_size, gray) -> _CannyParams:
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


def _run_device(image, out, out_shape, dtype, ctx: Optional[Context], call):
    """call(ctx_handle, src_view, dst_view) on the CUDA array `image` (out: a CUDA array, or
    None for a new one of out_shape(src) and `dtype`; dtype None: u8 for u8 input, else
    float32, as for host arrays); returns the output."""
    src, stream = _device_view(image)
    if dtype is None:
        dtype = np.uint8 if src.type == _U8 else np.float32
    if out is None:
        out = _device_empty_like(image, out_shape(src), dtype)
    dst, _ = _device_view(out)
    # The array's stream orders edgel after whoever wrote the input and before whoever reads
    # the output; with no stream named, edgel waits for its own work before returning.
    c = _ctx(ctx, "cuda", stream or None, _device_of(image))
    _check(call(c._handle, src, dst))
    if not stream:
        _check(_lib.edgel_context_synchronize(c._handle))
    return out


def _canny_device(image, p: _CannyParams, out, ctx: Optional[Context], dtype=np.uint8,
                  stages: Optional[dict] = None, shapes: Optional[dict] = None):
    """edgel_canny on a CUDA array; `stages` (names as keys) receive CUDA arrays of the
    image's kind, of the (shape, dtype) that `shapes` gives each name."""
    st, keep = None, []
    if stages:
        st = _Stages()
        for name in stages:
            if name not in shapes:
                raise KeyError(f"no stage {name!r} here")
            stages[name] = _device_empty_like(image, *shapes[name])
            keep.append(_device_view(stages[name])[0])
            setattr(st, name, ctypes.pointer(keep[-1]))
    return _run_device(image, out, lambda v: (v.height, v.width), dtype, ctx,
                       lambda h, s, d: _lib.edgel_canny(h, ctypes.byref(p), ctypes.byref(s),
                                                        ctypes.byref(d),
                                                        ctypes.byref(st) if st else None))


_PARAMS = {}  # canny()'s arguments -> their params struct (a ctypes struct costs microseconds)


def _cached_params(key: tuple) -> _CannyParams:
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


def auto_thresholds(image, rule: str = "otsu", blur=None, blur_size: int = 0,
                    gray: Optional[str] = None, aperture: int = 3, l2: bool = False,
                    quantiles=(0.1, 0.9), ctx: Optional[Context] = None) -> tuple:
    """The (low, high) thresholds that `rule` chooses for a u8 host image, computed on the
    image Canny reads (after `gray` and `blur`, as canny() takes them; colour images need
    gray, except for quantiles): "otsu": high = cv2.threshold(img, 0, 255, THRESH_BINARY +
    THRESH_OTSU)[0], low = high / 2; "median": with v = numpy.median(img), low =
    int(max(0, 0.67 * v)), high = int(min(255, 1.33 * v)) (the "auto Canny" recipe);
    "quantiles": numpy.percentile of the gradient magnitude (|dx|+|dy|, or sqrt(dx^2+dy^2)
    with l2; of `aperture`) at 100 * the two `quantiles`, as scikit-image's use_quantiles."""
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


def canny(image, low: float = 50, high: float = 150, aperture: int = 3,
          l2: bool = False, blur=None, blur_size: int = 0, gray: Optional[str] = None,
          stages: Optional[dict] = None, ctx: Optional[Context] = None, out=None,
          auto: Optional[str] = None, *, apertureSize: Optional[int] = None,
          L2gradient: Optional[bool] = None):
    """Canny edges (u8 0/255) of a u8 image with 1, 3 or 4 channels, = cv2.Canny.

    aperture: 3, 5, 7 or -1 (Scharr, needs l2). blur: None, a Gaussian sigma or "5x5".
    cv2.Canny's own call works as it is written: the keywords apertureSize and L2gradient,
    and its positional order (image, threshold1, threshold2, edges, apertureSize,
    L2gradient) where the fourth argument is an output array or None.
    gray: None or "max-channel" (colour: the channel of largest gradient, as cv2.Canny),
    "rgb" or "bgr" (luma first, as cv2.cvtColor of that channel order).
    stages: a dict to receive intermediate arrays (gray, smoothed, dx, dy, magnitude,
    suppressed) for the names it already contains as keys (of the image's kind: CUDA arrays
    for CUDA images).
    out: a uint8 array of shape (H, W) to fill in place and return, instead of a new one.
    A numpy.memmap image (perhaps larger than memory) runs in tiles (canny_tiled), with the
    same bytes; give a writable numpy.memmap as out to keep the result out of memory too.
    image may be a CuPy array or a PyTorch CUDA tensor: the result is then one too (and
    `out` a CUDA array), computed on the array's stream.
    Other CUDA arrays that speak DLPack (JAX, ...) work too; their result is a CuPy array.
    auto: "otsu" or "median" chooses low and high from the image (auto_thresholds; host
    arrays) instead of the values given; "quantiles" takes low and high as quantiles of the
    gradient magnitude in [0, 1] (scikit-image's use_quantiles).
    """
    aperture, l2, blur, out = _cv2_order(aperture, l2, blur, out)
    aperture = aperture if apertureSize is None else apertureSize
    l2 = l2 if L2gradient is None else L2gradient
    gray = _gray(gray)
    if auto is not None:
        low, high = auto_thresholds(image, auto, blur, blur_size, gray, aperture, l2,
                                    (low, high), ctx)
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
        return canny_tiled(image, low, high, aperture, l2, blur, blur_size, gray, ctx=ctx,
                           out=out)
    image = _packed(np.asarray(image))
    h, w = image.shape[:2]
    cn = 1 if image.ndim == 2 else image.shape[2]
    edges = _host_out(out, (h, w), np.uint8)
    p = _params(low, high, aperture, l2, blur, blur_size, gray)
    st = None
    keep = []
    if stages is not None:
        st = _Stages()
        shapes = _canny_shapes(h, w, cn, gray)
        for name in stages:
            shape, dtype = shapes[name]
            stages[name] = np.empty(shape, dtype)
            v = _view(stages[name])
            keep.append(v)
            setattr(st, name, ctypes.pointer(v))
    return _host_canny(ctx, p, image, edges, st)


def _batch_call(ctx, p: _CannyParams, srcs: list, dsts: list) -> None:
    """edgel_canny_batch over views of one kind (any sizes)."""
    n = len(srcs)
    _check(_lib.edgel_canny_batch(ctx._handle, ctypes.byref(p), (_Image * n)(*srcs),
                                  (_Image * n)(*dsts), n))


def _batch_call_multi(contexts: list, p: _CannyParams, srcs: list, dsts: list) -> None:
    """edgel_canny_batch_multi: host frames of one kind, equal shares over `contexts`."""
    n, k = len(srcs), len(contexts)
    handles = (ctypes.c_void_p * k)(*[c._handle for c in contexts])
    _check(_lib.edgel_canny_batch_multi(handles, k, ctypes.byref(p), (_Image * n)(*srcs),
                                        (_Image * n)(*dsts), n))


def _batch_contexts(ctx, devices) -> Optional[list]:
    """The contexts a host batch is spread over: ctx when it is a list of contexts, one
    context a device for `devices` ("all" or ordinals), or None for a single context."""
    if isinstance(ctx, (list, tuple)):
        if devices is not None:
            raise ValueError("pass ctx= (a list of contexts) or devices=, not both")
        if not ctx or not all(isinstance(c, Context) for c in ctx):
            raise TypeError("ctx must be a Context or a non-empty list of Contexts")
        return list(ctx)
    if devices is None:
        return None
    if ctx is not None:
        raise ValueError("pass ctx= or devices=, not both")
    if isinstance(devices, str):
        if devices != "all":
            raise ValueError(f"devices must be 'all' or a list of CUDA device ordinals, not "
                             f"{devices!r}")
        devices = range(cuda_device_count())
        if not devices:
            raise ValueError("devices='all': no CUDA device is present (or edgel was built "
                             "without CUDA)")
    devices = [_int32(d, "device") for d in devices]
    if not devices or len(set(devices)) != len(devices):
        raise ValueError(f"devices must be distinct CUDA device ordinals, not {devices}")
    return [_ctx(None, "cuda", None, d) for d in devices]


def _frame_info(f, i: int) -> tuple:
    """(is a CUDA array, shape) of frame i of a list, or ValueError naming it."""
    cuda = _cuda_array(f)
    shape, dtype = ((tuple(_cuda_fields(cuda)[0]), _cuda_fields(cuda)[1]) if cuda is not None
                    else (np.shape(f), np.asarray(f).dtype))
    if dtype != np.uint8 or len(shape) not in (2, 3):
        raise ValueError(f"frame {i}: {dtype} of shape {shape}; a batch takes u8 frames "
                         "(H, W) or (H, W, C)")
    return cuda is not None, shape


def _views_of_batch(a, step: int) -> list:
    """The views of the frames of a CUDA batch array `a` (frame 0's view, moved by `step`)."""
    v, _ = _device_view(a[0])
    return [_Image(v.data + i * step, v.width, v.height, v.pitch, v.type, v.channels, v.memory)
            for i in range(len(a))]


def canny_batch(frames, low: float = 50, high: float = 150, aperture: int = 3,
                l2: bool = False, blur=None, blur_size: int = 0, gray: Optional[str] = None,
                ctx=None, devices=None):
    """canny() of many frames in batched calls, with the keywords of canny(): an (N, H, W) or
    (N, H, W, C) u8 array (NumPy, CuPy or PyTorch CUDA) gives an (N, H, W) array of its kind;
    a list of frames (of any sizes; one kind and channel count) gives a list. The batch runs
    as one call (on a GPU, several frames a launch; gray CUDA frames of different sizes in one
    launch sequence); each result equals canny() of its frame, and an error names the frame.

    Host frames may be spread over several GPUs: devices="all" (or a list of device ordinals)
    runs equal shares of the batch at once, one context a device; so does ctx=[Context, ...]
    with contexts of your own (edgel_canny_batch_multi). CUDA frames run on their own GPU."""
    if isinstance(frames, (list, tuple)):
        if not frames:
            raise ValueError("an empty batch")
        info = [_frame_info(f, i) for i, f in enumerate(frames)]
        kind0 = (info[0][0], info[0][1][2:])
        for i, (cuda, shape) in enumerate(info):
            if (cuda, shape[2:]) != kind0:
                raise ValueError(f"frame {i}: {'a CUDA' if cuda else 'a host'} frame of shape "
                                 f"{shape}, frame 0 {'a CUDA' if kind0[0] else 'a host'} one of "
                                 f"shape {info[0][1]}: one kind and channel count a batch")
        return _canny_list(frames, kind0[0], _params(low, high, aperture, l2, blur, blur_size,
                                                     gray), ctx, devices)
    p = _params(low, high, aperture, l2, blur, blur_size, gray)
    cuda = _cuda_array(frames)
    if cuda is not None:
        shape, dtype, strides, _, stream = _cuda_fields(cuda)
        if dtype != np.uint8 or len(shape) not in (3, 4) or not shape[0]:
            raise ValueError(f"a batch is a non-empty u8 array (N, H, W) or (N, H, W, C), not "
                             f"{dtype} {tuple(shape)}")
        if not (_is_cupy(frames) or type(frames).__module__.startswith("torch")):
            raise TypeError("CUDA batches are CuPy arrays or PyTorch tensors")
        _one_gpu(ctx, devices)
        out = _device_empty_like(cuda, tuple(shape[:3]), np.uint8)
        step = strides[0] if strides else int(np.prod(shape[1:]))
        c = _ctx(ctx, "cuda", stream or None, _device_of(frames))
        _batch_call(c, p, _views_of_batch(frames, step),
                    _views_of_batch(out, int(shape[1]) * int(shape[2])))
        if not stream:
            _check(_lib.edgel_context_synchronize(c._handle))
        return out
    frames = np.ascontiguousarray(frames)
    if frames.dtype != np.uint8 or frames.ndim not in (3, 4) or not frames.shape[0]:
        raise ValueError(f"a batch is a non-empty u8 array (N, H, W) or (N, H, W, C), not "
                         f"{frames.dtype} {frames.shape}")
    out = np.empty(frames.shape[:3], np.uint8)
    _host_batch(ctx, devices, p, [_view(f) for f in frames], [_view(e, True) for e in out])
    return out


def _canny_list(frames: list, cuda: bool, p: _CannyParams, ctx, devices) -> list:
    """canny_batch of a list of frames of one kind and any sizes: one edgel_canny_batch call
    over views of the frames themselves (no copies), results of their kind."""
    if cuda:
        _one_gpu(ctx, devices)
        arrays = [_cuda_array(f) for f in frames]
        device = _device_of(frames[0])
        for i, f in enumerate(frames):
            if _device_of(f) != device:
                raise ValueError(f"frame {i}: on CUDA device {_device_of(f)}, frame 0 on "
                                 f"{device}: a batch of CUDA frames lives on one GPU")
        views = [_device_view(a) for a in arrays]
        outs = [_device_empty_like(a, (v.height, v.width)) for a, (v, _) in zip(arrays, views)]
        stream = views[0][1]
        c = _ctx(ctx, "cuda", stream or None, device)
        _batch_call(c, p, [v for v, _ in views], [_device_view(o)[0] for o in outs])
        if not stream:
            _check(_lib.edgel_context_synchronize(c._handle))
        return outs
    arrays = [_packed(np.asarray(f)) for f in frames]
    outs = [np.empty(a.shape[:2], np.uint8) for a in arrays]
    _host_batch(ctx, devices, p, [_view(a) for a in arrays], [_view(o, True) for o in outs])
    return outs


def _one_gpu(ctx, devices) -> None:
    """CUDA frames run on their own GPU: no spreading over devices."""
    if devices is not None or isinstance(ctx, (list, tuple)):
        raise ValueError("CUDA frames live on one GPU: devices= and lists of contexts take "
                         "host frames")


def _host_batch(ctx, devices, p: _CannyParams, srcs: list, dsts: list) -> None:
    """A batch of host views on one context, or spread over several (ctx a list, devices)."""
    contexts = _batch_contexts(ctx, devices)
    if contexts is None:
        _batch_call(_ctx(ctx), p, srcs, dsts)
    else:
        _batch_call_multi(contexts, p, srcs, dsts)


_STATUS_IO = 9


def _host_view_array(v: "_Image", channels: int, dtype=np.uint8) -> np.ndarray:
    """A NumPy array over a host image view of the library (valid during the callback)."""
    dtype = np.dtype(dtype)
    item = v.width * channels * dtype.itemsize
    buf = (ctypes.c_uint8 * (v.pitch * (v.height - 1) + item)).from_address(v.data)
    a = np.ndarray((v.height, v.width, channels), dtype, buf, 0,
                   (v.pitch, channels * dtype.itemsize, dtype.itemsize))
    return a if channels > 1 else a[:, :, 0]


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
                blur=None, blur_size: int = 0, gray: Optional[str] = None, tile=(1024, 1024),
                ctx: Optional[Context] = None, out=None):
    """canny() of an image of any size, in tiles: byte-identical to canny() on the whole
    image, with memory for a tile and its halo only. `image` is any array that slices
    (NumPy, numpy.memmap, Zarr, h5py...) of u8, (H, W) or (H, W, C); `out` (optional) an
    array that takes slice assignment, e.g. a numpy.memmap opened for writing; without it a
    NumPy array is returned. tile: (height, width) of the tiles.
    canny() sends numpy.memmap input here by itself."""
    if np.dtype(image.dtype) != np.uint8:
        raise TypeError(f"canny_tiled needs uint8 input, not {image.dtype}")
    return _tiled(image, _params(low, high, aperture, l2, blur, blur_size, gray), tile, ctx, out)


def _itk_params(variance, maximum_error, upper, lower) -> _CannyParams:
    p = _CannyParams()
    _lib.edgel_canny_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.preset = _PRESET_ITK
    p.variance, p.maximum_error = float(variance), float(maximum_error)
    p.low_threshold, p.high_threshold = float(lower), float(upper)
    return p


def canny_itk_tiled(image, variance: float = 0.0, maximum_error: float = 0.01,
                    upper: float = 0.0, lower: float = 0.0, tile=(1024, 1024),
                    ctx: Optional[Context] = None, out=None):
    """canny_itk(..., dtype=uint8) of a 2-D u8, u16 or float32 image of any size, in tiles,
    byte for byte: as canny_tiled (any array that slices in, `out` any that takes slice
    assignment). canny_itk sends numpy.memmap input here by itself when dtype is uint8."""
    if len(image.shape) != 2:
        raise ValueError("the itk preset takes 2-D (H, W) images")
    return _tiled(image, _itk_params(variance, maximum_error, upper, lower), tile, ctx, out)


def canny_itk(image, variance: float = 0.0, maximum_error: float = 0.01, upper: float = 0.0,
              lower: float = 0.0, dtype=np.float32, stages: Optional[dict] = None,
              ctx: Optional[Context] = None, out=None):
    """itk::CannyEdgeDetectionImageFilter, bit for bit: edges of a 2-D u8, u16 or float32 image.

    variance: Gaussian variance in pixels^2 (0 = no smoothing); maximum_error: the kernel's
    truncation error (its radius is capped at 32); upper, lower: ITK's thresholds on the
    gradient magnitude at suppressed maxima (strict, never swapped). The defaults are ITK's.
    dtype: float32 (default) gives ITK's 1/0 output, uint8 gives 255/0.
    stages: a dict with keys among "smoothed" and "suppressed" (ITK's
    GetNonMaximumSuppressionImage) to receive float32 arrays (of the image's kind).
    out: an array of `dtype` and shape (H, W) to fill in place and return.
    image may be a CuPy array or a PyTorch CUDA tensor, as for canny().
    A numpy.memmap image with dtype=uint8 runs in tiles (canny_itk_tiled), with the same bytes.
    """
    p = _itk_params(variance, maximum_error, upper, lower)
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.float32), np.dtype(np.uint8)):
        raise TypeError(f"dtype must be float32 or uint8, not {dtype}")
    cuda = _cuda_array(image)
    if cuda is not None:
        hw = tuple(_cuda_fields(cuda)[0][:2])
        return _canny_device(cuda, p, out, ctx, dtype, stages,
                             {"smoothed": (hw, np.float32), "suppressed": (hw, np.float32)})
    if isinstance(image, np.memmap) and stages is None and dtype == np.uint8:  # in tiles
        return canny_itk_tiled(image, variance, maximum_error, upper, lower, ctx=ctx, out=out)
    image = _packed(np.asarray(image))
    edges = _host_out(out, image.shape[:2], dtype)
    st, keep = None, []
    if stages is not None:
        st = _Stages()
        for name in stages:
            if name not in ("smoothed", "suppressed"):
                raise KeyError(f"the itk preset has no stage {name!r}")
            stages[name] = np.empty(image.shape[:2], np.float32)
            keep.append(_view(stages[name]))
            setattr(st, name, ctypes.pointer(keep[-1]))
    return _host_canny(ctx, p, image, edges, st)


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
    """skimage.feature.canny of scikit-image 0.26, byte for byte, with its signature: the
    boolean edge map of a 2-D image of any dtype skimage takes (bool, int8, uint8, uint16,
    uint32, int16, int32, float16, float32, float64).

    sigma: the Gaussian's standard deviation (0: none). low_threshold, high_threshold: in the
    image's units (None: 10% and 20% of the dtype's range), or quantiles of the gradient
    magnitude with use_quantiles. mask: a 2-D bool array, True where the image takes part.
    mode, cval: the Gaussian's borders ('constant', 'nearest', 'reflect', 'mirror', 'wrap').
    stages: a dict with keys among "smoothed", "dx" (jsobel), "dy" (isobel), "magnitude" and
    "suppressed" to receive skimage's float arrays (float32 for float32 input, else float64).
    out: a bool array of the image's shape to fill and return.
    image may be a CuPy array or a PyTorch CUDA tensor (bool, uint8, uint16, int16, int32,
    float32, float64), as for canny(); then mask too, and the result is of that kind.
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
        st, keep = None, []
        if stages:
            st = _Stages()
            for name in stages:
                if name not in _SK_STAGES:
                    raise KeyError(f"the skimage preset has no stage {name!r}")
                stages[name] = _device_empty_like(cuda, hw, ft)
                keep.append(_device_view(stages[name])[0])
                setattr(st, name, ctypes.pointer(keep[-1]))
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
    st, keep = None, []
    if stages is not None:
        st = _Stages()
        for name in stages:
            if name not in _SK_STAGES:
                raise KeyError(f"the skimage preset has no stage {name!r}")
            stages[name] = np.empty(image.shape, ft)
            keep.append(_view(stages[name], output=True))
            setattr(st, name, ctypes.pointer(keep[-1]))
    src, dst = _view(image), _view(edges, output=True)
    _check(_lib.edgel_canny_masked(_ctx(ctx)._handle, ctypes.byref(p), ctypes.byref(src),
                                   ctypes.byref(mask_view) if mask_view is not None else None,
                                   ctypes.byref(dst), ctypes.byref(st) if st else None))
    del weights
    return edges


def canny_gradients(dx: np.ndarray, dy: np.ndarray, low: float, high: float, l2: bool = False,
                    ctx: Optional[Context] = None) -> np.ndarray:
    """Canny from int16 gradients, = cv2.Canny(dx, dy, low, high, L2gradient=l2)."""
    dx, dy = _packed(np.asarray(dx)), _packed(np.asarray(dy))
    edges = np.empty(dx.shape[:2], np.uint8)
    p = _params(low, high, 3, l2, None, 0, None)
    a, b, e = _view(dx), _view(dy), _view(edges)
    _check(_lib.edgel_canny_gradients(_ctx(ctx)._handle, ctypes.byref(p), ctypes.byref(a),
                                      ctypes.byref(b), ctypes.byref(e), None))
    return edges


def to_gray(image: np.ndarray, order: str = "rgb", ctx: Optional[Context] = None) -> np.ndarray:
    """Luma of a u8 RGB(A) or BGR(A) image, = cv2.cvtColor(..., COLOR_RGB2GRAY)."""
    if order not in ("rgb", "bgr"):
        raise ValueError(f"order={order!r}: 'rgb' or 'bgr', the image's channel order")
    image = _packed(np.asarray(image))
    out = np.empty(image.shape[:2], np.uint8)
    a, b = _view(image), _view(out)
    _check(_lib.edgel_to_gray(_ctx(ctx)._handle, _GRAY[order], ctypes.byref(a), ctypes.byref(b)))
    return out


def gaussian_blur(image: np.ndarray, ksize: int = 0, sigma: float = 0.0,
                  ctx: Optional[Context] = None) -> np.ndarray:
    """= cv2.GaussianBlur(image, (ksize, ksize), sigma) for u8 images."""
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


def filter2d(image, kernel, border: str = "reflect-101", border_value: float = 0.0,
             method: str = "auto", anchor=None, convolve: bool = False, dtype=None,
             ctx: Optional[Context] = None, out=None):
    """2-D correlation of each channel of a u8 or float32 image with a float32 kernel.

    = cv2.filter2D(image, -1, kernel, anchor, borderType=...) and
    scipy.ndimage.correlate(image, kernel, mode=...) (for modes 'constant', 'nearest',
    'reflect', 'mirror', 'grid-wrap' say border 'constant', 'replicate', 'reflect',
    'reflect-101', 'wrap'). dtype: the output's, uint8 (u8 input only: rounded, saturated,
    the default for u8) or float32. method: 'auto', 'direct', 'separable' (rank-1 kernels) or
    'fft'. anchor: (x, y) in the kernel, default its centre (k // 2). convolve: flip the
    kernel (true convolution). CuPy arrays and PyTorch CUDA tensors work as in canny().
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


def sep_filter2d(image, kx, ky, border: str = "reflect-101", border_value: float = 0.0,
                 method: str = "auto", anchor=None, convolve: bool = False, dtype=None,
                 ctx: Optional[Context] = None, out=None):
    """filter2d with the kernel outer(ky, kx): kx along x (columns), ky along y (rows)."""
    kx = np.ascontiguousarray(np.asarray(kx, np.float32).ravel())
    ky = np.ascontiguousarray(np.asarray(ky, np.float32).ravel())
    p = _filter_params(method, border, border_value, anchor, convolve)
    fast = _hostcall and (lambda h, s, d: _hostcall.sep_filter2d(
        _ADDRESS["edgel_sep_filter2d"], h, ctypes.addressof(p), s, d, kx, ky))
    return _run_filter(image, dtype, ctx, out, lambda h, s, d: _lib.edgel_sep_filter2d(
        h, p, s, d, kx.ctypes.data, kx.size, ky.ctypes.data, ky.size), fast)


def filter2d_method(image, kernel, border: str = "reflect-101", method: str = "auto",
                    dtype=None, ctx: Optional[Context] = None) -> str:
    """The method filter2d would use for these arguments ('direct', 'separable' or 'fft')."""
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
