#!/usr/bin/env bash
# The check that turns on the one-launch cluster path of small frames (cuda_canny_cluster.cu,
# off while EDGEL_CLUSTER_MAX_PIXELS is 0): on a Hopper host with data-local and deps copied in,
#   1. builds build-cluster/ with the path on (-DEDGEL_CLUSTER_MAX_PIXELS=1048576) and runs the
#      GPU suite against the CPU, then compute-sanitizer memcheck on its --small subset;
#   2. builds build-off/'s bench_gpu with the path off, meanwhile;
#   3. bench_gpu at 256x256, 512x512, 640x480 and 1024x512, the tile path and the cluster path
#      in turn, twice (NPP timed beside each), then the cluster kernel's time in Nsight Compute.
# Logs under $1 (default out/cluster-check).
set -u
cd "$(dirname "$0")/../.."
logs=${1:-out/cluster-check}; mkdir -p "$logs"
export LD_LIBRARY_PATH=$PWD/deps/lib
on=-DEDGEL_CLUSTER_MAX_PIXELS=1048576
d=$PWD/deps
( cmake -S . -B build-off -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DEDGEL_BUILD_TESTS=ON -DEDGEL_TIFF=off \
    -DPNG_PNG_INCLUDE_DIR=$d/include -DPNG_LIBRARY=$d/lib/libpng16.so -DZLIB_INCLUDE_DIR=$d/include \
    -DZLIB_LIBRARY=$d/lib/libz.so -DJPEG_INCLUDE_DIR=$d/include -DJPEG_LIBRARY=$d/lib/libjpeg.so >/dev/null 2>&1 &&
  cmake --build build-off -j6 --target bench_gpu >"$logs/build-off.log" 2>&1 ) &
EDGEL_GPU_BUILD_DIR=build-cluster EDGEL_CUDA_ARCHS=90 CUDAFLAGS="$on" \
  bash scripts/gpu-build.sh "$logs" >"$logs/build.log" 2>&1 || { tail -n 30 "$logs/build.log"; exit 1; }
echo "built at $SECONDS s"
timeout 200 ./build-cluster/tests/test_gpu data-local/bsds500 >"$logs/test_gpu.log" 2>&1
echo "GPU suite, cluster path on: exit $?"; tail -n 1 "$logs/test_gpu.log"
timeout 200 compute-sanitizer --tool memcheck ./build-cluster/tests/test_gpu data-local/bsds500 --small \
  >"$logs/memcheck.log" 2>&1
echo "memcheck: exit $?"; tail -n 1 "$logs/memcheck.log"
wait
echo "at $SECONDS s"
for r in 1 2; do for s in 256x256 512x512 640x480 1024x512; do
  for v in off cluster; do
    [ -x build-$v/bench/bench_gpu ] && echo "$v $(timeout 60 ./build-$v/bench/bench_gpu data-local/bsds500 200 "$s" 2>&1 | grep -E '^\| [0-9]' | head -n 1)"
  done
done; done
timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum -k canny_cluster_kernel --launch-skip 5 -c 3 \
  build-cluster/bench/bench_gpu data-local/bsds500 3 512x512 2>&1 | grep -E "duration"
echo "done at $SECONDS s"
