#!/usr/bin/env bash
# End-to-end tests of the `sluice` command line: runs the binary on small graphs of its own
# (tools/testdata), on TensorFlow-made fixtures (tests/fixtures) and on bad inputs, checking
# what it prints and its exit status (0 success, 1 failure, 2 usage error).
#
# Usage: sluice_test.sh SLUICE   (run from the runfiles root, as Bazel does)
set -uo pipefail

sluice=$1
data=tools/testdata
fixtures=tests/fixtures
npy=io/testdata
digits=models/digits
tmp=${TEST_TMPDIR:-$(mktemp -d)}
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect FILE TEXT: FILE contains TEXT (a fixed string).
expect() {
  grep -qF -- "$2" "$1" || fail "expected '$2' in $(basename "$1"):"$'\n'"$(cat "$1")"
}

# expect_not FILE TEXT: FILE does not contain TEXT.
expect_not() {
  ! grep -qF -- "$2" "$1" || fail "did not expect '$2' in $(basename "$1"):"$'\n'"$(cat "$1")"
}

# run NAME EXPECTED_STATUS ARGS...: runs sluice, saving stdout in $tmp/NAME.out and stderr in
# $tmp/NAME.err; EXPECTED_STATUS -1 accepts any. No run may print a crash or stack trace.
run() {
  local name=$1 expected=$2
  shift 2
  "$sluice" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  local status=$?
  [ "$expected" -eq -1 ] || [ "$status" -eq "$expected" ] ||
    fail "$name: exit status $status, expected $expected; stderr: $(cat "$tmp/$name.err")"
  for marker in "Check failed" "*** " "Segmentation" "terminate called" "Aborted" "#0 "; do
    expect_not "$tmp/$name.err" "$marker"
  done
}

# ---- Usage and help -----------------------------------------------------------------------
run no_args 2
expect "$tmp/no_args.err" "usage: sluice COMMAND"
run help 0 --help
expect "$tmp/help.out" "benchmark"
run unknown_command 2 frobnicate
expect "$tmp/unknown_command.err" "unknown command 'frobnicate'"
for command in run inspect optimize convert benchmark ops; do
  run "help_$command" 0 "$command" --help
  expect "$tmp/help_$command.out" "usage: sluice $command"
done
run help_via_help 0 help run
expect "$tmp/help_via_help.out" "--save-outputs DIR"
run unknown_flag 2 run "$data/add.pbtxt" --frobnicate
expect "$tmp/unknown_flag.err" "unknown flag '--frobnicate'"
expect "$tmp/unknown_flag.err" "usage: sluice run"
run missing_model_arg 2 inspect
expect "$tmp/missing_model_arg.err" "missing argument MODEL"

# ---- run ----------------------------------------------------------------------------------
# total = (x + c) + y + y with c = [1, 2, 3]; twice = x + x.
run add_zeros 0 run "$data/add.pbtxt" --input x=zeros --input y=zeros --shape x=2,3 \
  --save-outputs "$tmp/saved"
expect "$tmp/add_zeros.out" "x: zeros float [2,3]"
expect "$tmp/add_zeros.out" "total: float [2,3]  min 1 max 3 mean 2"
expect "$tmp/add_zeros.out" "values: [1 2 3][1 2 3]"
expect "$tmp/add_zeros.out" "top-3 row 0: 2 (3), 1 (2), 0 (1)"
expect "$tmp/add_zeros.out" "twice: float [2,3]  min 0 max 0 mean 0"
expect "$tmp/add_zeros.out" "Saved $tmp/saved/out_1.npy"
for i in 0 1; do
  [ "$(head -c 6 "$tmp/saved/out_$i.npy" | tail -c 5)" = "NUMPY" ] || fail "out_$i.npy is not .npy"
done
# A full device: the system's error and its code, not UNKNOWN.
mkdir -p "$tmp/full" && ln -sf /dev/full "$tmp/full/out_0.npy"
run save_full 1 run "$data/add.pbtxt" --output twice --save-outputs "$tmp/full"
expect "$tmp/save_full.err" "RESOURCE_EXHAUSTED: $tmp/full/out_0.npy: error writing"
expect "$tmp/save_full.err" "No space left on device"

# Outputs named both ways, in --output order; an input fed from a .npy sluice wrote.
run add_npy 0 run "$data/add.pbtxt" --input "x=$tmp/saved/out_0.npy" --input y=zeros \
  --output twice:0 --output total --save-outputs "$tmp/saved2"
expect "$tmp/add_npy.out" "x: $tmp/saved/out_0.npy float [2,3]"
expect "$tmp/add_npy.out" "twice: float [2,3]  min 2 max 6 mean 4"
expect "$tmp/add_npy.out" "values: [2 4 6][2 4 6]"
# With x = [1 2 3] rows and y = 0, total = x + c and twice = x + x agree.
cmp -s "$tmp/saved2/out_0.npy" "$tmp/saved2/out_1.npy" || fail "saved twice and total differ"

# Steps: a folder feeds its .npy files in name order, one per step; --step-batch cuts a
# file's rows into steps.
mkdir -p "$tmp/steps" "$tmp/three_steps"
cp "$tmp/saved/out_0.npy" "$tmp/steps/a.npy"  # [[1 2 3] [1 2 3]]
cp "$tmp/saved/out_1.npy" "$tmp/steps/b.npy"  # zeros
run folder_steps 0 run "$data/add.pbtxt" --input "x=$tmp/steps" --input y=zeros --output twice \
  --save-outputs "$tmp/step_outputs"
expect "$tmp/folder_steps.out" "x: $tmp/steps (2 files) float [2,3]"
expect "$tmp/folder_steps.out" "Steps: 2"
expect "$tmp/folder_steps.out" "Outputs of step 0 (1)"
expect "$tmp/folder_steps.out" "twice: float [2,3]  min 2 max 6 mean 4"
expect "$tmp/folder_steps.out" "Outputs of step 1 (1)"
expect "$tmp/folder_steps.out" "twice: float [2,3]  min 0 max 0 mean 0"
[ -f "$tmp/step_outputs/step_1/out_0.npy" ] || fail "no step_1/out_0.npy"
run step_batch 0 run "$data/add.pbtxt" --input "x=$tmp/saved/out_0.npy" --output twice \
  --step-batch 1
