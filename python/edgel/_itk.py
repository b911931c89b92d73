"""ITK's Canny (the itk preset): itk::CannyEdgeDetectionImageFilter's floats, bit for bit."""
from __future__ import annotations

from typing import Optional

import numpy as np

from ._arrays import _cuda_array, _cuda_fields, _host_out, _packed, _stages_struct, _view
from ._canny import _canny_device, _host_canny
from ._context import Context
from ._params import _itk_params
from ._tiled import canny_itk_tiled
from ._volume import canny_itk_volume


def _ndim(image) -> int:
    shape = getattr(image, "shape", None)
    return len(shape) if shape is not None else np.ndim(image)


def canny_itk(image, variance=0.0, maximum_error=0.01, upper: float = 0.0,
              lower: float = 0.0, *, spacing=1.0, dtype=np.float32,
              stages: Optional[dict] = None, ctx: Optional[Context] = None, out=None):
    """itk::CannyEdgeDetectionImageFilter, bit for bit: the edges of an image or a volume.

    Parameters
    ----------
    image : array_like, uint8, uint16 or float32, (H, W) or (D, H, W)
        A NumPy array, or a CuPy array or PyTorch CUDA tensor as for canny(). A numpy.memmap
        with dtype=uint8 runs in tiles (canny_itk_tiled) with the same bytes. A 3-D array is a
        volume indexed (z, y, x): ITK's filter on Image<float, 3>, with the 26-neighbour
        hysteresis (host arrays, on the CPU).
    variance : float, or three floats for a volume
        The Gaussian's variance in pixels^2 (0: no smoothing); for a volume, in physical
        units^2 (divided by the spacing squared along each axis, as ITK does), one value or
        one an axis in the array's order (z, y, x).
    maximum_error : float, or three floats for a volume
        The Gaussian kernel's truncation error (its radius is capped at 32).
    upper, lower : float
        ITK's thresholds on the gradient magnitude at suppressed maxima (strict, never
        swapped). The defaults are ITK's.
    spacing : float or three floats
        A volume's voxel size, one value or one an axis in the array's order (z, y, x), as
        scikit-image's spacing (ITK's image spacing, reversed).
    dtype : numpy.float32 or numpy.uint8
        float32 gives ITK's 1/0 output, uint8 gives 255/0.
    stages : dict, optional
        Keys among "smoothed" and "suppressed" (ITK's GetNonMaximumSuppressionImage) receive
        float32 arrays of the image's kind.
    ctx : Context, optional
    out : array, optional
        An (H, W) array of `dtype` to fill and return.

    Returns
    -------
    array
        The edges, (H, W) of `dtype`, of the image's kind.

    Examples
    --------
    >>> edges = edgel.canny_itk(image, 2.0, 0.01, 10.0, 5.0)  # variance, error, upper, lower
    >>> edges = edgel.canny_itk(ct, 2.0, 0.01, 40.0, 20.0, spacing=(2.5, 0.7, 0.7))  # (z, y, x)
    """
    if _ndim(image) not in (2, 3):
        raise ValueError(f"canny_itk takes a 2-D (H, W) image or a 3-D (D, H, W) volume, not "
                         f"{_ndim(image)} dimensions")
    if _ndim(image) == 3:
        return canny_itk_volume(image, variance, maximum_error, upper, lower, spacing=spacing,
                                dtype=dtype, stages=stages, ctx=ctx, out=out)
    if np.any(np.asarray(spacing, dtype=np.float64) != 1.0):
        raise ValueError("spacing applies to volumes; for an image, give the variance in "
                         "pixels^2")
    p = _itk_params(variance, maximum_error, upper, lower)
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.float32), np.dtype(np.uint8)):
        raise TypeError(f"dtype must be float32 or uint8, not {dtype}")
    cuda = _cuda_array(image)
    if cuda is not None:
        hw = tuple(_cuda_fields(cuda)[0][:2])
        return _canny_device(cuda, p, out, ctx, dtype, stages,
                             {"smoothed": (hw, np.float32), "suppressed": (hw, np.float32)},
                             "itk")
    if isinstance(image, np.memmap) and stages is None and dtype == np.uint8:  # in tiles
        return canny_itk_tiled(image, variance, maximum_error, upper, lower, ctx=ctx, out=out)
    image = _packed(np.asarray(image))
    edges = _host_out(out, image.shape[:2], dtype)
    hw = image.shape[:2]
    st, keep = _stages_struct(stages, {"smoothed": (hw, np.float32),
                                       "suppressed": (hw, np.float32)}, np.empty, _view, "itk")
    return _host_canny(ctx, p, image, edges, st)
