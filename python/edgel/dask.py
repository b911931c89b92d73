"""Canny on dask arrays of any chunking, byte-identical to edgel.canny on the whole image.

    >>> import dask.array as da, edgel.dask
    >>> edges = edgel.dask.canny(da.from_zarr("scene.zarr"), 50, 150, blur=1.4)
    >>> edges.to_zarr("edges.zarr")

edgel.dask.subpixel_edges gives the sub-pixel curves of an image of any size (a delayed
Curves, equal to edgel.subpixel_edges on the whole image, point for point, in its order);
edgel.dask.subpixel_edges_in_bands gives the same curves with memory bounded by a band of
columns (edgel.SubpixelStream), for images whose points do not fit at once.

edgel.dask.canny_itk does the same for the itk preset (edgel.canny_itk's, u8 255/0 edges),
on images and on volumes (D, H, W) chunked along any axes, with ITK's 26-connected
hysteresis joined across chunk faces, edges and corners.
OME-Zarr images (NGFF 0.4 and 0.5) come in through from_ome_zarr and edges go out through
to_ome_zarr, with their scale kept:

    >>> image, scale = edgel.dask.from_ome_zarr("slide.ome.zarr")
    >>> edgel.dask.to_ome_zarr(edgel.dask.canny(image, blur=1.4), "edges.ome.zarr", scale)

The stages before hysteresis are local: each chunk's classes (none, weak, strong) come from
the chunk and a halo of its neighbours (dask's overlap, none beyond the image), cropped,
exactly as the whole image's. Hysteresis is global, and resolved as dask-image's `label`
joins labels across chunk faces:
  1. each chunk's 8-connected components of candidate pixels are labelled, each with a flag
     where it holds a strong pixel;
  2. only the labels of each chunk's four sides and their flags leave its worker (small),
     and those on either side of every chunk border are joined in one task by the library's
     cross-tile hysteresis (edgel_components, the union-find its own tiled driver uses);
  3. each chunk's candidate pixels (kept on its worker from step 1 as flat positions and
     labels, a few bytes a candidate: no second detection or labelling) are edges where
     their component holds a strong pixel or is joined to one that does.
It runs wherever dask runs: threads, processes, a dask.distributed cluster of any size, and
with CuPy chunks on GPU workers (dask-cuda's LocalCUDACluster: one worker a GPU), where the
chunks' work stays on their GPU and only the side labels travel. Nothing is computed
until the result is: canny() returns a lazy array, as dask functions do.
Chunks smaller than the halo are merged (rechunked) to the halo's size first.
"""
from __future__ import annotations

import ctypes
import errno
import os
from typing import Optional

import numpy as np

import dask
import dask.array as da

from ._canny import canny as _canny
from ._capi import _check, _lib
from ._hysteresis import _Components
from ._itk import canny_itk as _canny_itk
from ._params import _itk_params, _params

__all__ = ["canny", "canny_itk", "halo", "halo_itk", "subpixel_edges", "from_ome_zarr",
           "to_ome_zarr"]


def _halo_of(p) -> int:
    h = ctypes.c_int32()
    _check(_lib.edgel_canny_tile_halo(ctypes.byref(p), ctypes.byref(h)))
    return int(h.value)


def halo(low=50, high=150, aperture=3, l2=False, blur=None, blur_size=0, gray=None) -> int:
    """Pixels a chunk needs from each neighbour for these options (the library's rule)."""
    return _halo_of(_params(low, high, aperture, l2, blur, blur_size, gray))


def halo_itk(variance=0.0, maximum_error=0.01, upper=0.0, lower=0.0) -> int:
    """halo() for the itk preset's options."""
    return _halo_of(_itk_params(variance, maximum_error, upper, lower))


def _xp(a):
    """The array module of a chunk: NumPy, or CuPy for CuPy chunks."""
    if type(a).__module__.split(".")[0] == "cupy":
        import cupy
        return cupy
    return np


def _host(a):
    return a.get() if _xp(a) is not np else a


