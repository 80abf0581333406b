#!/usr/bin/env bash
# Lays out Sluice's install tree and packs it as a tar archive:
#   include/                 the C headers at TensorFlow's paths (tensorflow/c/..., tsl/...)
#                            and the C++ compatibility headers (tensorflow/core/...,
#                            tensorflow/cc/...);
#   include/sluice/          Sluice's own headers, which the compatibility headers include
#                            (generated .pb.h and op wrappers included);
#   lib/                     libtensorflow_framework.so.2, libtensorflow.so.2,
#                            libtensorflow_cc.so.2 (stripped) and their .so links;
#   lib/pkgconfig/           tensorflow.pc, tensorflow_framework.pc, tensorflow_cc.pc.
# The .pc files find the prefix from their own place (${pcfiledir}), so the tree works
# wherever it is unpacked. scripts/install.sh unpacks it into a prefix.
#
# Usage: install_tree.sh OUT.tar VERSION_SOURCE FRAMEWORK_LIB C_LIB CC_LIB HEADER...
# VERSION_SOURCE is c_api/c_api_library.cc (its kImplementedVersion is TF_Version()).
# HEADERs are paths under the source root or Bazel's output tree (bazel-out/<config>/bin/).
set -euo pipefail
out=$(realpath -m "$1")
version_source=$2
framework=$3
c_library=$4
cc_library=$5
shift 5

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/include/sluice" "$stage/lib/pkgconfig"

for header in "$@"; do
  relative=$(sed -E 's|^bazel-out/[^/]+/bin/||' <<<"$header")
  case "$relative" in
    external/*) continue ;;  # not Sluice's (none today; system headers are not in the graph)
    c_api/include/*) dest="include/${relative#c_api/include/}" ;;
    compat/*) dest="include/${relative#compat/}" ;;
    *) dest="include/sluice/$relative" ;;
  esac
  install -D -m 0644 "$header" "$stage/$dest"
done

for library in "$framework" "$c_library" "$cc_library"; do
  name=$(basename "$library")
  strip --strip-unneeded -o "$stage/lib/$name" "$library"
  chmod 0755 "$stage/lib/$name"
  ln -s "$name" "$stage/lib/${name%.2}"
done

version=$(grep -o 'kImplementedVersion\[\] = "[^"]*"' "$version_source" | sed 's/.*"\(.*\)"/\1/')
common_header='prefix=${pcfiledir}/../..
libdir=${prefix}/lib
includedir=${prefix}/include'

cat >"$stage/lib/pkgconfig/tensorflow.pc" <<PC
$common_header

Name: tensorflow
Description: TensorFlow's C API, implemented by Sluice
URL: https://www.tensorflow.org/install/lang_c
Version: $version
Libs: -L\${libdir} -ltensorflow
Cflags: -I\${includedir}
PC

# Custom-op libraries and C++ programs compile against TensorFlow's framework headers, which
# include Sluice's, Eigen's, Abseil's and protobuf's, and call into all of them.
cat >"$stage/lib/pkgconfig/tensorflow_framework.pc" <<PC
$common_header

Name: tensorflow_framework
Description: Sluice's C++ framework (TensorFlow's op, kernel, tensor and shape inference headers) for custom ops
URL: https://www.tensorflow.org/guide/create_op
Version: $version
Requires: eigen3 protobuf libglog absl_status absl_statusor absl_strings absl_str_format absl_synchronization absl_hash absl_raw_hash_set
Libs: -L\${libdir} -ltensorflow_framework
Cflags: -I\${includedir} -I\${includedir}/sluice
PC

cat >"$stage/lib/pkgconfig/tensorflow_cc.pc" <<PC
$common_header

Name: tensorflow_cc
Description: TensorFlow's C++ client API (Scope, ClientSession, ops), implemented by Sluice
URL: https://www.tensorflow.org/api_docs/cc
Version: $version
Requires: tensorflow_framework = $version
Libs: -L\${libdir} -ltensorflow_cc
PC

tar -C "$stage" -cf "$out" include lib
