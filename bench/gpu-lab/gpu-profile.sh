#!/usr/bin/env bash
# Nsight Compute detail of the Canny kernels at one frame size (default 1920x1080): where the
# kernels' warps stall, occupancy, and instruction mix. Needs build-gpu/ from
# scripts/gpu-check.sh. Full reports go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-out/gpu-profile}
mkdir -p "$OUT"
size=${1:-1920x1080}
[ -x build-gpu/bench/bench_gpu ] || bash scripts/gpu-build.sh "$OUT" || exit 1
[ -d deps/lib ] && [ ! -f /usr/include/png.h ] && export LD_LIBRARY_PATH="$(pwd)/deps/lib:${LD_LIBRARY_PATH:-}"
for k in ${EDGEL_PROFILE_KERNELS:-canny_stream_kernel link_tiles finish_tiles}; do
  timeout 200 ncu --clock-control none -k "regex:$k" --launch-skip 10 --launch-count 1 --set full \
    ./build-gpu/bench/bench_gpu data-local/bsds500 12 "$size" >"$OUT/ncu_$k.txt" 2>&1
  echo "== $k"
  grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Ipc A|Issue Slots Busy|Warp Cycles Per Issued|stall|Stall|L1/TEX Hit|Mem Busy|Max Bandwidth|Avg. Active Threads|Branch Efficiency|Executed Instructions  " \
    "$OUT/ncu_$k.txt" | sed 's/^ *//' | cut -c1-220 | head -n 40
done
# One kernel (EDGEL_PROFILE_SASS, default the streaming tile kernel) per SASS instruction
# (executed instructions and stall samples), and its SASS listing.
sass=${EDGEL_PROFILE_SASS:-canny_stream_kernel}
timeout 200 ncu --clock-control none -k "regex:$sass" --launch-skip 10 --launch-count 1 \
  --set full --page source --print-source sass --csv \
  ./build-gpu/bench/bench_gpu data-local/bsds500 12 "$size" >"$OUT/ncu_tile_sass.csv" 2>&1
cuobjdump -sass -fun "$sass" build-gpu/libedgel.so >"$OUT/tile.sass" 2>&1 ||
  cuobjdump -sass build-gpu/libedgel.so >"$OUT/tile.sass" 2>&1
echo "== $sass by SASS instruction"
python3 bench/gpu-lab/ncu-lines.py "$OUT/ncu_tile_sass.csv" 30 || head -n 20 "$OUT/ncu_tile_sass.csv" | cut -c1-300
echo "== $sass by stall samples"
python3 bench/gpu-lab/ncu-lines.py "$OUT/ncu_tile_sass.csv" 40 stall
