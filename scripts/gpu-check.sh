#!/usr/bin/env bash
# The GPU check, on a machine with an NVIDIA GPU (run from the repository root; logs go to
# $OUT, default out/gpu-check):
#   1. build (Release, every CUDA architecture from sm_75 on), with the system's libpng/libjpeg
#      or the copied-in deps/
#   2. the CPU tests (ctest) and the GPU suite: CPU-vs-GPU byte identity on all BSDS500
#      photographs (data-local/bsds500) and on sizes 1x1 to 4096x4096 for every option,
#      stages, user gradients, batches and streams
#   3. compute-sanitizer memcheck, racecheck, initcheck and synccheck on the small cases;
#      batches over several contexts (tests/test_batch_multi.c on every GPU), under memcheck
#      too; the Python GPU tests (CuPy, PyTorch, Dask on LocalCUDACluster, from .whl/ where copied in)
#   4. the benchmark against NPP, and cv2.Canny with all CPU threads where cv2 is installed;
#      the FFT method at 4096x4096 (bench_fft_gpu); edgel bench's per-stage GPU times
#   5. the convolution engine against cuDNN (PyTorch), CuPy and cv2.filter2D
#   6. the itk preset against ITK itself (deps/itk/bench_itk, built by prepare-device-deps.sh
#      where ITK is installed): ITK, edgel CPU and GPU timed in one run, edge maps compared
# On a GPU host without network access, copy in the folders (data-local, deps, .whl, .whl-sk) with
# scripts/prepare-device-deps.sh.
#   7. a batch over every GPU against one (bench_multi_gpu), and on several GPUs
#      edgel.dask.canny on LocalCUDACluster with 1 to every GPU (bench_dask_gpu.py)
#   8. the skimage preset against scikit-image (CPU) and cuCIM (GPU), where their wheels are
#      are in .whl-sk (bench_skimage.py; its edges compared with scikit-image's)
# EDGEL_GPU_CHECK_QUICK=1: steps 1 to 3, the NPP benchmark, steps 7 and 8 and the tiled run.
# EDGEL_NCU=0 skips the Nsight Compute steps; EDGEL_HUGE_SIDE=0 the 10^10-pixel CPU run.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/gpu-check}
mkdir -p "$OUT"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$OUT/summary.txt"; }
status=0

log "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n1); $(date -u +%Y-%m-%d)"
nvcc --version | tail -n1

bash scripts/gpu-build.sh "$OUT" || exit 1
[ -d deps/lib ] && [ ! -f /usr/include/png.h ] && export LD_LIBRARY_PATH="$(pwd)/deps/lib:${LD_LIBRARY_PATH:-}"

log "CPU tests"
ctest --test-dir build-gpu --output-on-failure >"$OUT/ctest.log" 2>&1 || status=1
tail -n 3 "$OUT/ctest.log"

log "GPU suite (CPU-vs-GPU identity)"
EDGEL_TEST_DUMP_DIR="$OUT" timeout 420 ./build-gpu/tests/test_gpu data-local/bsds500 >"$OUT/test_gpu.log" 2>&1 || status=1
grep -v "^$" "$OUT/test_gpu.log" | tail -n 12

log "compute-sanitizer memcheck"
timeout 180 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-gpu/tests/test_gpu --small \
  >"$OUT/memcheck.log" 2>&1 || status=1
tail -n 3 "$OUT/memcheck.log"
log "compute-sanitizer racecheck"
timeout 180 compute-sanitizer --tool racecheck --error-exitcode 9 ./build-gpu/tests/test_gpu --small \
  >"$OUT/racecheck.log" 2>&1 || status=1
tail -n 3 "$OUT/racecheck.log"
for tool in initcheck synccheck; do # reads of unwritten device memory; misused barriers
  log "compute-sanitizer $tool"
  timeout 180 compute-sanitizer --tool $tool --error-exitcode 9 ./build-gpu/tests/test_gpu --small \
    >"$OUT/$tool.log" 2>&1 || status=1
  tail -n 1 "$OUT/$tool.log"
