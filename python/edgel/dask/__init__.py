"""Canny on dask arrays of any chunking, byte-identical to edgel.canny on the whole image.

    >>> import dask.array as da, edgel.dask
    >>> edges = edgel.dask.canny(da.from_zarr("scene.zarr"), 50, 150, blur=1.4)
    >>> edges.to_zarr("edges.zarr")

edgel.dask.subpixel_edges gives the sub-pixel curves of an image of any size (a delayed
Curves, equal to edgel.subpixel_edges on the whole image, point for point, in its order);
edgel.dask.subpixel_edges_in_bands gives the same curves with memory bounded by a band of
columns (edgel.SubpixelStream), for images whose points do not fit at once.

edgel.dask.canny_itk does the same for the itk preset (edgel.canny_itk's, u8 255/0 edges),
on images and on volumes (D, H, W) chunked along any axes, with ITK's 26-connected
hysteresis joined across chunk faces, edges and corners.
OME-Zarr images (NGFF 0.4 and 0.5) come in through from_ome_zarr and edges go out through
to_ome_zarr, with their scale kept:

    >>> image, scale = edgel.dask.from_ome_zarr("slide.ome.zarr")
    >>> edgel.dask.to_ome_zarr(edgel.dask.canny(image, blur=1.4), "edges.ome.zarr", scale)

Each chunk's classes come from the chunk and a halo of its neighbours; hysteresis joins the
components on the chunks' faces with the library's own face join (edgel_components), as its
tiled and bricked drivers do (edgel.dask._chunks says how). It runs wherever dask runs:
threads, processes, a dask.distributed cluster of any size, and with CuPy chunks on GPU
workers (dask-cuda's LocalCUDACluster: one worker a GPU), where the chunks' work stays on
their GPU and only the labels on their faces travel. Nothing is computed until the result
is: canny() returns a lazy array, as dask functions do. Chunks smaller than the halo are
merged (rechunked) to the halo's size first.

One module a job: canny (images), volume (volumes), subpixel (sub-pixel curves), ome_zarr
(OME-Zarr in and out), and _chunks (the chunked driver they share).
"""
from __future__ import annotations

from .canny import canny, canny_itk, halo, halo_itk
from .ome_zarr import from_ome_zarr, to_ome_zarr
from .subpixel import subpixel_edges, subpixel_edges_in_bands

__all__ = ["canny", "canny_itk", "halo", "halo_itk", "subpixel_edges",
           "subpixel_edges_in_bands", "from_ome_zarr", "to_ome_zarr"]
