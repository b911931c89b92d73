"""Volume files through the command: `edgel detect IN.nii[.gz] -o OUT.nii[.gz] --preset itk`
equals edgel.canny_itk on the same voxels and ITK reading the same file, keeps the input's
header (affine, voxel size), writes its stages, and refuses what it cannot read (4-D files,
complex voxels, truncated data, headers whose size passes --memory, garbage) with a message,
leaving nothing behind. Uses nibabel (and its bundled test scans) to write and read files."""
import gzip
import subprocess

import numpy as np
import pytest

import edgel

nib = pytest.importorskip("nibabel")
from nibabel.testing import data_path  # noqa: E402

ANATOMICAL = data_path / "anatomical.nii"  # a 33x41x25 MRI, int16, 2 mm voxels


def run(cmd, *args):
    return subprocess.run([cmd, *map(str, args)], capture_output=True, text=True, timeout=120)


def zyx(img):
    """A nibabel image's voxels as float32 (z, y, x), as ITK's reader sees them."""
    return np.ascontiguousarray(np.asarray(img.get_fdata(dtype=np.float32)).T)


def spacing_zyx(img):
    return tuple(float(z) for z in img.header.get_zooms()[:3][::-1])


@pytest.fixture(scope="module")
def cli_available(edgel_cmd):
    r = run(edgel_cmd, "--version")
    if "NIfTI" not in r.stdout:
        pytest.skip("the command was built without nifticlib")
    return edgel_cmd


def test_anatomical_scan_equals_python_and_itk(cli_available, tmp_path):
    out = tmp_path / "edges.nii.gz"
    r = run(cli_available, "detect", ANATOMICAL, "-o", out, "--preset", "itk", "--variance",
            "4", "--upper", "30", "--lower", "15")
    assert r.returncode == 0, r.stderr
    src, got = nib.load(ANATOMICAL), nib.load(out)
    assert got.shape == src.shape and got.get_data_dtype() == np.uint8
    assert np.allclose(got.affine, src.affine)
    assert got.header.get_zooms() == src.header.get_zooms()
    want = edgel.canny_itk(zyx(src), 4.0, 0.01, 30.0, 15.0, spacing=spacing_zyx(src))
    edges = np.asarray(got.dataobj).T
    assert set(np.unique(edges)) <= {0, 1} and edges.sum() > 1000
    assert np.array_equal(edges, want.astype(np.uint8))
    itk = pytest.importorskip("itk")
    f3 = itk.Image[itk.F, 3]
    f = itk.CannyEdgeDetectionImageFilter[f3, f3].New(
        Input=itk.imread(str(ANATOMICAL), itk.F), Variance=[4.0] * 3, MaximumError=[0.01] * 3,
        UpperThreshold=30.0, LowerThreshold=15.0)
    f.Update()
    assert np.array_equal(itk.array_from_image(f.GetOutput()), want)


def test_types_scaling_stages_and_nifti2(cli_available, tmp_path):
    rng = np.random.default_rng(40)
    base = (rng.random((19, 23, 11)) * 200).astype(np.float32)
    affine = np.diag([0.7, 0.9, 2.5, 1.0])
    affine[:3, 3] = (-10, 4, 30)
    cases = [("u8.nii", nib.Nifti1Image(base.astype(np.uint8), affine)),
             ("i16.nii.gz", nib.Nifti1Image(base.astype(np.int16), affine)),
             ("f64.nii", nib.Nifti1Image(base.astype(np.float64), affine)),
             ("v2.nii.gz", nib.Nifti2Image(base.astype(np.uint16), affine))]
    scaled = nib.Nifti1Image(base.astype(np.int16), affine)
    scaled.header.set_slope_inter(0.5, -3.0)
    cases.append(("scaled.nii", scaled))
    for name, img in cases:
        path = tmp_path / name
        nib.save(img, path)
        src = nib.load(path)
        want = edgel.canny_itk(zyx(src), 2.0, 0.01, 10.0, 4.0, spacing=spacing_zyx(src))
        out = tmp_path / ("e-" + name)
        r = run(cli_available, "detect", path, "-o", out, "--preset", "itk", "--variance", "2",
                "--upper", "10", "--lower", "4")
        assert r.returncode == 0, (name, r.stderr)
        got = nib.load(out)
        assert np.array_equal(np.asarray(got.dataobj).T, want.astype(np.uint8)), name
        assert np.allclose(got.affine, src.affine), name
        assert isinstance(got, nib.Nifti1Image), name  # written as NIfTI-1
    stages = {"suppressed": None, "smoothed": None}
    src = nib.load(tmp_path / "u8.nii")
    edgel.canny_itk(zyx(src), 2.0, 0.01, 10.0, 4.0, spacing=spacing_zyx(src), stages=stages)
    for stage in stages:
        out = tmp_path / f"{stage}.nii"
        r = run(cli_available, "detect", tmp_path / "u8.nii", "-o", out, "--preset", "itk",
                "--variance", "2", "--upper", "10", "--lower", "4", "--stage", stage)
        assert r.returncode == 0, r.stderr
        got = nib.load(out)
        assert got.get_data_dtype() == np.float32
        assert np.array_equal(np.asarray(got.dataobj).T, stages[stage]), stage


