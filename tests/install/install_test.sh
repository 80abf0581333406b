#!/usr/bin/env bash
# Unpacks the install tree (//tools/install:install_tree, what scripts/install.sh installs)
# into a temporary prefix and builds clients against it the way users do, outside Bazel,
# with the system compilers and pkg-config:
#   - the C99 program of c_api/examples on libtensorflow (pkg-config tensorflow), run on the
#     bundled digits model, and the ctypes binding's tests (c_api/python) on the installed
#     libtensorflow.so.2;
#   - the four ZeroOut custom-op libraries with g++ -shared (pkg-config tensorflow_framework),
#     loaded by a C program through TF_LoadLibrary;
#   - the C++ programs of compat/examples (TensorFlow's C++ guide, training, its renamed
#     wrappers through the per-family headers) and a C++ custom-op client on libtensorflow_cc
#     (pkg-config tensorflow_cc).
# Usage: install_test.sh TREE.tar
set -euo pipefail
root="${TEST_SRCDIR}/${TEST_WORKSPACE}"
prefix="${TEST_TMPDIR}/prefix"
work="${TEST_TMPDIR}/work"
mkdir -p "$prefix" "$work"
tar -C "$prefix" -xf "$1"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"

for module in tensorflow tensorflow_framework tensorflow_cc; do
  [[ "$(pkg-config --modversion "$module")" == 2.21.0 ]] || { echo "bad $module.pc" >&2; exit 1; }
done
for library in libtensorflow_framework libtensorflow libtensorflow_cc; do
  [[ -f "$prefix/lib/$library.so.2" && -L "$prefix/lib/$library.so" ]] ||
    { echo "missing $library" >&2; exit 1; }
done

# Under --config=asan the libraries need the sanitizer runtimes loaded before anything else,
# and the clients below are not instrumented.
# ldd's output is read whole first: `ldd | grep -q` under pipefail fails whenever grep exits
# before ldd has written everything (SIGPIPE), which skipped the preload at random.
linked=$(ldd "$prefix/lib/libtensorflow_framework.so.2")
# The sanitizer runtimes the library links (GCC's libasan and libubsan, or clang's shared
# libclang_rt.asan), by the paths ldd resolves.
sanitizers=$(awk '$1 ~ /^(libasan|libubsan|libclang_rt\.asan)/ && $3 ~ /^\// {print $3}' <<<"$linked" |
  tr '\n' ' ')
if [[ -n "$sanitizers" ]]; then
  export LD_PRELOAD="$sanitizers"
  # The plain-compiled clients' own allocations are not ours to leak-check.
  export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1"
fi
rpath="-Wl,-rpath,$prefix/lib"

echo "== C program on libtensorflow"
gcc -std=c99 -Wall -Wextra -Werror -pedantic "$root/c_api/examples/c_program_test.c" \
  -o "$work/c_program" $(pkg-config --cflags --libs tensorflow) -lm "$rpath"
"$work/c_program" "$root/models/digits"

echo "== Python (ctypes) on libtensorflow"
/usr/bin/python3 "$root/c_api/python/sluice_tf_test.py" "$prefix/lib/libtensorflow.so.2" \
  "$root/models/digits"

echo "== custom ops built with g++ against tensorflow_framework, loaded from C"
for op in zero_out zero_out_typed zero_out_preserve_index zero_out_conflicting; do
  g++ -std=c++17 -shared -fPIC -Wall -Werror "$root/compat/examples/zero_out/$op.cc" \
    -o "$work/$op.so" $(pkg-config --cflags --libs tensorflow_framework)
done
gcc -std=c99 -Wall -Wextra -Werror -pedantic "$root/tests/install/load_custom_ops.c" \
  -o "$work/load_custom_ops" $(pkg-config --cflags --libs tensorflow) "$rpath"
"$work/load_custom_ops" "$work"

echo "== C++ programs on libtensorflow_cc"
g++ -std=c++17 -Wall -Werror "$root/compat/examples/tf_guide_example.cc" -o "$work/tf_guide" \
  $(pkg-config --cflags --libs tensorflow_cc) "$rpath"
g++ -std=c++17 -Wall -Werror "$root/compat/examples/tf_train_example.cc" -o "$work/tf_train" \
  $(pkg-config --cflags --libs tensorflow_cc) "$rpath"
g++ -std=c++17 -Wall -Werror "$root/compat/examples/tf_ops_names_example.cc" -o "$work/tf_ops_names" \
  $(pkg-config --cflags --libs tensorflow_cc) "$rpath"
"$root/compat/examples/compat_examples_test.sh" "$work/tf_guide" "$work/tf_train" "$work/tf_ops_names"
g++ -std=c++17 -Wall -Werror "$root/tests/install/zero_out_client.cc" -o "$work/zero_out_client" \
  $(pkg-config --cflags --libs tensorflow_cc) "$rpath"
out=$("$work/zero_out_client" "$work/zero_out.so")
echo "$out"
grep -qxF "zeroed = 8 0 0 0" <<<"$out"
grep -qxF "unfed placeholder is INVALID_ARGUMENT: 1" <<<"$out"
echo PASS
