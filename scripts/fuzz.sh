#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS (default 60) on its corpus, with the library, the
# decoders and the command's code instrumented (coverage, ASan, UBSan), and prints the
# executions and coverage of each. Findings stop the run with the crash's log.
#   bash scripts/fuzz.sh 300          # the issue's long run
#   JOBS=2 bash scripts/fuzz.sh 60    # two targets at a time
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
jobs=${JOBS:-1}
cmake --preset fuzz >build-fuzz-configure.log 2>&1 || { cat build-fuzz-configure.log; exit 1; }
cmake --build build-fuzz -j"$(nproc)" >/dev/null

run_one() {
  local t=$1 work log
  work=$(mktemp -d)
  log=build-fuzz/fuzz_$t.log
  if ! ./build-fuzz/fuzz/fuzz_$t -max_total_time="$seconds" -print_final_stats=1 \
       -rss_limit_mb=2048 -artifact_prefix="build-fuzz/$t-" "$work" "fuzz/corpus/$t" \
       >"$log" 2>&1; then
    echo "fuzz_$t: FINDING (log: $log)"; tail -40 "$log"; rm -rf "$work"; return 1
  fi
  local execs cov
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  printf '| fuzz_%s | %s s | %s | %s |\n' "$t" "$seconds" "$execs" "$cov"
  rm -rf "$work"
}

echo "| target | time | executions | coverage (edges) |"
echo "|---|---|---|---|"
status=0
pids=()
for t in png jpeg pnm pfm detect_args pipeline tiled rows stream batch components contours refine \
         volume volume_file volume_bricks pieces curve_bands subpixel_batch; do
  run_one "$t" & pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
