"""ITK's Canny (the itk preset): itk::CannyEdgeDetectionImageFilter's floats, bit for bit."""
from __future__ import annotations

from typing import Optional

import numpy as np

from ._arrays import _cuda_array, _cuda_fields, _host_out, _packed, _stages_struct, _view
from ._canny import _canny_device, _host_canny
from ._context import Context
from ._params import _itk_params
from ._tiled import canny_itk_tiled


def canny_itk(image, variance: float = 0.0, maximum_error: float = 0.01, upper: float = 0.0,
              lower: float = 0.0, *, dtype=np.float32, stages: Optional[dict] = None,
              ctx: Optional[Context] = None, out=None):
    """itk::CannyEdgeDetectionImageFilter, bit for bit: the edges of a 2-D image.

    Parameters
    ----------
    image : array_like, uint8, uint16 or float32, (H, W)
        A NumPy array, or a CuPy array or PyTorch CUDA tensor as for canny(). A numpy.memmap
        with dtype=uint8 runs in tiles (canny_itk_tiled) with the same bytes.
    variance : float
        The Gaussian's variance in pixels^2 (0: no smoothing).
    maximum_error : float
        The Gaussian kernel's truncation error (its radius is capped at 32).
    upper, lower : float
        ITK's thresholds on the gradient magnitude at suppressed maxima (strict, never
        swapped). The defaults are ITK's.
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
    """
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