def test_refusals_leave_nothing(cli_available, tmp_path):
    rng = np.random.default_rng(41)
    vol = (rng.random((9, 8, 7)) * 100).astype(np.float32)
    nib.save(nib.Nifti1Image(vol, np.eye(4)), tmp_path / "ok.nii")
    nib.save(nib.Nifti1Image(np.zeros((5, 6, 7, 3), np.float32), np.eye(4)), tmp_path / "4d.nii")
    nib.save(nib.Nifti1Image(np.zeros((5, 6, 7), np.complex64), np.eye(4)),
             tmp_path / "complex.nii")
    whole = (tmp_path / "ok.nii").read_bytes()
    (tmp_path / "cut.nii").write_bytes(whole[:len(whole) - 100])
    (tmp_path / "garbage.nii").write_bytes(bytes(rng.integers(0, 256, 600, dtype=np.uint8)))
    # a header saying 2000^3 voxels over 4 MB of zeros: larger than --memory, so it runs in
    # bricks (where three 2000x2000 planes fit), whose decompressed copy stops where the
    # stream does
    big = nib.Nifti1Header()
    big.set_data_shape((2000, 2000, 2000))
    big.set_data_dtype(np.uint8)
    with gzip.open(tmp_path / "bomb.nii.gz", "wb") as f:
        f.write(big.binaryblock + b"\0" * 4)
        f.write(b"\0" * (1 << 22))
    itk_flags = ["--preset", "itk", "--variance", "1"]
    cases = [("4d.nii", itk_flags, 1, "3-D at most"),
             ("complex.nii", itk_flags, 1, "complex"),
             ("cut.nii", itk_flags, 1, "truncated"),
             ("garbage.nii", itk_flags, 1, "NIfTI"),
             ("missing.nii", itk_flags, 1, "missing.nii"),
             ("bomb.nii.gz", itk_flags + ["--memory", "64M"], 1, "--memory"),
             ("bomb.nii.gz", itk_flags + ["--memory", "256M"], 1, "cut short"),
             ("ok.nii", [], 2, "--preset itk"),
             ("ok.nii", itk_flags + ["--stage", "dx"], 2, "smoothed and suppressed")]
    for name, flags, code, needle in cases:
        out = tmp_path / "out.nii.gz"
        r = run(cli_available, "detect", tmp_path / name, "-o", out, *flags)
        assert r.returncode == code and needle in r.stderr, (name, r.returncode, r.stderr)
        assert not out.exists(), name
    r = run(cli_available, "detect", tmp_path / "ok.nii", "-o", tmp_path / "out.png", *itk_flags)
    assert r.returncode == 2 and ".nii" in r.stderr
    r = run(cli_available, "detect", tmp_path / "ok.nii", "-o", tmp_path / "ok.nii", *itk_flags)
    assert r.returncode == 2 and "input file" in r.stderr
    leftovers = {p.name for p in tmp_path.iterdir()} - {
        "ok.nii", "4d.nii", "complex.nii", "cut.nii", "garbage.nii", "bomb.nii.gz"}
    assert not leftovers, leftovers


