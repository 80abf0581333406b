#!/usr/bin/env bash
# Runs the ctypes binding's tests with Debian's python3 and numpy (python3-numpy, installed by
# scripts/setup.sh) against libtensorflow.so.2.
set -uo pipefail
root="${TEST_SRCDIR}/${TEST_WORKSPACE}"
python=/usr/bin/python3
if ! "$python" -c 'import numpy' 2>/dev/null; then
  echo "numpy is missing for $python (scripts/setup.sh installs python3-numpy)" >&2
  exit 1
fi
lib="$root/c_api/libtensorflow.so.2"
# Under --config=asan the library needs the sanitizer runtimes loaded first, and Python's
# own allocations are not ours to leak-check.
# ldd's output is read whole first: `ldd | grep -q` under pipefail fails whenever grep exits
# before ldd has written everything (SIGPIPE), which skipped the preload at random.
linked=$(ldd "$lib")
# The sanitizer runtimes the library links (GCC's libasan and libubsan, or clang's shared
# libclang_rt.asan), by the paths ldd resolves.
sanitizers=$(awk '$1 ~ /^(libasan|libubsan|libclang_rt\.asan)/ && $3 ~ /^\// {print $3}' <<<"$linked" |
  tr '\n' ' ')
if [[ -n "$sanitizers" ]]; then
  export LD_PRELOAD="$sanitizers"
  export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1"
fi
exec "$python" "$root/c_api/python/sluice_tf_test.py" "$lib" \
  "$root/models/digits"
