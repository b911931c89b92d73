"""The command under hostile conditions and input: failed writes leave the target as it was,
decoders stay within their bounds, every PNG layout reads as cv2.imread reads it, and
out-of-range options are usage errors (exit 2) before any work."""
import os
import resource
import signal
import struct
import subprocess
import sys
import time
import zlib

import cv2
import numpy as np
import pytest

from conftest import ROOT

SAMPLES = ROOT / "samples"


def run(cmd, *args, limit_file_bytes=None):
    def limit():
        if limit_file_bytes is not None:  # a full disk: writes past it fail with EFBIG
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_bytes, resource.RLIM_INFINITY))
    return subprocess.run([cmd, *map(str, args)], capture_output=True, text=True, timeout=120,
                          preexec_fn=limit)


def child_peak_mb(cmd, *args):
    """Exit status, stderr, seconds and peak resident MB of one run of the command."""
    code = ("import resource, subprocess, sys, time; t = time.time(); "
            "r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
            "print(r.returncode, time.time() - t, "
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024); "
            "sys.stderr.write(r.stderr)")
    r = subprocess.run([sys.executable, "-c", code, cmd, *map(str, args)], capture_output=True,
                       text=True, timeout=300)
    rc, seconds, mb = r.stdout.split()
    return int(rc), r.stderr, float(seconds), float(mb)


# ---- 2. a failed write loses nothing ----------------------------------------------------

@pytest.mark.parametrize("ext,extra", [(".png", []), (".pgm", []),
                                       (".pfm", ["--preset", "itk", "--variance", "2"])])
def test_failed_write_leaves_target_untouched(edgel_cmd, tmp_path, ext, extra):
    target = tmp_path / ("scan" + ext)
    target.write_bytes(b"the user's precious file" * 10)
    before = target.read_bytes()
    r = run(edgel_cmd, "detect", SAMPLES / "coffee.png", "-o", target, *extra,
            limit_file_bytes=4096)
    assert r.returncode == 1 and "nothing written" in r.stderr, r.stderr
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]  # no temporary left
    r = run(edgel_cmd, "detect", SAMPLES / "coffee.png", "-o", target, *extra)
    assert r.returncode == 0 and target.read_bytes() != before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_failed_write_of_a_new_file_leaves_nothing(edgel_cmd, tmp_path):
    r = run(edgel_cmd, "convolve", SAMPLES / "coffee.png", "-o", tmp_path / "out.png",
            "--kernel", write_kernel(tmp_path), limit_file_bytes=2048)
    assert r.returncode == 1 and "nothing written" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.txt"]


@pytest.fixture(scope="module")
def long_work(tmp_path_factory):
    """A gray image that takes the command a few seconds to stream through small tiles."""
    f = tmp_path_factory.mktemp("long") / "noise.pgm"
    img = np.random.default_rng(9).integers(0, 256, (6000, 6000), dtype=np.uint8)
    cv2.imwrite(str(f), img)
    return f


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_signal_leaves_no_temporary(edgel_cmd, tmp_path, long_work, sig):
    """Interrupted while the edges stream out: the target untouched and no temporary left
    (before: a hidden .NAME.edgel-PID-N of up to 1 GB), and the signal's own exit status."""
    target = tmp_path / "e.png"
    target.write_bytes(b"old")
    p = subprocess.Popen([edgel_cmd, "detect", str(long_work), "-o", str(target), "--tile",
                          "256x256", "--blur", "2", "-q"], stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while not [f for f in tmp_path.iterdir() if ".edgel-" in f.name] and time.time() < deadline:
        time.sleep(0.01)
    assert p.poll() is None, p.stderr.read()
    p.send_signal(sig)
    assert p.wait(timeout=60) == -sig
    assert sorted(f.name for f in tmp_path.iterdir()) == ["e.png"]
    assert target.read_bytes() == b"old"


def test_file_size_limit_leaves_no_temporary(edgel_cmd, tmp_path, long_work):
    """`ulimit -f` with SIGXFSZ's default action (before: the process died, its temporary
    left): the write fails with a message and removes its temporary."""
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, resource.RLIM_INFINITY))
    r = subprocess.run([edgel_cmd, "detect", str(long_work), "-o", str(tmp_path / "e.pgm"),
                        "--tile", "1024x1024"], capture_output=True, text=True, timeout=120,
                       preexec_fn=limit)
    assert r.returncode == 1 and "File too large" in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_long_output_name(edgel_cmd, tmp_path):
    """A target name of 250 characters, valid, whose .NAME.edgel-PID-N temporary would not
    be (before: ENAMETOOLONG)."""
    target = tmp_path / ("a" * 246 + ".png")
    r = run(edgel_cmd, "detect", SAMPLES / "camera.png", "-o", target)
    assert r.returncode == 0, r.stderr
    assert sorted(f.name for f in tmp_path.iterdir()) == [target.name]


