#!/usr/bin/env bash
# Per-kernel device times (Nsight Compute, three launches each) of the Canny kernels of a
# variant that bench/gpu-lab/measure-variants.sh built: one 1080p frame and the 1080p batch of 64.
# On a GPU host, after measure-variants.sh: bash bench/gpu-lab/kernel-times.sh N (build-var-N).
set -u
cd "$(dirname "$0")/../.."
export LD_LIBRARY_PATH=$PWD/deps/lib:${LD_LIBRARY_PATH:-}
for mode in 1920x1080 batch; do
  timeout 100 ncu --clock-control none -k "regex:canny_stream|link_tiles|finish_tiles" --launch-skip 9 \
    --launch-count 3 --metrics gpu__time_duration.sum "./build-var-${1:-0}/bench/bench_gpu" data-local/bsds500 5 $mode 2>&1 |
    awk -v m=$mode '/^  .*\(/ && !/gpu__/ { n = $0; sub(/^ *(void )?/, "", n); split(n, p, "("); n = p[1] }
                    /gpu__time_duration/ { print m, n, $NF, "us" }'
done
