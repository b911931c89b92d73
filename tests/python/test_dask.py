"""edgel.dask.canny: any chunking, computed on threads and on a dask.distributed cluster of
processes, equals edgel.canny on the whole image byte for byte."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array")
import edgel  # noqa: E402
import edgel.dask  # noqa: E402


def photo(rng, h, w, cn):
    base = rng.integers(0, 256, (h // 7 + 2, w // 7 + 2, cn), dtype=np.uint8)
    img = np.repeat(np.repeat(base, 7, 0), 7, 1)[:h, :w]
    img = img + rng.integers(0, 10, img.shape, dtype=np.uint8)
    return img[:, :, 0] if cn == 1 else img


def random_chunks(rng, n):
    out, left = [], n
    while left:
        c = int(min(left, rng.integers(1, max(2, n // 2))))
        out.append(c)
        left -= c
    return tuple(out)


@pytest.mark.parametrize("seed", range(5))
def test_any_chunking_equals_whole(seed):
    rng = np.random.default_rng(seed)
    for _ in range(4):
        h, w = (int(v) for v in rng.integers(1, 150, 2))
        cn = int(rng.choice([1, 3]))
        img = photo(rng, h, w, cn)
        opts = dict(low=float(rng.integers(0, 120)), high=float(rng.integers(0, 250)),
                    aperture=int(rng.choice([3, 5])), l2=bool(rng.integers(2)),
                    blur=[None, 1.4, "5x5"][int(rng.integers(3))],
                    gray="rgb" if cn == 3 and rng.integers(2) else None)
        chunks = (random_chunks(rng, h), random_chunks(rng, w)) + (((cn,),) if cn > 1 else ())
        got = edgel.dask.canny(da.from_array(img, chunks=chunks), **opts).compute(
            scheduler="threads")
        assert np.array_equal(got, edgel.canny(img, **opts)), (h, w, chunks, opts)


def test_halo_is_the_library_rule():
    assert edgel.dask.halo() == 2                   # Sobel 3x3 and suppression
    assert edgel.dask.halo(aperture=7, l2=True) == 4
    assert edgel.dask.halo(blur=1.4) == 4 + 2       # a 9-tap Gaussian
    with pytest.raises(edgel.EdgelError):
        edgel.dask.halo(blur=100.0)                 # past the largest kernel


def test_on_a_cluster_of_processes():
    distributed = pytest.importorskip("distributed")
    rng = np.random.default_rng(11)
    img = photo(rng, 400, 500, 3)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        arr = da.from_array(img, chunks=(97, 128, 3))
        got = client.compute(edgel.dask.canny(arr, 40, 120, blur=1.4, gray="rgb")).result()
    assert np.array_equal(got, edgel.canny(img, 40, 120, blur=1.4, gray="rgb"))


def test_zarr_to_zarr(tmp_path):
    zarr = pytest.importorskip("zarr")
    rng = np.random.default_rng(12)
    img = photo(rng, 300, 260, 1)
    z = zarr.open_array(str(tmp_path / "in.zarr"), mode="w", shape=img.shape,
                        chunks=(64, 50), dtype=np.uint8)
    z[:] = img
    edges = edgel.dask.canny(da.from_zarr(str(tmp_path / "in.zarr")), 30, 90, blur=1.2)
    edges.to_zarr(str(tmp_path / "out.zarr"))
    got = zarr.open_array(str(tmp_path / "out.zarr"), mode="r")[:]
    assert np.array_equal(got, edgel.canny(img, 30, 90, blur=1.2))


def itk_image(rng, h, w, dtype):
    img = photo(rng, h, w, 1).astype(np.float32)
    if dtype == np.float32:
        return img * 0.37 + rng.random(img.shape, np.float32)
    if dtype == np.uint16:
        return (img * 200 + rng.integers(0, 500, img.shape)).astype(np.uint16)
    return img.astype(np.uint8)


@pytest.mark.parametrize("seed", range(4))
def test_itk_any_chunking_equals_whole(seed):
    rng = np.random.default_rng(100 + seed)
    for dtype in (np.uint8, np.uint16, np.float32):
        h, w = (int(v) for v in rng.integers(1, 120, 2))
        img = itk_image(rng, h, w, dtype)
        scale = 200.0 if dtype == np.uint16 else 1.0
        opts = dict(variance=float(rng.integers(0, 9)) / 2, maximum_error=0.01,
                    upper=scale * float(rng.integers(0, 40)), lower=scale * float(rng.integers(0, 30)))
        chunks = (random_chunks(rng, h), random_chunks(rng, w))
        got = edgel.dask.canny_itk(da.from_array(img, chunks=chunks), **opts).compute(
            scheduler="threads")
        want = edgel.canny_itk(img, dtype=np.uint8, **opts)
        assert got.dtype == np.uint8 and np.array_equal(got, want), (h, w, chunks, opts, dtype)


def test_itk_on_a_cluster_of_processes():
    distributed = pytest.importorskip("distributed")
    rng = np.random.default_rng(13)
    img = itk_image(rng, 300, 410, np.float32)
    opts = dict(variance=2.0, upper=12.0, lower=4.0)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = client.compute(edgel.dask.canny_itk(da.from_array(img, chunks=(71, 90)),
                                                  **opts)).result()
    assert np.array_equal(got, edgel.canny_itk(img, dtype=np.uint8, **opts))


def volume(rng, d, h, w):
    z, y, x = np.mgrid[0:d, 0:h, 0:w].astype(np.float32)
    sphere = ((x - w / 2) ** 2 + (y - h / 2) ** 2 + (z - d / 2) ** 2) < (min(d, h, w) / 2.5) ** 2
    return (sphere * 80 + rng.standard_normal((d, h, w)) * 6).astype(np.float32)


@pytest.mark.parametrize("seed", range(3))
def test_itk_volumes_any_chunking_equal_whole(seed):
    """Volumes chunked along every axis (chunks that meet only along an edge or at a corner
    included): the 26-connected hysteresis joined across chunks equals one call's."""
    rng = np.random.default_rng(40 + seed)
    v = volume(rng, 29, 33, 38)
    for opts in [dict(variance=2.0, upper=12.0, lower=5.0),
                 dict(variance=(4.0, 1.0, 2.0), upper=8.0, lower=3.0, spacing=(2.0, 1.0, 0.7)),
                 dict(variance=0.0, upper=5.0, lower=5.0), dict(variance=1.0, upper=2.0,
                                                                lower=9.0)]:
        want = edgel.canny_itk(v, opts["variance"], 0.01, opts["upper"], opts["lower"],
                               spacing=opts.get("spacing", 1.0), dtype=np.uint8)
        chunks = tuple(random_chunks(rng, n) for n in v.shape)
        got = edgel.dask.canny_itk(da.from_array(v, chunks=chunks), **opts).compute(
            scheduler="threads")
        assert np.array_equal(got, want), (opts, chunks)