def test_mask_may_not_be_the_output(edgel_cmd, tmp_path):
    img = cv2.imread(str(SAMPLES / "camera.png"), cv2.IMREAD_GRAYSCALE)
    cv2.imwrite(str(tmp_path / "g.png"), img)
    mask = tmp_path / "m.png"
    cv2.imwrite(str(mask), np.full(img.shape, 255, np.uint8))
    before = mask.read_bytes()
    r = run(edgel_cmd, "detect", tmp_path / "g.png", "--preset", "skimage", "--mask", mask,
            "-o", mask)
    assert r.returncode == 2 and "is the mask file" in r.stderr, r.stderr
    assert mask.read_bytes() == before


def write_kernel(tmp_path):
    k = tmp_path / "k.txt"
    k.write_text("0 -1 0\n-1 5 -1\n0 -1 0\n")
    return k


def test_output_may_not_be_the_input(edgel_cmd, tmp_path):
    scan = tmp_path / "scan.png"
    scan.write_bytes((SAMPLES / "camera.png").read_bytes())
    before = scan.read_bytes()
    for args in (["detect", scan, "-o", scan],
                 ["detect", scan, "-o", tmp_path / "." / "scan.png"],
                 ["convolve", scan, "-o", scan, "--kernel", write_kernel(tmp_path)]):
        r = run(edgel_cmd, *args)
        assert r.returncode == 2 and "is the input file" in r.stderr, r.stderr
    os.link(scan, tmp_path / "hard.png")
    r = run(edgel_cmd, "detect", scan, "-o", tmp_path / "hard.png")
    assert r.returncode == 2
    assert scan.read_bytes() == before


# ---- 3. decoders within bounds ---------------------------------------------------------

def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(w, h, depth, color, raw_rows: bytes, extra=b"", interlace=0, before_idat=b""):
    ihdr = struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, interlace)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + before_idat + extra +
            chunk(b"IDAT", zlib.compress(raw_rows, 9)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("streamed", [[], ["--tile", "8x8"]])
def test_text_chunk_bomb_is_skipped(edgel_cmd, tmp_path, streamed):
    """20 zTXt chunks of 50 MB each (before: each inflated, 4.4 s for an 8x8 image, whole
    or, through the row reader, streamed)."""
    z = zlib.compressobj(9)
    body = z.compress(b"\0" * (50 << 20)) + z.flush()
    bomb = b"".join(chunk(b"zTXt", b"k%d\0\0" % i + body) for i in range(20))
    img = np.tile(np.arange(8, dtype=np.uint8) * 30, (8, 1))
    rows = b"".join(b"\0" + img[y].tobytes() for y in range(8))
    f = tmp_path / "bomb.png"
    f.write_bytes(png_bytes(8, 8, 8, 0, rows, extra=bomb))
    rc, err, seconds, mb = child_peak_mb(edgel_cmd, "detect", f, "-o", tmp_path / "e.png",
                                         *streamed)
    assert rc == 0, err
    assert seconds < 1 and mb < 100, (seconds, mb)
    assert np.array_equal(cv2.imread(str(tmp_path / "e.png"), cv2.IMREAD_UNCHANGED),
                          cv2.Canny(img, 50, 150))


def test_wide_png_bomb_refused_before_decoding(edgel_cmd, tmp_path):
    """16-bit RGBA, 6000x6000 (288 MB of pixels, 0.3 MB of file): the opencv preset needs
    8-bit, which the header says; nothing is inflated."""
    w = h = 6000
    z = zlib.compressobj(9)
    row = b"\0" * (1 + 8 * w)
    data = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    ihdr = struct.pack(">IIBBBBB", w, h, 16, 6, 0, 0, 0)
    f = tmp_path / "wide.png"
    f.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) +
                  chunk(b"IEND", b""))
    rc, err, seconds, mb = child_peak_mb(edgel_cmd, "detect", f, "-o", tmp_path / "e.png")
    assert rc == 1 and "16-bit with 4 channels" in err and "8-bit" in err, err
    assert seconds < 2 and mb < 100, (seconds, mb)
    assert not (tmp_path / "e.png").exists()


