"""Sub-pixel curves on dask arrays (edgel.dask.subpixel_edges, subpixel_edges_in_bands),
equal to edgel.subpixel_edges on the whole image, point for point and in its order."""
from __future__ import annotations

import numpy as np

import dask
import dask.array as da

from ._chunks import _grown, _host

__all__ = ["subpixel_edges", "subpixel_edges_in_bands"]

# A chunk's edge points and each one's best neighbours depend on the pixels within
# edgel_subpixel_halo(sigma) of it alone (edgel.h): each chunk finds them in its block (the
# chunk and its halo), keeps those of its own pixels, and names each neighbour by its pixel;
# one task then lists every point in the reference's order, turns the neighbours' pixels into
# indices and chains them: the whole image's curves.

def _chunk_points(block, sigma, depth, loc, starts):
    from .._subpixel import _find_points
    top = depth if loc[0] > 0 else 0
    left = depth if loc[1] > 0 else 0
    y0, x0 = starts[0][loc[0]] - top, starts[1][loc[1]] - left
    p = _find_points(_host(block), sigma, x0, y0)
    h = starts[0][loc[0] + 1] - starts[0][loc[0]]
    w = starts[1][loc[1] + 1] - starts[1][loc[1]]
    mine = (p["px"] >= left) & (p["px"] < left + w) & (p["py"] >= top) & (p["py"] < top + h)
    out = {k: p[k][mine] for k in ("x", "y", "gx", "gy", "modulus", "fwd_score", "bck_score")}
    out["px"] = p["px"][mine].astype(np.int64) + x0
    out["py"] = p["py"][mine].astype(np.int64) + y0
    for name in ("fwd", "bck"):  # neighbours by their pixel in the image (-1: none)
        idx = p[name][mine]
        has = idx >= 0
        out[name + "_px"] = np.where(has, p["px"][np.maximum(idx, 0)].astype(np.int64) + x0, -1)
        out[name + "_py"] = np.where(has, p["py"][np.maximum(idx, 0)].astype(np.int64) + y0, -1)
    return out


def _chain_chunks(pieces, height, high, low):
    from .._subpixel import _chain_points
    allp = {k: np.concatenate([p[k] for p in pieces]) for k in pieces[0]}
    key = allp["px"] * height + allp["py"]  # the reference's order: x, then y
    order = np.argsort(key, kind="stable")
    points = {k: v[order] for k, v in allp.items()}
    sorted_keys = key[order]
    for name in ("fwd", "bck"):
        nkey = points[name + "_px"] * height + points[name + "_py"]
        idx = np.searchsorted(sorted_keys, nkey)
        points[name] = np.where(points[name + "_px"] >= 0, idx, -1)
    return _chain_points(points, high, low)


def subpixel_edges(array, sigma: float = 0.0, high: float = 0.0, low: float = 0.0):
    """edgel.subpixel_edges on a dask array (H, W) of u8, u16, float32 or float64 with any
    chunking (a cluster included): a dask.delayed whose compute() gives the Curves of the
    whole image, point for point and curve for curve in its order. Each chunk's points come
    from the chunk and a halo of edgel_subpixel_halo(sigma) pixels; their chaining runs in
    one task, over the points alone (about 90 bytes a point; where they do not fit, use
    subpixel_edges_in_bands)."""
    from .._subpixel import _SUBPIXEL_TYPES, _subpixel_halo
    if not isinstance(array, da.Array):
        array = da.from_array(array)
    if array.ndim != 2 or array.dtype not in _SUBPIXEL_TYPES:
        raise ValueError("edgel.dask.subpixel_edges takes (H, W) arrays of u8, u16, float32 or "
                         "float64")
    h = _subpixel_halo(sigma)
    array, grown, _ = _grown(array, (h, h))
    starts = [np.concatenate([[0], np.cumsum(c)]).tolist() for c in array.chunks]
    num = (len(array.chunks[0]), len(array.chunks[1]))
    blocks = grown.to_delayed()
    pieces = [dask.delayed(_chunk_points)(blocks[i, j], float(sigma), h, (i, j), starts)
              for i in range(num[0]) for j in range(num[1])]
    return dask.delayed(_chain_chunks)(pieces, array.shape[0], float(high), float(low))


def subpixel_edges_in_bands(array, sigma: float = 0.0, high: float = 0.0, low: float = 0.0,
                            band_columns: int = 0):
    """edgel.subpixel_edges on a dask array (H, W) of u8, u16, float32 or float64 too large to
    hold its points at once: its Curves (computed now, not delayed), point for point and
    curve for curve the whole image's. Bands of columns (with a halo of
    edgel_subpixel_halo(sigma) columns) are computed one after the other, each on dask's
    scheduler (in parallel over its chunks, a cluster included), and added to an
    edgel.SubpixelStream, which holds a band and the chains still open instead of every point
    (subpixel_edges holds about 90 bytes a point in one task). band_columns: the columns a
    band adds (0: as many as make a band of about 256 MB)."""
    from .._subpixel import _SUBPIXEL_TYPES, SubpixelStream
    if not isinstance(array, da.Array):
        array = da.from_array(array)
    if array.ndim != 2 or array.dtype not in _SUBPIXEL_TYPES:
        raise ValueError("edgel.dask.subpixel_edges_in_bands takes (H, W) arrays of u8, u16, "
                         "float32 or float64")
    height, width = array.shape
    stream = SubpixelStream(width, height, sigma, high, low)
    if band_columns <= 0:
        band_columns = max(1, (256 << 20) // max(1, height * array.dtype.itemsize))
    while stream.columns < width:
        x0 = max(0, stream.columns - stream.halo)
        x1 = min(width, stream.columns + int(band_columns) + stream.halo)
        stream.add(np.asarray(array[:, x0:x1].compute()), x0)
    return stream.finish()
