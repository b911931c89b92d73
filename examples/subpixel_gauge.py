"""A gauge from sub-pixel curves: the diameter of a round part measured to a hundredth of a
pixel, and the curves drawn over the image with cv2.polylines and written as SVG.

The part is a synthetic, anti-aliased disk of known radius (so the measurement can be
checked), blurred and with noise, as a camera would see it. edgel.subpixel_edges gives the
curves (the Canny/Devernay detector); the longest closed one is the part's outline; a circle
fitted to its points by least squares gives the diameter. Canny/Devernay sees a blurred disk
slightly smaller than it is (its edge points lie where the gradient peaks, which blur moves
inwards by about sigma^2 / 2R); the example corrects for that and checks the result.

    python3 examples/subpixel_gauge.py
"""
import subprocess
import sys

import cv2
import numpy as np
from scipy import ndimage

import edgel

RADIUS, CX, CY, SIZE = 40.0, 63.37, 61.81, 128


def part_image(rng):
    s = 8  # samples a pixel side: each pixel the area it covers
    yy, xx = (np.mgrid[0:SIZE * s, 0:SIZE * s] + 0.5) / s - 0.5
    inside = ((xx - CX) ** 2 + (yy - CY) ** 2 < RADIUS ** 2).reshape(SIZE, s, SIZE, s)
    img = 60.0 + 140.0 * inside.mean(axis=(1, 3))
    img = ndimage.gaussian_filter(img, 1.0)  # the optics
    return img + rng.normal(0, 2.0, img.shape)  # the sensor


def fit_circle(points):
    """Least-squares circle through (x, y) points: centre and radius (Kasa's method)."""
    x, y = points[:, 0], points[:, 1]
    a = np.column_stack([x, y, np.ones_like(x)])
    cx, cy, c = np.linalg.lstsq(a, x ** 2 + y ** 2, rcond=None)[0] / np.array([2, 2, 1])
    return cx, cy, np.sqrt(c + cx ** 2 + cy ** 2)


def main():
    img = part_image(np.random.default_rng(1))
    curves = edgel.subpixel_edges(img, sigma=1.0, high=20, low=8)
    closed = [k for k in range(len(curves)) if curves.closed[k]]
    outline = curves[max(closed, key=lambda k: len(curves[k]))]
    cx, cy, r = fit_circle(outline[:-1])  # (a closed curve repeats its first point)
    r_corrected = r + (1.0 ** 2 + 1.0 ** 2) / (2 * r)  # optics' and detector's blur
    print(f"{len(curves)} curves; the outline: {len(outline) - 1} points")
    print(f"centre ({cx:.3f}, {cy:.3f}), true ({CX}, {CY})")
    print(f"diameter {2 * r_corrected:.3f} px (measured {2 * r:.3f}), true {2 * RADIUS:.3f}")
    assert abs(cx - CX) < 0.02 and abs(cy - CY) < 0.02, "centre off"
    assert abs(2 * r_corrected - 2 * RADIUS) < 0.05, "diameter off"

    bgr = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    bgr = cv2.resize(bgr, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
    # pixel centres at integers; 4x, with 4 fractional bits: (x + 0.5) * 4 - 0.5 per axis
    lines = [np.rint(((c + 0.5) * 4 - 0.5) * 16).astype(np.int32).reshape(-1, 1, 2)
             for c in curves]
    cv2.polylines(bgr, lines, False, (0, 0, 255), 1, cv2.LINE_AA, shift=4)
    cv2.imwrite("gauge.png", bgr)
    cv2.imwrite("part.png", np.clip(img, 0, 255).astype(np.uint8))
    r = subprocess.run(["edgel", "contours", "part.png", "-o", "part.svg", "--sigma", "1",
                        "--high", "20", "--low", "8"], capture_output=True, text=True)
    print(r.stdout.strip() or r.stderr.strip())
    print("wrote gauge.png (the curves drawn by cv2.polylines) and part.svg (edgel contours)")
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
