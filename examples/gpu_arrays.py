"""CuPy arrays and PyTorch CUDA tensors in and out, on the GPU, without copies to the host: the
same edges as the CPU's. Needs an NVIDIA GPU (and cupy or torch); says so and exits otherwise.

    python3 examples/gpu_arrays.py     (pip install . cupy-cuda13x or torch)
"""
import pathlib
import sys

import cv2
import numpy as np

import edgel

if edgel.cuda_device_count() == 0:
    print("no CUDA device here: nothing to run")
    sys.exit(0)
root = pathlib.Path(__file__).resolve().parents[1]
gray = cv2.imread(str(root / "samples" / "coffee.png"), cv2.IMREAD_GRAYSCALE)
cpu = edgel.canny(gray, 50, 150, blur=1.4)
try:
    import cupy
    edges = edgel.canny(cupy.asarray(gray), 50, 150, blur=1.4)  # a cupy.ndarray
    assert isinstance(edges, cupy.ndarray) and np.array_equal(cupy.asnumpy(edges), cpu)
    print("CuPy: identical to the CPU")
except ImportError:
    print("no cupy")
try:
    import torch
    edges = edgel.canny(torch.from_numpy(gray).cuda(), 50, 150, blur=1.4)  # a CUDA tensor
    assert np.array_equal(edges.cpu().numpy(), cpu)
    print("PyTorch: identical to the CPU")
except ImportError:
    print("no torch")
