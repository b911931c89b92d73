"""TIFF input as cv2.imread reads it, or refused with a reason: JPEG-YCbCr (libtiff's default
JPEG layout), palettes and min-is-white gray converted; packed YCbCr, CMYK and Lab refused
before any pixel is read; libtiff's own sizes checked against what is copied; a file's row
of tiles held against --memory; libtiff's reason kept in messages; multi-page files named."""
import shutil
import struct
import subprocess
import zlib

import cv2
import numpy as np
import pytest

from conftest import SAMPLES
from test_cli_hardening import child_peak_mb, run, tiff_for_the_command

SHORT, LONG = 3, 4


def tiff_bytes(width, height, tags, blobs):
    """A little-endian classic TIFF: `tags` maps a tag to (type, values), where a value
    ("blob", i) is the offset of blobs[i]; blobs are laid out after the header."""
    out = bytearray(b"II*\0\0\0\0\0")
    offsets = []
    for b in blobs:
        offsets.append(len(out))
        out += b + (b"\0" if len(b) % 2 else b"")
    ifd_at = len(out)
    entries = sorted({256: (LONG, [width]), 257: (LONG, [height]), **tags}.items())
    ifd = struct.pack("<H", len(entries))
    extra = bytearray()
    extra_at = ifd_at + 2 + 12 * len(entries) + 4
    for tag, (kind, values) in entries:
        values = [offsets[v[1]] if isinstance(v, tuple) else v for v in values]
        fmt = "<%d%s" % (len(values), "H" if kind == SHORT else "I")
        data = struct.pack(fmt, *values)
        if len(data) <= 4:
            ifd += struct.pack("<HHI", tag, kind, len(values)) + data.ljust(4, b"\0")
        else:
            ifd += struct.pack("<HHII", tag, kind, len(values), extra_at + len(extra))
            extra += data
    out[4:8] = struct.pack("<I", ifd_at)
    return bytes(out + ifd + b"\0\0\0\0" + extra)


def cv2_edges(path, low=50, high=150):
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert img is not None
    return cv2.Canny(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), low, high)


def photo():
    return cv2.imread(str(SAMPLES / "coffee.png"))[:300, :400]


@pytest.fixture
def tiffcp():
    tiff_for_the_command()
    path = shutil.which("tiffcp")
    if not path:
        pytest.skip("tiffcp (libtiff-tools) is not installed")
    return path


@pytest.mark.parametrize("layout", [["-r", "16"], ["-t", "-w", "128", "-l", "128"],
                                    ["-t", "-w", "16", "-l", "256"]])
def test_jpeg_ycbcr_reads_as_opencv(edgel_cmd, tmp_path, tiffcp, layout):
    """libtiff's default JPEG layout, YCbCr 2x2 (before: a heap over-read, and other edges
    on every run): libtiff's JPEG codec gives RGB, as cv2.imread has it."""
    tifffile = tiff_for_the_command()
    rgb = tmp_path / "rgb.tif"
    tifffile.imwrite(rgb, photo()[..., ::-1], photometric="rgb")
    ycc = tmp_path / "ycc.tif"
    subprocess.run([tiffcp, "-c", "jpeg", *layout, str(rgb), str(ycc)], check=True)
    with tifffile.TiffFile(ycc) as t:
        assert t.pages[0].photometric == 6  # YCbCr
    for name in ("a.png", "b.png"):
        r = run(edgel_cmd, "detect", ycc, "-o", tmp_path / name, "-q")
        assert r.returncode == 0, r.stderr
        got = cv2.imread(str(tmp_path / name), cv2.IMREAD_UNCHANGED)
        assert np.array_equal(got, cv2_edges(ycc)) and got.any()


