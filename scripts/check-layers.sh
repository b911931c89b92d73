#!/usr/bin/env bash
# The layers of src/ (docs/architecture.md), checked from the #include lines and from the
# calls a build's objects make: each folder may include, and call, only the folders below it,
# and no backend another.
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
    case "$target" in edgel.h | edgel_experimental.h) continue ;; esac # the public API
    if ! grep -Eq "^($ok)" <<<"$target"; then
      echo "check-layers: $file includes $target (src/$layer may include: ${ok//\\/})"
      bad=1
    fi
  done < <(grep -rHE '^[[:space:]]*#[[:space:]]*include "' "$dir" || true)
done
[ $bad = 0 ] && echo "check-layers: every include of src/ follows the layers"

# The calls, from a build's objects (BUILD, default build/; skipped where none is built): a
# name that one layer's object uses and another layer defines must be defined at or below it
# (io may call the public API, which its library links).
build=${BUILD:-build}
calls() {
  case $1 in
    api)  echo 'api core cpu cuda' ;;
    cpu)  echo 'cpu core' ;;
    cuda) echo 'cuda core' ;;
    core) echo 'core' ;;
    io)   echo 'io core public' ;;
  esac
}
objects=$(find "$build" -path '*/src/*' -name '*.o' 2>/dev/null | grep -E '/src/(api|core|cpu|cuda|io)/' || true)
if [ -z "$objects" ]; then
  echo "check-layers: no objects under $build/: the calls are not checked"
  exit $bad
fi
defs=$(mktemp)
for o in $objects; do
  layer=$(sed -E 's|.*/src/([a-z]+)/.*|\1|' <<<"$o")
  nm -g --defined-only "$o" 2>/dev/null | awk -v l="$layer" 'NF == 3 { print $3, l }'
done | sort -u >"$defs"
# the public API: what include/edgel.h and its experimental section declare
cat include/edgel.h include/edgel_experimental.h | grep -oE 'EDGEL_API [^(]*\b(edgel_[a-z0-9_]+) *\(' |
  sed -E 's/.*\b(edgel_[a-z0-9_]+) *\($/\1 public/' >>"$defs"
calls_bad=0
for o in $objects; do
  layer=$(sed -E 's|.*/src/([a-z]+)/.*|\1|' <<<"$o")
  ok=" $(calls "$layer") "
  while read -r sym; do
    owners=$(awk -v s="$sym" '$1 == s { print $2 }' "$defs" | sort -u | tr '\n' ' ')
    [ -n "$owners" ] || continue # (the C library, libpng, ...)
    allowed_one=0
    for owner in $owners; do
      [[ $ok == *" $owner "* ]] && allowed_one=1
    done
    if [ $allowed_one = 0 ]; then
      src=${o##*/src/}
      echo "check-layers: src/${src%.o} calls $sym, defined in: ${owners% } (src/$layer may call: $(calls "$layer"))"
      calls_bad=1
    fi
  done < <(nm -u "$o" 2>/dev/null | awk '{ print $NF }' | sort -u)
done
rm -f "$defs"
[ $calls_bad = 0 ] && echo "check-layers: every call of src/ follows the layers ($build)"
[ $bad = 0 ] && [ $calls_bad = 0 ]
