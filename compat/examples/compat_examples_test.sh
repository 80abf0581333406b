#!/bin/bash
# Runs the TensorFlow-API examples built against the compatibility tree and checks what they
# print against TensorFlow's results.
# Usage: compat_examples_test.sh TF_GUIDE_EXAMPLE TF_TRAIN_EXAMPLE TF_OPS_NAMES_EXAMPLE
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
# TensorFlow's run of the same graph (compat/examples/tf_ops_names_example.py).
names=$("$3") || { echo "FAIL: $3 exited with $?"; exit 1; }
expect "$names" \
  "squeezed = [2,2,3] -0.6641 -0.0859 -0.5078 -0.1953 -0.6172 -0.0391 0.2109 -0.2109 0.3672 -0.3203 0.2578 -0.1641" \
  "channel_sums = [1,1,3] -0.9688 -0.6562 -0.3438" \
  "where = [5] 2.0000 1.0000 -0.0000 1.0000 2.0000" \
  "product = [5] 8.0000 2.0000 0.0000 2.0000 8.0000" \
  "relu_grad = [5] 0.0000 0.0000 0.0000 4.0000 5.0000" \
  "diff.out = [4] 1 3 5 6" "diff.idx = [4] 0 2 4 5" "shape = [3] 2 4 3" \
  "noise = [3] 1.6056 2.2250 -0.5360"
[ "$fail" = 0 ] && echo PASS || printf '%s\n%s\n%s\n' "$guide" "$train" "$names"
exit "$fail"
