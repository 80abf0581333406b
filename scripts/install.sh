#!/usr/bin/env bash
# Installs Sluice's C API under PREFIX (default /usr/local): the headers, the stripped
# libtensorflow.so.2 built with -c opt, and lib/pkgconfig/tensorflow.pc. Then:
#   cc prog.c $(PKG_CONFIG_PATH=PREFIX/lib/pkgconfig pkg-config --cflags --libs tensorflow)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(realpath -m "${1:-/usr/local}")
scripts/setup.sh
bazel build -c opt //c_api:libtensorflow.so.2
stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
strip --strip-unneeded -o "$stripped" bazel-bin/c_api/libtensorflow.so.2
c_api/install_tree.sh "$stripped" . "$prefix"
echo "installed under $prefix: $(du -h "$prefix/lib/libtensorflow.so.2" | cut -f1) libtensorflow.so.2"