def test_volume_faces_join_26_connected():
    """Two facing planes of nodes joined by the library's face join, as the volume path joins
    chunk faces: a node's set is strong exactly where a brute-force 26-adjacency (rows and
    columns one apart) says so."""
    from edgel._hysteresis import _Components
    rng = np.random.default_rng(45)
    for _ in range(30):
        rows, cols = (int(v) for v in rng.integers(1, 9, 2))
        near = np.where(rng.random((rows, cols)) < 0.3, np.arange(rows * cols).reshape(rows, cols),
                        -1)
        far = np.where(rng.random((rows, cols)) < 0.3,
                       rows * cols + np.arange(rows * cols).reshape(rows, cols), -1)
        strong = rng.random(2 * rows * cols) < 0.15
        comps = _Components()
        comps.add(strong)
        comps.join(near, far)
        parent = list(range(2 * rows * cols))

        def find(a):
            while parent[a] != a:
                a = parent[a]
            return a
        for y in range(rows):
            for x in range(cols):
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        yy, xx = y + dy, x + dx
                        if 0 <= yy < rows and 0 <= xx < cols and near[y, x] >= 0 and \
                                far[yy, xx] >= 0:
                            parent[find(int(near[y, x]))] = find(int(far[yy, xx]))
        sets = {}
        for n in range(2 * rows * cols):
            sets.setdefault(find(n), []).append(n)
        want = np.zeros(2 * rows * cols, bool)
        for members in sets.values():
            if strong[members].any():
                want[members] = True
        assert np.array_equal(comps.strong(np.arange(2 * rows * cols)), want)