expect "$tmp/step_batch.out" "2 steps of up to 1 rows"
expect "$tmp/step_batch.out" "Outputs of step 1 (1)"
expect "$tmp/step_batch.out" "twice: float [1,3]  min 2 max 6 mean 4"
cp "$tmp/steps/a.npy" "$tmp/steps/b.npy" "$tmp/three_steps/" && cp "$tmp/steps/a.npy" "$tmp/three_steps/c.npy"
run uneven_steps 1 run "$data/add.pbtxt" --input "x=$tmp/steps" --input "y=$tmp/three_steps"
expect "$tmp/uneven_steps.err" "inputs make different numbers of steps"
mkdir -p "$tmp/no_npy"
run empty_folder 1 run "$data/add.pbtxt" --input "x=$tmp/no_npy"
expect "$tmp/empty_folder.err" "holds no .npy files"

# --capture: every node's outputs of every step into an event file and index.json, the
# model's own node names (nothing folded or fused away); --capture-nodes and --capture-every
# choose.
run capture 0 run "$data/add.pbtxt" --input "x=$tmp/steps" --input y=zeros --capture "$tmp/cap"
expect "$tmp/capture.out" "Captured 8 values in $tmp/cap/events.out.tfevents."
expect "$tmp/cap/index.json" '"steps":[0,1]'
expect "$tmp/cap/index.json" '"tag":"sum:0","node":"sum","op":"AddV2","output":0,"dtype":"float"'
expect "$tmp/cap/index.json" '{"step":0,"shape":[2,3],"elements":6,"min":2,"max":6,"mean":4,'
expect "$tmp/cap/index.json" '"tag":"c:0","node":"c","op":"Const"'
expect "$tmp/cap/index.json" '"tag":"twice:0"'
expect_not "$tmp/cap/index.json" '_arg_'
run capture_some 0 run "$data/add.pbtxt" --input "x=$tmp/steps" --input y=zeros \
  --capture "$tmp/cap_some" --capture-nodes '^(sum|total)$' --capture-every 2
expect "$tmp/capture_some.out" "Captured 2 values"
expect "$tmp/cap_some/index.json" '"steps":[0]'
expect_not "$tmp/cap_some/index.json" '"tag":"twice:0"'
run capture_bad_regex 1 run "$data/add.pbtxt" --capture "$tmp/cap_bad" --capture-nodes 'conv('
expect "$tmp/capture_bad_regex.err" "--capture-nodes: 'conv(' is not a regular expression"
run capture_flags_alone 2 run "$data/add.pbtxt" --capture-every 3
expect "$tmp/capture_flags_alone.err" "--capture-nodes and --capture-every need --capture"
run capture_unwritable 1 run "$data/add.pbtxt" --capture /proc/no_capture_here
expect "$tmp/capture_unwritable.err" "--capture: "
# A NaN found with --check-numerics keeps what was captured up to it.
run capture_nan 1 run "$data/log_of_negation.pbtxt" --input x=random --shape x=3 \
  --check-numerics --capture "$tmp/cap_nan"
expect "$tmp/cap_nan/index.json" '"tag":"negated:0"'
expect "$tmp/cap_nan/index.json" '"tag":"log:0"'

# board: what it refuses before serving (tests/board serves and asks it).
run board_no_logdir 2 board
expect "$tmp/board_no_logdir.err" "--logdir DIR is required"
run board_missing 1 board --logdir "$tmp/no_such_logdir"
expect "$tmp/board_missing.err" "is not an existing folder"
run board_bad_port 2 board --logdir "$tmp" --port 70000
expect "$tmp/board_bad_port.err" "--port must be between 0 and 65535, got 70000"
run board_help 0 board --help
expect "$tmp/board_help.out" "usage: sluice board --logdir DIR [--port N] [--host ADDRESS]"

# --check-numerics: log(-x) is -Inf for x = 0, first at node "log"; finite models pass.
run check_numerics 1 run "$data/log_of_negation.pbtxt" --input x=zeros --shape x=3 \
  --check-numerics
expect "$tmp/check_numerics.err" "output 0 of node 'log' (op Log) has 3 -Inf at step 0"
expect "$tmp/check_numerics.err" "input 0 (negated:0): float [3]"
run check_numerics_nan 1 run "$data/log_of_negation.pbtxt" --input x=random --shape x=3 \
  --check-numerics
expect "$tmp/check_numerics_nan.err" "has 3 NaN at step 0"
run check_numerics_clean 0 run "$data/add.pbtxt" --input x=zeros --input y=zeros --shape x=2,3 \
  --check-numerics
expect "$tmp/check_numerics_clean.out" "no NaN or infinity in any node output of 1 step(s)"
expect "$tmp/check_numerics_clean.out" "total: float [2,3]  min 1 max 3 mean 2"

# Inputs not named are random with the Placeholder's shape; unknown dims become 1 (or --batch).
run add_default 0 run "$data/add.pbtxt" --output twice
expect "$tmp/add_default.out" "x: random float [1,3]"
# twice = x + x does not need y, so y is not fed.
expect "$tmp/add_default.out" "Inputs (1):"
expect_not "$tmp/add_default.out" "y: random"
run add_batch 0 run "$data/add.pbtxt" --output twice --batch 4
expect "$tmp/add_batch.out" "twice: float [4,3]"
# --memory-limit-mb: twice = x + x needs 1.2 MB, more than the limit of 1 MiB; a small batch fits.
run memory_limit 1 run "$data/add.pbtxt" --output twice --batch 100000 --memory-limit-mb 1
expect "$tmp/memory_limit.err" "RESOURCE_EXHAUSTED: OOM when allocating tensor"
expect "$tmp/memory_limit.err" "of its limit of 1048576 are in use"
expect "$tmp/memory_limit.err" "{{node twice}}"
run memory_limit_fits 0 run "$data/add.pbtxt" --output twice --batch 4 --memory-limit-mb 1
expect "$tmp/memory_limit_fits.out" "twice: float [4,3]"
run memory_limit_negative 2 run "$data/add.pbtxt" --memory-limit-mb -1
expect "$tmp/memory_limit_negative.err" "--memory-limit-mb must be between 0 and"

run int_add 0 run "$data/int_add.pbtxt" --input n=zeros --shape n=2 --output out --output kk
expect "$tmp/int_add.out" "out: int32 [2]  min 20 max 20 mean 20"
expect "$tmp/int_add.out" "kk: int32 []"
run unknown_rank 1 run "$data/int_add.pbtxt" --input n=zeros
expect "$tmp/unknown_rank.err" "input 'n' has an unknown shape; give one with --shape n="