def test_stream_that_is_no_image_is_not_read_to_its_end(edgel_cmd, tmp_path):
    t = time.time()
    r = run(edgel_cmd, "detect", "/dev/zero", "-o", tmp_path / "e.png")
    assert r.returncode == 1 and "not a PNG" in r.stderr
    assert time.time() - t < 5


def test_memory_limit(edgel_cmd, tmp_path):
    """A file over --memory that cannot stream (JPEG) is refused before decoding; the
    itk preset, which does not stream from the command, too; one that can (PGM) streams."""
    img = np.random.default_rng(1).integers(0, 256, (1000, 2000), dtype=np.uint8)
    f = tmp_path / "big.jpg"
    cv2.imwrite(str(f), img)
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "e.png", "--memory", "1M")
    assert r.returncode == 1 and "2.0 MB" in r.stderr and "memory limit" in r.stderr
    assert not (tmp_path / "e.png").exists()
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "e.png", "--memory", "3M")
    assert r.returncode == 0, r.stderr
    pgm = tmp_path / "big.pgm"
    cv2.imwrite(str(pgm), img)
    r = run(edgel_cmd, "detect", pgm, "-o", tmp_path / "i.pfm", "--memory", "1M",
            "--preset", "itk")
    assert r.returncode == 1 and "memory limit" in r.stderr
    r = run(edgel_cmd, "detect", pgm, "-o", tmp_path / "s.png", "--memory", "1M", "-q")
    assert r.returncode == 0 and r.stderr == ""
    assert np.array_equal(cv2.imread(str(tmp_path / "s.png"), cv2.IMREAD_UNCHANGED),
                          cv2.Canny(img, 50, 150))
    for bad in ("0", "-5", "2X", "lots", "1e300"):
        r = run(edgel_cmd, "detect", f, "-o", tmp_path / "e.png", "--memory", bad)
        assert r.returncode == 2 and "--memory" in r.stderr, bad


# ---- 4. every valid file reads as cv2.imread reads it -----------------------------------

def adam7_passes(h, w):
    for x0, y0, dx, dy in ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
                           (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)):
        yield slice(y0, h, dy), slice(x0, w, dx)


def pack_rows(samples, depth):
    """Rows of samples (H, W*C) at `depth` bits, each with filter byte 0."""
    out = []
    for row in samples:
        if depth == 16:
            data = row.astype(">u2").tobytes()
        elif depth == 8:
            data = row.astype(np.uint8).tobytes()
        else:
            data = np.packbits(np.unpackbits(row.astype(np.uint8)[:, None], axis=1)[:, 8 - depth:]
                               .ravel()).tobytes()
        out.append(b"\0" + data)
    return b"".join(out)


def encode_png(samples, depth, color, interlace, extra=b""):
    """A PNG of samples (H, W, C) with any colour type, depth and interlacing."""
    h, w = samples.shape[:2]
    flat = samples.reshape(h, w, -1)
    if interlace:
        raw = b"".join(pack_rows(flat[ys, xs].reshape(len(range(h)[ys]), -1), depth)
                       for ys, xs in adam7_passes(h, w) if flat[ys, xs].size)
    else:
        raw = pack_rows(flat.reshape(h, -1), depth)
    return png_bytes(w, h, depth, color, raw, extra=extra, interlace=interlace)


CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
CASES = [(color, depth, trns, interlace) for color in DEPTHS for depth in DEPTHS[color]
         for trns in ((False, True) if color in (0, 2, 3) else (False,)) for interlace in (0, 1)]


