#!/usr/bin/env bash
# The layers of src/ (docs/architecture.md), checked from the #include lines: each folder
# may include only the folders below it, and no backend includes another.
#   api   -> api, core, and each backend's one seam header (cpu/cpu_backend.h,
#            cuda/cuda_backend.h)
#   cpu   -> cpu, core           cuda -> cuda, core
#   core  -> core                io   -> io, core
set -euo pipefail
cd "$(dirname "$0")/.."
allowed() {
  case $1 in
    api)  echo 'api/|core/|cpu/cpu_backend\.h|cuda/cuda_backend\.h' ;;
    cpu)  echo 'cpu/|core/' ;;
    cuda) echo 'cuda/|core/' ;;
    core) echo 'core/' ;;
    io)   echo 'io/|core/' ;;
    *)    echo '' ;;
  esac
}
bad=0
for dir in src/*/; do
  layer=$(basename "$dir")
  ok=$(allowed "$layer")
  [ -n "$ok" ] || { echo "check-layers: src/$layer is no known layer"; bad=1; continue; }
  while IFS= read -r line; do
    file=${line%%:*}
    target=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$line")
    [ "$target" = edgel.h ] && continue
    if ! grep -Eq "^($ok)" <<<"$target"; then
      echo "check-layers: $file includes $target (src/$layer may include: ${ok//\\/})"
      bad=1
    fi
  done < <(grep -rHE '^[[:space:]]*#[[:space:]]*include "' "$dir" || true)
done
[ $bad = 0 ] && echo "check-layers: every include of src/ follows the layers"
exit $bad
