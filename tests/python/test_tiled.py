"""Canny in tiles from Python: canny_tiled and canny() on numpy.memmap give the bytes of
canny() on the whole image, for any tile size and option; errors in the array's own slicing
come back as they are."""
import numpy as np
import pytest

import edgel


def photo(rng, h, w, cn):
    base = rng.integers(0, 256, (h // 6 + 2, w // 6 + 2, cn), dtype=np.uint8)
    img = np.repeat(np.repeat(base, 6, 0), 6, 1)[:h, :w]
    img = img + rng.integers(0, 12, img.shape, dtype=np.uint8)
    return img[:, :, 0] if cn == 1 else img


@pytest.mark.parametrize("seed", range(6))
def test_tiled_equals_whole(seed):
    rng = np.random.default_rng(seed)
    for _ in range(8):
        h, w = (int(v) for v in rng.integers(1, 160, 2))
        cn = int(rng.choice([1, 3, 4]))
        img = photo(rng, h, w, cn)
        opts = dict(low=float(rng.integers(0, 150)), high=float(rng.integers(0, 300)),
                    aperture=int(rng.choice([3, 5])), l2=bool(rng.integers(2)),
                    blur=[None, 1.4, "5x5", 2.5][int(rng.integers(4))],
                    gray=[None, "rgb", "bgr"][int(rng.integers(3))] if cn > 1 else None)
        tile = (int(rng.integers(1, 70)), int(rng.integers(1, 70)))
        assert np.array_equal(edgel.canny_tiled(img, tile=tile, **opts), edgel.canny(img, **opts))


def test_memmap_in_and_out(tmp_path):
    rng = np.random.default_rng(9)
    img = photo(rng, 300, 420, 3)
    src = np.memmap(tmp_path / "in.raw", np.uint8, "w+", shape=img.shape)
    src[:] = img
    src.flush()
    out = np.memmap(tmp_path / "out.raw", np.uint8, "w+", shape=img.shape[:2])
    got = edgel.canny(np.memmap(tmp_path / "in.raw", np.uint8, "r", shape=img.shape), 40, 120,
                      blur=1.4, out=out)
    assert got is out
    assert np.array_equal(np.asarray(got), edgel.canny(img, 40, 120, blur=1.4))


class Exploding:
    """An array-like whose third read fails."""

    def __init__(self, a):
        self.a, self.shape, self.dtype, self.reads = a, a.shape, a.dtype, 0

    def __getitem__(self, key):
        self.reads += 1
        if self.reads == 3:
            raise OSError("the disk went away")
        return self.a[key]


def test_errors_come_back():
    img = photo(np.random.default_rng(2), 64, 64, 1)
    src = Exploding(img)
    with pytest.raises(OSError, match="disk went away"):
        edgel.canny_tiled(src, tile=(16, 16))
    assert src.reads == 3  # the call stopped at the failure
    with pytest.raises(TypeError, match="uint8"):
        edgel.canny_tiled(img.astype(np.float32))
    with pytest.raises(ValueError, match="out has shape"):
        edgel.canny_tiled(img, out=np.zeros((3, 3), np.uint8))
    with pytest.raises(edgel.EdgelError) as e:
        edgel.canny_tiled(img, tile=(0, 16))
    assert e.value.status == "EDGEL_ERROR_INVALID_SIZE"


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.float32])
def test_itk_tiled_equals_whole(dtype):
    rng = np.random.default_rng(40)
    for _ in range(6):
        h, w = (int(v) for v in rng.integers(1, 130, 2))
        img = photo(rng, h, w, 1).astype(dtype)
        if dtype != np.uint8:
            img = img * (150 if dtype == np.uint16 else 0.41) + rng.integers(0, 9, img.shape)
            img = img.astype(dtype)
        scale = 150.0 if dtype == np.uint16 else 1.0
        opts = dict(variance=float(rng.integers(0, 9)) / 2,
                    upper=scale * float(rng.integers(0, 40)), lower=scale * float(rng.integers(0, 30)))
        tile = (int(rng.integers(1, 60)), int(rng.integers(1, 60)))
        got = edgel.canny_itk_tiled(img, tile=tile, **opts)
        assert np.array_equal(got, edgel.canny_itk(img, dtype=np.uint8, **opts)), (h, w, tile, opts)


def test_itk_memmap_goes_tiled(tmp_path):
    img = photo(np.random.default_rng(41), 200, 150, 1)
    src = np.memmap(tmp_path / "in.raw", np.uint8, "w+", shape=img.shape)
    src[:] = img
    got = edgel.canny_itk(src, variance=2.0, upper=10, lower=3, dtype=np.uint8)
    assert np.array_equal(got, edgel.canny_itk(img, variance=2.0, upper=10, lower=3,
                                               dtype=np.uint8))


def test_past_the_whole_image_limits():
    """An array wider than 65536 goes through the library's tiled path in edgel.canny,
    with the bytes of canny_tiled in other tiles."""
    img = photo(np.random.default_rng(42), 23, 65536 + 700, 1)
    got = edgel.canny(img, 40, 120, blur=1.4)
    assert got.sum() > 0
    assert np.array_equal(got, edgel.canny_tiled(img, 40, 120, blur=1.4, tile=(16, 5000)))
    with pytest.raises(edgel.EdgelError, match="maximum"):
        edgel.canny(img, 40, 120, stages={"suppressed": None})