@pytest.mark.parametrize("color,depth,trns,interlace", CASES)
def test_png_layouts_read_as_opencv(edgel_cmd, tmp_path, color, depth, trns, interlace):
    """edgel's decoded pixels (seen through the gray stage, which is the luma of colour
    files) against cv2.imread(IMREAD_UNCHANGED), converted the same way; channel counts as
    OpenCV's, except gray+alpha, whose alpha edgel drops."""
    rng = np.random.default_rng(color * 100 + depth * 3 + trns * 7 + interlace)
    h, w = 13, 11
    top = (1 << depth) - 1
    samples = rng.integers(0, top + 1, (h, w, CHANNELS[color]), dtype=np.int64)
    extra = b""
    if color == 3:
        palette = rng.integers(0, 256, (top + 1, 3), dtype=np.uint8)
        extra += chunk(b"PLTE", palette.tobytes())
        if trns:
            extra += chunk(b"tRNS", rng.integers(0, 256, top + 1, dtype=np.uint8).tobytes())
    elif trns:
        key = samples[0, 0]
        extra += chunk(b"tRNS", b"".join(struct.pack(">H", int(v)) for v in key))
    extra += chunk(b"tEXt", b"Comment\0ignored") + chunk(b"gAMA", struct.pack(">I", 45455))
    f = tmp_path / "in.png"
    f.write_bytes(encode_png(samples, depth, color, interlace, extra))
    ref = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
    assert ref is not None
    ref = ref if ref.ndim == 3 else ref[:, :, None]
    if color == 4:  # OpenCV: gray+alpha as BGRA; edgel: the gray
        ref = ref[:, :, :1]
    elif ref.shape[2] >= 3:
        ref = ref[:, :, [2, 1, 0] + ([3] if ref.shape[2] == 4 else [])]  # BGR(A) -> RGB(A)
    if depth == 16:  # the itk preset reads 16-bit gray; the smoothed stage is its values
        if ref.shape[2] != 1:
            r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.pfm", "--preset", "itk")
            assert r.returncode == 1 and "16-bit with" in r.stderr
            return
        r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.pfm", "--preset", "itk",
                "--stage", "smoothed")
        assert r.returncode == 0, r.stderr
        got = cv2.imread(str(tmp_path / "s.pfm"), cv2.IMREAD_UNCHANGED)
        assert np.array_equal(got, ref[:, :, 0].astype(np.float32))
        return
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.png", "--stage", "smoothed",
            "--gray", "max-channel")
    assert r.returncode == 0, r.stderr
    got = cv2.imread(str(tmp_path / "s.png"), cv2.IMREAD_UNCHANGED)
    got = got if got.ndim == 3 else got[:, :, None]
    if got.shape[2] >= 3:
        got = got[:, :, [2, 1, 0] + ([3] if got.shape[2] == 4 else [])]
    assert got.shape == ref.shape and np.array_equal(got, ref)


@pytest.mark.parametrize("header", [b"Pf\n3 2\n-1.0\n", b"Pf" + b" " * 300 + b"3\t2\r\n-1\n",
                                    b"Pf\n3\n\n\n2" + b"\n" * 400 + b"-1.0\n"])
def test_pfm_header_whitespace(edgel_cmd, tmp_path, header):
    """Any amount of whitespace between PFM header fields (before: > 255 bytes refused)."""
    px = np.arange(6, dtype="<f4").reshape(2, 3) * 10
    f = tmp_path / "in.pfm"
    f.write_bytes(header + px[::-1].tobytes())
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.pfm", "--preset", "itk",
            "--stage", "smoothed")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(cv2.imread(str(tmp_path / "s.pfm"), cv2.IMREAD_UNCHANGED), px)


@pytest.mark.parametrize("header", [b"Pf\n3 2\n-1.0x\n", b"Pf\n3 2\n\n", b"Pf 3 2 -1.0",
                                    b"Pf\n3 2\n" + b"1" * 100 + b"\n"])
def test_pfm_bad_headers(edgel_cmd, tmp_path, header):
    f = tmp_path / "in.pfm"
    f.write_bytes(header + b"\0" * 24)
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.pfm", "--preset", "itk")
    assert r.returncode == 1 and "PFM" in r.stderr and "EDGEL_ERROR_FORMAT" in r.stderr


# ---- 8. exit codes and parsing ----------------------------------------------------------