# Only the Placeholders the outputs need are asked for or fed (unused_inputs.pbtxt: the
# unused_control_flow_input* of a frozen LSTM, of unknown rank or of a dtype that cannot be
# generated, read only by a NoOp). The needed ones still are: x (unknown rank) needs --shape,
# gate (needed through control edges) is generated.
run unused_needs_shape 1 run "$data/unused_inputs.pbtxt"
expect "$tmp/unused_needs_shape.err" "input 'x' has an unknown shape; give one with --shape x="
expect_not "$tmp/unused_needs_shape.err" "unused_control_flow_input"
run unused 0 run "$data/unused_inputs.pbtxt" --input x=zeros --shape x=2,3
expect "$tmp/unused.out" "Inputs (2):"
expect "$tmp/unused.out" "x: zeros float [2,3]"
expect "$tmp/unused.out" "gate: random float []"
expect "$tmp/unused.out" "out: float [2,3]  min 2 max 6 mean 4"
expect_not "$tmp/unused.out" "unused_control_flow_input"
run unused_bad_input 1 run "$data/unused_inputs.pbtxt" --input nosuch=zeros
expect "$tmp/unused_bad_input.err" "--input: unknown input 'nosuch'; the model's inputs are: \
x (float <unknown shape>), gate (float []); besides 3 Placeholder(s) the outputs do not need: \
unused_control_flow_input_0, unused_control_flow_input_1, unused_control_flow_input_2"
# Feeding an intermediate tensor cuts the walk there: x is not needed.
run unused_cut 0 run "$data/unused_inputs.pbtxt" --input sum=zeros --shape sum=1,3
expect "$tmp/unused_cut.out" "Inputs (2):"
expect "$tmp/unused_cut.out" "sum: zeros float [1,3]"
expect "$tmp/unused_cut.out" "out: float [1,3]  min 0 max 0 mean 0"
# A --shape alone for an input the outputs do not need generates nothing; an --input for one
# is fed anyway, as TensorFlow's session accepts it.
run unused_shape 0 run "$data/unused_inputs.pbtxt" --shape x=1,3 \
  --shape unused_control_flow_input_1=4
expect "$tmp/unused_shape.out" "Inputs (2):"
expect "$tmp/unused_shape.out" \
  "Not fed, as the outputs do not need them (--shape ignored): unused_control_flow_input_1"
run unused_fed 0 run "$data/unused_inputs.pbtxt" --shape x=1,3 \
  --input unused_control_flow_input_1=zeros --shape unused_control_flow_input_1=4
expect "$tmp/unused_fed.out" \
  "unused_control_flow_input_1: zeros int32 [4] (not needed by the outputs)"
expect "$tmp/unused_fed.out" "out: float [1,3]"

run bf16 0 run "$data/bf16.pbtxt" --save-outputs "$tmp/bf16"
expect "$tmp/bf16.out" "Inputs (0):"
expect "$tmp/bf16.out" "out: bfloat16 [2]  min 1 max 2 mean 1.5"
expect "$tmp/bf16.out" "Output 0 is bfloat16; saved as float32"
expect "$tmp/bf16/out_0.npy" "'descr': '<f4'"

run bad_output 1 run "$data/add.pbtxt" --output nosuch
expect "$tmp/bad_output.err" "unknown output 'nosuch'"
expect "$tmp/bad_output.err" "likely outputs are: total, twice"
run bad_output_index 1 run "$data/add.pbtxt" --output total:3
expect "$tmp/bad_output_index.err" "OUT_OF_RANGE"
run bad_input 1 run "$data/add.pbtxt" --input nosuch=zeros
expect "$tmp/bad_input.err" "unknown input 'nosuch'"
expect "$tmp/bad_input.err" "x (float [?,3]), y (float [2,3])"
run bad_input_spec 1 run "$data/add.pbtxt" --input x
expect "$tmp/bad_input_spec.err" "--input expects NAME=VALUE"
run bad_shape 1 run "$data/add.pbtxt" --shape y=3,3
expect "$tmp/bad_shape.err" "does not fit the model's [2,3]"
run npy_and_shape 1 run "$data/add.pbtxt" --input "x=$npy/f32_2x3_v1.npy" --shape x=1,3
expect "$tmp/npy_and_shape.err" "holds [2,3], not the --shape [1,3]"

run npy_dtype 1 run "$data/add.pbtxt" --input "x=$npy/i64_4_v2.npy"
expect "$tmp/npy_dtype.err" "is int64 [4] but the model expects float [?,3]"
run npy_dtype2 1 run "$data/add.pbtxt" --input "y=$tmp/saved/out_0.npy" --input "x=$npy/f64_big_endian.npy"
expect "$tmp/npy_dtype2.err" "is double [3] but the model expects float [?,3]"
run make_1x3 0 run "$data/add.pbtxt" --shape x=1,3 --output twice --save-outputs "$tmp/saved3"
run npy_shape 1 run "$data/add.pbtxt" --input "y=$tmp/saved3/out_0.npy"
expect "$tmp/npy_shape.err" "input 'y': $tmp/saved3/out_0.npy is float [1,3] but the model expects float [2,3]"
run npy_fortran 1 run "$data/add.pbtxt" --input "y=$npy/f32_fortran.npy"
expect "$tmp/npy_fortran.err" "Fortran-order"
run npy_object 1 run "$data/add.pbtxt" --input "y=$npy/object.npy"
expect "$tmp/npy_object.err" "dtype=object"
run npy_missing 1 run "$data/add.pbtxt" --input "y=$tmp/nothing.npy"
expect "$tmp/npy_missing.err" "NOT_FOUND"

# Ops this build does not register: the error names each op type and its first nodes.
run unregistered 1 run "$data/unregistered_ops.pbtxt"
expect "$tmp/unregistered.err" "NOT_FOUND"
expect "$tmp/unregistered.err" "3 op types not registered in binary running on this host: \
'NegTrain' (node table/HashTable), 'SdcaFprint' (node table/insert), \
'Skipgram' (nodes table/find_0, table/find_1, table/find_2, table/find_3, \
table/find_4 and 2 more); Sluice cannot run this graph"
printf '%s\n' 'node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }' \
  'node { name: "list" op: "NegTrain" input: "x" input: "x" }' \
  'node { name: "y" op: "Identity" input: "x" attr { key: "T" value { type: DT_FLOAT } } }' \
  >"$tmp/one_unregistered.pbtxt"
run one_unregistered 1 run "$tmp/one_unregistered.pbtxt" --output y
expect "$tmp/one_unregistered.err" \
  "Op type not registered 'NegTrain' (node list) in binary running on this host"

