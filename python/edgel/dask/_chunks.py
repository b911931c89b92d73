"""The chunked driver of edgel.dask, which its Canny on images and volumes uses (and whose
overlap its sub-pixel curves use): the library's design (core/chunks.h) on dask's chunks.

The stages before hysteresis are local: each chunk's classes (none, weak, strong) come from
the chunk and a halo of its neighbours (dask's overlap, none beyond the array), cropped,
exactly as the whole array's. Hysteresis is global, and resolved as dask-image's `label`
joins labels across chunk faces:
  1. each chunk's components of candidate pixels (8-connected in an image, 26 in a volume)
     are labelled, each with a flag where it holds a strong pixel;
  2. only the labels on each chunk's faces and their flags leave its worker (small), and the
     faces either side of every chunk border, assembled over the whole array (so that chunks
     meeting only at an edge or a corner are joined too), are joined in one task by the
     library's face join (edgel_components_join_faces, which its tiled and bricked drivers
     use);
  3. each chunk's candidate pixels (kept on its worker from step 1 as flat positions and
     labels, a few bytes a candidate: no second detection or labelling) are edges where
     their component holds a strong pixel or is joined to one that does.
"""
from __future__ import annotations

import numpy as np

import dask
import dask.array as da

from .._hysteresis import _Components


def _xp(a):
    """The array module of a chunk: NumPy, or CuPy for CuPy chunks."""
    if type(a).__module__.split(".")[0] == "cupy":
        import cupy
        return cupy
    return np


def _host(a):
    return a.get() if _xp(a) is not np else a


def _grown(array, halos):
    """`array` rechunked so that each chunk holds at least its axis's halo (dask's overlap
    takes a halo from the neighbour alone: small chunks are merged with their neighbours, as
    dask's overlap itself would; an axis no longer than its halo is one chunk, which needs
    none), and that array overlapped by the halos (none beyond the array): (array, grown,
    depths). An axis whose halo is None is joined into one chunk."""
    from dask.array.overlap import ensure_minimum_chunksize
    chunks = tuple((sum(c),) if h is None or len(c) == 1 or sum(c) <= h
                   else ensure_minimum_chunksize(h, c)
                   for h, c in zip(halos, array.chunks))
    if chunks != array.chunks:
        array = array.rechunk(chunks)
    depths = tuple(h if h is not None and len(c) > 1 else 0
                   for h, c in zip(halos, array.chunks))
    grown = da.overlap.overlap(array, depth=dict(enumerate(depths)), boundary="none")
    return array, grown, depths


def _crop(a, depths, loc, num):
    """The chunk inside an overlapped block's result `a` (the halo trimmed on each side that
    has a neighbour)."""
    return a[tuple(slice(depths[i] if loc[i] > 0 else 0,
                         a.shape[i] - (depths[i] if loc[i] < num[i] - 1 else 0))
                   for i in range(len(loc)))]


def _labels(classes):
    """The chunk's components: local labels (0 off candidates; 8-connected in an image, 26 in a
    volume) and, per label, a flag set where it holds a strong pixel (index 0: False)."""
    xp = _xp(classes)
    if xp is np:
        from scipy import ndimage
    else:
        from cupyx.scipy import ndimage
    structure = xp.ones((3,) * classes.ndim, bool)
    local, count = ndimage.label(classes > 0, structure=structure)
    strong = xp.zeros(int(count) + 1, bool)
    strong[local[classes == 255]] = True
    strong[0] = False
    return local, strong


def _faces(local):
    """A chunk's faces of labels: the first and last along each axis in turn."""
    return [f for axis in range(local.ndim)
            for f in (local.take(0, axis=axis), local.take(-1, axis=axis))]


def _first_pass(block, depths, options, loc, num, classes_of):
    """Pass 1 of a chunk, labelled once: (its faces, which alone leave the worker: its
    location, the labels found there (sorted), their strong flags and the faces of labels;
    its candidates, for pass 2: its shape, its candidate pixels as flat positions with their
    labels, and each label's strong flag)."""
    local, strong = _labels(_crop(classes_of(block, options), depths, loc, num))
    faces = [_host(f) for f in _faces(local)]
    labels = np.unique(np.concatenate([f.ravel() for f in faces]))
    labels = labels[labels > 0]
    xp = _xp(local)
    at = xp.flatnonzero(local)
    return (tuple(loc), labels, _host(strong)[labels], *faces), \
        (local.shape, at, local.ravel()[at], strong)


def _faces_of(first):
    return first[0]


def _joined_strong(faces, num) -> dict:
    """Cross-chunk hysteresis over the chunks' faces: chunk location -> its labels joined to a
    strong component elsewhere. Each border's two faces are assembled over the whole array
    (a line of an image, a plane of a volume) and joined where their pixels touch."""
    comps = _Components()
    by_loc = {}
    for loc, labels, strong, *sides in sorted(faces, key=lambda s: s[0]):
        first = comps.add(strong)
        by_loc[loc] = (first, labels, [np.where(f > 0, first + np.searchsorted(labels, f), -1)
                                       for f in sides])
    ndim = len(num)
    for axis in range(ndim):
        others = [a for a in range(ndim) if a != axis]

        def face(index, which):
            grid = np.empty([num[a] for a in others], dtype=object)
            for rest in np.ndindex(*grid.shape):
                loc = [index] * ndim
                for a, r in zip(others, rest):
                    loc[a] = r
                grid[rest] = by_loc[tuple(loc)][2][which]
            return np.block(grid.tolist())
        for i in range(num[axis] - 1):
            comps.join(face(i + 1, 2 * axis), face(i, 2 * axis + 1))
    return {loc: labels[comps.strong(first + np.arange(labels.size))]
            for loc, (first, labels, _) in by_loc.items()}


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


def _run(array, halos, classes_of, options):
    """The three passes over `array` with a halo per axis (None: an axis joined into one
    chunk, such as an image's channels); classes_of(block, options) gives a block's classes
    (0 none, 128 weak, 255 strong) over its axes with halos. Lazy: nothing runs here, as
    Dask users expect of a function returning an array."""
    array, grown, depths = _grown(array, halos)
    spatial = [a for a, h in enumerate(halos) if h is not None]
    num = tuple(len(array.chunks[a]) for a in spatial)
    depths = tuple(depths[a] for a in spatial)
    blocks = grown.to_delayed().reshape(num)
    # Pass 1: each chunk's faces of labels (small), joined in one task, when the result is
    # computed.
    firsts = {loc: dask.delayed(_first_pass)(blocks[loc], depths, options, loc, num, classes_of)
              for loc in np.ndindex(*num)}
    faces = [dask.delayed(_faces_of)(f) for f in firsts.values()]
    joined_strong = dask.delayed(_joined_strong)(faces, num)
    # Pass 2: each chunk's edges from its candidates (no second labelling); CuPy chunks give
    # CuPy edges.
    meta = _xp(array._meta).empty((0,) * len(spatial), np.uint8)
    grid = np.empty(num, dtype=object)
    for loc in np.ndindex(*num):
        shape = tuple(array.chunks[a][i] for a, i in zip(spatial, loc))
        grid[loc] = da.from_delayed(dask.delayed(_edges_of)(firsts[loc], joined_strong, loc),
                                    shape=shape, dtype=np.uint8, meta=meta)
    return da.block(grid.tolist())