@pytest.mark.parametrize("args,needle", [
    (["detect", "a.png", "-o", "x.png", "--low", "1e10"], "low threshold"),
    (["detect", "a.png", "-o", "x.png", "--blur", "21.4"], "129"),
    (["detect", "a.png", "-o", "x.png", "--blur-size", "5", "--blur", "none"], "--blur none"),
    (["detect", "a.png", "-o", "x.png", "--blur", "none", "--blur-size", "5"], "--blur none"),
    (["detect", "a.png", "-o", "x.png", "--blur", "5x5", "--blur-size", "5"], "--blur 5x5"),
    (["detect", "a.png", "-o", "x.png", "--threads", "4294967296"], "--threads"),
    (["detect", "a.png", "-o", "x.png", "--wat"], "unknown option '--wat'"),
    (["convolve", "a.png", "-o", "x.png", "--kernel", "k.txt", "--border-value", "1e300"],
     "border value"),
    (["convolve", "a.png", "-o", "x.png", "--kernel", "k.txt", "--anchor", ","], "--anchor"),
    (["convolve", "a.png", "-o", "x.png", "--kernel", "k.txt", "--anchor", "1,"], "--anchor"),
    (["convolve", "a.png", "-o", "x.png", "--kernel", "k.txt", "--anchor", "4294967297,0"],
     "--anchor"),
    (["convolve", "a.png", "-o", "x.png", "--kernel", "k.txt", "--threads", "4294967296"],
     "--threads"),
    (["convolve", "a.png", "-o", "x.png", "--kernel", "k.txt", "--wat"], "unknown option"),
    (["bench", "--low", "nan"], "--low"),
    (["bench", "--low", "1e10"], "low threshold"),
    (["bench", "--runs", "4294967297"], "--runs"),
    (["bench", "--threads", "4294967296"], "--threads"),
    (["bench", "--sizes", "4294967297x1"], "bad size"),
    (["bench", "--sizes", "65536x16385"], "bad size"),
    (["bench", "--sizes", "64x48,"], ""),
    (["bench", "--wat"], "unknown option"),
])
def test_out_of_range_options_are_usage_errors(edgel_cmd, args, needle):
    r = run(edgel_cmd, *args)
    if args[-1] == "64x48,":  # a trailing comma is allowed; the image is missing here
        return
    assert r.returncode == 2 and needle in r.stderr and r.stderr.strip(), (args, r.stderr)


def test_stage_output_format_checked_before_work(edgel_cmd, tmp_path):
    rgba = np.random.default_rng(3).integers(0, 256, (40, 30, 4), dtype=np.uint8)
    f = tmp_path / "rgba.png"
    cv2.imwrite(str(f), rgba)
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.pgm", "--stage", "smoothed",
            "--gray", "max-channel")
    assert r.returncode == 2 and "PGM/PPM holds 1 or 3 channels" in r.stderr
    r = run(edgel_cmd, "convolve", f, "-o", tmp_path / "s.pgm", "--kernel",
            write_kernel(tmp_path))
    assert r.returncode == 2 and "1 or 3 channels" in r.stderr
    deep = tmp_path / "deep.png"
    cv2.imwrite(str(deep), np.zeros((4, 4, 3), np.uint16))
    r = run(edgel_cmd, "convolve", deep, "-o", tmp_path / "s.png", "--kernel",
            write_kernel(tmp_path))
    assert r.returncode == 2 and ".pfm" in r.stderr
    assert not list(tmp_path.glob("s.*"))


def test_compare_nan_is_identical(edgel_cmd, tmp_path):
    px = np.array([[1.0, np.nan], [np.inf, -0.5]], np.float32)
    f = tmp_path / "n.pfm"
    f.write_bytes(b"Pf\n2 2\n-1.0\n" + px[::-1].astype("<f4").tobytes())
    r = run(edgel_cmd, "compare", f, f)
    assert r.returncode == 0 and "identical: yes" in r.stdout


