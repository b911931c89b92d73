"""cv2.Canny code ported by renaming the module: edgel.canny takes cv2's arguments and keywords
and gives its bytes, on colour (BGR) or gray images, on the CPU or, for CuPy arrays and
PyTorch tensors, on the GPU.

    python3 examples/opencv_dropin.py [image]     (pip install . opencv-python-headless)
"""
import pathlib
import sys

import cv2
import numpy as np

import edgel

path = sys.argv[1] if len(sys.argv) > 1 else str(
    pathlib.Path(__file__).resolve().parents[1] / "samples" / "coffee.png")
img = cv2.imread(path)  # BGR, as OpenCV reads it

for low, high, options in ((50, 150, {}), (30, 90, {"apertureSize": 5, "L2gradient": True})):
    expected = cv2.Canny(img, low, high, **options)
    got = edgel.canny(img, low, high, **options)
    assert np.array_equal(got, expected), options
    print(f"cv2.Canny(img, {low}, {high}, {options}): identical, {int((got > 0).sum())} edge pixels")

# With OpenCV's usual pre-processing: gray by luma, a Gaussian of sigma 1.4, then Canny.
gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
expected = cv2.Canny(cv2.GaussianBlur(gray, (0, 0), 1.4), 40, 120)
assert np.array_equal(edgel.canny(img, 40, 120, gray="bgr", blur=1.4), expected)
print("luma + GaussianBlur(sigma 1.4) + Canny in one call: identical")