run no_kernel 1 run "$data/no_kernel.pbtxt"
expect "$tmp/no_kernel.err" "no CPU kernel for op 'Relu' (node stop, T=qint8)"
expect "$tmp/no_kernel.err" "CPU has Relu kernels, but none for T=qint8"
expect_not "$tmp/no_kernel.err" "kernels exist on"
run device_bad 1 run "$data/add.pbtxt" --device tpu --output twice
expect "$tmp/device_bad.err" "--device must be cpu or gpu, got 'tpu'"
# Without a GPU (or in a build without CUDA, the sanitizers'), asking for one is an error,
# never the CPU in its place.
run device_gpu -1 run "$data/add.pbtxt" --device gpu --output twice
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  expect "$tmp/device_gpu.err" "no GPU device"
fi

# ---- Thread counts ------------------------------------------------------------------------
# At most 4096 each (Eigen's pools abort at 16384); integers are parsed strictly, never
# truncated (4294967297 is not 1).
for value in 16384 4097 4294967297 99999999999999999999 -1; do
  run threads_range 2 run "$data/add.pbtxt" --output twice --threads "$value"
  expect "$tmp/threads_range.err" "--threads must be between 0 and 4096, got $value"
  run inter_op_range 2 benchmark "$data/add.pbtxt" --runs 1 --inter-op-threads "$value"
  expect "$tmp/inter_op_range.err" "--inter-op-threads must be between 0 and 4096, got $value"
done
for value in " 4" "4 " "+4" "0x10" "4.0" "1e3"; do
  run threads_malformed 2 run "$data/add.pbtxt" --output twice --threads "$value"
  expect "$tmp/threads_malformed.err" "--threads expects an integer, got '$value'"
done
run threads_ok 0 run "$data/add.pbtxt" --output twice --threads 3 --inter-op-threads 3
expect "$tmp/threads_ok.out" "twice: float [1,3]"
# Threads the system refuses (here for want of address space) are RESOURCE_EXHAUSTED, not an
# uncaught std::system_error. Sanitizer builds reserve terabytes of address space, so the
# limit cannot apply to them.
if ! grep -qaE '__(a|t|m)san_init' "$sluice"; then
  (ulimit -v 3000000 && "$sluice" run "$data/add.pbtxt" --output twice --threads 1200 \
    --inter-op-threads 2 >"$tmp/threads_refused.out" 2>"$tmp/threads_refused.err")
  status=$?
  [ "$status" -eq 1 ] || fail "threads_refused: exit status $status, expected 1: \
$(cat "$tmp/threads_refused.err")"
  expect "$tmp/threads_refused.err" "RESOURCE_EXHAUSTED: cannot start the 1200 threads of the \
CPU device's intra-op pool: the system refused a thread after"
  expect "$tmp/threads_refused.err" "(--threads 1200, --inter-op-threads 2)"
  expect_not "$tmp/threads_refused.err" "terminate called"
  (ulimit -v 3000000 && "$sluice" run "$data/add.pbtxt" --output twice --threads 2 \
    --inter-op-threads 2 >"$tmp/threads_limited.out" 2>"$tmp/threads_limited.err") ||
    fail "threads_limited: a run with few threads failed under the same limit: \
$(cat "$tmp/threads_limited.err")"
fi

# ---- Files that are not GraphDefs ---------------------------------------------------------
run missing_file 1 run "$tmp/does_not_exist.pb"
expect "$tmp/missing_file.err" "NOT_FOUND"
expect "$tmp/missing_file.err" "does_not_exist.pb"
printf '\x93\xff\x00\x01 definitely not a graph \xfe' >"$tmp/garbage.pb"
run garbage 1 inspect "$tmp/garbage.pb"
expect "$tmp/garbage.err" "GraphDef"
printf '\x1c\x00\x00\x00TFL3\x00\x00\x00\x00' >"$tmp/model.tflite"
run tflite 1 run "$tmp/model.tflite"
expect "$tmp/tflite.err" "TensorFlow Lite"
printf '\x08\x08\x12\x07pytorch\x3a\x03\x52\x01g\x42\x02\x10\x11' >"$tmp/model.onnx"
run onnx 1 benchmark "$tmp/model.onnx"
expect "$tmp/onnx.err" "ONNX"
mkdir -p "$tmp/saved_model" && : >"$tmp/saved_model/saved_model.pb"
run saved_model 1 run "$tmp/saved_model"
expect "$tmp/saved_model.err" "SavedModel"
# A FIFO, a device or a directory, as the model or as a .npy feed, is rejected at once (not
# waited on, not read forever), naming the file.
mkfifo "$tmp/model.fifo"
for command in run inspect benchmark optimize convert; do
  extra=()
  case $command in optimize | convert) extra=(-o "$tmp/fifo_out.pb") ;; esac
  timeout 60 "$sluice" $command "$tmp/model.fifo" "${extra[@]}" >"$tmp/fifo.out" 2>"$tmp/fifo.err"
  status=$?
  [ "$status" -eq 1 ] || fail "fifo model ($command): exit status $status, expected 1"
  expect "$tmp/fifo.err" "INVALID_ARGUMENT: '$tmp/model.fifo' is not a regular file"
done
run dev_zero_model 1 inspect /dev/zero
expect "$tmp/dev_zero_model.err" "'/dev/zero' is not a regular file"
mkfifo "$tmp/feed.npy"
for spec in "$tmp/feed.npy" /dev/zero; do
  timeout 60 "$sluice" run "$data/add.pbtxt" --output twice --input "x=$spec" \
    >"$tmp/fifo_feed.out" 2>"$tmp/fifo_feed.err"
  status=$?
  [ "$status" -eq 1 ] || fail "feed $spec: exit status $status, expected 1"
  expect "$tmp/fifo_feed.err" "INVALID_ARGUMENT: '$spec' "
done
# A folder of inputs reads only regular .npy files: a FIFO there is passed over, not opened.
mkdir -p "$tmp/fifo_folder" && mkfifo "$tmp/fifo_folder/x.npy"
timeout 60 "$sluice" run "$data/add.pbtxt" --output twice --input "x=$tmp/fifo_folder" \
  >"$tmp/fifo_folder.out" 2>"$tmp/fifo_folder.err"
[ $? -eq 1 ] || fail "folder with a fifo: expected exit status 1"
expect "$tmp/fifo_folder.err" "holds no .npy files"
timeout 60 "$sluice" run "$digits/digits_cnn.pb" --input "images=$digits/test_images.npy" \
  --labels "$tmp/feed.npy" >"$tmp/fifo_labels.out" 2>"$tmp/fifo_labels.err"
[ $? -eq 1 ] || fail "fifo --labels: expected exit status 1"
expect "$tmp/fifo_labels.err" "--labels: '$tmp/feed.npy' is not a regular file"
# An empty file, or one that reads as nothing (a /proc file), is no model.
: >"$tmp/empty.pb"
for model in "$tmp/empty.pb" /proc/self/status; do
  for command in inspect run; do
    run empty_model 1 $command "$model"
    expect "$tmp/empty_model.err" "$model: holds no nodes: the file is empty or is not a GraphDef"
  done
