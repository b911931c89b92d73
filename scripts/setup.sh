#!/usr/bin/env bash
# Installs what edgel needs to build and test, where it is missing: Debian packages (compiler,
# CMake, libpng, libjpeg-turbo, KissFFT for the CPU's FFT, clang for the fuzzers, Octave for
# the mex, Python headers for the module's compiled call path) and a Python virtual environment in .venv with NumPy, OpenCV, ITK and SciPy (the
# references of the presets and of the convolution engine) and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libpng-dev libjpeg62-turbo-dev libkissfft-dev clang
          libclang-rt-14-dev python3-venv python3-dev octave liboctave-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if ! .venv/bin/python -c "import numpy, cv2, pytest, itk, scipy" 2>/dev/null; then
  echo "setup: installing numpy, opencv-python-headless, itk, scipy, pytest into .venv"
  .venv/bin/pip install -q --disable-pip-version-check numpy opencv-python-headless itk scipy \
    pytest
fi