def _suppressed(block, options):
    """The classes (0 none, 128 weak, 255 strong) of a block as a whole image (on the GPU for
    CuPy blocks)."""
    xp = _xp(block)
    block = xp.ascontiguousarray(block)
    stages = {"suppressed": None}
    if "variance" not in options:
        _canny(block, stages=stages, **options)
        return stages["suppressed"]
    _canny_itk(block, stages=stages, dtype=np.uint8, **options)
    sup = stages["suppressed"]  # ITK's values, cut by its strict thresholds
    return xp.where(sup > options["upper"], np.uint8(255),
                    xp.where(sup > options["lower"], np.uint8(128), np.uint8(0))).astype(np.uint8)


def _classes(block, depth, options, loc, num):
    """The classes of the chunk inside an overlapped block (halo on the sides that have a
    neighbour: trimmed from there only)."""
    sup = _suppressed(block, options)
    top = depth if loc[0] > 0 else 0
    left = depth if loc[1] > 0 else 0
    bottom = sup.shape[0] - (depth if loc[0] < num[0] - 1 else 0)
    right = sup.shape[1] - (depth if loc[1] < num[1] - 1 else 0)
    return sup[top:bottom, left:right]


_EIGHT = np.ones((3, 3), bool)


def _labels(classes, structure=_EIGHT):
    """The chunk's components: local labels (0 off candidates; 8-connected, or 26 in a volume)
    and, per label, a flag set where it holds a strong pixel (index 0: False)."""
    xp = _xp(classes)
    if xp is np:
        from scipy import ndimage
    else:
        from cupyx.scipy import ndimage
    local, count = ndimage.label(classes > 0, structure=xp.asarray(structure))
    strong = xp.zeros(int(count) + 1, bool)
    strong[local[classes == 255]] = True
    strong[0] = False
    return local, strong


def _candidates(local, strong):
    """What pass 2 needs of a chunk's components, kept on its worker between the passes: the
    chunk's shape, its candidate pixels (flat positions: a few bytes a candidate, not a label
    image) with their labels, and each label's strong flag."""
    xp = _xp(local)
    at = xp.flatnonzero(local)
    return local.shape, at, local.ravel()[at], strong


def _first_pass(block, depth, options, loc, num):
    """Pass 1 of a chunk, labelled once: (its sides, which alone leave the worker: the labels
    found there (sorted), their strong flags, and the top, bottom, left and right lines of
    labels; its candidates, for pass 2)."""
    local, strong = _labels(_classes(block, depth, options, loc, num))
    lines = [_host(x) for x in (local[0], local[-1], local[:, 0], local[:, -1])]
    labels = np.unique(np.concatenate(lines))
    labels = labels[labels > 0]
    return (tuple(loc[:2]), labels, _host(strong)[labels], *lines), _candidates(local, strong)


def _sides_of(first):
    return first[0]


def _joined_strong(sides, num) -> dict:
    """Cross-chunk hysteresis over the chunks' sides (edgel_components, the tiled driver's
    union-find): chunk location -> its labels joined to a strong component elsewhere."""
    comps = _Components()
    by_loc, first = {}, {}
    for loc, labels, strong, *lines in sorted(sides, key=lambda s: s[0]):
        first[loc] = comps.add(strong)
        by_loc[loc] = (labels, [np.where(x > 0, first[loc] + np.searchsorted(labels, x), -1)
                                for x in lines])
    for i in range(num[0] - 1):  # tile-row borders, full width: corners included
        above = np.concatenate([by_loc[(i, j)][1][1] for j in range(num[1])])
        below = np.concatenate([by_loc[(i + 1, j)][1][0] for j in range(num[1])])
        comps.join(below, above)
    for j in range(num[1] - 1):  # tile-column borders, full height
        left = np.concatenate([by_loc[(i, j)][1][3] for i in range(num[0])])
        right = np.concatenate([by_loc[(i, j + 1)][1][2] for i in range(num[0])])
        comps.join(right, left)
    return {loc: labels[comps.strong(first[loc] + np.arange(labels.size))]
            for loc, (labels, _) in by_loc.items()}


def _edges_of(first, joined_strong, loc):
    """Pass 2 of a chunk, from its candidates: edges where their component holds a strong
    pixel or is joined to one that does (decided once a component, set per candidate)."""
    shape, at, label, strong = first[1]
    xp = _xp(strong)
    edge = strong.copy()
    edge[xp.asarray(joined_strong[loc])] = True
    out = xp.zeros(shape, np.uint8)
    out.ravel()[at] = xp.where(edge[label], np.uint8(255), np.uint8(0))
    return out


