#!/usr/bin/env bash
# Configures and builds edgel into build/ (Release; CUDA sources too when nvcc is present).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset release "$@" >build-configure.log 2>&1 || {
  cat build-configure.log; exit 1; }
cmake --build build -j"$(nproc)"