@pytest.mark.parametrize("names, out_ext", [
    (("raw.mha", "zipped.mha", "pair.mhd"), ".mha"),
    (("raw.nrrd", "zipped.nrrd", "pair.nhdr"), ".nrrd")])
def test_itk_written_files_equal_itk_and_keep_the_header(edgel_cmd, tmp_path, names, out_ext):
    """MetaImage (.mha raw or compressed, .mhd with its .raw) and NRRD (.nrrd raw or gzip,
    .nhdr with its data file) written by ITK: the edges, whole and in bricks, equal ITK's
    filter on the image ITK reads from the same file, and the result keeps the input's
    spacing, origin and direction (and a NRRD's encoding)."""
    itk = pytest.importorskip("itk")
    rng = np.random.default_rng(42)
    z, y, x = np.mgrid[0:14, 0:23, 0:19].astype(np.float32)
    vol = (((x - 9) ** 2 + (y - 11) ** 2 + (z - 7) ** 2 < 36) * 300 +
           rng.standard_normal(x.shape) * 20).astype(np.int16)
    image = itk.image_from_array(vol)
    image.SetSpacing([0.8, 0.9, 2.5])
    image.SetOrigin([-12.0, 4.5, 30.0])
    direction = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])
    image.SetDirection(itk.matrix_from_array(direction))
    f3 = itk.Image[itk.F, 3]
    for name, compress in zip(names, (False, True, False)):
        path = tmp_path / name
        itk.imwrite(image, str(path), compression=compress)
        f = itk.CannyEdgeDetectionImageFilter[f3, f3].New(
            Input=itk.imread(str(path), itk.F), Variance=[3.0] * 3, MaximumError=[0.01] * 3,
            UpperThreshold=60.0, LowerThreshold=25.0)
        f.Update()
        want = itk.array_from_image(f.GetOutput())
        assert want.sum() > 50
        for extra in ([], ["--tile", "7x9x4"]):
            out = tmp_path / ("e-" + name.split(".")[0] + out_ext)
            r = run(edgel_cmd, "detect", path, "-o", out, "--preset", "itk", "--variance", "3",
                    "--upper", "60", "--lower", "25", *extra)
            assert r.returncode == 0, (name, r.stderr)
            got = itk.imread(str(out))
            assert np.array_equal(itk.array_from_image(got), want.astype(np.uint8)), name
            assert np.allclose(itk.spacing(got), [0.8, 0.9, 2.5]), name
            assert np.allclose(itk.origin(got), [-12.0, 4.5, 30.0]), name
            assert np.allclose(itk.array_from_matrix(got.GetDirection()), direction), name
            if out_ext == ".nrrd":
                assert (b"encoding: gzip" in out.read_bytes()[:400]) == compress


@pytest.mark.parametrize("name, header", [
    ("msb.mha", "ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = True\n"
                "DimSize = 19 23 14\nElementSpacing = 0.8 0.9 2.5\nElementType = MET_SHORT\n"
                "ElementDataFile = LOCAL\n"),
    ("msb.nrrd", "NRRD0004\ntype: short\ndimension: 3\nsizes: 19 23 14\nspacings: 0.8 0.9 2.5\n"
                 "endian: big\nencoding: raw\n\n")])
def test_big_endian_files_written_by_hand(edgel_cmd, tmp_path, name, header):
    """Big-endian shorts with their spacing: edgel.canny_itk's edges with that spacing."""
    itk = pytest.importorskip("itk")
    rng = np.random.default_rng(42)
    z, y, x = np.mgrid[0:14, 0:23, 0:19].astype(np.float32)
    vol = (((x - 9) ** 2 + (y - 11) ** 2 + (z - 7) ** 2 < 36) * 300 +
           rng.standard_normal(x.shape) * 20).astype(np.int16)
    (tmp_path / name).write_bytes(header.encode() + vol.astype(">i2").tobytes())
    out = tmp_path / ("e-" + name)
    r = run(edgel_cmd, "detect", tmp_path / name, "-o", out, "--preset", "itk", "--variance",
            "3", "--upper", "60", "--lower", "25")
    assert r.returncode == 0, r.stderr
    want = edgel.canny_itk(vol.astype(np.float32), 3.0, 0.01, 60.0, 25.0,
                           spacing=(2.5, 0.9, 0.8))
    got = itk.imread(str(out))
    assert want.sum() > 50 and np.array_equal(itk.array_from_image(got), want.astype(np.uint8))
    assert np.allclose(itk.spacing(got), [0.8, 0.9, 2.5])


