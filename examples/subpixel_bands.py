"""Sub-pixel curves of an image too large to hold its edge points at once: a TIFF read
through a memory map a band of columns at a time into edgel.SubpixelStream, which holds a
band and the chains still open; the same curves as edgel.subpixel_edges on the whole image
(checked here on a size that fits) and as `edgel contours` in bands on the same file.

    python3 examples/subpixel_bands.py [side]     (pip install . tifffile opencv-python-headless)
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

import edgel

side = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
root = pathlib.Path(__file__).resolve().parents[1]
photo = cv2.imread(str(root / "samples" / "coffee.png"), cv2.IMREAD_GRAYSCALE)
reps = (side // photo.shape[0] + 1, side // photo.shape[1] + 1)
image = np.tile(photo, reps)[:side, :side]
sigma, high, low, band = 1.0, 15.0, 5.0, 500

with tempfile.TemporaryDirectory() as work:
    path = os.path.join(work, "scene.tif")
    tifffile.imwrite(path, image)  # uncompressed, contiguous: memory-mappable
    pixels = tifffile.memmap(path)  # (height, width), read from disk as touched
    stream = edgel.SubpixelStream(side, side, sigma, high, low)
    while stream.columns < side:  # each piece: its columns and a halo either side
        x0 = max(0, stream.columns - stream.halo)
        x1 = min(side, stream.columns + band + stream.halo)
        stream.add(pixels[:, x0:x1], x0)
    curves = stream.finish()
    whole = edgel.subpixel_edges(image, sigma, high, low)
    assert np.array_equal(curves.points, whole.points)
    assert np.array_equal(curves.limits, whole.limits)
    assert np.array_equal(curves.closed, whole.closed)

    cmd = shutil.which("edgel") or str(root / "build" / "edgel")
    out = os.path.join(work, "curves.npz")
    subprocess.run([cmd, "contours", path, "-o", out, "--sigma", str(sigma), "--high",
                    str(high), "--low", str(low), "--band-columns", str(band), "-q"], check=True)
    with np.load(out) as f:
        assert np.array_equal(f["points"], whole.points)
        assert np.array_equal(f["limits"], whole.limits)
    print(f"{side}x{side} in bands of {band} columns: {len(curves)} curves, "
          f"{len(curves.points)} points, identical to the whole image's and to edgel contours")
