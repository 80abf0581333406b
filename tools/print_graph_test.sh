#!/usr/bin/env bash
# Runs print_graph on TensorFlow-made fixtures and on bad inputs, checking what it prints
# and its exit status.
#
# Usage: print_graph_test.sh PRINT_GRAPH CNN_PB ARRAY_OPS_PBTXT
set -uo pipefail

tool=$1
cnn=$2
array_ops=$3
tmp=${TEST_TMPDIR:-$(mktemp -d)}
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_line FILE TEXT: FILE has a line containing TEXT (a fixed string).
expect_line() {
  grep -qF -- "$2" "$1" || fail "expected '$2' in $(basename "$1"):"$'\n'"$(cat "$1")"
}

# run NAME EXPECTED_STATUS ARGS...: runs the tool, saving stdout and stderr.
run() {
  local name=$1 expected=$2
  shift 2
  "$tool" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  local status=$?
  [ "$status" -eq "$expected" ] ||
    fail "$name: exit status $status, expected $expected; stderr: $(cat "$tmp/$name.err")"
}

run cnn 0 "$cnn"
expect_line "$tmp/cnn.out" "Versions: producer 2474"
expect_line "$tmp/cnn.out" "Nodes: 46"
expect_line "$tmp/cnn.out" "Conv2D                   3"
expect_line "$tmp/cnn.out" "FusedBatchNormV3         1"
expect_line "$tmp/cnn.out" "Inputs (1):"
expect_line "$tmp/cnn.out" "images: float [?,8,8,1]"
expect_line "$tmp/cnn.out" "classes: int64"
expect_line "$tmp/cnn.out" "bn1/FusedBatchNormV3 = FusedBatchNormV3(conv1/BiasAdd,"
expect_line "$tmp/cnn.out" "-> (float, float, float, float, float, float)"
expect_line "$tmp/cnn.out" "classes = ArgMax(logits, classes/dimension) -> int64"
expect_line "$tmp/cnn.out" "conv1/kernel = Const() -> float [3,3,1,8]"
[ -s "$tmp/cnn.err" ] && fail "cnn: unexpected stderr: $(cat "$tmp/cnn.err")"

run array_ops 0 "$array_ops"
expect_line "$tmp/array_ops.out" "a: float [2,3]"
expect_line "$tmp/array_ops.out" "as_int = Cast("
expect_line "$tmp/array_ops.out" ") -> int32"

run missing 1 "$tmp/does_not_exist.pb"
expect_line "$tmp/missing.err" "NOT_FOUND"
expect_line "$tmp/missing.err" "does_not_exist.pb"

printf '\x93\xff\x00\x01 definitely not a graph \xfe' >"$tmp/garbage.pb"
run garbage 1 "$tmp/garbage.pb"
expect_line "$tmp/garbage.err" "print_graph: error:"
expect_line "$tmp/garbage.err" "GraphDef"

printf '\x1c\x00\x00\x00TFL3\x00\x00\x00\x00' >"$tmp/model.tflite"
run tflite 1 "$tmp/model.tflite"
expect_line "$tmp/tflite.err" "TensorFlow Lite"

mkdir -p "$tmp/saved_model" && : >"$tmp/saved_model/saved_model.pb"
run saved_model 1 "$tmp/saved_model"
expect_line "$tmp/saved_model.err" "SavedModel"

cat >"$tmp/bad_node.pbtxt" <<'PBTXT'
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "y" op: "Relu" input: "x" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
PBTXT
run bad_node 1 "$tmp/bad_node.pbtxt"
expect_line "$tmp/bad_node.err" "INVALID_ARGUMENT"
expect_line "$tmp/bad_node.err" "{{node y}}"

echo 'node { name: "z" op: "NoSuchOp" }' >"$tmp/unknown_op.pbtxt"
run unknown_op 1 "$tmp/unknown_op.pbtxt"
expect_line "$tmp/unknown_op.err" "NoSuchOp"

run usage 2

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "PASS"
