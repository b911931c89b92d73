"""edgel.measure_pos and measure_pairs on rendered bars of known width (the sub-pixel harness's
anti-aliased rendering, blurred with sigma 1)."""
import math
import pathlib
import sys

import numpy as np
import pytest

import edgel

ndimage = pytest.importorskip("scipy.ndimage")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from scenes import render  # noqa: E402


def bar_image(t, o1, o2, c=40.0, size=80):
    nx, ny = math.cos(t), math.sin(t)

    def inside(x, y):
        d = (x - c) * nx + (y - c) * ny
        return (d > o1) & (d < o2)
    return ndimage.gaussian_filter(render(size, inside), 1.0)


@pytest.mark.parametrize("t", [0.3, -1.1, 2.0])
def test_bar_edges_and_width(t):
    o1, o2 = -6.13, 7.42
    img = bar_image(t, o1, o2)
    e = edgel.measure_pos(img, (40.0, 40.0, t, 20, 5), sigma=1.0, threshold=10)
    assert len(e) == 2 and e["amplitude"][0] > 0 > e["amplitude"][1]
    offsets = (e["x"] - 40) * math.cos(t) + (e["y"] - 40) * math.sin(t)
    assert offsets == pytest.approx([o1, o2], abs=0.01)
    (first, second, width), = edgel.measure_pairs(img, (40.0, 40.0, t, 20, 5), threshold=10)
    assert width == pytest.approx(o2 - o1, abs=0.02)
    # the other way along: a dark-to-bright edge first again, the same width
    back = edgel.measure_pairs(img, (40.0, 40.0, t + math.pi, 20, 5), threshold=10)
    assert back[0][2] == pytest.approx(width, abs=1e-6)
    assert edgel.measure_pairs(img, (40.0, 40.0, t, 20, 5), threshold=10,
                               transition="negative") == []


def test_types_and_refusals():
    img = bar_image(0.0, -5.2, 5.9)
    u8 = np.clip(np.rint(img), 0, 255).astype(np.uint8)
    u16 = np.clip(np.rint(img * 256), 0, 65535).astype(np.uint16)
    a = edgel.measure_pos(u8, (40, 40, 0, 20, 4))
    b = edgel.measure_pos(u16, (40, 40, 0, 20, 4), threshold=20 * 256)
    assert len(a) == len(b) == 2
    # (8-bit rounding of an axis-aligned bar, the same in every row: up to 0.02 px)
    assert a["distance"] == pytest.approx(b["distance"], abs=0.03)
    with pytest.raises(ValueError, match="transition"):
        edgel.measure_pos(img, (40, 40, 0, 20, 4), transition="up")
    with pytest.raises(ValueError, match="2-D"):
        edgel.measure_pos(np.zeros((4, 4, 3), np.uint8), (2, 2, 0, 2, 0))
    with pytest.raises(edgel.EdgelError, match="rectangle"):
        edgel.measure_pos(img, (40, 40, 0, 0.5, 4))
    with pytest.raises(edgel.EdgelError, match="sigma"):
        edgel.measure_pos(img, (40, 40, 0, 20, 4), sigma=0.1)
