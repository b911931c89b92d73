"""edgel.canny_batch: arrays and lists of frames (of different sizes too) give what canny()
gives frame by frame; bad batches are refused with the frame named."""
import numpy as np
import pytest

import edgel


def frames(rng, n, h, w, cn):
    base = rng.integers(0, 256, (n, h // 5 + 2, w // 5 + 2) + ((cn,) if cn > 1 else ()),
                        dtype=np.uint8)
    img = np.repeat(np.repeat(base, 5, 1), 5, 2)[:, :h, :w]
    return img + rng.integers(0, 15, img.shape, dtype=np.uint8)


@pytest.mark.parametrize("cn", [1, 3])
def test_array_batch_equals_single_calls(cn):
    rng = np.random.default_rng(cn)
    batch = frames(rng, 7, 61, 83, cn)
    opts = dict(low=30, high=90, blur=1.4, gray="rgb" if cn == 3 else None)
    got = edgel.canny_batch(batch, **opts)
    assert got.shape == (7, 61, 83) and got.dtype == np.uint8
    for i in range(7):
        assert np.array_equal(got[i], edgel.canny(batch[i], **opts))


def test_list_of_sizes_equals_single_calls():
    rng = np.random.default_rng(5)
    sizes = [(40, 50), (61, 17), (40, 50), (1, 1), (99, 120), (61, 17)]
    batch = [frames(rng, 1, h, w, 3)[0] for h, w in sizes]
    got = edgel.canny_batch(batch, 20, 60, aperture=5)
    assert isinstance(got, list) and len(got) == len(batch)
    for f, e in zip(batch, got):
        assert np.array_equal(e, edgel.canny(f, 20, 60, aperture=5))


def test_bad_batches_name_the_frame():
    rng = np.random.default_rng(6)
    with pytest.raises(ValueError, match="empty batch"):
        edgel.canny_batch([])
    with pytest.raises(ValueError, match="non-empty u8"):
        edgel.canny_batch(np.zeros((0, 5, 5), np.uint8))
    with pytest.raises(ValueError, match="non-empty u8"):
        edgel.canny_batch(np.zeros((2, 5, 5), np.float32))
    mixed = [frames(rng, 1, 9, 9, 3)[0], frames(rng, 1, 9, 9, 1)[0]]
    with pytest.raises(ValueError, match="frame 1: .*channel count"):
        edgel.canny_batch(mixed)
    with pytest.raises(ValueError, match="frame 2: uint16"):
        edgel.canny_batch([np.zeros((4, 4), np.uint8)] * 2 + [np.zeros((4, 4), np.uint16)])
