#!/usr/bin/env bash
# Times variants of the CUDA kernels against each other in one run, on a GPU host (copy in
# data-local and deps): builds bench_gpu once per variant (all at once), then prints its Canny
# table for each variant in turn, EDGEL_VARIANT_ROUNDS times (default 2), so that drift of the
# machine falls on every variant alike.
#
# A variant is an argument: the -D flags of the kernels' tuning macros ('' for the defaults),
# optionally after a source tree and a colon, to time another commit's export beside this one:
#   bash bench/gpu-lab/measure-variants.sh '' '-DEDGEL_FINISH_COMPRESS=1' 'build-old-src:'
set -u
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || set -- "" "-DEDGEL_LINK_FULL=0" "-DEDGEL_STREAM_WARPS=8"
rounds=${EDGEL_VARIANT_ROUNDS:-2}
jobs=$(( $(nproc) / $# )); [ "$jobs" -ge 1 ] || jobs=1
libs=$PWD/deps/lib
build() { # $1: build folder, $2: source tree, $3: flags
  rm -rf "$1"
  cmake -S "$2" -B "$1" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DEDGEL_BUILD_TESTS=ON -DEDGEL_TIFF=off "-DCMAKE_CUDA_FLAGS=$3" \
    -DPNG_PNG_INCLUDE_DIR=$PWD/deps/include -DPNG_LIBRARY=$PWD/deps/lib/libpng16.so -DZLIB_INCLUDE_DIR=$PWD/deps/include \
    -DZLIB_LIBRARY=$PWD/deps/lib/libz.so -DJPEG_INCLUDE_DIR=$PWD/deps/include -DJPEG_LIBRARY=$PWD/deps/lib/libjpeg.so \
    >/dev/null 2>&1 &&
    cmake --build "$1" -j"$jobs" --target bench_gpu >/dev/null 2>&1
}
i=0
for v in "$@"; do
  src=.; flags=$v
  case $v in *:*) src=${v%%:*}; flags=${v#*:} ;; esac
  build "build-var-$i" "$src" "$flags" || echo "build failed: '$v'" &
  i=$((i + 1))
done
wait
for r in $(seq "$rounds"); do
  i=0
  for v in "$@"; do
    if [ -x "build-var-$i/bench/bench_gpu" ]; then
      echo "== variant '$v' (round $r)"
      LD_LIBRARY_PATH=$libs timeout 120 "./build-var-$i/bench/bench_gpu" data-local/bsds500 50 2>&1 |
        grep -E "^\| (512|1920|3840|7680|device)"
    fi
    i=$((i + 1))
  done
done
