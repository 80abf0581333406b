#!/usr/bin/env bash
# Installs the C API into a temporary prefix (c_api/install_tree.sh, as scripts/install.sh
# does) and builds the C client there with the plain compiler and pkg-config, outside Bazel,
# then runs it.
set -euo pipefail
root="${TEST_SRCDIR}/${TEST_WORKSPACE}"
prefix="${TEST_TMPDIR}/prefix"
lib="$root/c_api/libtensorflow.so.2"
"$root/c_api/install_tree.sh" "$lib" "$root" "$prefix"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg-config --exists tensorflow
[[ "$(pkg-config --modversion tensorflow)" == 2.21.0 ]]
flags=(-std=c99 -Wall -Wextra -Werror -pedantic)
gcc "${flags[@]}" "$root/c_api/examples/c_program_test.c" -o "$TEST_TMPDIR/c_program" \
  $(pkg-config --cflags --libs tensorflow) -lm -Wl,-rpath,"$prefix/lib"
# Under --config=asan the library needs the sanitizer runtimes loaded before anything else.
if ldd "$lib" | grep -q libasan; then
  preload="$(gcc -print-file-name=libasan.so)"
  if ldd "$lib" | grep -q libubsan; then preload="$preload $(gcc -print-file-name=libubsan.so)"; fi
  export LD_PRELOAD="$preload"
fi
"$TEST_TMPDIR/c_program" "$root/models/digits"