def test_itk_volume_on_a_cluster_of_processes():
    distributed = pytest.importorskip("distributed")
    v = volume(np.random.default_rng(44), 40, 44, 50).astype(np.uint16)
    opts = dict(variance=2.0, upper=12.0, lower=4.0, spacing=(1.5, 1.0, 1.0))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = client.compute(edgel.dask.canny_itk(da.from_array(v, chunks=(15, 20, 17)),
                                                  **opts)).result()
    assert np.array_equal(got, edgel.canny_itk(v, 2.0, 0.01, 12.0, 4.0, spacing=(1.5, 1.0, 1.0),
                                               dtype=np.uint8))


def test_itk_refuses_what_it_cannot_take():
    with pytest.raises(ValueError, match="u8, u16 or float32"):
        edgel.dask.canny_itk(da.zeros((10, 10, 3, 2), dtype=np.uint8))
    with pytest.raises(ValueError, match="u8, u16 or float32"):
        edgel.dask.canny_itk(da.zeros((10, 10), dtype=np.int32))
    assert edgel.dask.halo_itk(variance=4.0) > edgel.dask.halo_itk()


@pytest.mark.parametrize("layout,ngff", [("yx", "0.4"), ("cyx", "0.4"), ("tczyx", "0.4"),
                                         ("cyx", "0.5")])
def test_ome_zarr_to_ome_zarr(tmp_path, layout, ngff):
    """An OME-Zarr image in (NGFF 0.4 axes of any of these layouts), OME-Zarr edges out,
    the whole image's bytes, with the scale kept; a failed write leaves nothing."""
    zarr = pytest.importorskip("zarr")
    rng = np.random.default_rng(14)
    img = photo(rng, 230, 310, 3 if layout != "yx" else 1)
    data = img if layout == "yx" else img.transpose(2, 0, 1)
    data = data[None, :, None] if layout == "tczyx" else data
    src = tmp_path / "in.ome.zarr"
    group = zarr.open_group(str(src), mode="w", zarr_format=2 if ngff == "0.4" else 3)
    group.create_array("0", shape=data.shape, dtype=np.uint8,
                       chunks=data.shape[:-2] + (64, 100))[:] = data
    multiscales = [{"axes": [
        {"name": a, "type": "channel" if a == "c" else "time" if a == "t" else "space"}
        for a in layout], "datasets": [{"path": "0", "coordinateTransformations": [
            {"type": "scale", "scale": [1.0] * (len(layout) - 2) + [0.5, 0.25]}]}]}]
    if ngff == "0.4":  # attributes at the top; 0.5: under "ome", in Zarr format 3
        multiscales[0]["version"] = "0.4"
        group.attrs["multiscales"] = multiscales
    else:
        group.attrs["ome"] = {"version": "0.5", "multiscales": multiscales}
    image, scale = edgel.dask.from_ome_zarr(str(src))
    assert scale == (0.5, 0.25) and image.shape == img.shape
    opts = dict(low=30, high=90, blur=1.2, gray="rgb" if img.ndim == 3 else None)
    out = tmp_path / "edges.ome.zarr"
    edgel.dask.to_ome_zarr(edgel.dask.canny(image, **opts), str(out), scale)
    back, back_scale = edgel.dask.from_ome_zarr(str(out))
    assert back_scale == scale
    assert np.array_equal(back.compute(), edgel.canny(img, **opts))
    with pytest.raises(FileExistsError):
        edgel.dask.to_ome_zarr(edgel.dask.canny(image, **opts), str(out), scale)
    bad = tmp_path / "bad.ome.zarr"

    def explode(block):
        raise OSError("the disk went away")
    plane = image[:, :, 0] if image.ndim == 3 else image
    with pytest.raises(OSError, match="went away"):
        edgel.dask.to_ome_zarr(plane.map_blocks(explode, dtype=np.uint8), str(bad))
    assert not bad.exists()
    zarr.open_group(str(tmp_path / "plain.zarr"), mode="w")
    with pytest.raises(ValueError, match="not an OME-Zarr"):
        edgel.dask.from_ome_zarr(str(tmp_path / "plain.zarr"))


