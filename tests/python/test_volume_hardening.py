"""Hostile volume files through the command: headers nifticlib cannot take, NRRD fields that
other readers read differently, detached data files outside the header's folder, outputs that
name a file the input reads, headers that claim more voxels than any volume holds, bricks past
--memory, scratch files a killed process could leave, TIFF stacks of many pages or large tiles,
full disks."""
import os
import shutil
import signal
import struct
import subprocess
import time

import numpy as np
import pytest
from conftest import run_peak

nib = pytest.importorskip("nibabel")

ITK = ["--preset", "itk", "--variance", "1", "--upper", "10", "--lower", "5"]


def run(cmd, *args, timeout=120):
    return subprocess.run([cmd, *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def nifti_cmd(edgel_cmd):
    if "NIfTI" not in run(edgel_cmd, "--version").stdout:
        pytest.skip("the command was built without nifticlib")
    return edgel_cmd


def nrrd(path, fields, data=b""):
    path.write_bytes(("\n".join(["NRRD0004"] + fields) + "\n\n").encode() + data)


VOXELS = np.zeros((6, 16, 16), np.uint8)
VOXELS[:, :, 8:] = 200
BASE = ["type: uchar", "dimension: 3", "sizes: 16 16 6"]


@pytest.mark.parametrize("dim0", [2**32 + 3, -1, 0, 8, 2**62])
@pytest.mark.parametrize("swap", [False, True])
def test_nifti2_dim0_nifticlib_cannot_take(nifti_cmd, tmp_path, dim0, swap):
    """A NIfTI-2 header whose dim[0] is outside 1..7 (in the file's byte order), which makes
    nifticlib write past its copy of the header, is refused before nifticlib sees it."""
    f = tmp_path / "in.nii"
    nib.save(nib.Nifti2Image(VOXELS.T.copy(), np.eye(4)), f)
    b = bytearray(f.read_bytes())
    order = ">" if swap else "<"
    if swap:  # the whole header big-endian: its size first, then dim[0]
        b[0:4] = struct.pack(">i", 540)
    b[16:24] = struct.pack(order + "q", dim0)
    f.write_bytes(bytes(b))
    r = run(nifti_cmd, "detect", f, "-o", tmp_path / "out.nii", *ITK)
    assert r.returncode == 1 and "dim[0]" in r.stderr, r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.nii"]


def test_nifti1_dims_past_the_limit(nifti_cmd, tmp_path):
    f = tmp_path / "in.nii"
    nib.save(nib.Nifti1Image(VOXELS.T.copy(), np.eye(4)), f)
    b = bytearray(f.read_bytes())
    b[40:48] = struct.pack("<4h", 9, 16, 16, 6)  # dim[0] = 9: nifticlib's arrays hold 8
    f.write_bytes(bytes(b))
    r = run(nifti_cmd, "detect", f, "-o", tmp_path / "out.nii", *ITK)
    assert r.returncode == 1 and "dim[0] = 9" in r.stderr, r.stderr


def test_nifti_missing_name_is_not_a_sibling(nifti_cmd, tmp_path):
    """scan.nii missing, scan.nii.gz present: nifticlib would read scan.nii.gz for scan.nii
    (and '-o scan.nii.gz' replace the input with its edges); the command reads the name given
    or nothing."""
    nib.save(nib.Nifti1Image(VOXELS.T.copy(), np.eye(4)), tmp_path / "scan.nii.gz")
    before = (tmp_path / "scan.nii.gz").read_bytes()
    r = run(nifti_cmd, "detect", tmp_path / "scan.nii", "-o", tmp_path / "scan.nii.gz", *ITK)
    assert r.returncode == 1 and "No such file" in r.stderr, r.stderr
    assert (tmp_path / "scan.nii.gz").read_bytes() == before


@pytest.mark.parametrize("kind", ["nhdr", "mhd"])
def test_output_naming_the_data_file_is_refused(edgel_cmd, tmp_path, kind):
    """-o naming a detached header's data file is refused: the output is compared with the
    files the input reads, not only with its header."""
    data = tmp_path / ("data.nrrd" if kind == "nhdr" else "data.mha")  # (the output's format)
    data.write_bytes(VOXELS.tobytes())
    if kind == "nhdr":
        hdr = tmp_path / "a.nhdr"
        nrrd(hdr, BASE + ["encoding: raw", f"data file: {data.name}"])
    else:
        hdr = tmp_path / "a.mhd"
        hdr.write_text("ObjectType = Image\nNDims = 3\nDimSize = 16 16 6\n"
                       f"ElementType = MET_UCHAR\nElementDataFile = {data.name}\n")
    r = run(edgel_cmd, "detect", hdr, "-o", data, *ITK)
    assert r.returncode == 2 and "holds the input's voxels" in r.stderr, r.stderr
    assert data.read_bytes() == VOXELS.tobytes()


def header_fields(path):
    text = path.read_bytes().split(b"\n\n", 1)[0].decode()
    return [line for line in text.splitlines()[1:] if not line.startswith("#")]


def test_nrrd_fields_match_without_case(edgel_cmd, tmp_path):
    """Field names and values are matched as teem matches them (case aside): 'DATA FILE:' in
    an attached file is the data file, not an unknown field copied into the output, where
    ITK would read it as the output's voxels."""
    (tmp_path / "voxels.raw").write_bytes(VOXELS.tobytes())
    nrrd(tmp_path / "upper.nrrd", ["TYPE: UCHAR", "Dimension: 3", "SIZES: 16 16 6",
                                   "ENCODING: RAW", "DATA FILE: voxels.raw",
                                   "Space Directions: (2,0,0) (0,3,0) (0,0,4)"])
    nrrd(tmp_path / "lower.nrrd", BASE + ["encoding: raw",
                                          "space directions: (2,0,0) (0,3,0) (0,0,4)"],
         VOXELS.tobytes())
    for name in ("upper", "lower"):
        r = run(edgel_cmd, "detect", tmp_path / f"{name}.nrrd", "-o",
                tmp_path / f"{name}-out.nrrd", *ITK)
        assert r.returncode == 0, r.stderr
    upper, lower = tmp_path / "upper-out.nrrd", tmp_path / "lower-out.nrrd"
    assert upper.read_bytes() == lower.read_bytes()
    fields = [f.split(":")[0].lower() for f in header_fields(upper)]
    assert "data file" not in fields and "datafile" not in fields, fields
    assert "space directions" in fields


@pytest.mark.parametrize("fields,needle", [
    (BASE + ["encoding: raw", "ENCODING: gzip"], "given twice"),
    (BASE + ["encoding: raw", "Line Skip: 0", "lineskip: 0"], "given twice"),
    (BASE + ["encoding: raw", "frobnicate: 3"], "not a NRRD field"),
])
def test_nrrd_duplicate_and_unknown_fields_refused(edgel_cmd, tmp_path, fields, needle):
    nrrd(tmp_path / "in.nrrd", fields, VOXELS.tobytes())
    r = run(edgel_cmd, "detect", tmp_path / "in.nrrd", "-o", tmp_path / "out.nrrd", *ITK)
    assert r.returncode == 1 and needle in r.stderr, r.stderr
    assert not (tmp_path / "out.nrrd").exists()


def test_nrrd_key_value_pairs_kept_but_fields_never_laundered(edgel_cmd, tmp_path):
    nrrd(tmp_path / "in.nrrd", BASE + ["encoding: raw", "note:=data file: /etc/passwd",
                                       "kinds: domain domain domain"], VOXELS.tobytes())
    r = run(edgel_cmd, "detect", tmp_path / "in.nrrd", "-o", tmp_path / "out.nrrd", *ITK)
    assert r.returncode == 0, r.stderr
    fields = header_fields(tmp_path / "out.nrrd")
    assert "note:=data file: /etc/passwd" in fields and "kinds: domain domain domain" in fields
    assert not [f for f in fields if f.lower().startswith("data file")]


@pytest.mark.parametrize("kind", ["nhdr", "mhd"])
def test_data_files_confined_to_the_header_folder(edgel_cmd, tmp_path, kind):
    """A detached data file outside the header's folder (absolute, '..', a link leaving it, a
    device) is read only with --data-files anywhere: --stage smoothed would copy its bytes
    into the output."""
    inside = tmp_path / "in"
    inside.mkdir()
    outside = tmp_path / "secret.raw"
    outside.write_bytes(VOXELS.tobytes())
    (inside / "link.raw").symlink_to(outside)
    (inside / "sub").mkdir()
    (inside / "sub" / "ok.raw").write_bytes(VOXELS.tobytes())

    def header(name, data_file):
        if kind == "nhdr":
            p = inside / f"{name}.nhdr"
            nrrd(p, BASE + ["encoding: raw", f"data file: {data_file}"])
        else:
            p = inside / f"{name}.mhd"
            p.write_text("ObjectType = Image\nNDims = 3\nDimSize = 16 16 6\n"
                         f"ElementType = MET_UCHAR\nElementDataFile = {data_file}\n")
        return p
    out_ext = ".nrrd" if kind == "nhdr" else ".mha"
    for name, data_file in [("abs", outside), ("up", "../secret.raw"), ("link", "link.raw"),
                            ("dev", "/dev/zero")]:
        h = header(name, data_file)
        out = tmp_path / f"{name}-out{out_ext}"
        r = run(edgel_cmd, "detect", h, "-o", out, *ITK, "--stage", "smoothed")
        assert r.returncode == 1 and "--data-files anywhere" in r.stderr, (name, r.stderr)
        assert not out.exists()
        if name != "dev":
            r = run(edgel_cmd, "detect", h, "-o", out, *ITK, "--data-files", "anywhere")
            assert r.returncode == 0, (name, r.stderr)
    r = run(edgel_cmd, "detect", header("sub", "sub/ok.raw"), "-o", tmp_path / f"s{out_ext}",
            *ITK)
    assert r.returncode == 0, r.stderr
    r = run(edgel_cmd, "detect", header("x", "sub/ok.raw"), "-o", tmp_path / f"x{out_ext}",
            *ITK, "--data-files", "elsewhere")
    assert r.returncode == 2 and "beside or anywhere" in r.stderr


@pytest.mark.parametrize("encoding", ["raw", "gzip"])
def test_voxel_bomb_refused_before_scratch(edgel_cmd, tmp_path, encoding):
    """A header that claims 2^36 voxels is refused from its header, before any scratch is
    written: every layout is held to the library's voxel limit."""
    nrrd(tmp_path / "bomb.nrrd", ["type: uchar", "dimension: 3", "sizes: 65536 16 65536",
                                  f"encoding: {encoding}"], b"\x1f\x8b" + bytes(64))
    t = time.time()
    r = run(edgel_cmd, "detect", tmp_path / "bomb.nrrd", "-o", tmp_path / "out.nrrd", *ITK,
            "--memory", "64M")
    assert r.returncode == 1 and "a volume may hold" in r.stderr, r.stderr
    assert time.time() - t < 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bomb.nrrd"]


def test_tile_keeps_the_memory_bound(edgel_cmd, tmp_path):
    """--tile WxHxD bricks whose work passes --memory are refused, smaller ones run within
    it."""
    nrrd(tmp_path / "in.nrrd", ["type: uchar", "dimension: 3", "sizes: 256 256 64",
                                "encoding: raw"], bytes(256 * 256 * 64))
    r = run(edgel_cmd, "detect", tmp_path / "in.nrrd", "-o", tmp_path / "out.nrrd", *ITK,
            "--memory", "8M", "--tile", "256x256x64")
    assert r.returncode == 2 and "--memory" in r.stderr, r.stderr
    code, err, peak = run_peak(edgel_cmd, "detect", tmp_path / "in.nrrd", "-o",
                               tmp_path / "out.nrrd", *ITK, "--memory", "8M", "--tile",
                               "64x64x8")
    assert code == 0, err
    assert peak < 8 * 1.1 + 8, peak


def scratch_open(pid):
    """Whether process pid holds a file with no name (a scratch file) open."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.endswith("(deleted)"):
            return True
    return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_sigkill_leaves_no_scratch(edgel_cmd, tmp_path):
    """Bricks of a compressed volume keep a decompressed copy and the edges on disk; killed
    with SIGKILL (as the OOM killer does) the process leaves neither: they have no name."""
    import gzip
    rng = np.random.default_rng(1)
    vol = (rng.random((48, 160, 160)) * 255).astype(np.uint8)
    hdr = "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 160 160 48\nencoding: gzip\n\n"
    (tmp_path / "in.nrrd").write_bytes(hdr.encode() + gzip.compress(vol.tobytes(), 1))
    p = subprocess.Popen([edgel_cmd, "detect", str(tmp_path / "in.nrrd"), "-o",
                          str(tmp_path / "out.nrrd"), *ITK, "--tile", "16x16x8",
                          "--threads", "1"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while not scratch_open(p.pid) and p.poll() is None and time.time() < deadline:
        time.sleep(0.005)
    assert p.poll() is None, "finished before its scratch files could be seen"
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["in.nrrd"]


def tiff_stack(path, pages, **kw):
    tifffile = pytest.importorskip("tifffile")
    tifffile.imwrite(path, pages, photometric="minisblack", metadata=None, **kw)


@pytest.mark.parametrize("kw", [
    dict(lzw=16), dict(compression="zlib", rowsperstrip=5),
    dict(compression="zlib", tile=(16, 16)), dict(lzw=3)])
def test_compressed_stacks_in_bricks_equal_whole(edgel_cmd, tmp_path, kw):
    """LZW and deflate strips of several rows, which cannot start mid-strip, are decoded whole
    and cut: bricks of any size give the whole stack's edges."""
    rng = np.random.default_rng(3)
    z, y, x = np.mgrid[0:9, 0:37, 0:41]
    vol = (((x - 20) ** 2 + (y - 18) ** 2 + (z - 4) ** 2 * 4 < 120) * 180 +
           rng.integers(0, 30, z.shape)).astype(np.uint8)
    if "lzw" in kw:  # (tifffile writes LZW only with imagecodecs: tiffcp, as the repro did)
        if not shutil.which("tiffcp"):
            pytest.skip("tiffcp (libtiff-tools) is not installed")
        tiff_stack(tmp_path / "raw.tif", vol)
        subprocess.run(["tiffcp", "-c", "lzw", "-r", str(kw["lzw"]), str(tmp_path / "raw.tif"),
                        str(tmp_path / "in.tif")], check=True)
    else:
        tiff_stack(tmp_path / "in.tif", vol, **kw)
    r = run(edgel_cmd, "detect", tmp_path / "in.tif", "--volume", "-o", tmp_path / "whole.tif",
            *ITK)
    assert r.returncode == 0, r.stderr
    for tile in ("8x8x2", "13x5x3", "41x37x1"):
        out = tmp_path / f"b{tile}.tif"
        r = run(edgel_cmd, "detect", tmp_path / "in.tif", "--volume", "-o", out, *ITK,
                "--tile", tile)
        assert r.returncode == 0, (tile, r.stderr)
        tifffile = pytest.importorskip("tifffile")
        assert np.array_equal(tifffile.imread(out), tifffile.imread(tmp_path / "whole.tif"))


def test_many_pages_read_in_linear_time(edgel_cmd, tmp_path):
    """The pages' directories are walked once, not sought from the first each time: 20,000
    tiny pages take about a second."""
    tiff_stack(tmp_path / "in.tif", np.zeros((20000, 1, 1), np.uint8))
    t = time.time()
    r = run(edgel_cmd, "detect", tmp_path / "in.tif", "--volume", "-o", tmp_path / "out.tif",
            *ITK, timeout=60)
    assert r.returncode == 0, r.stderr
    assert time.time() - t < 20


def test_stack_tile_larger_than_memory_refused(edgel_cmd, tmp_path):
    """Pages of 16x4096 float in one 4096x4096 deflate tile (64 MB decoded, a small file):
    refused before inflating where a tile passes a quarter of --memory, and where it fits
    decoded once for all the bricks that share it."""
    a = np.zeros((3, 16, 4096), np.float32)
    a[:, :, 2000:] = 100
    tiff_stack(tmp_path / "in.tif", a, compression="zlib", tile=(4096, 4096))
    for tile in ([], ["--tile", "64x16x2"]):
        code, err, peak = run_peak(edgel_cmd, "detect", tmp_path / "in.tif", "--volume", "-o",
                                   tmp_path / "out.tif", *ITK, "--memory", "64M", *tile)
        assert code == 1 and "tiles take 67 MB" in err, err
        assert peak < 64, peak  # (inflating the tile would take 1 GB)
        assert not (tmp_path / "out.tif").exists()
    t = time.time()
    r = run(edgel_cmd, "detect", tmp_path / "in.tif", "--volume", "-o", tmp_path / "out.tif",
            *ITK, "--memory", "1G", "--tile", "64x16x2")
    assert r.returncode == 0, r.stderr
    assert time.time() - t < 30  # (64 bricks, each tile decoded once: not 64 times)


def test_metaimage_colon_keys_read_as_itk_reads_them(edgel_cmd, tmp_path):
    (tmp_path / "eq.mha").write_bytes(b"ObjectType = Image\nNDims = 3\nDimSize = 16 16 6\n"
                                      b"ElementType = MET_UCHAR\nElementDataFile = LOCAL\n" +
                                      VOXELS.tobytes())
    (tmp_path / "colon.mha").write_bytes(b"ObjectType: Image\nNDims: 3\nDimSize: 16 16 6\n"
                                         b"ElementType: MET_UCHAR\nElementDataFile: LOCAL\n" +
                                         VOXELS.tobytes())
    for name in ("eq", "colon"):
        r = run(edgel_cmd, "detect", tmp_path / f"{name}.mha", "-o", tmp_path / f"{name}-o.mha",
                *ITK)
        assert r.returncode == 0, r.stderr
    assert (tmp_path / "eq-o.mha").read_bytes() == (tmp_path / "colon-o.mha").read_bytes()


@pytest.mark.parametrize("kind", ["nrrd", "mha"])
def test_bad_spacings_not_copied_into_the_output(edgel_cmd, tmp_path, kind):
    """'spacings: nan -1 0', which ITK refuses, is not copied into the output: it holds the
    spacing edgel used (1 for each bad value), which ITK reads."""
    if kind == "nrrd":
        nrrd(tmp_path / "in.nrrd", BASE + ["encoding: raw", "spacings: nan -1 0"],
             VOXELS.tobytes())
    else:
        (tmp_path / "in.mha").write_bytes(b"NDims = 3\nDimSize = 16 16 6\nElementSpacing = "
                                          b"nan -1 0\nElementType = MET_UCHAR\n"
                                          b"ElementDataFile = LOCAL\n" + VOXELS.tobytes())
    out = tmp_path / f"out.{kind}"
    r = run(edgel_cmd, "detect", tmp_path / f"in.{kind}", "-o", out, *ITK)
    assert r.returncode == 0, r.stderr
    head = out.read_bytes().split(b"\n\n" if kind == "nrrd" else b"ElementDataFile")[0]
    assert b"nan" not in head and b"-1" not in head, head
    itk = pytest.importorskip("itk")
    img = itk.imread(str(out))
    assert tuple(img.GetSpacing()) == (1.0, 1.0, 1.0)


@pytest.fixture
def full_disk(tmp_path):
    """A 192 KB tmpfs (where this user may mount one: root, as in CI), or a skip."""
    d = tmp_path / "small"
    d.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=192k", "tmpfs", str(d)],
                      capture_output=True).returncode:
        pytest.skip("cannot mount a small tmpfs here")
    yield d
    subprocess.run(["umount", str(d)])


def test_full_disk_named_as_such(nifti_cmd, tmp_path, full_disk):
    """A full disk under a .nii output or under a compressed volume's scratch copy is named
    as such (not an encoder error or damaged voxels), and leaves nothing."""
    import gzip
    vol = np.random.default_rng(2).integers(0, 255, (60, 64, 64), dtype=np.uint8)
    nib.save(nib.Nifti1Image(vol.T.copy(), np.eye(4)), tmp_path / "in.nii")
    r = run(nifti_cmd, "detect", tmp_path / "in.nii", "-o", full_disk / "out.nii", *ITK)
    assert r.returncode == 1 and "No space left" in r.stderr, r.stderr
    hdr = "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 64 64 60\nencoding: gzip\n\n"
    (tmp_path / "in.nrrd").write_bytes(hdr.encode() + gzip.compress(vol.tobytes()))
    r = run(nifti_cmd, "detect", tmp_path / "in.nrrd", "-o", full_disk / "out.nrrd", *ITK,
            "--tile", "32x32x8")
    assert r.returncode == 1 and ("free" in r.stderr or "No space left" in r.stderr), r.stderr
    assert "damaged" not in r.stderr
    assert list(full_disk.iterdir()) == []


def test_mhd_written_back_as_mhd(edgel_cmd, tmp_path):
    """A .mhd input's edges go to a .mhd with its voxels in NAME.raw beside it (the input's
    format), whole and in bricks alike, read by ITK with the input's spacing; a NAME.raw that
    is the input's voxels is refused."""
    (tmp_path / "in.raw").write_bytes(VOXELS.tobytes())
    (tmp_path / "in.mhd").write_text("ObjectType = Image\nNDims = 3\nDimSize = 16 16 6\n"
                                     "ElementSpacing = 0.5 0.5 2\nElementType = MET_UCHAR\n"
                                     "ElementDataFile = in.raw\n")
    for name, extra in (("whole", []), ("bricks", ["--tile", "8x8x3"])):
        r = run(edgel_cmd, "detect", tmp_path / "in.mhd", "-o", tmp_path / f"{name}.mhd",
                *ITK, *extra)
        assert r.returncode == 0, r.stderr
        assert f"ElementDataFile = {name}.raw" in (tmp_path / f"{name}.mhd").read_text()
    assert (tmp_path / "whole.raw").read_bytes() == (tmp_path / "bricks.raw").read_bytes()
    r = run(edgel_cmd, "detect", tmp_path / "in.mhd", "-o", tmp_path / "m.mha", *ITK)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "m.mha").read_bytes().endswith((tmp_path / "whole.raw").read_bytes())
    r = run(edgel_cmd, "detect", tmp_path / "in.mhd", "-o", tmp_path / "in.mhd", *ITK)
    assert r.returncode == 2
    (tmp_path / "b.mhd").write_text((tmp_path / "in.mhd").read_text().replace("in.raw",
                                                                                "x.raw"))
    (tmp_path / "x.raw").write_bytes(VOXELS.tobytes())
    r = run(edgel_cmd, "detect", tmp_path / "b.mhd", "-o", tmp_path / "x.mhd", *ITK)
    assert r.returncode == 2 and "holds the input's voxels" in r.stderr, r.stderr
    assert (tmp_path / "x.raw").read_bytes() == VOXELS.tobytes()
    itk = pytest.importorskip("itk")
    img = itk.imread(str(tmp_path / "whole.mhd"))
    assert tuple(img.GetSpacing()) == (0.5, 0.5, 2.0)
    assert itk.array_from_image(img).sum() > 0