def _assemble(firsts, joined_strong, chunks, meta):
    """The chunks' edges (pass 2, lazily) as one dask array of these chunks."""
    grid = np.empty([len(c) for c in chunks], dtype=object)
    for loc in np.ndindex(*grid.shape):
        shape = tuple(c[i] for c, i in zip(chunks, loc))
        grid[loc] = da.from_delayed(dask.delayed(_edges_of)(firsts[loc], joined_strong, loc),
                                    shape=shape, dtype=np.uint8, meta=meta)
    return da.block(grid.tolist())


def canny(array, low: float = 50, high: float = 150, aperture: int = 3, l2: bool = False,
          blur=None, blur_size: int = 0, gray: Optional[str] = None):
    """edgel.canny on a dask array of u8, (H, W) or (H, W, C) with any chunking (the channel
    axis is joined into one chunk): a dask array of the edges (u8 0/255, chunked as the image),
    whose computed value equals edgel.canny(array.compute(), ...) byte for byte."""
    if not isinstance(array, da.Array):
        array = da.from_array(array)
    if array.ndim not in (2, 3) or array.dtype != np.uint8:
        raise ValueError("edgel.dask.canny takes u8 arrays of shape (H, W) or (H, W, C)")
    options = dict(low=low, high=high, aperture=aperture, l2=l2, blur=blur, blur_size=blur_size,
                   gray=gray)
    return _run(array, halo(**options), options)


def canny_itk(array, variance=0.0, maximum_error=0.01, upper: float = 0.0, lower: float = 0.0,
              spacing=1.0):
    """edgel.canny_itk(..., dtype=uint8) on a dask array of u8, u16 or float32 with any
    chunking: (H, W) images, or (D, H, W) volumes chunked along any axes (variance, maximum
    error and spacing then one value or one an axis in the array's order, as canny_itk takes
    them). A dask array of the edges (u8 0/255), byte-identical to the whole array's."""
    if not isinstance(array, da.Array):
        array = da.from_array(array)
    if array.ndim not in (2, 3) or array.dtype not in (np.uint8, np.uint16, np.float32):
        raise ValueError("edgel.dask.canny_itk takes u8, u16 or float32 arrays of shape (H, W) "
                         "or (D, H, W)")
    if array.ndim == 3:
        return _run_volume(array, variance, maximum_error, upper, lower, spacing)
    options = dict(variance=float(variance), maximum_error=float(maximum_error),
                   upper=float(upper), lower=float(lower))
    return _run(array, halo_itk(**options), options)


def _run(array, h, options):
    """The three passes over `array` with halo `h`; options: edgel.canny's or canny_itk's."""
    # Every chunk at least the halo (dask's overlap takes a halo from the neighbour alone):
    # small chunks are merged with their neighbours, as dask's overlap itself would.
    # An axis shorter than the halo is one chunk, which needs no halo from anyone.
    from dask.array.overlap import ensure_minimum_chunksize
    plane = tuple(ensure_minimum_chunksize(h, c) if len(c) > 1 and sum(c) > h else (sum(c),)
                  for c in array.chunks[:2])
    chunks = plane + ((array.shape[2],) if array.ndim == 3 else ())
    if chunks != array.chunks:
        array = array.rechunk(chunks)
    depth = {axis: h if len(array.chunks[axis]) > 1 else 0 for axis in (0, 1)}
    if array.ndim == 3:
        depth[2] = 0
    grown = da.overlap.overlap(array, depth=depth, boundary="none")
    plane = array.chunks[:2]
    num = (len(plane[0]), len(plane[1]))
    # Pass 1: each chunk's side labels (small), joined in one task, all when the result is
    # computed: nothing runs here, as Dask users expect of a function returning an array.
    blocks = grown.to_delayed().reshape(num[0], num[1], -1)[:, :, 0]
    firsts = {(i, j): dask.delayed(_first_pass)(blocks[i, j], h, options, (i, j), num)
              for i in range(num[0]) for j in range(num[1])}
    sides = [dask.delayed(_sides_of)(f) for f in firsts.values()]
    joined_strong = dask.delayed(_joined_strong)(sides, num)
    # Pass 2: each chunk's edges from its candidates (no second labelling).
    meta = _xp(array._meta).empty((0, 0), np.uint8)  # CuPy chunks give CuPy edges
    return _assemble(firsts, joined_strong, plane, meta)


