"""The C API as Python sees it: the library loaded with ctypes, its structs, type codes and
statuses, and the compiled call path (_hostcall) where it is built. Everything here mirrors
include/edgel.h; nothing here knows about arrays."""
from __future__ import annotations

import ctypes
import os

import numpy as np

# The oldest library whose structs this module's match (0.4.0: the skimage preset's fields);
# newer ones read them too. The version itself is the library's (__version__ below).
MIN_VERSION_NUMBER = 400

_U8, _U16, _S16, _S32, _F32, _F64, _BOOL = 0, 1, 2, 3, 4, 5, 6
_DTYPES = {np.dtype(np.uint8): _U8, np.dtype(np.uint16): _U16, np.dtype(np.int16): _S16,
           np.dtype(np.int32): _S32, np.dtype(np.float32): _F32, np.dtype(np.float64): _F64,
           np.dtype(np.bool_): _BOOL}
_BACKENDS = {"auto": 0, "cpu": 1, "cuda": 2}
_GRAY = {None: 0, "max-channel": 0, "rgb": 1, "bgr": 2}

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


class _Volume(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("width", ctypes.c_int32), ("height", ctypes.c_int32),
                ("depth", ctypes.c_int32), ("pitch", ctypes.c_size_t),
                ("slice_pitch", ctypes.c_size_t), ("type", ctypes.c_int), ("memory", ctypes.c_int)]


class _VolumeCannyParams(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("variance", ctypes.c_double * 3),
                ("maximum_error", ctypes.c_double * 3), ("spacing", ctypes.c_double * 3),
                ("upper_threshold", ctypes.c_double), ("lower_threshold", ctypes.c_double)]


class _VolumeCannyStages(ctypes.Structure):
    _fields_ = [("smoothed", ctypes.POINTER(_Volume)), ("suppressed", ctypes.POINTER(_Volume))]


class _SubpixelParams(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("sigma", ctypes.c_double),
                ("high", ctypes.c_double), ("low", ctypes.c_double)]


class _RefineParams(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("sigma", ctypes.c_double),
                ("blur", ctypes.c_double), ("window", ctypes.c_int32),
                ("tolerance", ctypes.c_double)]


class _FitParams(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("geometric", ctypes.c_int32),
                ("weight", ctypes.c_int), ("iterations", ctypes.c_int32),
                ("clipping_factor", ctypes.c_double), ("clip_ends", ctypes.c_int32),
                ("algebraic", ctypes.c_int)]


class _FitQuality(ctypes.Structure):
    _fields_ = [("rms", ctypes.c_double), ("max_distance", ctypes.c_double),
                ("kept", ctypes.c_int64)]


def _doubles(*names):
    return [(n, ctypes.c_double) for n in names]


class _LineFit(ctypes.Structure):
    _fields_ = _doubles("nx", "ny", "distance", "x0", "y0", "x1", "y1") + \
        [("quality", _FitQuality)]


class _CircleFit(ctypes.Structure):
    _fields_ = _doubles("cx", "cy", "radius", "start_angle", "end_angle", "sd_cx", "sd_cy",
                        "sd_radius") + [("quality", _FitQuality)]


class _EllipseFit(ctypes.Structure):
    _fields_ = _doubles("cx", "cy", "a", "b", "angle", "start_angle", "end_angle", "sd_cx",
                        "sd_cy", "sd_a", "sd_b", "sd_angle") + [("quality", _FitQuality)]


class _SegmentParams(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("mode", ctypes.c_int),
                ("smooth", ctypes.c_int32), ("split_distance", ctypes.c_double),
                ("max_distance", ctypes.c_double)]


class _Piece(ctypes.Structure):
    _fields_ = [("curve", ctypes.c_int64), ("first", ctypes.c_int64), ("count", ctypes.c_int64),
                ("kind", ctypes.c_int), ("line", _LineFit), ("circle", _CircleFit),
                ("ellipse", _EllipseFit)]