def test_ome_zarr_write_is_all_or_nothing(tmp_path):
    """A writer killed mid-write leaves no group at the target (before: a partial group that
    read back without error); the hidden temporary it leaves is no OME-Zarr image."""
    pytest.importorskip("zarr")
    import os
    import signal
    import subprocess
    import sys
    import textwrap
    out = tmp_path / "edges.ome.zarr"
    code = textwrap.dedent(f"""
        import sys, time, numpy as np, dask, dask.array as da
        sys.path.insert(0, {str(edgel.__path__[0] + '/..')!r})
        import edgel.dask
        def slow(block):
            time.sleep(0.05)
            print("chunk", flush=True)
            return block
        plane = da.zeros((64 * 40, 64), np.uint8, chunks=(64, 64)).map_blocks(slow)
        with dask.config.set(scheduler="synchronous"):
            edgel.dask.to_ome_zarr(plane, {str(out)!r})
        print("done", flush=True)""")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                         env={**os.environ})
    for _ in range(5):  # some chunks are written
        assert p.stdout.readline().strip() == "chunk"
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=60)
    assert not out.exists()
    left = [f for f in tmp_path.iterdir() if f.name.startswith(".edgel-")]
    assert len(left) == 1
    with pytest.raises(ValueError, match="not an OME-Zarr"):
        edgel.dask.from_ome_zarr(str(left[0]))