@pytest.mark.parametrize("magic,header,dtype,channels", [
    (b"P5", b"\n11 7\n255\n", ">u1", 1),
    (b"P5", b" # a comment\n11\t7 # another\r\n255\n", ">u1", 1),
    (b"P5", b"\n#c\n#c\n11\n7\n65535\n", ">u2", 1),
    (b"P6", b"\n11 7 255\n", ">u1", 3),
    (b"P6", b"\r\n11 7\r\n65535\r", ">u2", 3),
])
def test_pnm_header_variants_read_as_opencv(edgel_cmd, tmp_path, magic, header, dtype, channels):
    """PGM/PPM headers with comments and any whitespace, 8 and 16 bits: edgel's pixels (the
    itk preset's smoothed stage for 16-bit gray, the opencv preset's for 8-bit) equal
    cv2.imread(IMREAD_UNCHANGED)'s."""
    rng = np.random.default_rng(len(header))
    top = 255 if dtype == ">u1" else 65535
    px = rng.integers(0, top + 1, (7, 11, channels)).astype(dtype)
    f = tmp_path / ("in.pgm" if channels == 1 else "in.ppm")
    f.write_bytes(magic + header + px.tobytes())
    ref = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
    assert ref is not None
    ref = ref[:, :, ::-1] if channels == 3 else ref  # BGR -> file order
    if dtype == ">u2" and channels == 3:  # 16-bit colour: no preset reads it, and says so
        r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.pfm", "--preset", "itk")
        assert r.returncode == 1 and "16-bit with 3 channels" in r.stderr
        assert np.array_equal(ref, px.astype(np.uint16))
        return
    if dtype == ">u2":
        r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.pfm", "--preset", "itk",
                "--stage", "smoothed")
        got = cv2.imread(str(tmp_path / "s.pfm"), cv2.IMREAD_UNCHANGED)
        assert r.returncode == 0 and np.array_equal(got, ref.astype(np.float32)), r.stderr
        return
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "s.png", "--stage", "smoothed",
            "--gray", "max-channel")
    got = cv2.imread(str(tmp_path / "s.png"), cv2.IMREAD_UNCHANGED)
    got = got[:, :, ::-1] if channels == 3 else got
    assert r.returncode == 0 and np.array_equal(got, ref), r.stderr


# ---- images larger than memory (issue: any size) ----------------------------------------

def test_tiled_detect_equals_whole(edgel_cmd, tmp_path):
    """--tile and an image over --memory stream through tiles with the bytes of cv2.Canny,
    for PNG and PGM in and out, colour and gray."""
    rng = np.random.default_rng(4)
    base = rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
    img = cv2.resize(base, (2400, 1800), interpolation=cv2.INTER_CUBIC)
    img = cv2.add(img, rng.integers(0, 20, img.shape, dtype=np.uint8))
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    want = cv2.Canny(cv2.GaussianBlur(gray, (0, 0), 1.4), 40, 120)
    cv2.imwrite(str(tmp_path / "in.png"), img)
    cv2.imwrite(str(tmp_path / "in.pgm"), gray)
    for src, out, extra in [("in.png", "e.png", ["--tile", "300x200"]),
                            ("in.pgm", "e.pgm", ["--tile", "1x1000"]),
                            ("in.pgm", "e2.png", ["--memory", "1M"])]:
        rc, err, seconds, mb = child_peak_mb(edgel_cmd, "detect", tmp_path / src, "-o",
                                             tmp_path / out, "--blur", "1.4", "--low", "40",
                                             "--high", "120", "-q", *extra)
        assert rc == 0, err
        assert np.array_equal(cv2.imread(str(tmp_path / out), cv2.IMREAD_UNCHANGED), want), extra
        if "--memory" in extra:  # 4.3 MB of pixels, a band of about 1.2 MB
            assert mb < 60, mb


def test_progress_into_a_log_has_no_carriage_returns(edgel_cmd, tmp_path):
    """A streamed run longer than a second reports on stderr; into a file or pipe as whole
    lines (before: carriage returns, one rewritten line, in every log file)."""
    f = tmp_path / "noise.pgm"
    cv2.imwrite(str(f), np.random.default_rng(2).integers(0, 256, (6000, 6000), np.uint8))
    r = run(edgel_cmd, "detect", f, "-o", tmp_path / "e.pgm", "--tile", "256x256",
            "--blur-size", "129", "--threads", "1")  # a wide blur: a few seconds of work
    assert r.returncode == 0, r.stderr
    assert "\r" not in r.stderr and "edgel detect: 100.0% of 0.04 Gpx" in r.stderr, r.stderr
    assert all(line.startswith("edgel detect: ") for line in r.stderr.splitlines())


