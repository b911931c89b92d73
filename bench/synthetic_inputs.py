"""Large synthetic inputs for the file-to-file benchmarks (docs/benchmarks.md), written a
slab at a time so that memory stays small:

    python3 bench/synthetic_inputs.py volume SIDE out.mha   # SIDE^3 u8 MetaImage
    python3 bench/synthetic_inputs.py scene SIDE out.pgm    # SIDE x SIDE 8-bit PGM

volume: a 128^3 block (a sphere, a plane and noise) tiled along every axis; scene: a
1024x1024 block of anti-aliased disks over a ramp and noise, tiled and mirrored."""
import sys

import numpy as np


def volume(n: int, path: str) -> None:
    b = 128
    rng = np.random.default_rng(1)
    z, y, x = np.mgrid[0:b, 0:b, 0:b]
    block = ((((x - 64) ** 2 + (y - 60) ** 2 + (z - 70) ** 2) < 40 ** 2) * 90 + 60 +
             (x + 2 * y > 200) * 40 + rng.integers(0, 24, (b, b, b))).astype(np.uint8)
    with open(path, "wb") as f:
        f.write(("ObjectType = Image\nNDims = 3\nBinaryData = True\n"
                 "BinaryDataByteOrderMSB = False\nCompressedData = False\n"
                 "ElementSpacing = 1 1 1\nDimSize = %d %d %d\nElementType = MET_UCHAR\n"
                 "ElementDataFile = LOCAL\n" % (n, n, n)).encode())
        slab = np.tile(block, (1, -(-n // b), -(-n // b)))[:, :n, :n]
        for z0 in range(0, n, b):
            f.write(slab[:min(b, n - z0)].tobytes())


def scene(n: int, path: str) -> None:
    b = 1024
    rng = np.random.default_rng(1)
    y, x = np.mgrid[0:b, 0:b].astype(np.float32)
    block = 60 + 0.05 * x + rng.normal(0, 4, (b, b)).astype(np.float32)
    for _ in range(120):
        cx, cy, r = rng.uniform(0, b, 2).tolist() + [float(rng.uniform(5, 80))]
        d = np.sqrt((x - cx) ** 2 + (y - cy) ** 2) - r
        block += float(rng.uniform(-60, 60)) * np.clip(0.5 - d, 0, 1)
    block = np.clip(block, 0, 255).astype(np.uint8)
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (n, n))
        for by in range(0, n, b):
            rows = min(b, n - by)
            band = np.empty((rows, n), np.uint8)
            for bx in range(0, n, b):
                t = block if (bx // b + by // b) % 2 == 0 else block[::-1, ::-1]
                c = min(b, n - bx)
                band[:, bx:bx + c] = t[:rows, :c]
            f.write(band.tobytes())


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("volume", "scene"):
        sys.exit(__doc__)
    {"volume": volume, "scene": scene}[sys.argv[1]](int(sys.argv[2]), sys.argv[3])
