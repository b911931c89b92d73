#!/usr/bin/env bash
# The check that turns on the one-launch cluster path of small frames (cuda_canny_cluster.cu,
# off while EDGEL_CLUSTER_MAX_PIXELS is 0): on a Hopper host with data-local and deps copied in,
#   1. builds build-cluster/ with the path on (-DEDGEL_CLUSTER_MAX_PIXELS=1048576) and runs the
#      GPU suite against the CPU, then compute-sanitizer memcheck on its --small subset;
#   2. bench_gpu at 256x256, 512x512, 640x480 and 1024x512 (edgel against NPP);
#   3. measure-variants.sh: the tile path, the cluster path, and the cluster path with 8 blocks,
#      side by side in one run.
# Logs under $1 (default out/cluster-check).
set -u
cd "$(dirname "$0")/../.."
logs=${1:-out/cluster-check}
mkdir -p "$logs"
export LD_LIBRARY_PATH=$PWD/deps/lib:${LD_LIBRARY_PATH:-}
on=-DEDGEL_CLUSTER_MAX_PIXELS=1048576
EDGEL_GPU_BUILD_DIR=build-cluster EDGEL_CUDA_ARCHS=90 CUDAFLAGS="$on" \
  bash scripts/gpu-build.sh "$logs" >"$logs/build.log" 2>&1 || { tail -n 30 "$logs/build.log"; exit 1; }
timeout 300 ./build-cluster/tests/test_gpu data-local/bsds500 >"$logs/test_gpu.log" 2>&1
echo "GPU suite, cluster path on: exit $?"; tail -n 3 "$logs/test_gpu.log"
timeout 400 compute-sanitizer --tool memcheck ./build-cluster/tests/test_gpu data-local/bsds500 --small \
  >"$logs/memcheck.log" 2>&1
echo "memcheck: exit $?"; tail -n 2 "$logs/memcheck.log"
for s in 256x256 512x512 640x480 1024x512; do
  timeout 60 ./build-cluster/bench/bench_gpu data-local/bsds500 200 "$s" 2>&1 | grep -E '^\| [0-9]' | head -n 1
done
bash bench/gpu-lab/measure-variants.sh '' "$on" "$on -DEDGEL_CLUSTER_BLOCKS=8"