def test_metaimage_refusals_leave_nothing(edgel_cmd, tmp_path):
    def mha(name, lines, data=b""):
        (tmp_path / name).write_bytes(("\n".join(lines) + "\n").encode() + data)
    base = ["ObjectType = Image", "NDims = 3", "BinaryData = True", "DimSize = 4 5 6"]
    voxels = bytes(120)
    mha("ok.mha", base + ["ElementType = MET_UCHAR", "ElementDataFile = LOCAL"], voxels)
    mha("4d.mha", ["NDims = 4", "DimSize = 4 5 6 2", "ElementType = MET_UCHAR",
                   "ElementDataFile = LOCAL"], voxels * 2)
    mha("rgb.mha", base + ["ElementNumberOfChannels = 3", "ElementType = MET_UCHAR",
                           "ElementDataFile = LOCAL"], voxels * 3)
    mha("ascii.mha", ["NDims = 3", "BinaryData = False", "DimSize = 4 5 6",
                      "ElementType = MET_UCHAR", "ElementDataFile = LOCAL"], b"0 " * 120)
    mha("cut.mha", base + ["ElementType = MET_UCHAR", "ElementDataFile = LOCAL"], voxels[:50])
    mha("zipbad.mha", base + ["CompressedData = True", "ElementType = MET_UCHAR",
                              "ElementDataFile = LOCAL"], b"not zlib at all" * 4)
    mha("cplx.mha", base + ["ElementType = MET_COMPLEX", "ElementDataFile = LOCAL"], voxels)
    mha("huge.mha", ["NDims = 3", "DimSize = 2000 2000 2000", "ElementType = MET_FLOAT",
                     "ElementDataFile = LOCAL"], voxels)
    mha("wide.mha", ["NDims = 3", "DimSize = 60000 60000 2", "ElementType = MET_FLOAT",
                     "ElementDataFile = LOCAL"], voxels)
    mha("nofile.mha", base + ["ElementType = MET_UCHAR", "ElementDataFile = missing.raw"])
    (tmp_path / "junk.mha").write_bytes(bytes(range(256)) * 4)
    flags = ["--preset", "itk", "--variance", "1"]
    cases = [("4d.mha", "2-D and 3-D"), ("rgb.mha", "channels"), ("ascii.mha", "ASCII"),
             ("cut.mha", "truncated"), ("zipbad.mha", "compressed"), ("cplx.mha", "ElementType"),
             ("huge.mha", "truncated"), ("wide.mha", "--memory"), ("nofile.mha", "missing.raw"),
             ("junk.mha", "MetaImage")]
    for name, needle in cases:
        out = tmp_path / "out.mha"
        r = run(edgel_cmd, "detect", tmp_path / name, "-o", out, *flags, "--memory", "256M")
        assert r.returncode == 1 and needle in r.stderr, (name, r.stderr)
        assert not out.exists(), name
    for target in ("out.nrrd", "out.nii"):  # (.mha and .mhd hold a MetaImage's result)
        r = run(edgel_cmd, "detect", tmp_path / "ok.mha", "-o", tmp_path / target, *flags)
        assert r.returncode == 2 and ".mha or .mhd" in r.stderr, (target, r.stderr)
    r = run(edgel_cmd, "detect", tmp_path / "ok.mha", "-o", tmp_path / "out.mha", *flags)
    assert r.returncode == 0, r.stderr
    leftovers = {p.name for p in tmp_path.iterdir()} - {n for n, _ in cases} - {
        "ok.mha", "out.mha"}
    assert not leftovers, leftovers


