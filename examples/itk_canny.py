"""ITK's CannyEdgeDetectionImageFilter, float for float, from edgel.canny_itk.

    python3 examples/itk_canny.py     (pip install . itk)
"""
import itk
import numpy as np

import edgel

rng = np.random.default_rng(0)
image = (rng.random((120, 160)) * 100).astype(np.float32)
image[40:80, 50:110] += 60  # a bright block: edges around it

f = itk.CannyEdgeDetectionImageFilter[itk.Image[itk.F, 2], itk.Image[itk.F, 2]].New(
    Input=itk.image_from_array(image), Variance=2.0, MaximumError=0.01,
    UpperThreshold=10.0, LowerThreshold=5.0)
f.Update()
expected = itk.array_from_image(f.GetOutput())
got = edgel.canny_itk(image, variance=2.0, maximum_error=0.01, upper=10.0, lower=5.0)
assert got.dtype == np.float32 and np.array_equal(got, expected)
print(f"canny_itk: identical to ITK's filter, {int(got.sum())} edge pixels")
