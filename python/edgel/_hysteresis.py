"""Cross-chunk hysteresis for drivers of their own (edgel.dask): the library's union-find and
face join over the components that touch chunk borders (edgel_components), which its tiled
and bricked drivers use too."""
from __future__ import annotations

import ctypes

import numpy as np

from ._capi import _check, _lib


class _Components:
    """Nodes (components on chunk sides, each strong or weak), joined across borders; one
    thread at a time (the library refuses a second with EDGEL_ERROR_CONTEXT_BUSY)."""

    def __init__(self):
        self._handle = ctypes.c_void_p()
        _check(_lib.edgel_components_create(ctypes.byref(self._handle)))

    def add(self, strong: np.ndarray) -> int:
        """Adds a node per entry of `strong` (nonzero: strong); the first one's index."""
        strong = np.ascontiguousarray(strong, np.uint8)
        first = ctypes.c_int64()
        _check(_lib.edgel_components_add(self._handle, strong.size, strong.ctypes.data,
                                         ctypes.byref(first)))
        return first.value

    def join(self, near: np.ndarray, far: np.ndarray) -> None:
        """Joins two facing faces of nodes (-1: none) where their pixels touch: lines
        (8-connected) or planes of rows (26-connected), as edgel_components_join_faces."""
        near = np.ascontiguousarray(near, np.int64)
        far = np.ascontiguousarray(far, np.int64)
        if near.shape != far.shape or near.ndim not in (1, 2):
            raise ValueError(f"facing faces of {near.shape} and {far.shape} pixels")
        rows, length = (1, near.size) if near.ndim == 1 else near.shape
        _check(_lib.edgel_components_join_faces(self._handle, near.ctypes.data,
                                                far.ctypes.data, rows, length))

    def strong(self, nodes: np.ndarray) -> np.ndarray:
        """Whether each node's set holds a strong node (False for -1)."""
        nodes = np.ascontiguousarray(nodes, np.int64)
        out = np.empty(nodes.size, np.uint8)
        _check(_lib.edgel_components_strong(self._handle, nodes.ctypes.data, nodes.size,
                                            out.ctypes.data))
        return out.astype(bool)

    def __del__(self):
        if self._handle:
            _lib.edgel_components_destroy(self._handle)
            self._handle = None
