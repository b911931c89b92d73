#!/usr/bin/env bash
# Sub-pixel curves on a GPU host without network access (copy in data-local with bsds500 and
# devernay_1.0, and deps): a CUDA build with the reference program as oracle, test_subpixel,
# the GPU suite (its sub-pixel part compares the GPU with the CPU on every photograph),
# the Python GPU test, bench/bench_subpixel.py (reference, every core, the GPU) and the
# conformance tests on every BSDS500 photograph at every core. With data-local/base.tar (a
# `git archive` of an earlier commit), its CPU build is timed in the same run. Logs and the
# tables under $OUT.
#   OUT=out/subpixel bash bench/gpu-lab/subpixel.sh
set -o pipefail
OUT=${OUT:-out/subpixel}; mkdir -p "$OUT"
EDGEL_CUDA_ARCHS=${EDGEL_CUDA_ARCHS:-90} bash scripts/gpu-build.sh "$OUT" || exit 1
d=$PWD/deps
[ -d "$d/lib" ] && export LD_LIBRARY_PATH=$d/lib:${LD_LIBRARY_PATH:-}
nproc; lscpu | grep -E "Model name"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PYTHONUNBUFFERED=1 EDGEL_BSDS500=$PWD/data-local/bsds500
build-gpu/tests/test_subpixel | tail -1
timeout 420 build-gpu/tests/test_gpu data-local/bsds500 > "$OUT/test_gpu.log" 2>&1; echo "test_gpu: exit $?"
grep -E "subpixel|passed|failed|differs" "$OUT/test_gpu.log" | tail -5
PYTHONPATH=python EDGEL_BUILD_DIR=build-gpu timeout 300 python3 -m pytest -q tests/python/test_gpu_python.py \
  -k subpixel 2>&1 | tail -2
EDGEL_LIBRARY=build-gpu/libedgel.so python3 bench/bench_subpixel.py \
  --oracle build-gpu/tests/devernay_oracle 2>&1 | tee "$OUT/bench_subpixel.md"
if [ -f data-local/base.tar ]; then
  rm -rf /tmp/base && mkdir -p /tmp/base && tar -xf data-local/base.tar -C /tmp/base
  args=(-DEDGEL_WITH_CUDA=OFF -DEDGEL_BUILD_TESTS=OFF -DEDGEL_PYTHON_EXTENSION=OFF -DEDGEL_TIFF=off)
  [ -f /usr/include/png.h ] || args+=(-DPNG_PNG_INCLUDE_DIR=$d/include -DPNG_LIBRARY=$d/lib/libpng16.so
    -DZLIB_INCLUDE_DIR=$d/include -DZLIB_LIBRARY=$d/lib/libz.so -DJPEG_INCLUDE_DIR=$d/include
    -DJPEG_LIBRARY=$d/lib/libjpeg.so)
  (cmake -S /tmp/base -B /tmp/base/build "${args[@]}" && cmake --build /tmp/base/build -j"$(nproc)" --target edgel) \
    > "$OUT/base-build.log" 2>&1 || tail -5 "$OUT/base-build.log"
  echo "base: $(cat data-local/base.commit 2>/dev/null)"
  EDGEL_LIBRARY=/tmp/base/build/libedgel.so python3 bench/bench_subpixel.py \
    --oracle build-gpu/tests/devernay_oracle 2>&1 | tee "$OUT/bench_subpixel_base.md"
fi
EDGEL_BUILD_DIR=build-gpu EDGEL_SUBPIXEL_PHOTOS=1000 timeout 600 python3 -m pytest -q -x \
  tests/python/test_subpixel.py 2>&1 | tail -2
