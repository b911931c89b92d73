#!/usr/bin/env python3
"""samples/coffee.png in gray, tiled as bench_cpu_vs_opencv.py tiles it, as raw frames
DIR/coffee_WxH.raw for bench_cpu_ab.c (640x480, 1920x1080, 3840x2160; needs cv2 and NumPy).

    python3 bench/tiled_frames.py /tmp/frames
"""
import pathlib
import sys

import cv2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def tiled(photo, w, h):
    row = np.concatenate([photo, photo[:, ::-1]], axis=1)
    block = np.concatenate([row, row[::-1]], axis=0)
    reps = (h // block.shape[0] + 1, w // block.shape[1] + 1)
    return np.ascontiguousarray(np.tile(block, reps)[:h, :w])


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/frames")
    out.mkdir(parents=True, exist_ok=True)
    photo = cv2.cvtColor(cv2.imread(str(ROOT / "samples" / "coffee.png")), cv2.COLOR_BGR2GRAY)
    for w, h in [(640, 480), (1920, 1080), (3840, 2160)]:
        tiled(photo, w, h).tofile(out / f"coffee_{w}x{h}.raw")


if __name__ == "__main__":
    main()
