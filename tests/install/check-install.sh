#!/usr/bin/env bash
# Builds tests/install/consumer.c against an installed edgel (argument: the prefix), once
# through pkg-config and once through CMake's find_package, and runs both.
set -euo pipefail
prefix=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
libdir=$(dirname "$(find "$prefix" -name libedgel.so | head -n1)")
export PKG_CONFIG_PATH=$libdir/pkgconfig
cc "$here/consumer.c" -o "$work/pc" $(pkg-config --cflags --libs edgel)
LD_LIBRARY_PATH=$libdir "$work/pc"
cmake -S "$here" -B "$work/cm" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cm" >/dev/null
LD_LIBRARY_PATH=$libdir "$work/cm/consumer"
rm -rf "$work"
