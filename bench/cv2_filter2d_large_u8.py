"""How cv2.filter2D rounds u8 images for kernels of 130 taps and more, where OpenCV filters
through its DFT (crossCorr) instead of directly: its bytes against the exact result (float64
correlation, rounded half to even, saturated), against itself with Intel IPP switched off,
and against edgel's methods. Counts of differing pixels; every difference is 1.

  python3 bench/cv2_filter2d_large_u8.py [--images N] [--size WxH]
"""
import argparse

import cv2
import numpy as np
from scipy import ndimage

import edgel


def exact_u8(img, k):
    ref = ndimage.correlate(img.astype(np.float64), k.astype(np.float64), mode="mirror")
    return np.clip(np.rint(ref), 0, 255).astype(np.uint8)


def cv2_filter2d(img, k, ipp):
    before = cv2.ipp.useIPP()
    cv2.ipp.setUseIPP(ipp)
    try:
        return cv2.filter2D(img, -1, k, borderType=cv2.BORDER_REFLECT_101)
    finally:
        cv2.ipp.setUseIPP(before)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--images", type=int, default=8, help="random images per kernel size")
    ap.add_argument("--size", default="400x300", help="image size WxH")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    rng = np.random.default_rng(130)
    print(f"cv2 {cv2.__version__}, IPP {cv2.ipp.getIppVersion()}; {args.images} random {w}x{h} u8 "
          "images a row, random float32 kernels scaled to sum near 1; reflect-101 border")
    print()
    cols = ["cv2 vs cv2 without IPP", "cv2 vs exact", "cv2 without IPP vs exact",
            "edgel direct vs exact", "edgel direct vs cv2", "edgel auto vs cv2", "edgel auto method"]
    print("| kernel | pixels | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 2) + "|")
    for kh, kw in [(11, 11), (13, 13), (15, 15), (9, 31), (31, 31), (65, 65)]:
        counts = np.zeros(len(cols) - 1, dtype=np.int64)
        worst = 0
        for _ in range(args.images):
            img = rng.integers(0, 256, (h, w), dtype=np.uint8)
            k = (rng.standard_normal((kh, kw)) * 1.5 / (kh * kw) ** 0.5 + 1.0 / (kh * kw)).astype(np.float32)
            ipp, no_ipp, exact = cv2_filter2d(img, k, True), cv2_filter2d(img, k, False), exact_u8(img, k)
            direct = edgel.filter2d(img, k, border="reflect-101", method="direct")
            auto = edgel.filter2d(img, k, border="reflect-101")
            pairs = [(ipp, no_ipp), (ipp, exact), (no_ipp, exact), (direct, exact), (direct, ipp), (auto, ipp)]
            for i, (a, b) in enumerate(pairs):
                counts[i] += np.count_nonzero(a != b)
                worst = max(worst, int(np.abs(a.astype(np.int16) - b).max()))
        method = edgel.filter2d_method(img, k, border="reflect-101")
        print(f"| {kw}x{kh} | {args.images * w * h} | " + " | ".join(str(c) for c in counts) +
              f" | {method} |")
        assert worst <= 1, f"{kw}x{kh}: a difference of {worst}"


if __name__ == "__main__":
    main()