done

# ---- What reaches the terminal ------------------------------------------------------------
# File names are echoed escaped: a newline or an escape sequence in a name cannot forge
# output lines or drive the terminal. An error is one line.
odd_name="$tmp/odd"$'\n'"name"$'\e'"[31m.pb"
run odd_name 1 run "$odd_name"
expect "$tmp/odd_name.err" "odd\\nname\\x1b[31m.pb"
[ "$(wc -l <"$tmp/odd_name.err")" -eq 1 ] || fail "odd_name: error is not one line: \
$(cat "$tmp/odd_name.err")"
grep -q $'\e' "$tmp/odd_name.err" && fail "odd_name: an escape character reached stderr"
cp "$data/add.pbtxt" "$odd_name"
run odd_name_inspect 0 inspect "$odd_name"
expect "$tmp/odd_name_inspect.out" "Model: $tmp/odd\\nname\\x1b[31m.pb"
grep -q $'\e' "$tmp/odd_name_inspect.out" && fail "odd_name_inspect: an escape reached stdout"
run odd_name_feed 1 run "$data/add.pbtxt" --output twice --input "x=$tmp/no"$'\r'"such.npy"
expect "$tmp/odd_name_feed.err" "no\\rsuch.npy"
# A node with a 200,000-entry type list: the error about it is capped, not megabytes long.
{
  echo 'node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }'
  printf 'node { name: "many" op: "IdentityN" input: "x" attr { key: "T" value { list { '
  for _ in $(seq 200); do printf 'type: DT_FLOAT %.0s' $(seq 1000); done
  echo '} } } }'
} >"$tmp/identity_n.pbtxt"
run identity_n 1 inspect "$tmp/identity_n.pbtxt"
expect "$tmp/identity_n.err" "... (199984 more)"
[ "$(wc -c <"$tmp/identity_n.err")" -lt 20000 ] || fail "identity_n: error of \
$(wc -c <"$tmp/identity_n.err") bytes"

# ---- inspect ------------------------------------------------------------------------------
run inspect 0 inspect "$data/add.pbtxt"
expect "$tmp/inspect.out" "GraphDef versions: producer 1087, min_consumer 0"
expect "$tmp/inspect.out" "Inputs (2):"
expect "$tmp/inspect.out" "x: float [?,3]"
expect "$tmp/inspect.out" "Likely outputs (2):"
expect "$tmp/inspect.out" "total: float"
expect "$tmp/inspect.out" "AddV2                        2"
expect "$tmp/inspect.out" "Parameters: 3 values in 1 Consts, 12 bytes"
expect "$tmp/inspect.out" "CPU: every op has a kernel"
run inspect_json 0 inspect --json "$data/add.pbtxt"
expect "$tmp/inspect_json.out" '"inputs":[{"name":"x","dtype":"float","shape":[-1,3]'
expect "$tmp/inspect_json.out" '"ops_without_kernel":{"CPU":[]'
expect "$tmp/inspect_json.out" '"valid":true,"can_run":true,"unregistered_ops":[]}'
# Inputs no likely output needs are marked.
run inspect_unused 0 inspect "$data/unused_inputs.pbtxt"
expect "$tmp/inspect_unused.out" "Inputs (5):"
expect "$tmp/inspect_unused.out" \
  "unused_control_flow_input_1: int32 <unknown shape> (no likely output needs it)"
expect "$tmp/inspect_unused.out" "gate: float []"
expect_not "$tmp/inspect_unused.out" "gate: float [] (no likely"
run inspect_unused_json 0 inspect --json "$data/unused_inputs.pbtxt"
expect "$tmp/inspect_unused_json.out" \
  '{"name":"x","dtype":"float","shape":"unknown","has_default":false,"needed":true}'
expect "$tmp/inspect_unused_json.out" \
  '{"name":"unused_control_flow_input_2","dtype":"resource","shape":[],"has_default":false,"needed":false}'
# A graph with unregistered ops is described as far as the registry allows; exit status 3 and
# "can_run": false say it cannot run here.
run inspect_unregistered 3 inspect "$data/unregistered_ops.pbtxt"
expect "$tmp/inspect_unregistered.out" "x: float [?,3]"
expect "$tmp/inspect_unregistered.out" "dense: float"
expect "$tmp/inspect_unregistered.out" \
  "table/insert: unknown (its op is not registered)"
expect "$tmp/inspect_unregistered.out" "Skipgram                     7  (not registered)"
expect "$tmp/inspect_unregistered.out" "Const                        2"
expect "$tmp/inspect_unregistered.out" \
  "Unregistered ops (3 type(s), 9 node(s)); this graph cannot run in this build:"
expect "$tmp/inspect_unregistered.out" "  NegTrain (1 node): table/HashTable"
expect "$tmp/inspect_unregistered.out" "  SdcaFprint (1 node): table/insert"
expect "$tmp/inspect_unregistered.out" "  Skipgram (7 nodes): table/find_0, \
table/find_1, table/find_2, table/find_3, table/find_4 and 2 more"
expect "$tmp/inspect_unregistered.out" "Parameters: 2 values in 2 Consts, 8 bytes"
expect "$tmp/inspect_unregistered.err" "sluice inspect: this graph cannot run in this build: \
op types not registered: NegTrain, SdcaFprint, Skipgram"
run inspect_unregistered_json 3 inspect --json "$data/unregistered_ops.pbtxt"
expect "$tmp/inspect_unregistered_json.out" \
  '"inputs":[{"name":"x","dtype":"float","shape":[-1,3],"has_default":false,"needed":true}]'
expect "$tmp/inspect_unregistered_json.out" '"op_types":{"Skipgram":7,"Const":2,'
expect "$tmp/inspect_unregistered_json.out" '"can_run":false,"unregistered_ops":[{"op":"NegTrain",\
"node_count":1,"nodes":["table/HashTable"]},{"op":"SdcaFprint",\
"node_count":1,"nodes":["table/insert"]},{"op":"Skipgram",\
"node_count":7,"nodes":["table/find_0",'
# Calls of the graph's own functions (a node whose op is a function's name, as TF1's Defun
# writes them): described as ordinary nodes, and run (the session inlines them).
# call = x + x + 1.
printf '%s\n' 'node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }' \
  'node { name: "call" op: "double_it" input: "x" }' \
  'library { function { signature { name: "double_it" input_arg { name: "a" type: DT_FLOAT }' \
  '  output_arg { name: "b" type: DT_FLOAT } }' \
  '  node_def { name: "one" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }' \
  '    attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { } float_val: 1 } } } }' \
  '  node_def { name: "twice" op: "AddV2" input: "a" input: "a"' \
  '    attr { key: "T" value { type: DT_FLOAT } } }' \
  '  node_def { name: "plus" op: "AddV2" input: "twice:z:0" input: "one:output:0"' \
  '    attr { key: "T" value { type: DT_FLOAT } } }' \
  '  ret { key: "b" value: "plus:z:0" } } }' \
  >"$tmp/function_call.pbtxt"