@pytest.mark.parametrize("tiled", [False, True])
@pytest.mark.parametrize("subsampling", [(2, 2), (4, 4), (1, 1)])
def test_packed_ycbcr_is_refused(edgel_cmd, tmp_path, tiled, subsampling):
    """Uncompressed YCbCr is packed (1.5 bytes a pixel for 2x2); refused before reading,
    never copied as if it were RGB (before: a crash, or uninitialised rows)."""
    tiff_for_the_command()
    w, h = 16, 4096 if tiled else 64
    sx, sy = subsampling
    data = bytes((w // sx) * (h // sy) * (sx * sy + 2))
    tags = {258: (SHORT, [8, 8, 8]), 259: (SHORT, [1]), 262: (SHORT, [6]),
            277: (SHORT, [3]), 530: (SHORT, [sx, sy])}
    if tiled:
        tags.update({322: (LONG, [16]), 323: (LONG, [h]), 324: (LONG, [("blob", 0)]),
                     325: (LONG, [len(data)])})
    else:
        tags.update({273: (LONG, [("blob", 0)]), 278: (LONG, [h]), 279: (LONG, [len(data)])})
    f = tmp_path / "ycc.tif"
    f.write_bytes(tiff_bytes(w, h, tags, [data]))
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "e.png")
    assert r.returncode == 2 and "YCbCr" in r.stderr and "convert" in r.stderr, r.stderr
    assert not (tmp_path / "e.png").exists()


def test_palette_and_min_is_white_read_as_opencv(edgel_cmd, tmp_path):
    tifffile = tiff_for_the_command()
    gray = cv2.cvtColor(photo(), cv2.COLOR_BGR2GRAY)
    rng = np.random.default_rng(4)
    for name, cmap in (("wide", rng.integers(0, 65536, (3, 256))),  # 16-bit entries
                       ("narrow", rng.integers(0, 256, (3, 256)))):  # libtiff: 8-bit ones
        f = tmp_path / f"palette-{name}.tif"
        tifffile.imwrite(f, gray, photometric="palette", colormap=cmap.astype(np.uint16))
        r = run(edgel_cmd, "detect", f, "-o", tmp_path / "e.png", "-q")
        assert r.returncode == 0, r.stderr
        got = cv2.imread(str(tmp_path / "e.png"), cv2.IMREAD_UNCHANGED)
        assert np.array_equal(got, cv2_edges(f)) and got.any(), name
    f = tmp_path / "white.tif"
    tifffile.imwrite(f, gray, photometric="miniswhite", tile=(64, 64))
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "w.png", "-q")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(cv2.imread(str(tmp_path / "w.png"), cv2.IMREAD_UNCHANGED),
                          cv2.Canny(255 - gray, 50, 150))


@pytest.mark.parametrize("photometric,spp", [("separated", 4), ("cielab", 3)])
def test_other_colour_spaces_are_refused(edgel_cmd, tmp_path, photometric, spp):
    tifffile = tiff_for_the_command()
    f = tmp_path / "c.tif"
    tifffile.imwrite(f, np.zeros((8, 8, spp), np.uint8), photometric=photometric)
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "e.png")
    assert r.returncode == 2 and "photometric" in r.stderr and "RGB" in r.stderr, r.stderr


def test_multi_page_says_which_page(edgel_cmd, tmp_path):
    tifffile = tiff_for_the_command()
    first = cv2.cvtColor(photo(), cv2.COLOR_BGR2GRAY)
    f = tmp_path / "pages.tif"
    tifffile.imwrite(f, first)
    tifffile.imwrite(f, 255 - first, append=True)
    tifffile.imwrite(f, first[::-1].copy(), append=True)
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "e.png")
    assert r.returncode == 0 and "holds 3 images; reading the first" in r.stderr, r.stderr
    assert np.array_equal(cv2.imread(str(tmp_path / "e.png"), cv2.IMREAD_UNCHANGED),
                          cv2.Canny(first, 50, 150))
    assert run(edgel_cmd, "detect", f, "-o", tmp_path / "e.png", "-q").stderr == ""


def test_libtiff_reason_is_kept(edgel_cmd, tmp_path):
    tiff_for_the_command()
    tags = {258: (SHORT, [8]), 259: (SHORT, [8]), 262: (SHORT, [1]), 273: (LONG, [8]),
            278: (LONG, [8]), 279: (LONG, [6])}
    f = tmp_path / "bad-strip.tif"
    f.write_bytes(tiff_bytes(8, 8, tags, []))  # the strip is the header: no deflate stream
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "e.png")
    assert r.returncode == 1 and "row 0 unreadable: TIFF: " in r.stderr, r.stderr
    assert "Decoding error" in r.stderr or "ZIP" in r.stderr.upper(), r.stderr


