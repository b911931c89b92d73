#!/usr/bin/env bash
# Builds the Octave mex functions build/edgel_canny.mex and build/edgel_subpixel.mex against
# build/libedgel.so (run scripts/build.sh first). MATLAB: scripts/build-matlab.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${EDGEL_BUILD_DIR:-build}
for f in edgel_canny edgel_subpixel; do
  mkoctfile --mex -Iinclude "matlab/$f.c" -L"$build" -ledgel -Wl,-rpath,"$(cd "$build" && pwd)" \
    -o "$build/$f.mex"
  cp "matlab/help/$f.m" "$build/" # its help, beside it (the mex runs, `help` reads the .m)
done
echo "built $build/edgel_canny.mex and $build/edgel_subpixel.mex (add $build/ and matlab/ to the Octave path)"
