#!/usr/bin/env bash
# Builds the MATLAB mex function build/edgel_canny.<mexext> against build/libedgel.so with
# MATLAB's own mex (run scripts/build.sh first). Octave users: scripts/build-octave.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mex_bin=${MEX:-$(command -v mex || true)}
if [ -z "$mex_bin" ] || "$mex_bin" --version 2>&1 | grep -qi octave; then
  echo "build-matlab: MATLAB's mex is not on PATH (set MEX=/path/to/matlab/bin/mex)" >&2
  exit 1
fi
"$mex_bin" -Iinclude matlab/edgel_canny.c -Lbuild -ledgel LDFLAGS="\$LDFLAGS -Wl,-rpath,$(pwd)/build" \
  -outdir build
cp matlab/help/edgel_canny.m build/ # its help, beside it
echo "built build/edgel_canny.$("$(dirname "$mex_bin")/mexext" 2>/dev/null || echo mex) (add build/ and matlab/ to the MATLAB path)"
