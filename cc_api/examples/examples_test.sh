#!/bin/bash
# Runs the example programs and checks the results they print against TensorFlow's.
# Usage: examples_test.sh MATMUL_EXAMPLE PLACEHOLDER_EXAMPLE MULTI_OUTPUT_EXAMPLE
set -u
fail=0

expect() {  # expect PROGRAM_OUTPUT EXPECTED_LINE
  if ! grep -qxF -- "$2" <<<"$1"; then
    echo "FAIL: missing line '$2' in:"
    echo "$1"
    fail=1
  fi
}

out=$("$1") || { echo "FAIL: $1 exited with $?"; exit 1; }
expect "$out" "v = [19][-3]"

out=$("$2") || { echo "FAIL: $2 exited with $?"; exit 1; }
expect "$out" "c = [4 5][6 7]"
expect "$out" "c = [13 23][33 43]"

out=$("$3") || { echo "FAIL: $3 exited with $?"; exit 1; }
expect "$out" "half0 = [1 5][4 0]"
expect "$out" "half1 = [3 2][6 7]"
expect "$out" "swapped = [3 2 1 5][6 7 4 0]"
expect "$out" "stacked = [1 4][5 0][3 6][2 7]"
expect "$out" "top.values = [5 3][7 6]"
expect "$out" "top.indices = [1 2][3 2]"
expect "$out" "shape0 = 2 4"
expect "$out" "shape1 = 2 2"

[ "$fail" = 0 ] && echo PASS
exit "$fail"
