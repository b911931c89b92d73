"""The Python module's handling of arrays and errors: every dtype and layout either works
(equal to the packed result) or raises the documented exception."""
import numpy as np
import pytest

import edgel
from conftest import SAMPLES


@pytest.fixture(scope="module")
def image():
    rng = np.random.default_rng(5)
    base = rng.integers(0, 256, (37, 53), dtype=np.uint8)
    return np.ascontiguousarray(np.repeat(np.repeat(base, 3, 0), 3, 1))  # blocky, has edges


def test_version_matches():
    assert edgel.library_version() >= edgel.MIN_VERSION_NUMBER


def test_layouts_equal_packed(image):
    ref = edgel.canny(image, 40, 120)
    assert ref.dtype == np.uint8 and ref.shape == image.shape and (ref > 0).any()
    fortran = np.asfortranarray(image)
    assert np.array_equal(edgel.canny(fortran, 40, 120), ref)
    flipped = np.ascontiguousarray(image[::-1, ::-1])[::-1, ::-1]  # negative strides
    assert np.array_equal(edgel.canny(flipped, 40, 120), ref)
    wide = np.zeros((image.shape[0], image.shape[1] + 11), np.uint8)
    wide[:, 5:5 + image.shape[1]] = image
    assert np.array_equal(edgel.canny(wide[:, 5:5 + image.shape[1]], 40, 120), ref)  # pitched
    rgb = np.dstack([image, image, image])
    assert np.array_equal(edgel.canny(np.asfortranarray(rgb), 40, 120), edgel.canny(rgb, 40, 120))


@pytest.mark.parametrize("dtype", [np.uint16, np.float32, np.int16, np.int32, np.float64,
                                   np.bool_])
def test_other_dtypes_are_refused_by_the_opencv_preset(image, dtype):
    """...naming the presets that read them (the skimage preset reads them all)."""
    with pytest.raises(edgel.EdgelError) as err:
        edgel.canny(image.astype(dtype), 40, 120)
    assert err.value.status == "EDGEL_ERROR_UNSUPPORTED" and "u8" in err.value.message
    assert "skimage preset" in err.value.message


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.complex64])
def test_unknown_dtypes_raise_type_error(image, dtype):
    with pytest.raises(TypeError):
        edgel.canny(image.astype(dtype), 40, 120)


def test_bad_shapes_and_values(image):
    with pytest.raises(ValueError):
        edgel.canny(image[None, :, :, None], 40, 120)
    with pytest.raises(edgel.EdgelError) as err:
        edgel.canny(np.dstack([image, image]), 40, 120)  # 2 channels
    assert err.value.status == "EDGEL_ERROR_INVALID_ARGUMENT"
    with pytest.raises(edgel.EdgelError) as err:
        edgel.canny(image, 40, 120, aperture=4)
    assert err.value.status == "EDGEL_ERROR_INVALID_ARGUMENT" and "aperture" in err.value.message
    with pytest.raises(edgel.EdgelError) as err:
        edgel.canny(image, 40, 120, aperture=-1)  # Scharr needs L2, as in OpenCV
    assert err.value.status == "EDGEL_ERROR_UNSUPPORTED"
    with pytest.raises(edgel.EdgelError) as err:
        edgel.Context("cpu", threads=-1)
    assert err.value.status == "EDGEL_ERROR_INVALID_ARGUMENT"


