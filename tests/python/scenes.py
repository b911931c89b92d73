"""Synthetic scenes of known geometry, shared by the measurement tests and the accuracy
harnesses (bench/bench_subpixel_accuracy.py, bench/bench_fit_accuracy.py): anti-aliased
shapes, dark 80 inside a bright 180 or the reverse, each pixel the exact area fraction of
SAMPLES x SAMPLES samples. Pixel centres at integers."""
import numpy as np

DARK, BRIGHT, SAMPLES = 80.0, 180.0, 16


def render(size, inside):
    """An anti-aliased image: each pixel the fraction of its SAMPLES^2 samples inside."""
    offs = (np.arange(SAMPLES) + 0.5) / SAMPLES - 0.5
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float64)
    cover = np.zeros((size, size))
    for dy in offs:
        for dx in offs:
            cover += inside(xx + dx, yy + dy)
    return DARK + (BRIGHT - DARK) * cover / SAMPLES ** 2