def _multiscales(attrs: dict) -> list:
    """The multiscales of an OME-Zarr group's attributes (NGFF 0.4: top level; 0.5: "ome")."""
    ms = attrs.get("ome", {}).get("multiscales") or attrs.get("multiscales")
    if not ms:
        raise ValueError("not an OME-Zarr image: no multiscales in the group's attributes")
    return ms


def from_ome_zarr(path: str, level: int = 0):
    """The image of an OME-Zarr group at `path` (NGFF 0.4 or 0.5; a resolution `level`, 0
    the full one) as a dask array for canny or canny_itk: (H, W) for the axes y, x, or
    (H, W, C) with a channel axis, the axes t and z (each of size 1) dropped. Returns the
    array and its (y, x) scale."""
    import zarr
    group = zarr.open_group(path, mode="r")
    ms = _multiscales(group.attrs.asdict())[0]
    axes = [a["name"] if isinstance(a, dict) else a for a in ms.get("axes", ["y", "x"])]
    levels = len(ms["datasets"])
    if isinstance(level, bool) or not isinstance(level, (int, np.integer)) or \
            not 0 <= level < levels:
        raise ValueError(f"level={level!r}: {path} holds resolution levels 0 to {levels - 1}")
    ds = ms["datasets"][level]
    array = da.from_zarr(path, component=ds["path"])
    if array.ndim != len(axes) or not {"y", "x"} <= set(axes) or \
            set(axes) - {"t", "c", "z", "y", "x"}:
        raise ValueError(f"OME-Zarr axes {axes} for an array of {array.ndim} dimensions: edgel "
                         "takes y and x, with c, and t and z of size 1")
    for name in ("t", "z"):
        if name in axes:
            i = axes.index(name)
            if array.shape[i] != 1:
                raise ValueError(f"OME-Zarr axis {name} has {array.shape[i]} planes: pick one "
                                 "and pass the 2-D array to canny")
            array = array[(slice(None),) * i + (0,)]
            axes.pop(i)
    order = [axes.index("y"), axes.index("x")] + ([axes.index("c")] if "c" in axes else [])
    array = array.transpose(order)
    scale = [1.0, 1.0]
    for t in ds.get("coordinateTransformations", []):
        if t.get("type") == "scale":
            full = [a["name"] if isinstance(a, dict) else a for a in ms.get("axes", ["y", "x"])]
            scale = [float(t["scale"][full.index("y")]), float(t["scale"][full.index("x")])]
    return array, tuple(scale)