def test_stages_and_building_blocks(image):
    stages = {"dx": None, "dy": None, "magnitude": None, "suppressed": None, "smoothed": None}
    edges = edgel.canny(image, 40, 120, blur=1.2, stages=stages)
    assert stages["dx"].dtype == np.int16 and stages["magnitude"].dtype == np.int32
    assert np.array_equal(stages["smoothed"], edgel.gaussian_blur(image, 0, 1.2))
    assert set(np.unique(stages["suppressed"])) <= {0, 128, 255}
    assert np.all(stages["suppressed"][edges > 0] > 0)
    rgb = np.dstack([image, image // 2, 255 - image])
    assert np.array_equal(edgel.to_gray(rgb, "rgb"), edgel.to_gray(rgb[:, :, ::-1].copy(), "bgr"))


def test_read_only_and_row_pitched_inputs():
    """Arrays the buffer protocol cannot hand over writable and contiguous (read-only ones,
    column slices with pitched rows) take the slower pointer path and give the same bytes."""
    rng = np.random.default_rng(7)
    img = rng.integers(0, 256, (40, 70), dtype=np.uint8)
    kernel = rng.random((5, 5), dtype=np.float32)
    frozen = img.copy()
    frozen.setflags(write=False)
    part = img[:, 3:53]
    assert not part.flags.c_contiguous
    assert np.array_equal(edgel.canny(frozen, 40, 120), edgel.canny(img, 40, 120))
    assert np.array_equal(edgel.canny(part, 40, 120), edgel.canny(part.copy(), 40, 120))
    assert np.array_equal(edgel.filter2d(frozen, kernel), edgel.filter2d(img, kernel))
    assert np.array_equal(edgel.filter2d(part, kernel), edgel.filter2d(part.copy(), kernel))
    out = np.zeros((40, 70), np.uint8)
    out.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        edgel.filter2d(img, kernel, out=out)
    assert not out.any()


def test_host_out_filled_in_place(image):
    ref = edgel.canny(image, 40, 120)
    out = np.full(image.shape, 7, np.uint8)
    assert edgel.canny(image, 40, 120, out=out) is out
    assert np.array_equal(out, ref)
    wide = np.full((image.shape[0], image.shape[1] + 9), 7, np.uint8)
    edgel.canny(image, 40, 120, out=wide[:, :image.shape[1]])  # pitched rows
    assert np.array_equal(wide[:, :image.shape[1]], ref) and (wide[:, image.shape[1]:] == 7).all()
    itk = np.zeros(image.shape, np.float32)
    assert edgel.canny_itk(image.astype(np.float32), 1.0, 0.01, 20, 10, out=itk) is itk
    assert np.array_equal(itk, edgel.canny_itk(image.astype(np.float32), 1.0, 0.01, 20, 10))
    with pytest.raises(edgel.EdgelError):
        edgel.canny(image, 40, 120, out=np.zeros((5, 5), np.uint8))
    with pytest.raises(edgel.EdgelError):
        edgel.canny(image, 40, 120, out=np.zeros(image.shape, np.int16))
    frozen = np.zeros(image.shape, np.uint8)
    frozen.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        edgel.canny(image, 40, 120, out=frozen)
    with pytest.raises(TypeError):
        edgel.canny(image, 40, 120, out=[[0]])


def test_integers_past_32_bits_raise():
    """No argument wraps to 32 bits (before: 2**32 + 64 columns ran as 64, aperture 2**32 + 3
    as 3, threads 2**32 as 0)."""
    base = np.zeros(4096, np.uint8)
    wide = np.lib.stride_tricks.as_strided(base, (1, 2**32 + 64), (2**32 + 64, 1))
    with pytest.raises(ValueError, match="larger than edgel accepts"):
        edgel.canny(wide)
    with pytest.raises(ValueError, match="larger than edgel accepts"):
        edgel.filter2d(wide, np.ones((3, 3), np.float32))
    img = np.zeros((16, 16), np.uint8)
    for call, name in [(lambda: edgel.canny(img, aperture=2**32 + 3), "aperture"),
                       (lambda: edgel.canny(img, blur_size=2**32 + 3), "blur_size"),
                       (lambda: edgel.Context("cpu", threads=2**32), "threads"),
                       (lambda: edgel.Context("cpu", device=-2**40), "device"),
                       (lambda: edgel.filter2d(img, np.ones((3, 3)), anchor=(2**32 + 1, 0)),
                        "anchor"),
                       (lambda: edgel.gaussian_blur(img, ksize=2**32 + 3), "ksize")]:
        with pytest.raises(ValueError, match=name):
            call()
    with pytest.raises(ValueError, match="backend"):
        edgel.Context("tpu")


def test_one_version():
    """include/edgel.h writes the version once; the module's __version__ is the library's
    (CMake and the package metadata read the header too)."""
    import pathlib
    import re
    header = (pathlib.Path(__file__).resolve().parents[2] / "include" / "edgel.h").read_text()
    major, minor, patch = (int(re.search(rf"#define EDGEL_VERSION_{k} (\d+)", header).group(1))
                           for k in ("MAJOR", "MINOR", "PATCH"))
    assert edgel.library_version() == major * 10000 + minor * 100 + patch
    assert edgel.__version__ == f"{major}.{minor}.{patch}"


def test_input_a_preset_cannot_take_names_the_presets_that_can():
    with pytest.raises(edgel.EdgelError, match="opencv preset reads u8.*itk and skimage presets read it"):
        edgel.canny(np.zeros((8, 8), np.uint16))
    # (a 3-D array is a volume for canny_itk, as for scikit-image; the C API's refusal of
    # colour images for the itk preset is tests/test_itk.c's)
    assert edgel.canny_itk(np.zeros((8, 8, 3), np.uint8)).shape == (8, 8, 3)


def test_cv2_keywords_and_names_give_cv2_bytes():
    """A cv2.Canny call pasted with its keywords, under cv2's own name, in its gradient form,
    on an empty image: cv2's result."""
    import cv2
    img = cv2.imread(str(SAMPLES / "coffee.png"), cv2.IMREAD_GRAYSCALE)
    assert np.array_equal(edgel.canny(img, threshold1=100, threshold2=200),
                          cv2.Canny(img, threshold1=100, threshold2=200))
    assert np.array_equal(
        edgel.Canny(image=img, threshold1=50, threshold2=150, apertureSize=5, L2gradient=True),
        cv2.Canny(image=img, threshold1=50, threshold2=150, apertureSize=5, L2gradient=True))
    out = np.zeros_like(img)
    assert edgel.canny(img, 60, 120, edges=out) is out
    assert np.array_equal(out, cv2.Canny(img, 60, 120))
    dx, dy = cv2.Sobel(img, cv2.CV_16S, 1, 0), cv2.Sobel(img, cv2.CV_16S, 0, 1)
    for args, kw in [((dx, dy, 50, 150), {}), ((dx, dy, 50, 150, None, True), {}),
                     ((), dict(dx=dx, dy=dy, threshold1=40, threshold2=90, L2gradient=True))]:
        assert np.array_equal(edgel.canny(*args, **kw), cv2.Canny(*args, **kw)), (args, kw)
    out = np.zeros_like(img)
    assert edgel.canny(dx, dy, 50, 150, out) is out
    assert np.array_equal(out, cv2.Canny(dx, dy, 50, 150))
    for shape in ((0, 0), (0, 5)):
        empty = np.zeros(shape, np.uint8)
        got = edgel.canny(empty, 50, 150)
        assert got.shape == cv2.Canny(empty, 50, 150).shape == shape and got.dtype == np.uint8