class _MeasureRect(ctypes.Structure):
    _fields_ = [(n, ctypes.c_double) for n in ("cx", "cy", "angle", "half_length",
                                                "half_width")]


class _MeasureParams(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("sigma", ctypes.c_double),
                ("threshold", ctypes.c_double), ("transition", ctypes.c_int32)]


_DOUBLES = ctypes.POINTER(ctypes.c_double)


_INT32S = ctypes.POINTER(ctypes.c_int32)


class _SubpixelPoints(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("count", ctypes.c_int64),
                ("x", ctypes.POINTER(ctypes.c_double)), ("y", ctypes.POINTER(ctypes.c_double)),
                ("gx", ctypes.POINTER(ctypes.c_double)), ("gy", ctypes.POINTER(ctypes.c_double)),
                ("modulus", ctypes.POINTER(ctypes.c_double)), ("px", _INT32S), ("py", _INT32S),
                ("fwd", _INT32S), ("bck", _INT32S),
                ("fwd_score", ctypes.POINTER(ctypes.c_double)),
                ("bck_score", ctypes.POINTER(ctypes.c_double))]


class _CurvesView(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_uint32), ("points", ctypes.c_int64),
                ("curves", ctypes.c_int64), ("x", _DOUBLES), ("y", _DOUBLES), ("gx", _DOUBLES),
                ("gy", _DOUBLES), ("modulus", _DOUBLES),
                ("limits", ctypes.POINTER(ctypes.c_int64)),
                ("closed", ctypes.POINTER(ctypes.c_uint8)), ("device", ctypes.c_int32)]


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
    lib.edgel_components_create.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    lib.edgel_components_destroy.argtypes = [ctypes.c_void_p]
    lib.edgel_components_destroy.restype = None
    lib.edgel_components_add.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
                                         ctypes.POINTER(ctypes.c_int64)]
    lib.edgel_components_join.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                          ctypes.c_int64]
    lib.edgel_components_join_faces.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                ctypes.c_void_p, ctypes.c_int64,
                                                ctypes.c_int64]
    lib.edgel_components_strong.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                                            ctypes.c_void_p]
    lib.edgel_volume_canny_params_init.argtypes = [ctypes.POINTER(_VolumeCannyParams),
                                                   ctypes.c_size_t]
    lib.edgel_volume_canny_params_init.restype = None
    lib.edgel_canny_volume.argtypes = [ctypes.c_void_p, ctypes.POINTER(_VolumeCannyParams),
                                       ctypes.POINTER(_Volume), ctypes.POINTER(_Volume),
                                       ctypes.POINTER(_VolumeCannyStages)]
    lib.edgel_subpixel_points_init.argtypes = [ctypes.POINTER(_SubpixelPoints), ctypes.c_size_t]
    lib.edgel_subpixel_points_init.restype = None
    lib.edgel_subpixel_halo.argtypes = [ctypes.c_double]
    lib.edgel_subpixel_halo.restype = ctypes.c_int32
    lib.edgel_subpixel_find_points.argtypes = [ctypes.c_void_p, ctypes.POINTER(_SubpixelParams),
                                               _IMG_P, ctypes.c_int64, ctypes.c_int64,
                                               ctypes.c_void_p]
    lib.edgel_curves_get_points.argtypes = [ctypes.c_void_p, ctypes.POINTER(_SubpixelPoints)]
    lib.edgel_subpixel_chain_points.argtypes = [ctypes.c_void_p, ctypes.POINTER(_SubpixelParams),
                                                ctypes.POINTER(_SubpixelPoints), ctypes.c_void_p]
    lib.edgel_subpixel_params_init.argtypes = [ctypes.POINTER(_SubpixelParams), ctypes.c_size_t]
    lib.edgel_subpixel_params_init.restype = None
    lib.edgel_curves_view_init.argtypes = [ctypes.POINTER(_CurvesView), ctypes.c_size_t]
    lib.edgel_curves_view_init.restype = None
    lib.edgel_curves_create.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    lib.edgel_curves_destroy.argtypes = [ctypes.c_void_p]
    lib.edgel_curves_destroy.restype = None
    lib.edgel_curves_get.argtypes = [ctypes.c_void_p, ctypes.POINTER(_CurvesView)]
    lib.edgel_curves_set_place.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.edgel_curves_copy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                      ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                      ctypes.c_int32]
    lib.edgel_refine_params_init.argtypes = [ctypes.POINTER(_RefineParams), ctypes.c_size_t]
    lib.edgel_refine_params_init.restype = None
    lib.edgel_fit_params_init.argtypes = [ctypes.POINTER(_FitParams), ctypes.c_size_t]
    lib.edgel_fit_params_init.restype = None
    for name, out in (("line", _LineFit), ("circle", _CircleFit), ("ellipse", _EllipseFit)):
        getattr(lib, "edgel_fit_" + name).argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                     ctypes.c_int64,
                                                     ctypes.POINTER(_FitParams),
                                                     ctypes.POINTER(out), ctypes.c_void_p]
    lib.edgel_segment_params_init.argtypes = [ctypes.POINTER(_SegmentParams), ctypes.c_size_t]
    lib.edgel_segment_params_init.restype = None
    lib.edgel_segments_create.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    lib.edgel_segments_destroy.argtypes = [ctypes.c_void_p]
    lib.edgel_segments_destroy.restype = None
    lib.edgel_segment_curves.argtypes = [ctypes.POINTER(_CurvesView),
                                         ctypes.POINTER(_SegmentParams), ctypes.c_void_p]
    lib.edgel_segments_get.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(_Piece)),
                                       ctypes.POINTER(ctypes.c_int64)]
    lib.edgel_measure_params_init.argtypes = [ctypes.POINTER(_MeasureParams), ctypes.c_size_t]
    lib.edgel_measure_params_init.restype = None
    lib.edgel_measure_pos.argtypes = [_IMG_P, ctypes.POINTER(_MeasureRect),
                                      ctypes.POINTER(_MeasureParams), ctypes.c_void_p,
                                      ctypes.c_int64, ctypes.POINTER(ctypes.c_int64)]
    lib.edgel_curves_refine.argtypes = [ctypes.c_void_p, ctypes.POINTER(_RefineParams),
                                        ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
                                        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.edgel_subpixel_edges.argtypes = [ctypes.c_void_p, ctypes.POINTER(_SubpixelParams),
                                         _IMG_P, ctypes.c_void_p]
    lib.edgel_subpixel_edges_batch.argtypes = [ctypes.c_void_p,
                                               ctypes.POINTER(_SubpixelParams), _IMG_P,
                                               ctypes.POINTER(ctypes.c_void_p), ctypes.c_int32]
    lib.edgel_subpixel_stream_create.argtypes = [ctypes.POINTER(_SubpixelParams), ctypes.c_int64,
                                                 ctypes.c_int64, ctypes.POINTER(ctypes.c_void_p)]
    lib.edgel_subpixel_stream_destroy.argtypes = [ctypes.c_void_p]
    lib.edgel_subpixel_stream_destroy.restype = None
    lib.edgel_subpixel_stream_add.argtypes = [ctypes.c_void_p, ctypes.c_void_p, _IMG_P,
                                              ctypes.c_int64]
    lib.edgel_subpixel_stream_columns.argtypes = [ctypes.c_void_p]
    lib.edgel_subpixel_stream_columns.restype = ctypes.c_int64
    lib.edgel_subpixel_stream_points.argtypes = [ctypes.c_void_p]
    lib.edgel_subpixel_stream_points.restype = ctypes.c_int64
    lib.edgel_subpixel_stream_finish.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                 ctypes.c_void_p]
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
    """The library's version as a number, major * 10000 + minor * 100 + patch."""
    return int(_lib.edgel_version_number())


__version__ = _lib.edgel_version_string().decode()  # the library's: one version for both


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



_STATUS_IO = 9  # EDGEL_ERROR_IO: what a callback returns when the Python side failed