def _rename_no_replace(src: str, dst: str) -> None:
    """Renames src to dst, failing with FileExistsError where dst exists (an empty directory
    too), in one step where the system has renameat2 (Linux), so two writers never both
    succeed."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        renameat2 = None
    if renameat2 is not None:
        at_fdcwd, rename_noreplace = -100, 1
        if renameat2(at_fdcwd, os.fsencode(src), at_fdcwd, os.fsencode(dst),
                     rename_noreplace) == 0:
            return
        err = ctypes.get_errno()
        if err not in (errno.ENOSYS, errno.EINVAL):  # no such call, or a file system without
            raise FileExistsError(err, os.strerror(err), dst) if err == errno.EEXIST else \
                OSError(err, os.strerror(err), dst)
    if os.path.lexists(dst):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), dst)
    os.rename(src, dst)


def to_ome_zarr(edges, path: str, scale=(1.0, 1.0), chunks=None) -> None:
    """Writes a 2-D dask array of edges to `path` as an OME-Zarr image (NGFF 0.4, Zarr
    format 2, one resolution, axes y and x with `scale`), computing it chunk by chunk.
    All or nothing: the group is written beside `path` under a hidden temporary name, its
    OME metadata last, and renamed into place once complete, so `path` never holds a partial
    group (a killed writer leaves only its hidden temporary). `path` must not exist; of two
    writers to one path, one succeeds and the other raises FileExistsError, and neither
    deletes what it did not create."""
    import shutil
    import uuid
    import zarr
    if edges.ndim != 2:
        raise ValueError("to_ome_zarr writes 2-D edge maps")
    try:
        sizes = [float(v) for v in scale]
    except (TypeError, ValueError):
        sizes = []
    if len(sizes) != 2 or not all(np.isfinite(sizes)) or min(sizes) <= 0:
        raise ValueError(f"scale={scale!r}: two finite numbers above 0, the y and x pixel "
                         "sizes")
    if chunks is not None:
        edges = edges.rechunk(chunks)
    meta = getattr(edges, "_meta", None)
    if meta is not None and _xp(meta) is not np:  # CuPy chunks: to the host as they are written
        edges = edges.map_blocks(_host, meta=np.empty((0, 0), edges.dtype))
    path = os.fspath(path)
    if os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), path)
    parent, name = os.path.split(os.path.abspath(path))
    # a short temporary name: valid wherever the target's name is
    temporary = os.path.join(parent, f".edgel-{uuid.uuid4().hex[:16]}.zarr")
    try:
        group = zarr.open_group(temporary, mode="w-", zarr_format=2)
        target = group.create_array("0", shape=edges.shape, dtype=edges.dtype,
                                    chunks=tuple(max(c) for c in edges.chunks))
        da.store(edges.rechunk(target.chunks), target, lock=False)
        group.attrs["multiscales"] = [{
            "version": "0.4", "name": "edges",
            "axes": [{"name": "y", "type": "space"}, {"name": "x", "type": "space"}],
            "datasets": [{"path": "0", "coordinateTransformations": [
                {"type": "scale", "scale": sizes}]}]}]
        _rename_no_replace(temporary, path)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


# ---- volumes ----------------------------------------------------------------------------
# The same three passes one dimension up: each chunk's classes from the chunk and a halo (per
# axis: the 2-D rule for that axis's variance in voxels), its 26-connected components, the
# six faces of labels joined across every chunk border as whole planes (so that chunks that
# meet only along an edge or at a corner are joined too: a plane's rows run across chunks),
# then each chunk's edges.

_TWENTY_SIX = np.ones((3, 3, 3), bool)


def _zyx(value) -> tuple:
    v = np.broadcast_to(np.asarray(value, np.float64), (3,))
    return tuple(float(x) for x in v)


def _volume_classes(block, depths, options, loc, num):
    """The classes (0 none, 128 weak, 255 strong) of the chunk inside an overlapped block."""
    xp = _xp(block)
    stages = {"suppressed": None}
    _canny_itk(xp.ascontiguousarray(block), stages=stages, dtype=np.uint8, **options)
    sup = stages["suppressed"]
    classes = xp.where(sup > options["upper"], np.uint8(255),
                       xp.where(sup > options["lower"], np.uint8(128), np.uint8(0)))
    cut = tuple(slice(depths[a] if loc[a] > 0 else 0,
                      classes.shape[a] - (depths[a] if loc[a] < num[a] - 1 else 0))
                for a in range(3))
    return classes[cut].astype(np.uint8)


def _faces(local):
    """The six faces of a chunk's labels: first and last along z, y and x."""
    return (local[0], local[-1], local[:, 0], local[:, -1], local[:, :, 0], local[:, :, -1])


def _volume_first_pass(block, depths, options, loc, num):
    """Pass 1 of a chunk, labelled once: (its faces' labels (sorted), their strong flags, the
    six faces; its candidates, for pass 2)."""
    local, strong = _labels(_volume_classes(block, depths, options, loc, num), _TWENTY_SIX)
    faces = [_host(f) for f in _faces(local)]
    labels = np.unique(np.concatenate([f.ravel() for f in faces]))
    labels = labels[labels > 0]
    return (tuple(loc), labels, _host(strong)[labels], *faces), _candidates(local, strong)


def _join_planes(comps, near, far):
    """Joins two facing planes of nodes (-1: none) where their voxels touch, 26-connected:
    each row against the rows one before, level and one after, as lines with a gap (-1) at
    each row's end so that rows never touch each other."""
    rows = near.shape[0]
    for d in (-1, 0, 1):
        a = near[max(0, -d):rows - max(0, d)]
        b = far[max(0, d):rows - max(0, -d)]
        if a.size == 0:
            continue
        gap = np.full((a.shape[0], 1), -1, np.int64)
        comps.join(np.hstack([a, gap]).ravel(), np.hstack([b, gap]).ravel())