run inspect_function 0 inspect "$tmp/function_call.pbtxt"
expect "$tmp/inspect_function.out" "call: float"
expect_not "$tmp/inspect_function.out" "Unregistered ops"
run run_function 0 run "$tmp/function_call.pbtxt" --input x=zeros --shape x=3
expect "$tmp/run_function.out" "call: float [3]  min 1 max 1 mean 1"
run inspect_no_kernel 0 inspect "$data/no_kernel.pbtxt"
expect "$tmp/inspect_no_kernel.out" "CPU: no kernel for 1 op(s): Relu (T=qint8)"
# Graphs run would reject are described, then reported invalid (exit 1, "valid": false).
ph='node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }'
f32='attr { key: "T" value { type: DT_FLOAT } }'
printf '%s\n' "$ph" "node { name: \"a\" op: \"Identity\" input: \"b\" $f32 }" \
  "node { name: \"b\" op: \"Identity\" input: \"a\" $f32 }" >"$tmp/bad_cycle.pbtxt"
printf '%s\n' "$ph" "node { name: \"y\" op: \"Identity\" input: \"nosuch\" $f32 }" \
  >"$tmp/bad_missing.pbtxt"
printf '%s\n' "$ph" "node { name: \"y\" op: \"Identity\" input: \"x:999\" $f32 }" \
  >"$tmp/bad_index.pbtxt"
printf '%s\n' "$ph" "$ph" >"$tmp/bad_duplicate.pbtxt"
printf '%s\n' "$ph" \
  'node { name: "y" op: "Identity" input: "x" attr { key: "T" value { type: DT_INT32 } } }' \
  >"$tmp/bad_type.pbtxt"
for bad in cycle missing index duplicate type; do
  run "inspect_bad_$bad" 1 inspect "$tmp/bad_$bad.pbtxt"
  expect "$tmp/inspect_bad_$bad.out" "Invalid graph (run would reject it): "
  expect "$tmp/inspect_bad_$bad.err" \
    "sluice inspect: error: INVALID_ARGUMENT: the graph is invalid (run would reject it): "
  run "inspect_bad_${bad}_json" 1 inspect --json "$tmp/bad_$bad.pbtxt"
  expect "$tmp/inspect_bad_${bad}_json.out" '"valid":false,"invalid":"'
  expect "$tmp/inspect_bad_${bad}_json.out" '"can_run":false'
done
expect "$tmp/inspect_bad_cycle.err" "cycle"
expect "$tmp/inspect_bad_missing.err" "nosuch"
expect "$tmp/inspect_bad_index.err" "999"
expect "$tmp/inspect_bad_duplicate.err" "'x'"
expect "$tmp/inspect_json.out" '"valid":true,"can_run":true'
run inspect_cnn 0 inspect "$fixtures/cnn.pb"
expect "$tmp/inspect_cnn.out" "images: float [?,8,8,1]"
expect "$tmp/inspect_cnn.out" "classes: int64"
expect "$tmp/inspect_cnn.out" "Conv2D                       3"

# ---- optimize -----------------------------------------------------------------------------
run optimize 0 optimize "$data/int_add.pbtxt" -o "$tmp/opt.pbtxt" --dump-dir "$tmp/dump"
expect "$tmp/optimize.out" "constant_folding"
expect "$tmp/optimize.out" "Wrote $tmp/opt.pbtxt: 4 nodes (the input had 7)"
[ -f "$tmp/dump/00_input.pbtxt" ] || fail "optimize --dump-dir wrote no 00_input.pbtxt"
run optimized_runs 0 run "$tmp/opt.pbtxt" --input n=zeros --shape n=2
expect "$tmp/optimized_runs.out" "out: int32 [2]  min 20 max 20 mean 20"
run optimize_l0 0 optimize "$data/int_add.pbtxt" -o "$tmp/opt_l0.pb" --level L0 --fetch out
expect "$tmp/optimize_l0.out" "Wrote $tmp/opt_l0.pb: 6 nodes (the input had 7)"
run optimize_level 2 optimize "$data/int_add.pbtxt" -o "$tmp/x.pb" --level L2
run optimize_no_out 2 optimize "$data/int_add.pbtxt"
# --emit-mlir: the layer norm becomes one cluster, whose MLIR is written before and after
# lowering; the optimized graph still runs.
run optimize_mlir 0 optimize "$data/layer_norm.pbtxt" -o "$tmp/ln_opt.pbtxt" --emit-mlir "$tmp/mlir"
expect "$tmp/optimize_mlir.out" "Wrote the MLIR of 1 compiled cluster(s) into $tmp/mlir"
grep -q "func.func @cluster" "$tmp/mlir/out.mlir" || fail "--emit-mlir wrote no cluster function"
grep -q "llvm.func @cluster" "$tmp/mlir/out.llvm.mlir" || fail "--emit-mlir wrote no lowered module"
grep -q "_MlirCluster" "$tmp/ln_opt.pbtxt" || fail "optimize --emit-mlir wrote no cluster node"
run optimized_cluster_runs 0 run "$tmp/ln_opt.pbtxt" --input x=zeros --shape x=3,16
expect "$tmp/optimized_cluster_runs.out" "out: float [3,16]  min 0 max 0 mean 0"
# SLUICE_MLIR_CACHE_DIR: the first process compiles the layer norm's cluster and keeps its
# code there; the next one loads it and computes the same values.
mkdir -p "$tmp/mlir_cache"
export SLUICE_MLIR_CACHE_DIR="$tmp/mlir_cache"
run cache_cold 0 benchmark "$tmp/ln_opt.pbtxt" --runs 2 --shape x=3,16
expect "$tmp/cache_cold.out" "with 1 compiled cluster(s)"
expect_not "$tmp/cache_cold.out" "loaded from SLUICE_MLIR_CACHE_DIR"
[ "$(ls "$tmp/mlir_cache" | grep -c '\.o$')" -eq 1 ] || fail "no compiled code in the cache folder"
run cache_warm 0 benchmark "$tmp/ln_opt.pbtxt" --runs 2 --shape x=3,16
expect "$tmp/cache_warm.out" "(1 loaded from SLUICE_MLIR_CACHE_DIR)"
run cache_warm_run 0 run "$tmp/ln_opt.pbtxt" --input x=random --shape x=3,16 --seed 3
unset SLUICE_MLIR_CACHE_DIR
run cache_none_run 0 run "$tmp/ln_opt.pbtxt" --input x=random --shape x=3,16 --seed 3
cmp -s <(grep "out: " "$tmp/cache_warm_run.out") <(grep "out: " "$tmp/cache_none_run.out") ||
  fail "outputs differ with the cached cluster code"
