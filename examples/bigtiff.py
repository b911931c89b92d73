"""An image larger than you would load: a BigTIFF streamed through `edgel detect` in tiles,
its edges written as BigTIFF, within a memory limit, with the bytes of cv2.Canny on the whole
image.

    python3 examples/bigtiff.py [side]     (pip install . tifffile opencv-python-headless)
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import cv2
import numpy as np
import tifffile

side = int(sys.argv[1]) if len(sys.argv) > 1 else 6000
root = pathlib.Path(__file__).resolve().parents[1]
photo = cv2.imread(str(root / "samples" / "coffee.png"), cv2.IMREAD_GRAYSCALE)
reps = (side // photo.shape[0] + 1, side // photo.shape[1] + 1)
image = np.tile(photo, reps)[:side, :side]

edgel = shutil.which("edgel") or str(root / "build" / "edgel")
with tempfile.TemporaryDirectory() as work:
    src, dst = os.path.join(work, "scene.tif"), os.path.join(work, "edges.tif")
    tifffile.imwrite(src, image, bigtiff=True, tile=(512, 512), compression="zlib")
    subprocess.run([edgel, "detect", src, "-o", dst, "--blur", "1.4", "--memory", "256M"],
                   check=True)
    edges = tifffile.imread(dst)
    expected = cv2.Canny(cv2.GaussianBlur(image, (0, 0), 1.4), 50, 150)
    assert np.array_equal(edges, expected)
    print(f"{side}x{side} BigTIFF: edges identical to cv2.Canny, {os.path.getsize(dst)} bytes")
