"""skimage.feature.canny's edges, byte for byte, from edgel.canny_skimage (its signature).

    python3 examples/skimage_canny.py     (pip install . scikit-image==0.26.0)
"""
import numpy as np
from skimage import data, feature

import edgel

img = data.camera()
for kwargs in ({"sigma": 2}, {"sigma": 1.4, "low_threshold": 20, "high_threshold": 60},
               {"sigma": 1, "low_threshold": 0.5, "high_threshold": 0.9, "use_quantiles": True}):
    got = edgel.canny_skimage(img, **kwargs)
    assert np.array_equal(got, feature.canny(img, **kwargs)), kwargs
    print(f"canny_skimage(camera, {kwargs}): identical, {int(got.sum())} edge pixels")
mask = np.zeros(img.shape, bool)
mask[100:400, 100:400] = True
assert np.array_equal(edgel.canny_skimage(img, 2, mask=mask), feature.canny(img, 2, mask=mask))
print("with a mask: identical")
