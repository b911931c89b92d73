"""Curves split into lines, circular and elliptic arcs (edgel_segment_curves in the library),
as HALCON's segment_contours_xld splits contours, each piece fitted."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Union

import numpy as np

from ._capi import _check, _CurvesView, _lib, _Piece, _SegmentParams
from ._fit import CircleFit, EllipseFit, LineFit

_MODES = {"lines": 0, "lines_circles": 1, "lines_ellipses": 2}
_KINDS = ("line", "circle", "ellipse")


@dataclass(frozen=True)
class Piece:
    """A piece of curve `curve`: the points first .. first + count - 1 of the curves' points
    (``curves.points[first:first + count]``), its kind ("line", "circle" or "ellipse") and its
    geometric fit."""
    kind: str
    curve: int
    first: int
    count: int
    fit: Union[LineFit, CircleFit, EllipseFit]

    def __repr__(self):
        return (f"Piece({self.kind}, curve {self.curve}, points {self.first}.."
                f"{self.first + self.count - 1}, {self.fit!r})")


def _fit_of(kind, p, count):
    kept = np.ones(count, bool)
    if kind == "line":
        f = p.line
        return LineFit(f.nx, f.ny, f.distance, f.x0, f.y0, f.x1, f.y1, f.quality.rms,
                       f.quality.max_distance, kept)
    if kind == "circle":
        f = p.circle
        return CircleFit(f.cx, f.cy, f.radius, f.start_angle, f.end_angle, f.sd_cx, f.sd_cy,
                         f.sd_radius, f.quality.rms, f.quality.max_distance, kept)
    f = p.ellipse
    return EllipseFit(f.cx, f.cy, f.a, f.b, f.angle, f.start_angle, f.end_angle, f.sd_cx,
                      f.sd_cy, f.sd_a, f.sd_b, f.sd_angle, f.quality.rms, f.quality.max_distance,
                      kept)


def _as_arrays(curves, closed):
    """points (N, 2) float64, limits (M + 1,) int64, closed (M,) uint8: from an edgel.Curves,
    or from a list of (n, 2) point arrays (open unless `closed` says)."""
    if hasattr(curves, "limits") and hasattr(curves, "points"):
        pts = np.ascontiguousarray(np.asarray(curves.points, np.float64))
        limits = np.ascontiguousarray(np.asarray(curves.limits, np.int64))
        flags = np.ascontiguousarray(np.asarray(curves.closed, np.uint8))
        return pts, limits, flags
    arrays = [np.asarray(c, np.float64).reshape(-1, 2) for c in curves]
    pts = np.ascontiguousarray(np.concatenate(arrays) if arrays else np.empty((0, 2)))
    limits = np.concatenate([[0], np.cumsum([len(a) for a in arrays])]).astype(np.int64)
    flags = np.zeros(len(arrays), np.uint8) if closed is None else \
        np.asarray(closed, bool).astype(np.uint8)
    if flags.size != len(arrays):
        raise ValueError(f"closed has {flags.size} flags for {len(arrays)} curves")
    return pts, limits, np.ascontiguousarray(flags)


def segment_curves(curves, mode: str = "lines_circles", smooth: int = 2,
                   split_distance: float = 1.0, max_distance: float = 0.5,
                   closed=None) -> list:
    """The pieces of every curve (an edgel.Curves, or a list of (n, 2) point arrays, open
    unless `closed` lists a flag a curve), in order: lines, circular arcs and, with
    mode='lines_ellipses', elliptic arcs. Each curve is cut into a polygon whose sides leave
    no point farther than split_distance from their chord (on points moving-averaged over
    2 * smooth + 1), consecutive sides merged while one line, circle or ellipse fits them
    within max_distance, and the boundaries placed where the two pieces' fits are best. A
    closed curve stays whole where one circle (or ellipse) fits it."""
    if mode not in _MODES:
        raise ValueError(f"mode={mode!r}: 'lines', 'lines_circles' or 'lines_ellipses'")
    pts, limits, flags = _as_arrays(curves, closed)
    x, y = np.ascontiguousarray(pts[:, 0]), np.ascontiguousarray(pts[:, 1])
    v = _CurvesView()
    v.struct_size = ctypes.sizeof(v)
    v.points, v.curves, v.device = pts.shape[0], flags.size, -1
    v.x = x.ctypes.data_as(type(v.x))
    v.y = y.ctypes.data_as(type(v.y))
    v.limits = limits.ctypes.data_as(type(v.limits))
    v.closed = flags.ctypes.data_as(type(v.closed))
    p = _SegmentParams()
    _lib.edgel_segment_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.mode, p.smooth = _MODES[mode], int(smooth)
    p.split_distance, p.max_distance = float(split_distance), float(max_distance)
    handle = ctypes.c_void_p()
    _check(_lib.edgel_segments_create(ctypes.byref(handle)))
    try:
        _check(_lib.edgel_segment_curves(ctypes.byref(v), ctypes.byref(p), handle))
        out, count = ctypes.POINTER(_Piece)(), ctypes.c_int64()
        _check(_lib.edgel_segments_get(handle, ctypes.byref(out), ctypes.byref(count)))
        pieces = []
        for i in range(count.value):
            q = out[i]
            kind = _KINDS[q.kind]
            pieces.append(Piece(kind, int(q.curve), int(q.first), int(q.count),
                                _fit_of(kind, q, int(q.count))))
        return pieces
    finally:
        _lib.edgel_segments_destroy(handle)
