#!/usr/bin/env bash
# Checks a default build's CUDA code (CI, after scripts/build.sh): libedgel holds machine code
# for every architecture the toolkit supports (nvcc --list-gpu-arch) and PTX for the newest
# major one (CUDA 13: compute_120, which sm_121 and GPUs to come compile at load), and the
# build printed no compiler warning (ptxas's among them). cuobjdump comes from the toolkit or
# from PyPI's nvidia-cuda-cuobjdump (scripts/setup.sh puts it in .venv).
#   bash scripts/check-cuda-build.sh BUILD_DIR [BUILD_LOG]
#   bash scripts/check-cuda-build.sh --library LIBEDGEL   (a wheel's, say)
set -euo pipefail
if [ "${1:-}" = --library ]; then
  lib=$2 build= log=
else
  build=${1:-build} log=${2:-} lib=
fi
tools=$(ls -d "$(dirname "$0")"/../.venv/lib/python3*/site-packages/nvidia/cu13/bin 2>/dev/null | head -n1 || true)
[ -n "$tools" ] && PATH=$PATH:$tools
if [ -n "$build" ]; then
  if ! grep -q "^EDGEL_WITH_CUDA:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null; then
    echo "check-cuda-build: no CUDA in this build: nothing to check"
    exit 0
  fi
  lib=$(ls "$build"/libedgel.so.[0-9]* "$build"/libedgel.so 2>/dev/null | head -n1)
fi
want=$(nvcc --list-gpu-arch | sed 's/compute_/sm_/' | sort -u)
have=$(cuobjdump --list-elf "$lib" | grep -o 'sm_[0-9a-z]*' | sort -u)
missing=$(comm -23 <(echo "$want") <(echo "$have"))
if ! command -v cuobjdump >/dev/null; then
  echo "check-cuda-build: no cuobjdump (pip install nvidia-cuda-cuobjdump)"
  exit 1
fi
newest=$(nvcc --list-gpu-arch | sed 's/compute_//' | sort -n | tail -n1)
newest=$((newest / 10 * 10))
bad=0
if [ -n "$missing" ]; then
  echo "check-cuda-build: $lib lacks machine code for:" $missing
  bad=1
fi
ptx=$(cuobjdump --list-ptx "$lib")
if ! grep -q "sm_$newest" <<<"$ptx"; then
  echo "check-cuda-build: $lib has no PTX for compute_$newest (the newest major architecture)"
  bad=1
fi
if [ -n "$log" ] && grep -i "warning" "$log"; then
  echo "check-cuda-build: the build printed warnings (above)"
  bad=1
fi
[ $bad = 0 ] && echo "check-cuda-build: machine code for" $have "and PTX for compute_$newest; no warnings"
exit $bad
