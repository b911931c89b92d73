"""OME-Zarr images in and edges out for edgel.dask (NGFF 0.4 and 0.5 read, 0.4 written), with
their scale kept; writing is all or nothing."""
from __future__ import annotations

import ctypes
import errno
import os

import numpy as np

import dask.array as da

from ._chunks import _host, _xp

__all__ = ["from_ome_zarr", "to_ome_zarr"]


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
