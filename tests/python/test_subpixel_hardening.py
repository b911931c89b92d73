"""Sub-pixel contours under hostile use: curves past --memory, bands that repeat the image many
times over, views NumPy makes with a zero stride, inconsistent stream pieces, shifts past
int32, error messages."""
import subprocess

import numpy as np
import pytest

import edgel
from conftest import run_peak


def run(cmd, *args):
    return subprocess.run([cmd, *map(str, args)], capture_output=True, text=True, timeout=120)


def noise_pgm(path, n):  # (a square of noise: points at nearly every pixel)
    a = np.random.default_rng(3).integers(0, 256, (n, n), dtype=np.uint8)
    path.write_bytes(b"P5\n%d %d\n255\n" % (n, n) + a.tobytes())


def test_contours_memory_bounds_the_curves(edgel_cmd, tmp_path):
    """A noise image in bands makes millions of points: the curves are held to half of
    --memory, and a run past it stops with the count, writing nothing; with room it writes
    the same curves as whole."""
    noise_pgm(tmp_path / "big.pgm", 2048)
    for memory in (32, 64):
        code, err, peak = run_peak(edgel_cmd, "contours", tmp_path / "big.pgm", "-o",
                                   tmp_path / "n.txt", "--memory", f"{memory}M")
        assert code == 1 and "the curves pass --memory" in err, err
        assert peak < memory * 1.1 + 8, (memory, peak)  # (8 MB: the program itself)
    assert not (tmp_path / "n.txt").exists()
    noise_pgm(tmp_path / "noise.pgm", 1024)
    r = run(edgel_cmd, "contours", tmp_path / "noise.pgm", "-o", tmp_path / "n.txt",
            "--memory", "8M", "--band-columns", "128")
    assert r.returncode == 1 and "the curves pass --memory" in r.stderr, r.stderr
    assert not (tmp_path / "n.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.pgm", "noise.pgm"]
    r = run(edgel_cmd, "contours", tmp_path / "noise.pgm", "-o", tmp_path / "b.txt",
            "--memory", "1G", "--band-columns", "128", "-q")
    assert r.returncode == 0, r.stderr
    r = run(edgel_cmd, "contours", tmp_path / "noise.pgm", "-o", tmp_path / "w.txt", "-q")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "b.txt").read_bytes() == (tmp_path / "w.txt").read_bytes()


def test_bands_narrower_than_their_halo_refused(edgel_cmd, tmp_path):
    """Bands narrower than their halos (--band-columns 1 --sigma 100) that would write the
    image more than 4 times over (and 32 MB) are refused, naming the width that works."""
    a = np.random.default_rng(3).integers(0, 256, (40, 2000), dtype=np.uint8)
    (tmp_path / "in.pgm").write_bytes(b"P5\n2000 40\n255\n" + a.tobytes())
    r = run(edgel_cmd, "contours", tmp_path / "in.pgm", "-o", tmp_path / "o.txt",
            "--band-columns", "1", "--sigma", "100")
    assert r.returncode == 1 and "--band-columns 752 or more" in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.pgm"]


def test_contours_errors_name_the_file_once(edgel_cmd, tmp_path):
    (tmp_path / "g.png").write_bytes(b"garbage")
    for args in (["--band-columns", "50"], []):
        r = run(edgel_cmd, "contours", tmp_path / "g.png", "-o", tmp_path / "o.txt", *args)
        assert r.returncode != 0 and r.stderr.count("g.png") == 1, r.stderr


def disk(h=48, w=40):
    y, x = np.mgrid[0:h, 0:w]
    return np.where((x - w / 2) ** 2 + (y - h / 2) ** 2 < 150, 200, 20).astype(np.uint8)


def test_zero_stride_views_taken():
    """a[:, None] (stride 0 along its one column) and a[None, :] are taken, as edgel.canny
    takes them."""
    col = np.linspace(0, 255, 64).astype(np.uint8)
    col[30:] = 255 - col[30:]
    for view in (col[:, None], col[None, :], np.broadcast_to(col[:, None], (64, 1))):
        want = edgel.subpixel_edges(np.ascontiguousarray(view), 1.0, 5, 2)
        got = edgel.subpixel_edges(view, 1.0, 5, 2)
        assert np.array_equal(got.points, want.points)
        batch = edgel.subpixel_edges_batch([view, view], 1.0, 5, 2)
        assert all(np.array_equal(b.points, want.points) for b in batch)
    s = edgel.SubpixelStream(1, 64, 1.0, 5, 2)
    s.add(col[:, None], 0)
    assert np.array_equal(s.finish().points,
                          edgel.subpixel_edges(col[:, None].copy(), 1.0, 5, 2).points)


def test_inconsistent_stream_pieces_are_invalid_arguments():
    """Pieces of two different images are the caller's mistake: an invalid argument that says
    so, never an internal error."""
    a, b = disk(), np.ascontiguousarray(disk()[::-1, ::-1] // 3)
    rng = np.random.default_rng(0)
    kinds = set()
    for trial in range(40):
        noise = rng.integers(0, 255, a.shape, dtype=np.uint8)
        s = edgel.SubpixelStream(a.shape[1], a.shape[0], 1.0, 5, 2)
        h = s.halo
        try:
            s.add(a[:, :20 + h], 0)
            s.add((noise if trial % 2 else b)[:, 20 - h:], 20 - h)
            s.finish()
        except edgel.EdgelError as e:
            kinds.add(e.status)
    assert kinds, "no inconsistent piece was noticed"
    assert "EDGEL_ERROR_INTERNAL" not in {str(k) for k in kinds}, kinds
    for k in kinds:
        assert "INVALID" in str(k) or "ARGUMENT" in str(k), kinds


def test_stream_points_count():
    img = disk(40, 200)
    s = edgel.SubpixelStream(200, 40, 1.0, 5, 2)
    assert s.points == 0
    s.add(img[:, :100 + s.halo], 0)  # (the disk's curve is still open)
    assert s.points == 0
    s.add(img[:, 100 - s.halo:], 100 - s.halo)
    # (every curve finished once every column is in: their points, a closed one's first twice)
    assert s.points == len(s.finish().points) == len(edgel.subpixel_edges(img, 1.0, 5, 2).points)


def test_polylines_shift_out_of_range_refused():
    curves = edgel.subpixel_edges(disk(), 1.0, 5, 2)
    assert curves.polylines(16)[0].dtype == np.int32
    for shift in (40, 17, -1, 2.5, True):
        with pytest.raises(ValueError, match="shift"):
            curves.polylines(shift)