def test_ome_zarr_writers_on_one_path(tmp_path):
    """Two writers at once: one succeeds, the other raises FileExistsError, and the group
    left is the winner's, whole (before: the loser's clean-up could delete it)."""
    pytest.importorskip("zarr")
    import threading
    rng = np.random.default_rng(3)
    img = photo(rng, 130, 170, 1)
    for round_ in range(8):
        out = tmp_path / f"r{round_}.ome.zarr"
        barrier = threading.Barrier(2)
        results = [None, None]

        def write(i):
            edges = edgel.dask.canny(da.from_array(img if i == 0 else 255 - img,
                                                   chunks=(40, 60)))
            barrier.wait()
            try:
                edgel.dask.to_ome_zarr(edges, str(out))
                results[i] = "ok"
            except FileExistsError:
                results[i] = "exists"
        threads = [threading.Thread(target=write, args=(i,)) for i in range(2)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert sorted(results) == ["exists", "ok"], results
        winner = results.index("ok")
        back, _ = edgel.dask.from_ome_zarr(str(out))
        assert np.array_equal(back.compute(), edgel.canny(img if winner == 0 else 255 - img))
    assert not [f for f in tmp_path.iterdir() if f.name.startswith(".edgel-")]


def test_ome_zarr_bad_levels_and_scales(tmp_path):
    pytest.importorskip("zarr")
    img = da.from_array(np.zeros((20, 30), np.uint8), chunks=10)
    out = tmp_path / "e.ome.zarr"
    edgel.dask.to_ome_zarr(edgel.dask.canny(img), str(out), (0.5, 2))
    assert edgel.dask.from_ome_zarr(str(out))[1] == (0.5, 2.0)
    for level in (1, -1, 0.5, True):
        with pytest.raises(ValueError, match="levels 0 to 0"):
            edgel.dask.from_ome_zarr(str(out), level=level)
    for scale in ((float("nan"), 1), (1, float("inf")), (0, 1), (1,), (1, 2, 3), "ab", None):
        with pytest.raises(ValueError, match="scale"):
            edgel.dask.to_ome_zarr(edgel.dask.canny(img), str(tmp_path / "s.ome.zarr"), scale)
        assert not (tmp_path / "s.ome.zarr").exists()


@pytest.mark.parametrize("shape,options,chunks", [
    ((1, 1), {}, (1, 1)), ((5, 400), {"blur": 3}, (2, 50)), ((5, 400), {"blur": 3}, (5, 400)),
    ((30, 30), {"blur_size": 129}, (10, 10)), ((3, 200), {}, (1, 7)),
    ((200, 3, 3), {"gray": "rgb"}, (7, 1, 3))])
def test_images_smaller_than_the_halo(shape, options, chunks):
    """Axes shorter than the halo (before: dask's "overlapping depth is larger than your
    array"), as edgel.canny takes them."""
    img = np.random.default_rng(5).integers(0, 256, shape, dtype=np.uint8)
    got = edgel.dask.canny(da.from_array(img, chunks=chunks), 20, 60, **options).compute()
    assert np.array_equal(got, edgel.canny(img, 20, 60, **options))
    if img.ndim == 2:
        f = img.astype(np.float32)
        got = edgel.dask.canny_itk(da.from_array(f, chunks=chunks), 4.0, 0.01, 5.0, 2.0)
        assert np.array_equal(got.compute(), edgel.canny_itk(f, 4.0, 0.01, 5.0, 2.0,
                                                             dtype=np.uint8))


def test_canny_is_lazy():
    """Nothing runs until the result is computed (before: the first pass ran inside canny(),
    4.8 s of 11.3 on a large image)."""
    import threading
    calls = []
    lock = threading.Lock()

    def counted(block):
        with lock:
            calls.append(1)
        return block
    img = photo(np.random.default_rng(8), 200, 300, 1)
    chunked = da.from_array(img, chunks=(64, 80)).map_blocks(counted, dtype=np.uint8,
                                                             meta=np.empty((0, 0), np.uint8))
    edges = edgel.dask.canny(chunked, 30, 90)
    itk = edgel.dask.canny_itk(chunked.astype(np.float32), 2.0, 0.01, 10.0, 5.0)
    assert calls == []
    assert np.array_equal(edges.compute(), edgel.canny(img, 30, 90))
    assert calls
    assert np.array_equal(itk.compute(), edgel.canny_itk(img.astype(np.float32), 2.0, 0.01,
                                                         10.0, 5.0, dtype=np.uint8))


def subpixel_images(rng, photos):
    """Photographs (gray) and noise in every input type, with few grey levels in doubles."""
    import cv2
    images = [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in photos]
    return images + [rng.integers(0, 256, (90, 130), dtype=np.uint8),
                     (rng.random((70, 110)) * 1000).astype(np.float32),
                     rng.integers(0, 60000, (60, 80), dtype=np.uint16),
                     (rng.integers(0, 3, (100, 90)) * 60).astype(np.float64)]


def test_subpixel_edges_any_chunking_equals_whole(photo_files):
    """Sub-pixel curves of a chunked image (each chunk's points from the chunk and its halo,
    chained in one task) equal edgel.subpixel_edges on the whole image, point for point,
    curve for curve, in its order: photographs, noise in every input type, few grey levels,
    chunks down to a few pixels (merged to the halo) and uneven ones."""
    import subpixel_cases as cases
    rng = np.random.default_rng(50)
    for k, img in enumerate(subpixel_images(rng, photo_files[:3])):
        for sigma, high, low in [(1.0, 15.0, 5.0), (0.0, 0.0, 0.0), (2.0, 4.0, 8.0)]:
            want = cases.canonical(edgel.subpixel_edges(img, sigma, high, low))
            chunks = tuple(random_chunks(rng, n) for n in img.shape)
            got = edgel.dask.subpixel_edges(da.from_array(img, chunks=chunks), sigma, high,
                                            low).compute(scheduler="threads")
            assert cases.canonical(got) == want, (k, sigma, chunks)


def test_subpixel_edges_on_a_cluster_and_refusals():
    distributed = pytest.importorskip("distributed")
    import subpixel_cases as cases
    img = cases.samples()["camera"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        got = client.compute(edgel.dask.subpixel_edges(da.from_array(img, chunks=(130, 170)),
                                                       1.0, 10.0, 3.0)).result()
    assert cases.canonical(got) == cases.canonical(edgel.subpixel_edges(img, 1.0, 10.0, 3.0))
    with pytest.raises(ValueError, match="u8, u16, float32"):
        edgel.dask.subpixel_edges(da.zeros((10, 10), dtype=np.int16))
    with pytest.raises(ValueError, match="sigma"):
        edgel.dask.subpixel_edges(da.zeros((10, 10), dtype=np.uint8), sigma=-1)


def test_subpixel_edges_in_bands_equal_whole(photo_files):
    """Sub-pixel curves in bands of columns (edgel.SubpixelStream fed band by band from the
    dask array) equal edgel.subpixel_edges on the whole image: photographs, noise in every
    input type, bands of 1 column up, any chunking."""
    import subpixel_cases as cases
    rng = np.random.default_rng(51)
    for k, img in enumerate(subpixel_images(rng, photo_files[:2])):
        for (sigma, high, low), band in zip([(1.0, 15.0, 5.0), (0.0, 0.0, 0.0), (2.0, 4.0, 8.0)],
                                            (1, 17, 0)):
            want = cases.canonical(edgel.subpixel_edges(img, sigma, high, low))
            chunks = tuple(random_chunks(rng, n) for n in img.shape)
            got = edgel.dask.subpixel_edges_in_bands(da.from_array(img, chunks=chunks), sigma,
                                                     high, low, band_columns=band)
            assert cases.canonical(got) == want, (k, sigma, band)
    with pytest.raises(ValueError, match="u8, u16, float32"):
        edgel.dask.subpixel_edges_in_bands(da.zeros((10, 10), dtype=np.int16))


def test_subpixel_stream_refusals():
    """edgel.SubpixelStream: pieces out of order, of the wrong height or type, and a finish
    before every column is in, are refused with the library's message."""
    img = np.random.default_rng(52).integers(0, 256, (40, 100), dtype=np.uint8)
    s = edgel.SubpixelStream(100, 40, 1.0, 15.0, 5.0)
    assert s.halo == 8 and s.columns == 0
    with pytest.raises(edgel.EdgelError, match="not in yet"):
        s.finish()
    with pytest.raises(edgel.EdgelError, match="first not yet added"):
        s.add(img[:, 5:40], 5)
    with pytest.raises(edgel.EdgelError, match="every row"):
        s.add(img[:30, 0:40], 0)
    with pytest.raises(TypeError, match="2-D"):
        s.add(img[:, 0:40].astype(np.int16), 0)
    s.add(img[:, 0:40], 0)
    assert s.columns == 32
    s.add(img[:, 24:], 24)
    got = s.finish()
    import subpixel_cases as cases
    assert cases.canonical(got) == cases.canonical(edgel.subpixel_edges(img, 1.0, 15.0, 5.0))
    with pytest.raises(edgel.EdgelError, match="earlier finish"):
        s.finish()
    with pytest.raises(edgel.EdgelError, match="a side"):
        edgel.SubpixelStream(0, 10)
