#!/usr/bin/env bash
# Builds bench_gpu with each of a few values of the CUDA kernels' tuning macros
# (EDGEL_LINK_PLANES, EDGEL_STREAM_WARPS, EDGEL_STREAM_MIN_WARPS) and prints its Canny
# table for each, on the GPU machine (carry data-local and deps). Give the -D flags as
# arguments ('' for the defaults), or edit the list below. EDGEL_VARIANT_SRC=DIR builds the
# source tree in DIR instead (an export of another commit, to time it in the same run).
set -u
src=${EDGEL_VARIANT_SRC:-.}
[ $# -gt 0 ] || set -- "" "-DEDGEL_LINK_PLANES=1" "-DEDGEL_LINK_PLANES=3" "-DEDGEL_STREAM_WARPS=8" \
  "-DEDGEL_STREAM_MIN_WARPS=512" "-DEDGEL_STREAM_MIN_WARPS=2048"
for v in "$@"; do
  d=build-var
  rm -rf $d
  cmake -S "$src" -B $d -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DEDGEL_BUILD_TESTS=ON "-DCMAKE_CUDA_FLAGS=$v" \
    -DPNG_PNG_INCLUDE_DIR=$PWD/deps/include -DPNG_LIBRARY=$PWD/deps/lib/libpng16.so -DZLIB_INCLUDE_DIR=$PWD/deps/include \
    -DZLIB_LIBRARY=$PWD/deps/lib/libz.so -DJPEG_INCLUDE_DIR=$PWD/deps/include -DJPEG_LIBRARY=$PWD/deps/lib/libjpeg.so \
    -DKISSFFT_INCLUDE_DIR=$PWD/deps/kissfft/include -DKISSFFT_LIBRARY=$PWD/deps/kissfft/lib/x86_64-linux-gnu/libkissfft-float.so >/dev/null 2>&1
  cmake --build $d -j16 --target bench_gpu >/dev/null 2>&1 || { echo "build failed $v"; continue; }
  echo "== variant '$v' of $src"
  LD_LIBRARY_PATH=$PWD/deps/lib:$PWD/deps/kissfft/lib/x86_64-linux-gnu timeout 120 ./$d/bench/bench_gpu data-local/bsds500 50 2>&1 | grep -E "^\| (512|1920|3840|7680|device)"
done
