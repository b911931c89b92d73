"""Batches of frames (edgel_canny_batch, edgel_canny_batch_multi): many canny() calls in one,
on one GPU or spread over several."""
from __future__ import annotations

import ctypes
from typing import Optional

import numpy as np

from ._arrays import (_cuda_array, _cuda_fields, _device_empty_like, _device_of, _device_view,
                      _int32, _is_cupy, _packed, _view)
from ._capi import _CannyParams, _Image, _check, _lib
from ._context import Context, _ctx, cuda_device_count
from ._params import _params

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
                l2: bool = False, *, blur=None, blur_size: int = 0, gray: Optional[str] = None,
                ctx=None, devices=None):
    """canny() of many frames in batched calls, each result equal to canny() of its frame.

    The batch runs as one call: on a GPU, several frames a launch (gray CUDA frames of
    different sizes in one launch sequence). An error names the frame.

    Parameters
    ----------
    frames : array or list of arrays
        An (N, H, W) or (N, H, W, C) uint8 array (NumPy, CuPy or PyTorch CUDA), or a list of
        uint8 frames of any sizes (one kind and channel count).
    low, high, aperture, l2, blur, blur_size, gray
        As for canny().
    ctx : Context or list of Context, optional
        A list of contexts (one a GPU, say) spreads host frames over them in equal shares
        (edgel_canny_batch_multi).
    devices : "all" or list of int, optional
        Spreads host frames over these CUDA devices, one context a device. CUDA frames run
        on their own GPU.

    Returns
    -------
    array or list of arrays
        (N, H, W) uint8 of the input's kind for an array; a list for a list.
    """
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