def wide_tiled_tiff(width, height, tile_w, tile_h, spp):
    """Every tile the same deflated zeros: a small file of a huge image."""
    blob = zlib.compress(bytes(tile_w * tile_h * spp), 9)
    n = ((width + tile_w - 1) // tile_w) * ((height + tile_h - 1) // tile_h)
    tags = {258: (SHORT, [8] * spp), 259: (SHORT, [8]), 262: (SHORT, [2 if spp == 3 else 1]),
            277: (SHORT, [spp]), 322: (LONG, [tile_w]), 323: (LONG, [tile_h]),
            324: (LONG, [("blob", 0)] * n), 325: (LONG, [len(blob)] * n)}
    return tiff_bytes(width, height, tags, [blob])


def test_memory_limit_holds_on_the_streamed_path(edgel_cmd, tmp_path):
    """A 1,048,576-pixel-wide RGB file (before: 7.6 GB with --memory 256M), and one whose
    single tile is 1 GB (before: 8.5 GB): refused from the header, or run within the limit
    with lower tiles."""
    tiff_for_the_command()
    wide = tmp_path / "wide.tif"
    wide.write_bytes(wide_tiled_tiff(1 << 20, 64, 1024, 16, 3))
    rc, err, _, mb = child_peak_mb(edgel_cmd, "detect", wide, "-o", tmp_path / "w.png",
                                   "--memory", "64M")
    assert rc == 1 and "pixels wide" in err and "--memory" in err, err
    assert mb < 64 and not (tmp_path / "w.png").exists(), mb
    rc, err, _, mb = child_peak_mb(edgel_cmd, "detect", wide, "-o", tmp_path / "w.pgm",
                                   "--memory", "200M", "-q")
    assert rc == 0 and mb < 200, (err, mb)
    header = b"P5\n1048576 64\n255\n"
    edges = (tmp_path / "w.pgm").read_bytes()
    assert edges.startswith(header) and len(edges) == len(header) + (64 << 20)
    assert edges.count(0) == 64 << 20
    one_tile = tmp_path / "one-tile.tif"
    one_tile.write_bytes(wide_tiled_tiff(32768, 32768, 32768, 32768, 1))
    rc, err, seconds, mb = child_peak_mb(edgel_cmd, "detect", one_tile, "-o",
                                         tmp_path / "t.png", "--memory", "256M")
    assert rc == 1 and "tiles takes" in err and "tiffcp" in err, err
    assert seconds < 5 and mb < 64, (seconds, mb)


def test_tiff_wherever_files_are_read_or_written(edgel_cmd, tmp_path):
    """compare reads detect's own .tif; convolve, the skimage preset and the stages take TIFF
    in (whole, within --memory) and write .tif; .tif output is deflated unless asked not to
    be (before: 900 MB for a 30000x30000 edge map)."""
    tifffile = tiff_for_the_command()
    gray = cv2.cvtColor(photo(), cv2.COLOR_BGR2GRAY)
    src = tmp_path / "g.tif"
    tifffile.imwrite(src, gray, photometric="minisblack")
    sizes = {}
    for codec, tag in (("deflate", 8), ("packbits", 32773), ("none", 1)):
        out = tmp_path / f"e-{codec}.tif"
        args = [] if codec == "deflate" else ["--tiff-compression", codec]
        r = run(edgel_cmd, "detect", src, "-o", out, "-q", *args)
        assert r.returncode == 0, r.stderr
        with tifffile.TiffFile(out) as t:
            assert t.is_bigtiff and t.pages[0].compression == tag
            assert np.array_equal(t.asarray(), cv2.Canny(gray, 50, 150))
        sizes[codec] = out.stat().st_size
    assert sizes["deflate"] < sizes["none"] / 4
    r = run(edgel_cmd, "detect", src, "-o", tmp_path / "x.tif", "--tiff-compression", "zip")
    assert r.returncode == 2 and "deflate, packbits or none" in r.stderr
    r = run(edgel_cmd, "compare", tmp_path / "e-deflate.tif", tmp_path / "e-none.tif")
    assert r.returncode == 0 and "identical: yes" in r.stdout, r.stderr

    kernel = tmp_path / "k.txt"
    kernel.write_text("1 2 1\n2 4 2\n1 2 1\n")
    k = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], np.float32)
    r = run(edgel_cmd, "convolve", src, "-o", tmp_path / "c.tif", "--kernel", kernel, "-q")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(tifffile.imread(tmp_path / "c.tif"), cv2.filter2D(gray, -1, k))
    floats = tmp_path / "f.tif"
    tifffile.imwrite(floats, gray.astype(np.float32) / 255)
    r = run(edgel_cmd, "convolve", floats, "-o", tmp_path / "cf.tif", "--kernel", kernel, "-q")
    assert r.returncode == 0, r.stderr
    got = tifffile.imread(tmp_path / "cf.tif")
    want = cv2.filter2D(gray.astype(np.float32) / 255, -1, k)
    assert got.dtype == np.float32 and np.abs(got - want).max() < 1e-5

    skimage = pytest.importorskip("skimage.feature")
    r = run(edgel_cmd, "detect", src, "-o", tmp_path / "s.tif", "--preset", "skimage",
            "--sigma", "2", "-q")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(tifffile.imread(tmp_path / "s.tif"),
                          skimage.canny(gray, sigma=2).astype(np.uint8) * 255)
    r = run(edgel_cmd, "detect", src, "-o", tmp_path / "dx.tif", "--stage", "dx", "-q")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(tifffile.imread(tmp_path / "dx.tif"),
                          cv2.Sobel(gray, cv2.CV_16S, 1, 0, borderType=cv2.BORDER_REPLICATE)
                          .astype(np.float32))
    r = run(edgel_cmd, "detect", src, "-o", tmp_path / "a.png", "--auto", "otsu")
    assert r.returncode == 0, r.stderr
