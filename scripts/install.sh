#!/usr/bin/env bash
# Installs Sluice as a TensorFlow replacement under PREFIX (default /usr/local), built with
# -c opt: the C headers and the C++ compatibility headers at TensorFlow's paths, Sluice's own
# headers under include/sluice, libtensorflow_framework.so.2, libtensorflow.so.2 and
# libtensorflow_cc.so.2 (stripped), and lib/pkgconfig/tensorflow{,_framework,_cc}.pc. Then:
#   cc prog.c $(PKG_CONFIG_PATH=PREFIX/lib/pkgconfig pkg-config --cflags --libs tensorflow)
#   c++ prog.cc $(... pkg-config --cflags --libs tensorflow_cc)
#   g++ -shared -fPIC op.cc -o op.so $(... pkg-config --cflags --libs tensorflow_framework)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(realpath -m "${1:-/usr/local}")
scripts/setup.sh
bazel build -c opt //tools/install:install_tree
mkdir -p "$prefix"
tar -C "$prefix" -xf bazel-bin/tools/install/sluice_install_tree.tar
echo "installed under $prefix:"
for library in libtensorflow_framework libtensorflow libtensorflow_cc; do
  echo "  $(du -h "$prefix/lib/$library.so.2" | cut -f1) $library.so.2"
done
