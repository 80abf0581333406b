#!/usr/bin/env bash
# A third-party program on Sluice's C API, compiled and run unchanged: Neargye/hello_tf_c_api's
# examples (c_api/examples/third_party/hello_tf_c_api/, see its README.md), built as a user
# would, outside Bazel, with g++ and `pkg-config --cflags --libs tensorflow` against the install
# tree of //tools/install (what scripts/install.sh installs), then run on graph.pb. Each program's stdout must
# match what the same program printed on TensorFlow's own C library (expected/*.txt): the same
# text, and every number within a relative 1e-4 (the programs print 6 significant digits).
set -euo pipefail
root="${TEST_SRCDIR}/${TEST_WORKSPACE}"
prefix="${TEST_TMPDIR}/prefix"
mkdir -p "$prefix"
tar -C "$prefix" -xf "$1"
lib="$prefix/lib/libtensorflow_framework.so.2"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"

example="$root/c_api/examples/third_party/hello_tf_c_api"
build="$TEST_TMPDIR/hello_tf_c_api"
mkdir -p "$build"
# The flags of the project's own CMakeLists.txt (C++17, warnings as errors).
flags=(-std=c++17 -Wall -Wextra -pedantic-errors -Werror -I"$example/src/3rdparty/scope_guard/include")
g++ "${flags[@]}" $(pkg-config --cflags tensorflow) -c "$example/src/tf_utils.cpp" \
  -o "$build/tf_utils.o"
programs=(session_run interface batch_interface tensor_info graph_info)
for program in "${programs[@]}"; do
  g++ "${flags[@]}" "$example/src/$program.cpp" "$build/tf_utils.o" -o "$build/$program" \
    $(pkg-config --cflags --libs tensorflow) -Wl,-rpath,"$prefix/lib"
done

# Under --config=asan the library needs the sanitizer runtimes loaded before anything else
# (only in the programs: python3 below is not run under them).
preload=""
# ldd's output is read whole first: `ldd | grep -q` under pipefail fails whenever grep exits
# before ldd has written everything (SIGPIPE), which skipped the preload at random.
linked=$(ldd "$lib")
# The sanitizer runtimes the library links (GCC's libasan and libubsan, or clang's shared
# libclang_rt.asan), by the paths ldd resolves.
sanitizers=$(awk '$1 ~ /^(libasan|libubsan|libclang_rt\.asan)/ && $3 ~ /^\// {print $3}' <<<"$linked" |
  tr '\n' ' ')
preload="$sanitizers"

# The programs read graph.pb from the working directory.
cp "$example/graph.pb" "$build/graph.pb"
failed=0
for program in "${programs[@]}"; do
  if ! (cd "$build" && LD_PRELOAD="$preload" "./$program" >"$program.out"); then
    echo "FAIL $program exited with an error; it printed:" >&2
    cat "$build/$program.out" >&2
    failed=1
    continue
  fi
  if python3 - "$build/$program.out" "$example/expected/$program.txt" <<'PY'; then
import re
import sys

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def parts(path):
  text = open(path).read()
  return NUMBER.split(text), [float(n) for n in NUMBER.findall(text)]


got_text, got = parts(sys.argv[1])
want_text, want = parts(sys.argv[2])
ok = got_text == want_text and len(got) == len(want) and all(
    abs(g - w) <= 1e-6 + 1e-4 * abs(w) for g, w in zip(got, want))
if not ok:
  print("Sluice printed:\n" + open(sys.argv[1]).read(), file=sys.stderr)
  print("TensorFlow printed:\n" + open(sys.argv[2]).read(), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
    echo "PASS $program"
  else
    echo "FAIL $program: output differs from TensorFlow's" >&2
    failed=1
  fi
done
exit "$failed"
