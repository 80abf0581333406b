#!/bin/bash
# Runs the TensorFlow-API example built against the compatibility tree and checks what it
# prints against TensorFlow's results. Usage: compat_examples_test.sh TF_GUIDE_EXAMPLE
set -u
out=$("$1") || { echo "FAIL: $1 exited with $?"; exit 1; }
fail=0
for want in "v = [19][-3]" "c = [4 5][6 7]" "split0 = [1 5][4 0]" "top.values = [5 3][7 6]" \
            "top.indices = [1 2][3 2]" "stacked = [1 4][5 0][3 6][2 7]" \
            "joined = [3 2 1 5][6 7 4 0]"; do
  if ! grep -qxF -- "$want" <<<"$out"; then
    echo "FAIL: missing line '$want'"
    fail=1
  fi
done
[ "$fail" = 0 ] && echo PASS || echo "$out"
exit "$fail"
