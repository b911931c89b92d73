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
    # the library's own refusals of a frame name it too (the list is one call)
    with pytest.raises(edgel.EdgelError, match="frame 1: input: size 2x70000 exceeds"):
        edgel.canny_batch([np.zeros((4, 4), np.uint8), np.zeros((70000, 2), np.uint8)])


def test_list_of_strided_frames_is_not_copied():
    """Frames that are slices of one image run as views of it: each result equals its own
    call, and the image is read, not changed."""
    img = frames(np.random.default_rng(8), 1, 120, 150, 1)[0]
    before = img.copy()
    crops = [img[i:i + 40 + 7 * i, 3 * i:50 + 9 * i] for i in range(6)]
    got = edgel.canny_batch(crops, 30, 90)
    assert all(np.array_equal(e, edgel.canny(np.ascontiguousarray(c), 30, 90))
               for e, c in zip(got, crops))
    assert np.array_equal(img, before)


@pytest.mark.parametrize("n", [1, 2, 3, 9])
def test_batch_over_several_contexts_equals_single_calls(n):
    """ctx=[...] spreads a host batch over the contexts (equal shares, one a thread): the
    bytes of one call per frame, for shares of one frame, several, and none."""
    rng = np.random.default_rng(40 + n)
    batch = frames(rng, 7, 53, 71, 1)
    contexts = [edgel.Context("cpu", threads=1 + i % 2) for i in range(n)]
    opts = dict(low=35, high=100, blur=1.2)
    got = edgel.canny_batch(batch, ctx=contexts, **opts)
    want = np.stack([edgel.canny(f, **opts) for f in batch])
    assert np.array_equal(got, want)
    sizes = [(40, 50), (61, 17), (40, 50)]
    listed = [frames(rng, 1, h, w, 1)[0] for h, w in sizes]
    for g, f in zip(edgel.canny_batch(listed, ctx=contexts, **opts), listed):
        assert np.array_equal(g, edgel.canny(f, **opts))


def test_batch_over_contexts_refusals():
    batch = frames(np.random.default_rng(3), 4, 20, 30, 1)
    a = edgel.Context("cpu", threads=1)
    with pytest.raises(edgel.EdgelError, match="context 1 is context 0 again"):
        edgel.canny_batch(batch, ctx=[a, a])
    with pytest.raises(TypeError, match="list of Contexts"):
        edgel.canny_batch(batch, ctx=[a, "cpu"])
    with pytest.raises(ValueError, match="not both"):
        edgel.canny_batch(batch, ctx=[a], devices=[0])
    with pytest.raises(ValueError, match="'all' or a list"):
        edgel.canny_batch(batch, devices="some")
    with pytest.raises(ValueError, match="distinct"):
        edgel.canny_batch(batch, devices=[0, 0])
    if edgel.cuda_device_count() == 0:
        with pytest.raises(ValueError, match="no CUDA device"):
            edgel.canny_batch(batch, devices="all")
        with pytest.raises(edgel.EdgelError, match="BACKEND_UNAVAILABLE|no CUDA"):
            edgel.canny_batch(batch, devices=[0])
