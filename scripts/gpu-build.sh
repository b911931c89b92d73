#!/usr/bin/env bash
# Configures and builds build-gpu/ (Release, tests and GPU benchmark) for the default CUDA
# architectures (every one from sm_75 on), with the system's libpng/libjpeg or, where their
# headers are missing, the copied-in deps/; libtiff the system's or third_party's.
# Argument: a folder for the configure and build logs.
# EDGEL_CUDA_ARCHS=90: machine code for those architectures only (faster to build; the
# comparison of a default build with a 90-only one); EDGEL_GPU_BUILD_DIR: another folder.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${1:-out}
mkdir -p "$logs"
cmake_args=() # the preset `gpu` (CMakePresets.json), and the copied-in libraries where needed
if [ ! -f /usr/include/png.h ] || ! ls /usr/include/jpeglib.h /usr/include/*/jpeglib.h >/dev/null 2>&1; then
  d=$(pwd)/deps
  cmake_args+=(-DPNG_PNG_INCLUDE_DIR="$d/include" -DPNG_LIBRARY="$d/lib/libpng16.so"
               -DZLIB_INCLUDE_DIR="$d/include" -DZLIB_LIBRARY="$d/lib/libz.so"
               -DJPEG_INCLUDE_DIR="$d/include" -DJPEG_LIBRARY="$d/lib/libjpeg.so")
  export LD_LIBRARY_PATH="$d/lib:${LD_LIBRARY_PATH:-}"
  echo "== using copied-in libpng/libjpeg from deps/"
fi
if [ ! -f /usr/include/tiffio.h ] && ! ls /usr/include/*/tiffio.h >/dev/null 2>&1; then
  cmake_args+=(-DEDGEL_TIFF=bundled)
  echo "== no system libtiff: building third_party/libtiff"
fi
# the reference sub-pixel program, built as the tests' oracle where it was copied in
[ -d data-local/devernay_1.0 ] && cmake_args+=(-DEDGEL_DEVERNAY_DIR="$(pwd)/data-local/devernay_1.0")
dir=${EDGEL_GPU_BUILD_DIR:-build-gpu}
[ -n "${EDGEL_CUDA_ARCHS:-}" ] && cmake_args+=(-DCMAKE_CUDA_ARCHITECTURES="$EDGEL_CUDA_ARCHS")
if ! cmake --preset gpu -B "$dir" "${cmake_args[@]}" >"$logs/configure.log" 2>&1; then
  tail -n 30 "$logs/configure.log"; exit 1
fi
if ! cmake --build "$dir" -j"$(nproc)" >"$logs/build.log" 2>&1; then
  grep -E "error|Error" "$logs/build.log" | head -n 30; exit 1
fi
echo "== built"