run optimize_bad_fetch 1 optimize "$data/int_add.pbtxt" -o "$tmp/x.pb" --fetch nosuch
expect "$tmp/optimize_bad_fetch.err" "unknown output 'nosuch'"
# A --dump-dir that cannot be written is an error before any pass runs, and no output is
# written.
: >"$tmp/not_a_dir"
run optimize_dump_unwritable 1 optimize "$data/int_add.pbtxt" -o "$tmp/dump_opt.pb" \
  --dump-dir "$tmp/not_a_dir/dumps"
expect "$tmp/optimize_dump_unwritable.err" "--dump-dir: cannot create directory $tmp/not_a_dir/dumps"
[ ! -e "$tmp/dump_opt.pb" ] || fail "optimize wrote its output despite a bad --dump-dir"
run optimize_dump_file 1 optimize "$data/int_add.pbtxt" -o "$tmp/dump_opt.pb" \
  --dump-dir "$tmp/not_a_dir"
expect "$tmp/optimize_dump_file.err" "$tmp/not_a_dir"
# A Const whose value is not of its dtype: run rejects it, and so does optimize (rather than
# writing it out unchanged).
printf '%s\n' 'node { name: "c" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }' \
  '  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }' \
  'node { name: "out" op: "Identity" input: "c" attr { key: "T" value { type: DT_FLOAT } } }' \
  >"$tmp/const_mismatch.pbtxt"
for command in optimize run inspect; do
  extra=()
  [ "$command" = optimize ] && extra=(-o "$tmp/cm_out.pb")
  run "const_mismatch_$command" 1 $command "$tmp/const_mismatch.pbtxt" "${extra[@]}"
  expect "$tmp/const_mismatch_$command.err" \
    "node 'c' (Const): Type mismatch between value (int32) and dtype (float)"
done
[ ! -e "$tmp/cm_out.pb" ] || fail "optimize wrote a Const whose value is not of its dtype"

# ---- convert ------------------------------------------------------------------------------
run to_text 0 convert "$fixtures/mlp.pb" -o "$tmp/mlp.pbtxt"
expect "$tmp/to_text.out" "text GraphDef"
run to_binary 0 convert "$tmp/mlp.pbtxt" -o "$tmp/mlp.pb"
cmp -s "$fixtures/mlp.pb" "$tmp/mlp.pb" || fail "mlp.pb -> text -> binary changed the bytes"
run to_binary_format 0 convert "$data/add.pbtxt" -o "$tmp/add.pbtxt.out" --format binary
expect "$tmp/to_binary_format.out" "binary GraphDef"
run convert_no_out 2 convert "$fixtures/mlp.pb"
run convert_missing 1 convert "$tmp/nothing.pb" -o "$tmp/x.pbtxt"

# ---- benchmark ----------------------------------------------------------------------------
run bench 0 benchmark "$data/add.pbtxt" --warmup 1 --runs 5 --shape x=2,3
expect "$tmp/bench.out" "Steps: 5 in"
expect "$tmp/bench.out" "Latency ms: p50"
expect "$tmp/bench.out" "p99.9"
expect "$tmp/bench.out" "Throughput:"
expect "$tmp/bench.out" "Peak memory (RSS):"
expect_not "$tmp/bench.err" "["
run bench_profile 0 benchmark "$data/add.pbtxt" --runs 3 --profile --profile-runs 2 --shape x=2,3
expect "$tmp/bench_profile.out" "Profile over 2 traced step(s)"
expect "$tmp/bench_profile.out" "By op type:"
expect "$tmp/bench_profile.out" "AddN"
expect "$tmp/bench_profile.out" "By node:"
run bench_json 0 benchmark "$data/add.pbtxt" --runs 3 --json --profile --batch 2
expect "$tmp/bench_json.out" '"batch":2'
expect "$tmp/bench_json.out" '"latency_ms":{"p50":'
expect "$tmp/bench_json.out" '"p99.9":'
run bench_contend 0 benchmark "$data/add.pbtxt" --runs 20 --contend 2 --shape x=2,3
expect "$tmp/bench_contend.out" "2 busy neighbour process(es)"
expect "$tmp/bench_contend.out" "Steps: 20 in"
run bench_bad_contend 2 benchmark "$data/add.pbtxt" --runs 2 --contend -1
expect "$tmp/bench_bad_contend.err" "--contend must be between 0 and 1024, got -1"
expect "$tmp/bench_json.out" '"by_op_type":[{"op":'
# --steps-file: a header and one line per timed step, starts increasing by at least the step
# before them, latencies positive.
run bench_steps 0 benchmark "$data/add.pbtxt" --runs 7 --shape x=2,3 --steps-file "$tmp/steps.txt"
[ "$(head -n 1 "$tmp/steps.txt")" = "start_ns latency_ms" ] || fail "bench_steps: header"
[ "$(wc -l <"$tmp/steps.txt")" -eq 8 ] || fail "bench_steps: $(wc -l <"$tmp/steps.txt") lines"
awk 'NR > 2 && $1 < prev + lat * 1e6 { bad = 1 } NR > 1 { if ($2 <= 0) bad = 1; prev = $1; lat = $2 }
  END { exit bad }' "$tmp/steps.txt" || fail "bench_steps: $(cat "$tmp/steps.txt")"
run bench_steps_unwritable 1 benchmark "$data/add.pbtxt" --runs 2 --shape x=2,3 \
  --steps-file "$tmp/no/such/dir/steps.txt"
expect "$tmp/bench_steps_unwritable.err" "--steps-file: "
run bench_seconds 0 benchmark "$data/add.pbtxt" --seconds 0.2 --warmup 0 --batch 2
run bench_threads 0 benchmark "$data/add.pbtxt" --runs 2 --threads 1 --inter-op-threads 1 \
  --no-thread-spinning --shape x=2,3
