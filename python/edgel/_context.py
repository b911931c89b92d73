"""Contexts: the library's per-thread state (a backend, its threads, its memory, a CUDA
stream), made explicitly with Context or implicitly, one per thread and backend."""
from __future__ import annotations

import ctypes
import threading
from typing import Optional

import numpy as np

from ._arrays import _device_empty_like, _device_of, _device_view, _int32
from ._capi import _BACKENDS, _U8, _ContextOptions, _check, _lib

class Context:
    """A backend context: the backend, its threads and memory, reused from call to call.

    Parameters
    ----------
    backend : {"auto", "cpu", "cuda"}
        "auto" takes the GPU where there is one, else the CPU.
    threads : int
        CPU threads (0: one a core). ``Context("cpu", threads=1)`` is the single-thread
        reference.
    device : int
        The CUDA device ordinal of a "cuda" context.

    Notes
    -----
    A context serves one thread at a time: a call on it while another thread's call runs
    raises EdgelError with status 'EDGEL_ERROR_CONTEXT_BUSY'. Calls without ``ctx=`` use a
    default context of the calling thread, so they may run from any number of threads.
    Use it in a ``with`` block, or call ``close()``, to release its memory at once.

    Examples
    --------
    >>> with edgel.Context("cpu", threads=4) as ctx:
    ...     edges = edgel.canny(image, 50, 150, ctx=ctx)
    """

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

    @property
    def backend(self) -> str:
        """The backend the context runs on: "cpu" or "cuda"."""
        backend = ctypes.c_int()
        _check(_lib.edgel_context_backend(self._handle, ctypes.byref(backend)))
        return {v: k for k, v in _BACKENDS.items()}.get(backend.value, str(backend.value))

    def __repr__(self) -> str:
        if not self._handle:
            return "Context(closed)"
        threads = ctypes.c_int32()
        _check(_lib.edgel_context_threads(self._handle, ctypes.byref(threads)))
        return f"Context({self.backend!r}, threads={threads.value})"

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



def cuda_device_count() -> int:
    """The number of CUDA devices edgel can use.

    Returns
    -------
    int
        0 without a GPU or in a build without CUDA; ``canny_batch(frames, devices="all")``
        makes one context for each.
    """
    n = ctypes.c_int32()
    _check(_lib.edgel_cuda_device_count(ctypes.byref(n)))
    return int(n.value)



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

