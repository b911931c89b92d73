#!/usr/bin/env bash
# The default build (every CUDA architecture from sm_75 on) against a build for this GPU's
# architecture alone, on a machine with an NVIDIA GPU: both built, the default one's
# architectures and warnings checked, the GPU suite on the default build, then the NPP
# benchmark table from each build, twice, interleaved (logs under $OUT, default out/arch).
# On a GPU host without network access, prepare the copied-in folders first (scripts/prepare-device-deps.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/arch}
mkdir -p "$OUT/default" "$OUT/native"
[ -d deps/lib ] && [ ! -f /usr/include/png.h ] && export LD_LIBRARY_PATH="$(pwd)/deps/lib:${LD_LIBRARY_PATH:-}"
native=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n1 | tr -d .)
echo "== device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n1); sm_$native; $(date -u +%Y-%m-%d)"
status=0
t=$SECONDS
bash scripts/gpu-build.sh "$OUT/default" || exit 1
echo "== default build: $((SECONDS - t)) s on $(nproc) cores"
t=$SECONDS
EDGEL_CUDA_ARCHS=$native EDGEL_GPU_BUILD_DIR=build-gpu-native bash scripts/gpu-build.sh "$OUT/native" || exit 1
echo "== sm_$native build: $((SECONDS - t)) s"
bash scripts/check-cuda-build.sh build-gpu "$OUT/default/build.log" || status=1
echo "== GPU suite on the default build"
timeout 300 ./build-gpu/tests/test_gpu data-local/bsds500 >"$OUT/test_gpu.log" 2>&1 || status=1
tail -n 1 "$OUT/test_gpu.log"
for round in 1 2; do
  for b in native default; do
    dir=build-gpu; [ $b = native ] && dir=build-gpu-native
    echo "== NPP table, $b build (sm_$native alone for native), round $round"
    timeout 120 ./$dir/bench/bench_gpu data-local/bsds500 100 >"$OUT/bench_${b}_$round.md" 2>&1 || status=1
    grep -E "^\| [0-9]+x[0-9]+ \||device-resident|page-locked" "$OUT/bench_${b}_$round.md"
  done
done
echo "== exit status $status"
exit $status
