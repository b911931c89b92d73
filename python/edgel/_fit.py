"""Fits of lines, circles and ellipses to points (edgel_fit_* in the library): an algebraic
start, the geometric fit that makes the points' orthogonal distances least, and robust weights
(Huber's or Tukey's) over iterations, as HALCON's fit_*_contour_xld fit contours."""
from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass

import numpy as np

from ._capi import _check, _CircleFit, _EllipseFit, _FitParams, _lib, _LineFit

_WEIGHTS = {None: 0, "plain": 0, "huber": 1, "tukey": 2}
_ALGEBRAIC = {"taubin": 0, "kasa": 1}


@dataclass(frozen=True)
class LineFit:
    """A line nx * x + ny * y = distance (|n| = 1, distance >= 0), the first and last kept
    points projected on it (x0, y0) and (x1, y1), the kept points' RMS and largest distance,
    and which points were kept (a bool array)."""
    nx: float
    ny: float
    distance: float
    x0: float
    y0: float
    x1: float
    y1: float
    rms: float
    max_distance: float
    kept: np.ndarray

    @property
    def angle(self) -> float:
        """The line's direction, radians from x towards y."""
        return math.atan2(self.y1 - self.y0, self.x1 - self.x0)

    def __repr__(self):
        return (f"LineFit(({self.x0:.4f}, {self.y0:.4f}) -> ({self.x1:.4f}, {self.y1:.4f}), "
                f"normal ({self.nx:.6f}, {self.ny:.6f}), distance {self.distance:.4f}, "
                f"rms {self.rms:.2g}, kept {int(self.kept.sum())}/{self.kept.size})")


@dataclass(frozen=True)
class CircleFit:
    """A circle (cx, cy, radius), the arc of its kept points from start_angle to end_angle
    (radians, counter-clockwise in image axes: x right, y down), the parameters' standard
    deviations (geometric fits; else 0), the kept points' RMS and largest distance, and which
    points were kept."""
    cx: float
    cy: float
    radius: float
    start_angle: float
    end_angle: float
    sd_cx: float
    sd_cy: float
    sd_radius: float
    rms: float
    max_distance: float
    kept: np.ndarray

    def __repr__(self):
        return (f"CircleFit(centre ({self.cx:.4f}, {self.cy:.4f}), radius {self.radius:.4f} "
                f"+- {self.sd_radius:.2g}, arc {math.degrees(self.start_angle):.1f} to "
                f"{math.degrees(self.end_angle):.1f} deg, rms {self.rms:.2g}, kept "
                f"{int(self.kept.sum())}/{self.kept.size})")


@dataclass(frozen=True)
class EllipseFit:
    """An ellipse: centre (cx, cy), half axes a >= b, the angle of a's axis (radians from x
    towards y, in (-pi/2, pi/2]), the arc of its kept points about the centre, the parameters'
    standard deviations (geometric fits; else 0), the kept points' RMS and largest distance,
    and which points were kept."""
    cx: float
    cy: float
    a: float
    b: float
    angle: float
    start_angle: float
    end_angle: float
    sd_cx: float
    sd_cy: float
    sd_a: float
    sd_b: float
    sd_angle: float
    rms: float
    max_distance: float
    kept: np.ndarray

    def __repr__(self):
        return (f"EllipseFit(centre ({self.cx:.4f}, {self.cy:.4f}), half axes {self.a:.4f} and "
                f"{self.b:.4f}, angle {math.degrees(self.angle):.3f} deg, rms {self.rms:.2g}, "
                f"kept {int(self.kept.sum())}/{self.kept.size})")


def _points(points, y):
    """x and y as contiguous float64 arrays: from (N, 2) points, or from x and y apart."""
    if y is None:
        p = np.asarray(points, dtype=np.float64)
        if p.ndim != 2 or p.shape[1] != 2:
            raise ValueError(f"points of shape {p.shape}: give (N, 2) points, or x and y")
        return np.ascontiguousarray(p[:, 0]), np.ascontiguousarray(p[:, 1])
    x = np.ascontiguousarray(points, dtype=np.float64).ravel()
    y = np.ascontiguousarray(y, dtype=np.float64).ravel()
    if x.size != y.size:
        raise ValueError(f"{x.size} x values and {y.size} y values")
    return x, y


def _fit(name, out_type, points, y, geometric, weight, iterations, clipping_factor, clip_ends,
         algebraic):
    x, y = _points(points, y)
    if weight not in _WEIGHTS:
        raise ValueError(f"weight={weight!r}: None, 'huber' or 'tukey'")
    if algebraic not in _ALGEBRAIC:
        raise ValueError(f"algebraic={algebraic!r}: 'taubin' or 'kasa'")
    p = _FitParams()
    _lib.edgel_fit_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.geometric, p.weight, p.iterations = int(bool(geometric)), _WEIGHTS[weight], int(iterations)
    p.clipping_factor, p.clip_ends = float(clipping_factor), int(clip_ends)
    p.algebraic = _ALGEBRAIC[algebraic]
    out = out_type()
    kept = np.zeros(x.size, np.uint8)
    _check(getattr(_lib, "edgel_fit_" + name)(x.ctypes.data, y.ctypes.data, x.size,
                                              ctypes.byref(p), ctypes.byref(out),
                                              kept.ctypes.data))
    values = {f: getattr(out, f) for f, _ in out_type._fields_ if f != "quality"}
    return values, out.quality, kept.astype(bool)


def fit_line(points, y=None, *, weight=None, iterations: int = 5, clipping_factor: float = 2.0,
             clip_ends: int = 0) -> LineFit:
    """The line through points ((N, 2) x and y, or x and y apart): total least squares,
    robustly weighted with weight='huber' or 'tukey' over `iterations` rounds on a scale of
    `clipping_factor` robust spreads, the first and last `clip_ends` points left out."""
    v, q, kept = _fit("line", _LineFit, points, y, True, weight, iterations, clipping_factor,
                      clip_ends, "taubin")
    return LineFit(**v, rms=q.rms, max_distance=q.max_distance, kept=kept)


def fit_circle(points, y=None, *, geometric: bool = True, weight=None, iterations: int = 5,
               clipping_factor: float = 2.0, clip_ends: int = 0,
               algebraic: str = "taubin") -> CircleFit:
    """The circle through points (as fit_line takes them): Taubin's (or Kasa's) algebraic fit,
    refined geometrically unless geometric=False; weights as fit_line's."""
    v, q, kept = _fit("circle", _CircleFit, points, y, geometric, weight, iterations,
                      clipping_factor, clip_ends, algebraic)
    return CircleFit(**v, rms=q.rms, max_distance=q.max_distance, kept=kept)


def fit_ellipse(points, y=None, *, geometric: bool = True, weight=None, iterations: int = 5,
                clipping_factor: float = 2.0, clip_ends: int = 0) -> EllipseFit:
    """The ellipse through points (as fit_line takes them): Fitzgibbon's direct fit, refined
    geometrically unless geometric=False; weights as fit_line's."""
    v, q, kept = _fit("ellipse", _EllipseFit, points, y, geometric, weight, iterations,
                      clipping_factor, clip_ends, "taubin")
    return EllipseFit(**v, rms=q.rms, max_distance=q.max_distance, kept=kept)