def _volume_joined_strong(sides, num) -> dict:
    """Cross-chunk hysteresis over the chunks' faces: chunk -> its labels joined to a strong
    component elsewhere."""
    comps = _Components()
    by_loc = {}
    for loc, labels, strong, *faces in sorted(sides, key=lambda s: s[0]):
        first = comps.add(strong)
        by_loc[loc] = (first, labels, [np.where(f > 0, first + np.searchsorted(labels, f), -1)
                                       for f in faces])
    grid = [range(n) for n in num]
    for axis in range(3):
        others = [a for a in range(3) if a != axis]
        for i in range(num[axis] - 1):
            def plane(index, face):
                rows = []
                for p in grid[others[0]]:
                    row = []
                    for q in grid[others[1]]:
                        loc = [0, 0, 0]
                        loc[axis], loc[others[0]], loc[others[1]] = index, p, q
                        row.append(by_loc[tuple(loc)][2][face])
                    rows.append(np.hstack(row))
                return np.vstack(rows)
            _join_planes(comps, plane(i + 1, 2 * axis), plane(i, 2 * axis + 1))
    return {loc: labels[comps.strong(first + np.arange(labels.size))]
            for loc, (first, labels, _) in by_loc.items()}


def _run_volume(array, variance, maximum_error, upper, lower, spacing):
    variance, maximum_error, spacing = _zyx(variance), _zyx(maximum_error), _zyx(spacing)
    options = dict(variance=variance, maximum_error=maximum_error, upper=float(upper),
                   lower=float(lower), spacing=spacing)
    # per axis, the halo of an image smoothed with that axis's variance in voxels
    halos = [halo_itk(variance[a] / spacing[a] ** 2, maximum_error[a], upper, lower)
             for a in range(3)]
    from dask.array.overlap import ensure_minimum_chunksize
    chunks = tuple(ensure_minimum_chunksize(h, c) if len(c) > 1 and sum(c) > h else (sum(c),)
                   for h, c in zip(halos, array.chunks))
    if chunks != array.chunks:
        array = array.rechunk(chunks)
    depths = tuple(h if len(c) > 1 else 0 for h, c in zip(halos, array.chunks))
    grown = da.overlap.overlap(array, depth=dict(enumerate(depths)), boundary="none")
    num = tuple(len(c) for c in array.chunks)
    blocks = grown.to_delayed()
    firsts = {loc: dask.delayed(_volume_first_pass)(blocks[loc], depths, options, loc, num)
              for loc in np.ndindex(*num)}
    sides = [dask.delayed(_sides_of)(f) for f in firsts.values()]
    joined_strong = dask.delayed(_volume_joined_strong)(sides, num)
    meta = _xp(array._meta).empty((0, 0, 0), np.uint8)
    return _assemble(firsts, joined_strong, array.chunks, meta)


# ---- sub-pixel curves ---------------------------------------------------------------------
# A chunk's edge points and each one's best neighbours depend on the pixels within
# edgel_subpixel_halo(sigma) of it alone (edgel.h): each chunk finds them in its block (the
# chunk and its halo), keeps those of its own pixels, and names each neighbour by its pixel;
# one task then lists every point in the reference's order, turns the neighbours' pixels into
# indices and chains them: the whole image's curves.

def _chunk_points(block, sigma, depth, loc, starts):
    from ._subpixel import _find_points
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
    from ._subpixel import _chain_points
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
    from ._subpixel import _SUBPIXEL_TYPES, _subpixel_halo
    if not isinstance(array, da.Array):
        array = da.from_array(array)
    if array.ndim != 2 or array.dtype not in _SUBPIXEL_TYPES:
        raise ValueError("edgel.dask.subpixel_edges takes (H, W) arrays of u8, u16, float32 or "
                         "float64")
    h = _subpixel_halo(sigma)
    from dask.array.overlap import ensure_minimum_chunksize
    chunks = tuple(ensure_minimum_chunksize(h, c) if len(c) > 1 and sum(c) > h else (sum(c),)
                   for c in array.chunks)
    if chunks != array.chunks:
        array = array.rechunk(chunks)
    depth = {a: h if len(array.chunks[a]) > 1 else 0 for a in (0, 1)}
    grown = da.overlap.overlap(array, depth=depth, boundary="none")
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
    from ._subpixel import _SUBPIXEL_TYPES, SubpixelStream
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
