#!/usr/bin/env bash
# Builds the MATLAB mex functions build/edgel_canny.<mexext> and build/edgel_subpixel.<mexext>
# against build/libedgel.so with
# MATLAB's own mex (run scripts/build.sh first). Octave users: scripts/build-octave.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mex_bin=${MEX:-$(command -v mex || true)}
if [ -z "$mex_bin" ] || "$mex_bin" --version 2>&1 | grep -qi octave; then
  echo "build-matlab: MATLAB's mex is not on PATH (set MEX=/path/to/matlab/bin/mex)" >&2
  exit 1
fi
for f in edgel_canny edgel_subpixel; do
  "$mex_bin" -Iinclude "matlab/$f.c" -Lbuild -ledgel LDFLAGS="\$LDFLAGS -Wl,-rpath,$(pwd)/build" \
    -outdir build
  cp "matlab/help/$f.m" build/ # its help, beside it
done
echo "built build/edgel_canny and edgel_subpixel .$("$(dirname "$mex_bin")/mexext" 2>/dev/null || echo mex) (add build/ and matlab/ to the MATLAB path)"