def test_tiled_detect_failures_leave_nothing(edgel_cmd, tmp_path):
    img = np.random.default_rng(5).integers(0, 256, (500, 400), dtype=np.uint8)
    pgm = tmp_path / "in.pgm"
    cv2.imwrite(str(pgm), img)
    cut = tmp_path / "cut.pgm"
    cut.write_bytes(pgm.read_bytes()[:100000])  # truncated in the middle of the pixels
    r = run(edgel_cmd, "detect", cut, "-o", tmp_path / "e.pgm", "--tile", "64x64")
    assert r.returncode == 1 and "truncated" in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.pgm", "in.pgm"]
    r = run(edgel_cmd, "detect", pgm, "-o", tmp_path / "e.pgm", "--tile", "64x64",
            limit_file_bytes=4096)
    assert r.returncode == 1 and "nothing written" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.pgm", "in.pgm"]
    for bad in ("64", "0x5", "5x", "x5", "99999x5"):
        r = run(edgel_cmd, "detect", pgm, "-o", tmp_path / "e.pgm", "--tile", bad)
        assert r.returncode == 2 and "--tile" in r.stderr, bad
    r = run(edgel_cmd, "detect", pgm, "-o", tmp_path / "e.pfm", "--tile", "64x64",
            "--preset", "itk")
    assert r.returncode == 2 and ".png, .pgm or .tif" in r.stderr


def tiff_for_the_command():
    """tifffile, to write and read the TIFF files the tests give the command (every build
    reads TIFF: the wheel's through its bundled libtiff); a skip where tifffile is missing."""
    return pytest.importorskip("tifffile")


@pytest.mark.parametrize("layout", ["strips", "deflate", "tiles", "bigtiff-tiles-rgb"])
def test_tiff_streams_through_tiles(edgel_cmd, tmp_path, layout):
    """TIFF and BigTIFF in (strips or tiles, compressed or not, gray or RGB), BigTIFF edges
    out, with cv2.Canny's bytes."""
    tifffile = tiff_for_the_command()
    rng = np.random.default_rng(6)
    base = rng.integers(0, 256, (40, 50, 3), dtype=np.uint8)
    rgb = cv2.resize(base, (1000, 700), interpolation=cv2.INTER_CUBIC)
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    colour = layout.endswith("rgb")
    data = rgb if colour else gray
    kw = {"strips": {}, "deflate": {"compression": "zlib", "rowsperstrip": 37},
          "tiles": {"tile": (128, 96)},
          "bigtiff-tiles-rgb": {"tile": (64, 64), "bigtiff": True}}[layout]
    src = tmp_path / "in.tif"
    tifffile.imwrite(src, data, photometric="rgb" if colour else "minisblack", **kw)
    r = run(edgel_cmd, "detect", src, "-o", tmp_path / "e.tif", "--blur", "1.4", "-q",
            "--tile", "300x250")
    assert r.returncode == 0, r.stderr
    got = tifffile.imread(tmp_path / "e.tif")
    assert np.array_equal(got, cv2.Canny(cv2.GaussianBlur(gray, (0, 0), 1.4), 50, 150))
    with tifffile.TiffFile(tmp_path / "e.tif") as t:
        assert t.is_bigtiff
    r = run(edgel_cmd, "detect", src, "-o", tmp_path / "s.tif", "--stage", "dx")  # read whole
    assert r.returncode == 0, r.stderr
    assert np.array_equal(tifffile.imread(tmp_path / "s.tif"), cv2.Sobel(
        gray, cv2.CV_16S, 1, 0, borderType=cv2.BORDER_REPLICATE).astype(np.float32))


@pytest.mark.parametrize("kind", ["u16-strips", "f32-tiles", "u8-pgm"])
def test_itk_streams_through_tiles(edgel_cmd, tmp_path, kind):
    """The itk preset through the streaming path: 16-bit and float TIFF, and 8-bit PGM, give
    edgel.canny_itk's bytes on the whole image; the opencv preset refuses 16-bit rows."""
    import edgel
    rng = np.random.default_rng(7)
    base = rng.integers(0, 256, (30, 40), dtype=np.uint8)
    smooth = cv2.resize(base, (620, 410), interpolation=cv2.INTER_CUBIC)
    if kind == "u8-pgm":
        img, src, opts = smooth, tmp_path / "in.pgm", ["--upper", "9", "--lower", "3"]
        cv2.imwrite(str(src), img)
        want = edgel.canny_itk(img, variance=2.0, upper=9, lower=3, dtype=np.uint8)
    else:
        tifffile = tiff_for_the_command()
        if kind == "u16-strips":
            img = smooth.astype(np.uint16) * 200 + rng.integers(0, 300, smooth.shape).astype(np.uint16)
            upper, lower, kw = 1800.0, 600.0, {"rowsperstrip": 33}
        else:
            img = smooth.astype(np.float32) * 0.37 + rng.random(smooth.shape, np.float32)
            upper, lower, kw = 3.5, 1.2, {"tile": (128, 64)}
        src = tmp_path / "in.tif"
        tifffile.imwrite(src, img, photometric="minisblack", **kw)
        opts = ["--upper", str(upper), "--lower", str(lower)]
        want = edgel.canny_itk(img, variance=2.0, upper=upper, lower=lower, dtype=np.uint8)
    out = tmp_path / ("e.tif" if kind != "u8-pgm" else "e.pgm")
    r = run(edgel_cmd, "detect", src, "-o", out, "--preset", "itk", "--variance", "2", *opts,
            "--tile", "200x150", "-q")
    assert r.returncode == 0, r.stderr
    got = (pytest.importorskip("tifffile").imread(out) if kind != "u8-pgm"
           else cv2.imread(str(out), cv2.IMREAD_UNCHANGED))
    assert want.sum() > 0 and np.array_equal(got, want)
    if kind == "u16-strips":
        r = run(edgel_cmd, "detect", src, "-o", tmp_path / "o.tif", "-q")
        assert r.returncode == 2 and "u8" in r.stderr and not (tmp_path / "o.tif").exists()


