#!/usr/bin/env bash
# On a fresh machine: install what is missing (the compiler and image libraries only), build,
# and run `edgel detect` on the bundled sample images with the three presets. Edge maps go to
# out/samples/ (NAME-edges.png: opencv preset after a Gaussian; NAME-itk.png: ITK's Canny
# with variance 2; NAME-skimage.png: skimage.feature.canny with sigma 2 of the luma image,
# NAME-gray.png); NAME-curves.svg: sub-pixel curves (Canny/Devernay, sigma 1, high 15, low 5)
# drawn over the image.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh build
# What this machine can run, and no more: the local GPU's architecture, or the CPU alone
# (the portable build, every architecture, stays scripts/build.sh's and the wheel's).
if command -v nvcc >/dev/null && command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  echo "build: compiling edgel into build/, with CUDA code for this machine's GPU only"
  bash scripts/build.sh -DEDGEL_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=native >/dev/null
else
  echo "build: compiling edgel into build/ for the CPU (no NVIDIA GPU here; a minute or two)"
  bash scripts/build.sh -DEDGEL_WITH_CUDA=OFF >/dev/null
fi
mkdir -p out/samples
for img in samples/*.png; do
  name=$(basename "$img" .png)
  ./build/edgel detect "$img" -o "out/samples/$name-edges.png" --blur 1.4 --low 40 --high 120
  ./build/edgel detect "$img" -o "out/samples/$name-itk.png" --preset itk --variance 2 \
    --upper 8 --lower 3
  ./build/edgel detect "$img" -o "out/samples/$name-gray.png" --stage gray -q
  ./build/edgel detect "out/samples/$name-gray.png" -o "out/samples/$name-skimage.png" \
    --preset skimage --sigma 2
  ./build/edgel contours "$img" -o "out/samples/$name-curves.svg" --sigma 1 --high 15 --low 5
done
echo "edge maps and sub-pixel curves (NAME-curves.svg: open in a browser) written to out/samples/"
