#!/usr/bin/env bash
# Builds the Octave mex function build/edgel_canny.mex against build/libedgel.so (run
# scripts/build.sh first). MATLAB: scripts/build-matlab.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mkoctfile --mex -Iinclude matlab/edgel_canny.c -Lbuild -ledgel -Wl,-rpath,"$(pwd)/build" \
  -o build/edgel_canny.mex
cp matlab/help/edgel_canny.m build/ # its help, beside it (the mex runs, `help` reads the .m)
echo "built build/edgel_canny.mex (add build/ and matlab/ to the Octave path)"