def test_plain_and_bitmap_netpbm_read(edgel_cmd, tmp_path):
    """ASCII PGM/PPM (P2, P3) and PBM (P1, P4), which a devernay user's first command feeds
    (the IPOL package's image.pgm is P2): read as their binary twins are, bitmaps as 0/255
    (black 0, as cv2.imread reads them); malformed ones refused with a message."""
    import cv2
    rng = np.random.default_rng(4)
    gray = rng.integers(0, 256, (23, 31), dtype=np.uint8)
    gray[5:15, 8:20] = 240
    rgb = rng.integers(0, 256, (23, 31, 3), dtype=np.uint8)
    bits = rng.integers(0, 2, (23, 31), dtype=np.uint8)
    files = {
        "p2.pgm": b"P2\n# a comment\n31 23\n255\n" + " ".join(map(str, gray.ravel())).encode(),
        "p5.pgm": b"P5\n31 23\n255\n" + gray.tobytes(),
        "p3.ppm": b"P3\n31 23 255\n" + "\n".join(map(str, rgb.ravel())).encode() + b"\n",
        "p6.ppm": b"P6\n31 23\n255\n" + rgb.tobytes(),
        "p1.pbm": b"P1\n31 23\n" + b"".join(b"".join(b"%d" % v for v in row) + b"\n"
                                            for row in bits),
        "p4.pbm": b"P4\n31 23\n" + np.packbits(bits, axis=1).tobytes(),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    out = {}
    for name in files:
        r = run(edgel_cmd, "detect", tmp_path / name, "-o", tmp_path / f"{name}.png", "--low",
                "20", "--high", "60", "--stage", "gray")
        assert r.returncode == 0, (name, r.stderr)
        out[name] = cv2.imread(str(tmp_path / f"{name}.png"), cv2.IMREAD_UNCHANGED)
    assert np.array_equal(out["p2.pgm"], out["p5.pgm"]) and np.array_equal(out["p2.pgm"], gray)
    assert np.array_equal(out["p3.ppm"], out["p6.ppm"])
    want_bits = np.where(bits == 1, 0, 255).astype(np.uint8)
    assert np.array_equal(out["p1.pbm"], want_bits) and np.array_equal(out["p4.pbm"], want_bits)
    assert np.array_equal(cv2.imread(str(tmp_path / "p4.pbm"), cv2.IMREAD_GRAYSCALE), want_bits)
    bad = {"short.pgm": b"P2\n3 3\n255\n1 2 3 4", "over.pgm": b"P2\n2 1\n9\n5 10",
           "letter.pbm": b"P1\n2 1\n0x", "cut.pbm": b"P4\n9 2\n\x00\x00"}
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
        r = run(edgel_cmd, "detect", tmp_path / name, "-o", tmp_path / "bad.png")
        assert r.returncode == 1 and "EDGEL_ERROR_FORMAT" in r.stderr, (name, r.stderr)
        assert not (tmp_path / "bad.png").exists()
    r = run(edgel_cmd, "contours", tmp_path / "p2.pgm", "-o", tmp_path / "c.txt",
            "--band-columns", "8")
    assert r.returncode == 2 and "does not stream" in r.stderr, r.stderr
