#!/usr/bin/env python3
"""edgel.dask.canny on a dask.distributed LocalCluster (one worker a core) against the
single-process tiled path (edgel.canny_tiled), Zarr to Zarr, same image, same machine.

    EDGEL_LIBRARY=build/libedgel.so PYTHONPATH=python python3 bench/bench_dask.py \
        [--side 40000] [--chunk 4096]

Prints a Markdown row: pixels, the two times, Dask's throughput as a share of the single
process's, and whether the two results are identical.
"""
import argparse
import os
import pathlib
import shutil
import sys
import tempfile
import time

import cv2
import numpy as np

import dask.array as da
import distributed
import zarr

import edgel
import edgel.dask

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--side", type=int, default=40000)
    ap.add_argument("--chunk", type=int, default=4096)
    ap.add_argument("--dir", default=tempfile.gettempdir())
    a = ap.parse_args()
    cores = os.cpu_count() or 1
    work = tempfile.mkdtemp(dir=a.dir)
    try:
        photo = cv2.imread(str(ROOT / "samples" / "coffee.png"), cv2.IMREAD_GRAYSCALE)
        row = np.concatenate([photo, photo[:, ::-1]], axis=1)
        block = np.concatenate([row, row[::-1]], axis=0)
        src = zarr.open_array(os.path.join(work, "in.zarr"), mode="w", shape=(a.side, a.side),
                              chunks=(a.chunk, a.chunk), dtype=np.uint8)
        for y in range(0, a.side, a.chunk):
            rows = np.arange(y, min(a.side, y + a.chunk)) % block.shape[0]
            line = np.tile(block[rows], (1, a.side // block.shape[1] + 1))[:, :a.side]
            src[y:y + len(rows)] = line
        opts = dict(low=50, high=150, blur=1.4)
        single = zarr.open_array(os.path.join(work, "single.zarr"), mode="w",
                                 shape=(a.side, a.side), chunks=(a.chunk, a.chunk),
                                 dtype=np.uint8)
        t = time.time()
        edgel.canny_tiled(src, tile=(a.chunk, a.chunk), out=single, **opts)
        t_single = time.time() - t
        with distributed.LocalCluster(n_workers=cores, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster):
            t = time.time()
            edges = edgel.dask.canny(da.from_zarr(os.path.join(work, "in.zarr")), **opts)
            edges.to_zarr(os.path.join(work, "dask.zarr"))
            t_dask = time.time() - t
        d = zarr.open_array(os.path.join(work, "dask.zarr"), mode="r")
        same = all(np.array_equal(d[y:y + a.chunk], single[y:y + a.chunk])
                   for y in range(0, a.side, a.chunk))
        px = a.side * a.side
        print(f"| {a.side}x{a.side} ({px / 1e9:.2f} Gpx), chunks {a.chunk} | single process "
              f"(canny_tiled, {cores} threads) {t_single:.1f} s | LocalCluster {cores} workers "
              f"{t_dask:.1f} s | Dask / single throughput {t_single / t_dask:.0%} | identical: "
              f"{'yes' if same else 'NO'} |")
        return 0 if same else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