done

log "one batch over several contexts: every GPU, and several contexts on one GPU"
EDGEL_TEST_BACKEND=cuda timeout 120 ./build-gpu/tests/test_batch_multi >"$OUT/batch_multi.log" 2>&1 || status=1
tail -n 1 "$OUT/batch_multi.log"
EDGEL_TEST_BACKEND=cuda timeout 180 compute-sanitizer --tool memcheck --error-exitcode 9 \
  ./build-gpu/tests/test_batch_multi >"$OUT/batch_multi_memcheck.log" 2>&1 || status=1
tail -n 1 "$OUT/batch_multi_memcheck.log"

quick=${EDGEL_GPU_CHECK_QUICK:-0}
log "Python on the GPU (CuPy, PyTorch; Dask with CuPy chunks where .whl/ holds its wheels)"
site=
wheels=$(ls .whl/*.whl .whl-sk/*.whl 2>/dev/null || true)
if [ -n "$wheels" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/edgel-site $wheels && site=/tmp/edgel-site
fi
PYTHONPATH="python${site:+:$site}" EDGEL_BUILD_DIR=build-gpu EDGEL_BSDS500=data-local/bsds500 \
  timeout 300 python3 -m pytest -q -rs tests/python/test_gpu_python.py >"$OUT/python_gpu.log" 2>&1 || status=1
tail -n 3 "$OUT/python_gpu.log"

log "skimage preset against scikit-image (CPU) and cuCIM (GPU)"
if PYTHONPATH="${site}" python3 -c "import skimage" 2>/dev/null; then
  EDGEL_LIBRARY=build-gpu/libedgel.so PYTHONPATH="python${site:+:$site}" timeout 400 \
    python3 bench/bench_skimage.py >"$OUT/bench_skimage.md" 2>&1 || status=1
else
  echo "scikit-image is not installed here (copy its wheel into .whl-sk): no skimage table" \
    >"$OUT/bench_skimage.md"
fi
cat "$OUT/bench_skimage.md"

log "benchmark"
timeout 300 ./build-gpu/bench/bench_gpu data-local/bsds500 "${EDGEL_BENCH_RUNS:-100}" >"$OUT/bench_gpu.md" 2>&1 || status=1
log "the FFT method, 4096x4096 float"
timeout 120 ./build-gpu/bench/bench_fft_gpu 4096 3,15,29,65,129 >"$OUT/bench_fft_gpu.md" 2>&1 || status=1
[ "$quick" = 1 ] || {
if python3 -c "import cv2" 2>/dev/null; then
  EDGEL_LIBRARY=build-gpu/libedgel.so PYTHONPATH=python python3 bench/bench_cpu_vs_opencv.py \
    --sizes 512x512,1080p,4K,8K --threads "$(nproc)" --image data-local/bsds500/test/100039.jpg \
    --runs 21 >"$OUT/opencv_cpu.md" 2>&1 || status=1
else
  echo "cv2 is not installed on this machine: no OpenCV column" >"$OUT/opencv_cpu.md"
fi
log "edgel bench --backend cuda (per stage)"
./build-gpu/edgel bench --backend cuda --image data-local/bsds500/test/100039.jpg --runs 50 \
  --sizes 640x480,1920x1080,3840x2160,7680x4320 >"$OUT/bench_stages.md" 2>&1 || status=1
cat "$OUT/bench_stages.md"
log "convolution engine against cuDNN, CuPy, cv2.filter2D"
EDGEL_LIBRARY=build-gpu/libedgel.so PYTHONPATH=python timeout 420 python3 bench/bench_filter.py \
  ${EDGEL_FILTER_BENCH_ARGS:-} >"$OUT/bench_filter.md" 2>&1 || status=1
log "a small call's costs from Python (host and GPU)"
EDGEL_LIBRARY=build-gpu/libedgel.so PYTHONPATH=python timeout 120 python3 bench/bench_call_overhead.py \
  >"$OUT/bench_call_overhead.md" 2>&1 || status=1
cat "$OUT/bench_call_overhead.md"
log "itk preset against ITK"
if [ -x deps/itk/bench_itk ]; then
  LD_LIBRARY_PATH="$(pwd)/deps/itk:$(pwd)/deps/lib:${LD_LIBRARY_PATH:-}" timeout 400 \
    deps/itk/bench_itk data-local/bsds500 >"$OUT/bench_itk.md" 2>&1 || status=1
else
  echo "deps/itk/bench_itk not built: no ITK benchmark" >"$OUT/bench_itk.md"
fi
}
log "a batch over every GPU against one GPU"
timeout 200 ./build-gpu/bench/bench_multi_gpu samples/coffee.png 256 9 >"$OUT/bench_multi_gpu.md" 2>&1 || status=1
cat "$OUT/bench_multi_gpu.md"
if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -gt 1 ] && [ -n "$site" ]; then
  log "edgel.dask.canny on LocalCUDACluster, 1 to every GPU, 40000x40000 Zarr"
  PYTHONPATH="python:$site" EDGEL_LIBRARY=build-gpu/libedgel.so timeout 400 \
    python3 bench/bench_dask_gpu.py --side "${EDGEL_DASK_SIDE:-40000}" >"$OUT/bench_dask_gpu.md" 2>&1 || status=1
  cat "$OUT/bench_dask_gpu.md"
fi
log "tiled: 10^10 pixels from page-locked memory through the GPU, and identity with the CPU"
timeout 300 ./build-gpu/bench/bench_tiled samples/coffee.png "${EDGEL_TILED_SIZE:-100000x100000}" 3 0 \
  check 40000x30000 >"$OUT/bench_tiled.md" 2>&1 || status=1
cat "$OUT/bench_tiled.md"
if [ "${EDGEL_HUGE_SIDE:-100000}" != 0 ]; then # (0: skip; it takes minutes)
log "tiled: 10^10 pixels BigTIFF to BigTIFF through edgel detect on the CPU"
timeout 400 python3 bench/bench_huge.py build-gpu/edgel --side "${EDGEL_HUGE_SIDE:-100000}" \
  >"$OUT/bench_huge.md" 2>&1 || status=1
cat "$OUT/bench_huge.md"
fi
if [ "${EDGEL_NCU:-1}" = 1 ]; then # (0: skip the Nsight Compute steps)
log "per-kernel device time at 1920x1080 (Nsight Compute, one call)"
timeout 120 ncu --clock-control none --launch-skip 30 --launch-count 3 \
  --metrics gpu__time_duration.sum,dram__bytes.sum ./build-gpu/bench/bench_gpu data-local/bsds500 \
  20 1920x1080 >"$OUT/ncu.log" 2>&1
grep -E "^  [a-z_]+.*\(|gpu__time_duration|dram__bytes" "$OUT/ncu.log" | sed 's/^ *//' | head -n 24
log "per-kernel device time, batch of 64 frames at 1920x1080 (Nsight Compute, one launch each)"
timeout 150 ncu --clock-control none -k "regex:canny_stream|link_tiles|finish_tiles" \
  --metrics gpu__time_duration.sum ./build-gpu/bench/bench_gpu data-local/bsds500 10 >"$OUT/ncu_batch.log" 2>&1
awk '/, 64\)x\(/ { name = $0; sub(/^ *(void )?/, "", name); split(name, part, "("); name = part[1]
                   want = !(name in seen); seen[name] = 1 }
     want && /gpu__time_duration/ { print name, $NF, "us"; want = 0 }' "$OUT/ncu_batch.log" | head -n 6
fi
cat "$OUT/bench_gpu.md" "$OUT/bench_fft_gpu.md"
[ "$quick" = 1 ] || {
cat "$OUT/opencv_cpu.md" "$OUT/bench_itk.md"
sed -n '/^### /,$p' "$OUT/bench_filter.md"
}
log "exit status $status"
exit $status
