#!/bin/bash
# Runs the TensorFlow-API examples built against the compatibility tree and checks what they
# print against TensorFlow's results.
# Usage: compat_examples_test.sh TF_GUIDE_EXAMPLE TF_TRAIN_EXAMPLE
set -u
fail=0
# expect PROGRAM_OUTPUT LINE...: each LINE must be a whole line of the output.
expect() {
  local out=$1
  shift
  for want in "$@"; do
    if ! grep -qxF -- "$want" <<<"$out"; then
      echo "FAIL: missing line '$want'"
      fail=1
    fi
  done
}
guide=$("$1") || { echo "FAIL: $1 exited with $?"; exit 1; }
expect "$guide" "v = [19][-3]" "c = [4 5][6 7]" "split0 = [1 5][4 0]" "top.values = [5 3][7 6]" \
  "top.indices = [1 2][3 2]" "stacked = [1 4][5 0][3 6][2 7]" "joined = [3 2 1 5][6 7 4 0]"
# TensorFlow's run of the same training (compat/examples/tf_train_example.py).
train=$("$2") || { echo "FAIL: $2 exited with $?"; exit 1; }
expect "$train" "step 0 loss = 2.0859" "step 50 loss = 0.0533" "step 100 loss = 0.0017" \
  "step 150 loss = 0.0001" "step 200 loss = 0.0000" "w = 2.9980 b = -1.9979"
[ "$fail" = 0 ] && echo PASS || printf '%s\n%s\n' "$guide" "$train"
exit "$fail"
