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
# Under --config=asan the library carries the sanitizer runtimes; the program must too.
if ldd "$lib" | grep -q libasan; then flags+=(-fsanitize=address,undefined); fi
gcc "${flags[@]}" "$root/c_api/examples/c_program_test.c" -o "$TEST_TMPDIR/c_program" \
  $(pkg-config --cflags --libs tensorflow) -lm -Wl,-rpath,"$prefix/lib"
"$TEST_TMPDIR/c_program" "$root/models/digits"
