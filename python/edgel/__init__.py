"""edgel: Canny edges and image convolution on NVIDIA GPUs and CPUs, equal to their references.

    >>> import edgel, numpy as np
    >>> edges = edgel.canny(image_u8, 50, 150)          # like cv2.Canny(image_u8, 50, 150)

The presets: canny() (cv2.Canny's bytes), canny_itk() (ITK's floats), canny_skimage()
(skimage.feature.canny's edges); canny_batch() for many frames, canny_tiled() and edgel.dask
for images of any size; subpixel_edges() for sub-pixel edge points chained into curves (the
Canny/Devernay detector); filter2d() and its kin for convolution.

CuPy arrays and PyTorch CUDA tensors (anything with __cuda_array_interface__) go in and come
back without copies: edgel runs on the GPU, on the stream the array names, and returns an
array of the same kind (or fills `out=`).

The shared library is the one named by the EDGEL_LIBRARY environment variable (a path to
libedgel.so), else the one installed with this package (`pip install .`), else the one on
the system's library search path.

The package's modules, by job: _capi (the C API through ctypes), _arrays (views of NumPy
and CUDA arrays), _context (contexts), _params (the presets' parameters), and one module a
family of operations (_canny, _itk, _skimage, _batch, _tiled, _subpixel, _filters); this one only
re-exports.
"""
from ._batch import canny_batch
from ._canny import auto_thresholds, canny, canny_gradients

Canny = canny  # (cv2's name: "import edgel as cv2" code keeps working)
from ._capi import (MIN_VERSION_NUMBER, EdgelError, EdgelMemoryError, EdgelTypeError,
                    EdgelValueError, __version__, library_version)
from ._config import show_config
from ._context import Context, cuda_device_count
from ._fit import CircleFit, EllipseFit, LineFit, fit_circle, fit_ellipse, fit_line
from ._segment import Piece, segment_curves
from ._measure import measure_pairs, measure_pos
from ._filters import filter2d, filter2d_method, gaussian_blur, sep_filter2d, to_gray
from ._itk import canny_itk
from ._skimage import canny_skimage
from ._subpixel import (Curves, SubpixelStream, refine_curves, subpixel_edges,
                        subpixel_edges_batch)
from ._tiled import canny_itk_tiled, canny_tiled

__all__ = ["__version__", "EdgelError", "EdgelValueError", "EdgelTypeError", "EdgelMemoryError",
           "Context", "canny", "canny_tiled", "canny_itk", "canny_itk_tiled", "canny_skimage",
           "auto_thresholds", "canny_batch", "cuda_device_count", "canny_gradients", "to_gray",
           "gaussian_blur", "filter2d", "sep_filter2d", "filter2d_method", "library_version",
           "show_config", "subpixel_edges", "subpixel_edges_batch", "refine_curves", "Curves",
           "SubpixelStream", "fit_line", "fit_circle", "fit_ellipse", "LineFit", "CircleFit",
           "EllipseFit", "segment_curves", "Piece", "measure_pos", "measure_pairs",
           "MIN_VERSION_NUMBER"]
