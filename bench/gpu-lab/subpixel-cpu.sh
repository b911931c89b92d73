#!/usr/bin/env bash
# Sub-pixel curves on a many-core host without network access (a GPU host: copy in data-local
# with bsds500 and devernay_1.0, and deps): a CPU build with the reference program as oracle,
# test_subpixel, bench/bench_subpixel.py at every core against the reference, and the Python
# conformance tests on every BSDS500 photograph. Logs and the table under $OUT.
#   OUT=out/subpixel bash bench/gpu-lab/subpixel-cpu.sh
set -o pipefail
OUT=${OUT:-out/subpixel}; mkdir -p "$OUT"
d=$PWD/deps
args=(-DPNG_PNG_INCLUDE_DIR=$d/include -DPNG_LIBRARY=$d/lib/libpng16.so -DZLIB_INCLUDE_DIR=$d/include -DZLIB_LIBRARY=$d/lib/libz.so -DJPEG_INCLUDE_DIR=$d/include -DJPEG_LIBRARY=$d/lib/libjpeg.so -DEDGEL_TIFF=bundled)
export LD_LIBRARY_PATH=$d/lib:${LD_LIBRARY_PATH:-}
cmake --preset quick -B /tmp/bq "${args[@]}" -DEDGEL_DEVERNAY_DIR=$PWD/data-local/devernay_1.0 > $OUT/configure.log 2>&1 || { tail -20 $OUT/configure.log; exit 1; }
cmake --build /tmp/bq -j16 > $OUT/build.log 2>&1 || { grep -E "error" $OUT/build.log | head; exit 1; }
nproc; lscpu | grep -E "Model name|^CPU\(s\)"
/tmp/bq/tests/test_subpixel | tail -1
export PYTHONUNBUFFERED=1
EDGEL_LIBRARY=/tmp/bq/libedgel.so EDGEL_BSDS500=$PWD/data-local/bsds500 python3 bench/bench_subpixel.py --oracle /tmp/bq/tests/devernay_oracle 2>&1 | tee $OUT/bench_subpixel.md
EDGEL_BUILD_DIR=/tmp/bq EDGEL_BSDS500=$PWD/data-local/bsds500 EDGEL_SUBPIXEL_PHOTOS=1000 python3 -m pytest -q -x tests/python/test_subpixel.py 2>&1 | tail -3