def test_bricks_equal_the_whole_volume(edgel_cmd, tmp_path):
    """A volume larger than --memory, or any with --tile WxHxD, runs in bricks read from the
    file (uncompressed in place, compressed through a scratch copy): the same edges as the
    whole volume, the same header, a progress line, and no scratch file left behind."""
    itk = pytest.importorskip("itk")
    rng = np.random.default_rng(7)
    z, y, x = np.mgrid[0:21, 0:26, 0:31].astype(np.float32)
    vol = (((x - 14) ** 2 + (y - 12) ** 2 + (z - 9) ** 2 < 64) * 300 + (x + y > 30) * 150 +
           rng.standard_normal(x.shape) * 30).astype(np.int16)
    image = itk.image_from_array(vol)
    image.SetSpacing([0.8, 0.9, 2.5])
    image.SetOrigin([-12.0, 4.5, 30.0])
    files = {"raw.mha": False, "zipped.mha": True, "pair.mhd": False}
    for name, compress in files.items():
        itk.imwrite(image, str(tmp_path / name), compression=compress)
    header = ("ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = True\n"
              "DimSize = 31 26 21\nElementSpacing = 0.8 0.9 2.5\nElementType = MET_SHORT\n"
              "ElementDataFile = LOCAL\n")
    (tmp_path / "msb.mha").write_bytes(header.encode() + vol.astype(">i2").tobytes())
    names = list(files) + ["msb.mha"]
    if "NIfTI" in run(edgel_cmd, "--version").stdout:
        scaled = nib.Nifti1Image((vol.T * 2).astype(">i2"), np.diag([0.8, 0.9, 2.5, 1.0]))
        scaled.header.set_slope_inter(0.5, 3.0)
        nib.save(scaled, tmp_path / "scaled.nii.gz")
        nib.save(nib.Nifti1Image(vol.T.astype(np.float32), np.diag([0.8, 0.9, 2.5, 1.0])),
                 tmp_path / "float.nii")
        nib.save(nib.Nifti1Image(vol.T.astype(np.uint16), np.eye(4)), tmp_path / "u16.nii.gz")
        names += ["scaled.nii.gz", "float.nii", "u16.nii.gz"]
    flags = ["--preset", "itk", "--variance", "3", "--upper", "60", "--lower", "25"]
    for name in names:
        out = ".nii.gz" if name.endswith(".gz") else ".nii" if name.endswith(".nii") else ".mha"
        whole, bricked, small = (tmp_path / (k + "-" + name.split(".")[0] + out)
                                 for k in ("whole", "bricks", "small"))
        r = run(edgel_cmd, "detect", tmp_path / name, "-o", whole, *flags, "-q")
        assert r.returncode == 0, (name, r.stderr)
        r = run(edgel_cmd, "detect", tmp_path / name, "-o", bricked, *flags, "--tile", "9x11x7")
        assert r.returncode == 0 and "in bricks of 9x11x7" in r.stderr, (name, r.stderr)
        r = run(edgel_cmd, "detect", tmp_path / name, "-o", small, *flags, "--memory", "300K")
        assert r.returncode == 0 and "in bricks of" in r.stderr, (name, r.stderr)
        want = itk.array_from_image(itk.imread(str(whole)))
        assert want.sum() > 100, name
        for got in (bricked, small):
            image_got = itk.imread(str(got))
            assert np.array_equal(itk.array_from_image(image_got), want), (name, got)
            assert np.allclose(itk.spacing(image_got), itk.spacing(itk.imread(str(whole))))
            assert np.allclose(itk.origin(image_got), itk.origin(itk.imread(str(whole))))
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert not leftovers, leftovers


