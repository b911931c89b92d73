"""Canny on a dask array on a dask.distributed cluster (here a local one of two workers), the
same bytes as one call on the whole image; OME-Zarr in and out keep the pixel size.

    python3 examples/dask_cluster.py     (pip install ".[dask]")
"""
import pathlib
import tempfile

import cv2
import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import edgel
import edgel.dask

if __name__ == "__main__":
    root = pathlib.Path(__file__).resolve().parents[1]
    photo = cv2.imread(str(root / "samples" / "coffee.png"), cv2.IMREAD_GRAYSCALE)
    image = np.tile(photo, (4, 4))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, \
            Client(cluster):
        chunks = da.from_array(image, chunks=(700, 900))
        edges = edgel.dask.canny(chunks, 40, 120, blur=1.4)
        assert np.array_equal(edges.compute(), edgel.canny(image, 40, 120, blur=1.4))
        print(f"{image.shape[1]}x{image.shape[0]} in {chunks.numblocks} chunks on 2 workers: identical")
        with tempfile.TemporaryDirectory() as work:
            out = str(pathlib.Path(work) / "edges.ome.zarr")
            edgel.dask.to_ome_zarr(edges, out, scale=(0.5, 0.5))
            back, scale = edgel.dask.from_ome_zarr(out)
            assert scale == (0.5, 0.5) and np.array_equal(back.compute(), edges.compute())
            print("OME-Zarr written and read back, scale kept")
