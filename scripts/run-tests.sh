#!/usr/bin/env bash
# On a fresh machine: install what is missing, build, and run every test that needs no GPU:
#   1. C unit tests and fuzz-corpus replays (ctest), Release build (the default build's CUDA
#      architectures and no compiler warnings checked)
#   2. conformance against OpenCV and ITK, command-line and Python API tests (pytest; needs
#      ../shared/data/bsds500)
#   2b. a 33000x33000 image (over 2^30 pixels) streamed through tiles, against cv2.Canny
#   3. the same C tests in an ASan + UBSan build, and a sanitized run of the randomised
#      conformance tests, the convolution tests, the TIFF readers and the tiled driver through
#      that library and command; the threaded C tests in a ThreadSanitizer build
#   4. each libFuzzer target for a short run (clang; scripts/fuzz.sh, the library instrumented)
#   5. install, then build a small program against it with pkg-config and with CMake
#   6. the wheel (`pip wheel .` repaired by auditwheel): its contents, then installed in a clean
#      virtual environment, the Python tests against it
#   7. the Octave mex (edgel_canny, CudaEdgeRGB, CudaEdge) against the edgel command
#
#   bash scripts/run-tests.sh --quick   the contributor's loop (a few minutes from a warm build):
#      a CPU-only build in build-quick/, the C tests and the Python tests (API, command,
#      conformance on the bundled samples); no sanitizers, fuzzing, wheel or Octave
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bash scripts/setup.sh
py=$root/.venv/bin/python
stage() { echo "== $* (at ${SECONDS}s)"; }

if [ "${1:-}" = --quick ]; then
  t=$SECONDS
  cmake --preset quick >out-quick-configure.log 2>&1 || { cat out-quick-configure.log; exit 1; }
  rm -f out-quick-configure.log
  cmake --build build-quick -j"$(nproc)" >/dev/null
  echo "== C tests (build-quick: CPU only)"
  ctest --test-dir build-quick --output-on-failure
  echo "== Python tests, the bundled samples"
  EDGEL_BUILD_DIR=$root/build-quick EDGEL_BSDS500=/nonexistent "$py" -m pytest -q -p no:warnings \
    tests/python
  echo "quick loop passed in $((SECONDS - t)) s"
  exit 0
fi

stage "build (CUDA code for every architecture from sm_75 on, where nvcc is found)"
mkdir -p out
bash scripts/build.sh -DEDGEL_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=all >out/build.log 2>&1 ||
  { cat out/build.log; exit 1; }
bash scripts/check-cuda-build.sh build out/build.log

stage "layers (includes and calls follow src/'s layers)"
bash scripts/check-layers.sh

stage "C tests"
ctest --test-dir build --output-on-failure

stage "conformance and command-line tests"
EDGEL_REQUIRE_ITK=1 "$py" -m pytest -q -p no:warnings \
  tests/python

stage "an image over 2^30 pixels through edgel detect, against cv2.Canny"
"$py" tests/large_image_check.py build/edgel

stage "sanitizers (ASan + UBSan)"
cmake --preset sanitizers >/dev/null
cmake --build build-asan -j"$(nproc)" >/dev/null
ctest --test-dir build-asan --output-on-failure
ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" \
  EDGEL_BUILD_DIR=$root/build-asan \
  "$py" -m pytest -q tests/python/test_opencv_conformance.py -k "random_crops or noise or gradients or stages or thread"
ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" \
  EDGEL_BUILD_DIR=$root/build-asan "$py" -m pytest -q tests/python/test_subpixel.py -k "thread or golden"
ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" \
  EDGEL_BUILD_DIR=$root/build-asan "$py" -m pytest -q -p no:warnings tests/python/test_filter.py \
  tests/python/test_hostcall.py
# the streaming readers (TIFF layouts, refusals) and the tiled driver, through the sanitized
# command and library (memory limits are measured without the sanitizers' shadow memory)
ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)" \
  EDGEL_BUILD_DIR=$root/build-asan "$py" -m pytest -q -p no:warnings tests/python/test_tiff_input.py \
  tests/python/test_tiled.py -k "not memory_limit"

stage "ThreadSanitizer (the threaded C tests: stripes, stolen rows, joins, shared contexts, curves)"
cmake --preset tsan >/dev/null
cmake --build build-tsan -j"$(nproc)" --target test_api test_threads test_subpixel test_subpixel_stream >/dev/null
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build-tsan --output-on-failure -R "^(api|threads|subpixel|subpixel_stream)$"

stage "fuzzing (libFuzzer, ${EDGEL_FUZZ_SECONDS:=15} s per target, library instrumented)"
JOBS=$(nproc) bash scripts/fuzz.sh "$EDGEL_FUZZ_SECONDS"

stage "install and consume"
prefix=$(mktemp -d)
cmake --install build --prefix "$prefix" >/dev/null
bash tests/install/check-install.sh "$prefix"
rm -rf "$prefix"

stage "the wheel: pip wheel ., auditwheel repair, its contents, the Python tests in a clean venv"
env -u EDGEL_LIBRARY bash scripts/check-wheel.sh

stage "Octave"
bash scripts/build-octave.sh
(cd tests/octave && octave --no-gui --quiet --no-history --eval "test_edgel('$root/build', '$root/samples')")
echo "all test stages passed in ${SECONDS}s"
