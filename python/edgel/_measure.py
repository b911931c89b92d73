"""Calipers (edgel_measure_pos in the library): edges along a measure rectangle, and the
pairs of them that make widths, as HALCON's measure_pos and measure_pairs."""
from __future__ import annotations

import ctypes

import numpy as np

from ._arrays import _packed, _view
from ._capi import _check, _lib, _MeasureParams, _MeasureRect

_TRANSITIONS = {"all": 0, "positive": 1, "negative": -1}

EDGE_DTYPE = np.dtype([("x", np.float64), ("y", np.float64), ("distance", np.float64),
                       ("amplitude", np.float64)])


def measure_pos(image, rect, sigma: float = 1.0, threshold: float = 20.0,
                transition: str = "all") -> np.ndarray:
    """The edges along a measure rectangle rect = (cx, cy, angle, half_length, half_width)
    of a 2-D image (u8, u16, float32, or float64 taken as float32; pixel centres at integers; angle in radians from x
    towards y): the grey values along its length, averaged across its width, smoothed with
    the derivative of a Gaussian of `sigma` samples; an edge is each extremum reaching
    `threshold` (grey levels a sample). transition: 'all', 'positive' (dark to bright along
    the profile) or 'negative'. A structured array of (x, y, distance, amplitude) in the
    profile's order; distance from the profile's start."""
    if transition not in _TRANSITIONS:
        raise ValueError(f"transition={transition!r}: 'all', 'positive' or 'negative'")
    img = np.asarray(image)
    if img.dtype == np.float64:  # (the library measures float32)
        img = img.astype(np.float32)
    img = _packed(img)
    if img.ndim != 2:
        raise ValueError(f"measure_pos takes a 2-D image, not shape {img.shape}")
    r = _MeasureRect(*(float(v) for v in rect))
    p = _MeasureParams()
    _lib.edgel_measure_params_init(ctypes.byref(p), ctypes.sizeof(p))
    p.sigma, p.threshold, p.transition = float(sigma), float(threshold), _TRANSITIONS[transition]
    count = ctypes.c_int64()
    view = _view(img)
    _check(_lib.edgel_measure_pos(ctypes.byref(view), ctypes.byref(r), ctypes.byref(p), None, 0,
                                  ctypes.byref(count)))
    out = np.zeros(count.value, EDGE_DTYPE)
    if count.value:
        _check(_lib.edgel_measure_pos(ctypes.byref(view), ctypes.byref(r), ctypes.byref(p),
                                      out.ctypes.data, out.size, ctypes.byref(count)))
    return out


def measure_pairs(image, rect, sigma: float = 1.0, threshold: float = 20.0,
                  transition: str = "positive") -> list:
    """Pairs of consecutive edges of opposite polarity along a measure rectangle (a part's
    thickness, a gap): with transition='positive' each pair starts dark to bright (a bright
    bar), 'negative' bright to dark (a dark bar), 'all' either. A list of (first, second,
    width) with the edges as measure_pos gives them and width = the distance between them."""
    if transition not in _TRANSITIONS:
        raise ValueError(f"transition={transition!r}: 'all', 'positive' or 'negative'")
    edges = measure_pos(image, rect, sigma, threshold, "all")
    pairs, k = [], 0
    while k + 1 < len(edges):
        a, b = edges[k], edges[k + 1]
        first_sign = 1 if a["amplitude"] > 0 else -1
        if first_sign * b["amplitude"] < 0 and \
                (transition == "all" or _TRANSITIONS[transition] == first_sign):
            pairs.append((a, b, float(b["distance"] - a["distance"])))
            k += 2
        else:
            k += 1
    return pairs