def test_bricks_refusals_leave_nothing(edgel_cmd, tmp_path):
    base = ["ObjectType = Image", "NDims = 3", "BinaryData = True", "DimSize = 40 30 20",
            "ElementType = MET_UCHAR", "ElementDataFile = LOCAL"]
    (tmp_path / "cut.mha").write_bytes(("\n".join(base) + "\n").encode() + bytes(5000))
    (tmp_path / "ok.mha").write_bytes(("\n".join(base) + "\n").encode() + bytes(24000))
    (tmp_path / "zipcut.mha").write_bytes(("\n".join(base[:-1] + ["CompressedData = True",
                                                                 base[-1]]) + "\n").encode() +
                                          __import__("zlib").compress(bytes(24000))[:40])
    flags = ["--preset", "itk", "--variance", "1"]
    for name, needle in [("cut.mha", "truncated"), ("zipcut.mha", "cut short")]:
        r = run(edgel_cmd, "detect", tmp_path / name, "-o", tmp_path / "out.mha", *flags,
                "--tile", "8x8x8")
        assert r.returncode == 1 and needle in r.stderr, (name, r.stderr)
        assert not (tmp_path / "out.mha").exists()
    for args, needle in [(["--tile", "8x8"], "WxHxD"),
                         (["--tile", "8x8x8", "--stage", "smoothed"], "not stages"),
                         (["--tile", "8x8x0"], "WxHxD")]:
        r = run(edgel_cmd, "detect", tmp_path / "ok.mha", "-o", tmp_path / "out.mha", *flags,
                *args)
        assert r.returncode == 2 and needle in r.stderr, (args, r.stderr)
    r = run(edgel_cmd, "detect", tmp_path / "ok.mha", "-o", tmp_path / "out.pgm", *flags,
            "--tile", "8x8x8")
    assert r.returncode == 2 and "input's format" in r.stderr, r.stderr
    r2 = subprocess.run([edgel_cmd, "detect", "-o", str(tmp_path / "o.png"), "--tile", "8x8x8",
                         str(tmp_path / "none.png")], capture_output=True, text=True)
    assert r2.returncode == 2 and "volumes" in r2.stderr, r2.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.mha", "ok.mha", "zipcut.mha"]


def test_nrrd_refusals_leave_nothing(edgel_cmd, tmp_path):
    def nrrd(name, lines, data=b""):
        (tmp_path / name).write_bytes(("\n".join(["NRRD0004"] + lines) + "\n\n").encode() + data)
    base = ["type: uchar", "dimension: 3", "sizes: 4 5 6"]
    voxels = bytes(120)
    nrrd("ok.nrrd", base + ["encoding: raw"], voxels)
    cases = {"4d.nrrd": (["type: uchar", "dimension: 4", "sizes: 3 4 5 6", "encoding: raw"],
                         voxels * 3, "2-D and 3-D"),
             "bz.nrrd": (base + ["encoding: bzip2"], voxels, "raw and gzip"),
             "text.nrrd": (base + ["encoding: ascii"], b"0 " * 120, "raw and gzip"),
             "cut.nrrd": (base + ["encoding: raw"], voxels[:50], "truncated"),
             "gzbad.nrrd": (base + ["encoding: gzip"], b"not gzip at all" * 4, "compressed"),
             "noendian.nrrd": (["type: float", "dimension: 3", "sizes: 4 5 6",
                                "encoding: raw"], voxels * 4, "endian"),
             "block.nrrd": (["type: block", "dimension: 3", "sizes: 4 5 6", "encoding: raw"],
                            voxels, "type block"),
             "huge.nrrd": (["type: float", "dimension: 3", "sizes: 60000 60000 2",
                            "endian: little", "encoding: raw"], voxels, "--memory"),
             "nofile.nhdr": (base + ["encoding: raw", "data file: missing.raw"], b"",
                             "missing.raw"),
             "nosizes.nrrd": (["type: uchar", "dimension: 3", "encoding: raw"], voxels,
                              "sizes")}
    for name, (lines, data, _) in cases.items():
        nrrd(name, lines, data)
    (tmp_path / "junk.nrrd").write_bytes(bytes(range(256)) * 4)
    cases["junk.nrrd"] = (None, None, "NRRD")
    flags = ["--preset", "itk", "--variance", "1"]
    for name, (_, _, needle) in cases.items():
        out = tmp_path / "out.nrrd"
        r = run(edgel_cmd, "detect", tmp_path / name, "-o", out, *flags, "--memory", "256M")
        assert r.returncode == 1 and needle in r.stderr, (name, r.stderr)
        assert not out.exists(), name
    for target in ("out.nhdr", "out.mha"):
        r = run(edgel_cmd, "detect", tmp_path / "ok.nrrd", "-o", tmp_path / target, *flags)
        assert r.returncode == 2 and ".nrrd" in r.stderr, (target, r.stderr)
    r = run(edgel_cmd, "detect", tmp_path / "ok.nrrd", "-o", tmp_path / "out.nrrd", *flags)
    assert r.returncode == 0, r.stderr
    leftovers = {p.name for p in tmp_path.iterdir()} - set(cases) - {"ok.nrrd", "out.nrrd"}
    assert not leftovers, leftovers


