#!/usr/bin/env bash
# On a fresh machine: install what is missing, build, and run `edgel detect` on the bundled
# sample images. Edge maps go to out/samples/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh >/dev/null
mkdir -p out/samples
for img in samples/*.png; do
  name=$(basename "$img" .png)
  ./build/edgel detect "$img" -o "out/samples/$name-edges.png" --blur 1.4 --low 40 --high 120
done
echo "edge maps written to out/samples/"
