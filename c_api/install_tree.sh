#!/usr/bin/env bash
# Lays out an install prefix for the C API: PREFIX/include (the public headers at TensorFlow's
# paths), PREFIX/lib/libtensorflow.so.2 with its libtensorflow.so link, and
# PREFIX/lib/pkgconfig/tensorflow.pc, so that clients build outside the source tree with
#   cc prog.c $(pkg-config --cflags --libs tensorflow)
# Usage: c_api/install_tree.sh LIBRARY SOURCE_ROOT PREFIX (scripts/install.sh builds LIBRARY).
set -euo pipefail
library=$1
source_root=$2
prefix=$3

mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
(cd "$source_root/c_api/include" && find . -name '*.h' -print0 |
  xargs -0 -I{} install -D -m 0644 {} "$prefix/include/{}")
install -m 0755 "$library" "$prefix/lib/libtensorflow.so.2"
ln -sf libtensorflow.so.2 "$prefix/lib/libtensorflow.so"

version=$(grep -o 'kImplementedVersion\[\] = "[^"]*"' "$source_root/c_api/c_api_library.cc" |
  sed 's/.*"\(.*\)"/\1/')
cat >"$prefix/lib/pkgconfig/tensorflow.pc" <<PC
prefix=$prefix
exec_prefix=\${prefix}
libdir=\${exec_prefix}/lib
includedir=\${prefix}/include

Name: tensorflow
Description: TensorFlow's C API, implemented by Sluice
URL: https://www.tensorflow.org/install/lang_c
Version: $version
Libs: -L\${libdir} -ltensorflow
Libs.private: -lprotobuf -ldnnl -lglog -lgomp -lstdc++ -lm
Cflags: -I\${includedir}
PC
