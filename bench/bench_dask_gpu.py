#!/usr/bin/env python3
"""edgel.dask.canny with CuPy chunks on dask-cuda's LocalCUDACluster, one worker a GPU, for 1
up to every GPU of the host, Zarr to Zarr, against the single-process tiled path
(edgel.canny_tiled on one GPU) on the same image, in the same run.

    EDGEL_LIBRARY=build/libedgel.so PYTHONPATH=python python3 bench/bench_dask_gpu.py \
        [--side 40000] [--chunk 4096] [--gpus N]

Prints a Markdown table: workers, time, throughput against one worker, identity with the
single-process result.
"""
import argparse
import os
import pathlib
import shutil
import sys
import tempfile
import time

import numpy as np

import cupy
import dask.array as da
import dask_cuda
import distributed
import zarr

import edgel
import edgel.dask

ROOT = pathlib.Path(__file__).resolve().parents[1]


def photo() -> np.ndarray:
    """samples/coffee.png in gray (any reader at hand: edgel's decoders come with the command,
    not the module)."""
    try:
        import cv2
        return cv2.imread(str(ROOT / "samples" / "coffee.png"), cv2.IMREAD_GRAYSCALE)
    except ImportError:
        from PIL import Image
        return np.asarray(Image.open(ROOT / "samples" / "coffee.png").convert("L"))


def write_input(path: str, side: int, chunk: int) -> None:
    p = photo()
    row = np.concatenate([p, p[:, ::-1]], axis=1)
    block = np.concatenate([row, row[::-1]], axis=0)
    src = zarr.open_array(path, mode="w", shape=(side, side), chunks=(chunk, chunk),
                          dtype=np.uint8)
    for y in range(0, side, chunk):
        rows = np.arange(y, min(side, y + chunk)) % block.shape[0]
        src[y:y + len(rows)] = np.tile(block[rows], (1, side // block.shape[1] + 1))[:, :side]


def same(a: str, b, side: int, chunk: int) -> bool:
    x = zarr.open_array(a, mode="r")
    return all(np.array_equal(x[y:y + chunk], b[y:y + chunk]) for y in range(0, side, chunk))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--side", type=int, default=40000)
    ap.add_argument("--chunk", type=int, default=4096)
    ap.add_argument("--gpus", type=int, default=cupy.cuda.runtime.getDeviceCount())
    ap.add_argument("--dir", default=tempfile.gettempdir())
    a = ap.parse_args()
    work = tempfile.mkdtemp(dir=a.dir)
    opts = dict(low=50, high=150, blur=1.4)
    try:
        src = os.path.join(work, "in.zarr")
        write_input(src, a.side, a.chunk)
        single = zarr.open_array(os.path.join(work, "single.zarr"), mode="w",
                                 shape=(a.side, a.side), chunks=(a.chunk, a.chunk),
                                 dtype=np.uint8)
        t = time.time()
        edgel.canny_tiled(zarr.open_array(src, mode="r"), tile=(a.chunk, a.chunk), out=single,
                          ctx=edgel.Context("cuda"), **opts)
        t_single = time.time() - t
        px = a.side * a.side
        print(f"| {a.side}x{a.side} ({px / 1e9:.2f} Gpx), chunks {a.chunk} | workers (GPUs) | "
              f"s | Gpx/s | x one worker | identical |\n|---|---|---|---|---|---|")
        print(f"| single process, edgel.canny_tiled on one GPU | - | {t_single:.1f} | "
              f"{px / t_single / 1e9:.2f} | | |", flush=True)
        status, t_one = 0, None
        for n in range(1, a.gpus + 1):
            out = os.path.join(work, f"dask{n}.zarr")
            with dask_cuda.LocalCUDACluster(n_workers=n,
                                            CUDA_VISIBLE_DEVICES=list(range(n)),
                                            dashboard_address=None) as cluster, \
                    distributed.Client(cluster):
                t = time.time()
                image = da.from_zarr(src).map_blocks(cupy.asarray)
                edges = edgel.dask.canny(image, **opts).map_blocks(cupy.asnumpy)
                edges.to_zarr(out)
                t_n = time.time() - t
            t_one = t_one or t_n
            ok = same(out, single, a.side, a.chunk)
            status |= not ok
            print(f"| edgel.dask.canny, CuPy chunks, LocalCUDACluster | {n} | {t_n:.1f} | "
                  f"{px / t_n / 1e9:.2f} | {t_one / t_n:.2f} | {'yes' if ok else 'NO'} |",
                  flush=True)
            shutil.rmtree(out, ignore_errors=True)
        return status
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