run bench_bad_threads 2 benchmark "$data/add.pbtxt" --runs 2 --inter-op-threads -1
expect "$tmp/bench_bad_threads.err" "--inter-op-threads must be between 0 and 4096, got -1"
run bench_both 2 benchmark "$data/add.pbtxt" --runs 3 --seconds 1
expect "$tmp/bench_both.err" "give --runs or --seconds, not both"
run bench_zero 2 benchmark "$data/add.pbtxt" --runs 0
# --min-seconds: at least --runs steps and at least that long (a step of add takes
# microseconds, so far more than 3 steps, over at least 200 ms).
run bench_min_seconds 0 benchmark "$data/add.pbtxt" --runs 3 --min-seconds 0.2 --warmup 0 \
  --shape x=2,3
awk '/^Steps: / { if ($2 > 3 && $4 >= 0.2) ok = 1 } END { exit !ok }' \
  "$tmp/bench_min_seconds.out" || fail "bench_min_seconds: $(grep Steps "$tmp/bench_min_seconds.out")"
# A big --runs still runs every step (the time is a floor, not a cap).
run bench_min_seconds_runs 0 benchmark "$data/add.pbtxt" --runs 2000 --min-seconds 0.001 \
  --warmup 0 --shape x=2,3
expect "$tmp/bench_min_seconds_runs.out" "Steps: 2000 in"
run bench_min_and_seconds 2 benchmark "$data/add.pbtxt" --seconds 1 --min-seconds 1
expect "$tmp/bench_min_and_seconds.err" "give --min-seconds or --seconds, not both"
run bench_min_seconds_range 2 benchmark "$data/add.pbtxt" --min-seconds 0
expect "$tmp/bench_min_seconds_range.err" "--min-seconds must be between 0.001 and 86400, got 0"
# Step counts and --seconds: non-finite, negative (-1 is no longer taken for "not given") and
# absurd values are usage errors naming the range; the limits are in --help.
for args in "--seconds inf" "--seconds=-inf" "--seconds nan" "--seconds 1e309"; do
  run bench_seconds_bad 2 benchmark "$data/add.pbtxt" $args
  expect "$tmp/bench_seconds_bad.err" "--seconds expects a finite number"
done
for args in "--seconds 1e308" "--seconds -1" "--seconds 0" "--seconds 86401"; do
  run bench_seconds_range 2 benchmark "$data/add.pbtxt" $args
  expect "$tmp/bench_seconds_range.err" "--seconds must be between 0.001 and 86400, got ${args#* }"
done
run bench_runs_negative 2 benchmark "$data/add.pbtxt" --runs -1
expect "$tmp/bench_runs_negative.err" "--runs must be between 1 and 10000000, got -1"
run bench_runs_huge 2 benchmark "$data/add.pbtxt" --runs 10000001
expect "$tmp/bench_runs_huge.err" "--runs must be between 1 and 10000000, got 10000001"
run bench_runs_overflow 2 benchmark "$data/add.pbtxt" --runs 99999999999999999999
expect "$tmp/bench_runs_overflow.err" "--runs must be between 1 and 10000000"
run bench_warmup_negative 2 benchmark "$data/add.pbtxt" --warmup -1
expect "$tmp/bench_warmup_negative.err" "--warmup must be between 0 and 1000000, got -1"
run bench_warmup_huge 2 benchmark "$data/add.pbtxt" --warmup 1000001
run bench_profile_runs 2 benchmark "$data/add.pbtxt" --profile --profile-runs 100001
run bench_both_minus 2 benchmark "$data/add.pbtxt" --runs -1 --seconds -1
expect "$tmp/bench_both_minus.err" "must be between"
run help_bench_limits 0 benchmark --help
expect "$tmp/help_bench_limits.out" "timed steps, 1 to 10000000 (default 50)"
expect "$tmp/help_bench_limits.out" "0.001 to 86400"
expect "$tmp/help_bench_limits.out" "intra-op threads, at most 4096"
run bench_seconds_short 0 benchmark "$data/add.pbtxt" --seconds 0.05 --warmup 0 --shape x=2,3
expect "$tmp/bench_seconds_short.out" "Steps: "
run bench_unused 0 benchmark "$data/unused_inputs.pbtxt" --runs 2 --warmup 0 --shape x=2,3
expect "$tmp/bench_unused.out" "Steps: 2 in"
run bench_unregistered 1 benchmark "$data/unregistered_ops.pbtxt" --runs 2
expect "$tmp/bench_unregistered.err" "not registered in binary running on this host"
run bench_no_kernel 1 benchmark "$data/no_kernel.pbtxt"
expect "$tmp/bench_no_kernel.err" "no CPU kernel for op 'Relu'"

# ---- ops ----------------------------------------------------------------------------------
run ops 0 ops
grep -qE '^AddV2 +CPU\[[a-z0-9,]*float' "$tmp/ops.out" || fail "no AddV2 CPU float kernel in ops"
expect "$tmp/ops.out" "ops registered"
run ops_cpu 0 ops --device cpu --json
expect "$tmp/ops_cpu.out" '{"op":"AddN","kernels":{"CPU":"'
run ops_one 0 ops --op AddV2
expect "$tmp/ops_one.out" 'name: "AddV2"'
expect "$tmp/ops_one.out" "# kernels:"
expect "$tmp/ops_one.out" "#   CPU: T in {"
run ops_unknown 1 ops --op addv
expect "$tmp/ops_unknown.err" "no op named 'addv'; similar: "
expect "$tmp/ops_unknown.err" "AddV2"

# ---- TensorFlow fixtures and the bundled model ----------------------------------------------
run mlp 0 run "$fixtures/mlp.pb" --input "x=$fixtures/mlp.in.x.npy"
expect "$tmp/mlp.out" "x: $fixtures/mlp.in.x.npy float [4,16]"
run cnn 0 run "$fixtures/cnn.pb" --input "images=$fixtures/cnn.in.images.npy" \
  --output classes --save-outputs "$tmp/cnn"
cmp -s "$tmp/cnn/out_0.npy" "$fixtures/cnn.out.classes.npy" ||
  fail "cnn classes differ from TensorFlow's"
digits=models/digits
run digits 0 run "$digits/digits_cnn.pb" --input "images=$digits/test_images.npy" \
  --labels "$digits/test_labels.npy"
# TensorFlow's count, from the manifest make_digits_model.py wrote.
tf_correct=$(awk '$1 == "tensorflow_correct" {print $2}' "$digits/manifest.txt")
expect "$tmp/digits.out" "Accuracy of probabilities against $digits/test_labels.npy: $tf_correct of 360 correct"
run digits_bad_labels 1 run "$digits/digits_cnn.pb" --input "images=$digits/test_images.npy" \
  --labels "$digits/test_images.npy"
expect "$tmp/digits_bad_labels.err" "--labels must hold 360 integer labels"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "PASS"
