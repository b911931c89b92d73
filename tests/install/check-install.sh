#!/usr/bin/env bash
# Checks an installed edgel (argument: the prefix, such as ~/.local, outside the loader's
# paths): tests/install/consumer.c built once through pkg-config (with the rpath line the
# README gives) and once through CMake's find_package, each run without LD_LIBRARY_PATH;
# and the installed command, which must find its library and its sample image from any
# directory.
set -euo pipefail
prefix=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
libdir=$(dirname "$(find "$prefix" -name libedgel.so | head -n1)")
export PKG_CONFIG_PATH=$libdir/pkgconfig
cc "$here/consumer.c" -o "$work/pc" $(pkg-config --cflags --libs edgel) \
  -Wl,-rpath,"$(pkg-config --variable=libdir edgel)"
echo "pkg-config consumer: $(env -u LD_LIBRARY_PATH "$work/pc")"
cmake -S "$here" -B "$work/cm" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cm" >/dev/null
echo "CMake consumer:      $(env -u LD_LIBRARY_PATH "$work/cm/consumer")"
(cd "$work" && env -u LD_LIBRARY_PATH "$prefix/bin/edgel" --version >/dev/null &&
 env -u LD_LIBRARY_PATH "$prefix/bin/edgel" bench --sizes 64x48 --runs 1 >/dev/null)
echo "installed command:   $prefix/bin/edgel runs and finds its sample from $work"
grep -q "^.SH \"EDGEL DETECT\"" "$prefix/share/man/man1/edgel.1"
echo "man page:            $prefix/share/man/man1/edgel.1"
rm -rf "$work"