def test_tiff_stack_equals_one_call(edgel_cmd, tmp_path):
    """A multi-page TIFF with --volume (ImageJ stacks in strips or tiles, u8, u16 and float
    pages, compressed or not): the edges of edgel.canny_itk on the stack with its voxel size
    (x and y from the resolution, z from ImageJ's spacing), whole and in bricks, written as a
    BigTIFF stack of 0/255 pages with the input's resolution and description."""
    tifffile = pytest.importorskip("tifffile")
    rng = np.random.default_rng(9)
    z, y, x = np.mgrid[0:13, 0:40, 0:37].astype(np.float32)
    base = ((x - 18) ** 2 + (y - 20) ** 2 + (z - 6) ** 2 < 64) * 120 + rng.random(x.shape) * 15
    flags = ["--preset", "itk", "--variance", "2", "--upper", "15", "--lower", "6", "--volume"]
    spacing = (2.0, 0.25, 0.5)  # (z, y, x), as canny_itk takes it: 1 / resolution (x, y)
    for name, vol, kw in [("u8.tif", base.astype(np.uint8), {}),
                          ("u16.tif", (base * 100).astype(np.uint16),
                           {"compression": "zlib", "tile": (16, 16)}),
                          ("f32.tif", base.astype(np.float32) / 7, {"rowsperstrip": 5})]:
        path = tmp_path / name
        tifffile.imwrite(path, vol, imagej=name != "f32.tif", resolution=(2.0, 4.0),
                         metadata={"spacing": 2.0, "unit": "um"} if name != "f32.tif" else None,
                         **kw)
        scale = 100.0 if vol.dtype == np.uint16 else 1 / 7 if vol.dtype == np.float32 else 1.0
        args = ["--preset", "itk", "--variance", "2", "--upper", str(15 * scale), "--lower",
                str(6 * scale), "--volume"]
        want = edgel.canny_itk(vol.astype(np.float32), 2.0, 0.01, 15 * scale, 6 * scale,
                               spacing=spacing if name != "f32.tif" else (1.0, 1.0, 1.0))
        assert want.sum() > 100, name
        for extra in ([], ["--tile", "16x9x4"]):
            out = tmp_path / ("e-" + name)
            r = run(edgel_cmd, "detect", path, "-o", out, *args, *extra)
            assert r.returncode == 0, (name, r.stderr)
            with tifffile.TiffFile(out) as t:
                got = t.asarray()
                assert t.is_bigtiff and len(t.pages) == vol.shape[0]
                page = t.pages[0]
                assert page.tags["XResolution"].value == (2, 1), name
                assert ("spacing=2.0" in (page.description or "")) == (name != "f32.tif")
            assert got.dtype == np.uint8 and set(np.unique(got)) <= {0, 255}
            assert np.array_equal(got, np.where(want > 0, 255, 0).astype(np.uint8)), (name, extra)
    # refusals, nothing written
    tifffile.imwrite(tmp_path / "rgb.tif", np.zeros((3, 8, 8, 3), np.uint8), photometric="rgb")
    with tifffile.TiffWriter(tmp_path / "mixed.tif") as t:
        t.write(np.zeros((8, 8), np.uint8))
        t.write(np.zeros((9, 8), np.uint8))
    tifffile.imwrite(tmp_path / "i32.tif", np.zeros((3, 8, 8), np.int32))
    for name, needle in [("rgb.tif", "gray"), ("mixed.tif", "page 1"), ("i32.tif", "gray")]:
        r = run(edgel_cmd, "detect", tmp_path / name, "-o", tmp_path / "out.tif", *flags)
        assert r.returncode == 1 and needle in r.stderr, (name, r.stderr)
        assert not (tmp_path / "out.tif").exists()
    r = run(edgel_cmd, "detect", tmp_path / "u8.tif", "-o", tmp_path / "out.nii", *flags)
    assert r.returncode == 2 and ".tif" in r.stderr, r.stderr
    png = tmp_path / "flat.png"
    import cv2
    cv2.imwrite(str(png), np.zeros((8, 8), np.uint8))
    r = run(edgel_cmd, "detect", png, "-o", tmp_path / "out.png", *flags)
    assert r.returncode == 2 and "multi-page TIFF" in r.stderr, r.stderr
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
