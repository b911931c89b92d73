"""ITK's Canny on dask volumes (edgel.dask.canny_itk on (D, H, W)): the chunked driver (._chunks)
one dimension up. Each chunk's classes come from the chunk and a halo per axis (the 2-D rule
for that axis's variance in voxels); its components are 26-connected, and the faces of labels
are joined across every chunk border as whole planes (so that chunks that meet only along an
edge or at a corner are joined too: a plane's rows run across chunks)."""
from __future__ import annotations

import numpy as np

from .._itk import canny_itk as _canny_itk
from ._chunks import _run, _xp
from .canny import halo_itk


def _zyx(value) -> tuple:
    v = np.broadcast_to(np.asarray(value, np.float64), (3,))
    return tuple(float(x) for x in v)


def _volume_classes(block, options):
    """The classes (0 none, 128 weak, 255 strong) of a block as a whole volume."""
    xp = _xp(block)
    stages = {"suppressed": None}
    _canny_itk(xp.ascontiguousarray(block), stages=stages, dtype=np.uint8, **options)
    sup = stages["suppressed"]
    return xp.where(sup > options["upper"], np.uint8(255),
                    xp.where(sup > options["lower"], np.uint8(128), np.uint8(0))).astype(np.uint8)


def canny_itk_volume(array, variance, maximum_error, upper, lower, spacing):
    """edgel.dask.canny_itk on a (D, H, W) dask array (checked by the caller)."""
    variance, maximum_error, spacing = _zyx(variance), _zyx(maximum_error), _zyx(spacing)
    options = dict(variance=variance, maximum_error=maximum_error, upper=float(upper),
                   lower=float(lower), spacing=spacing)
    # per axis, the halo of an image smoothed with that axis's variance in voxels
    halos = tuple(halo_itk(variance[a] / spacing[a] ** 2, maximum_error[a], upper, lower)
                  for a in range(3))
    return _run(array, halos, _volume_classes, options)
