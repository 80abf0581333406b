#!/usr/bin/env bash
# GPU check: every GPU test, the step-overhead benchmark and the model benchmark, prepared
# here and run on a lent GPU machine (which has the NVIDIA driver, CUDA, cuBLAS and cuDNN, but
# no Bazel and none of Debian's libraries; see ../shared/docs/build.md, "Running on the GPU
# machine").
#
#   tools/gpu_check.sh prepare   # here: build //tests/gpu:gpu_check (optimised, static), copy
#                                # it with the shared libraries it needs that a bare Ubuntu
#                                # lacks into .gpu_check/, with the model benchmark's graphs
#                                # (tools/gpu_bench/make_bench_models.py: needs TensorFlow and
#                                # the models of tests/models/gen_models.py; left out, saying
#                                # so, without them), packed as .gpu_check.tar.xz
#   tools/gpu_check.sh run       # there (repository root, .gpu_check.tar.xz carried): unpack,
#                                # run the tests and the benchmarks, print a summary ending in
#                                # "N passed, N failed"
#   tools/gpu_check.sh deps [bazel flags]
#                                # here or in CI: fail if gpu_check, configured as `prepare`
#                                # builds it, reaches LLVM or MLIR (which would take the pack
#                                # past its limit, unnoticed until a GPU machine is lent)
#
# On the device tool: run(command="tools/gpu_check.sh run", carry=[".gpu_check.tar.xz"]).
# On a machine without a GPU, `run` works too: every test reports itself skipped, and the
# summary says so (a skipped GPU test is not a passed one).
set -euo pipefail

cd "$(dirname "$0")/.."
readonly DIR=.gpu_check
readonly PACK=.gpu_check.tar.xz
# What travels to the device machine is limited to 64 MiB, the working tree included.
readonly MAX_PACK_BYTES=$((40 << 20))

prepare() {
  for ignored in "/$DIR/" "/$PACK"; do
    grep -qxF "$ignored" .git/info/exclude 2>/dev/null || echo "$ignored" >>.git/info/exclude
  done
  # Without compiled clusters (kernels/BUILD, mlir_disabled): Debian's libLLVM and libMLIR
  # alone would take the pack past its limit, and the GPU tests do not need them.
  bazel build -c opt --dynamic_mode=off --strip=always --define=sluice_mlir=off \
    //tests/gpu:gpu_check
  rm -rf "$DIR" && mkdir -p "$DIR/lib"
  cp bazel-bin/tests/gpu/gpu_check "$DIR/"
  chmod u+w "$DIR/gpu_check"
  # The C library, the C++ runtime and the loader are the machine's own; everything else
  # (protobuf, Abseil, oneDNN, glog, OpenMP...) travels.
  ldd "$DIR/gpu_check" | awk '/=> \//{print $3}' |
    grep -vE '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$DIR/lib/"; done
  # The model benchmark's graphs: weights left out (a few hundred KB for all four models).
  if python3 tools/gpu_bench/make_bench_models.py "$DIR/models" 2>&1 |
    grep -vE '^(WARNING|I0000|W0000|E0000)|oneDNN|cpu_feature_guard|rebuild TensorFlow'; then
    :
  fi
  if [[ ! -s "$DIR/models/manifest.txt" ]]; then
    echo "no model benchmark graphs (TensorFlow or the models missing): the benchmark will skip"
    rm -rf "$DIR/models"
  fi
  tar -cJf "$PACK" "$DIR"
  local bytes
  bytes=$(stat -c %s "$PACK")
  echo "prepared $PACK: $((bytes >> 20)) MiB ($(ls "$DIR/lib" | wc -l) libraries)"
  if ((bytes > MAX_PACK_BYTES)); then
    echo "error: $PACK is over $((MAX_PACK_BYTES >> 20)) MiB; it would not travel" >&2
    exit 1
  fi
}

run() {
  if [[ -f "$PACK" ]]; then tar -xJf "$PACK"; fi
  if [[ ! -x "$DIR/gpu_check" ]]; then
    echo "error: no $DIR/gpu_check: run 'tools/gpu_check.sh prepare' first" >&2
    exit 1
  fi
  echo "== machine"
  (nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true) 2>&1
  export LD_LIBRARY_PATH="$PWD/$DIR/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local log
  log=$(mktemp)
  echo "== tests"
  set +e
  local bench=()
  if [[ -s "$DIR/models/manifest.txt" ]]; then bench=(--model_bench="$DIR/models"); fi
  "$DIR/gpu_check" --step_overhead "${bench[@]}" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  set -e
  local passed failed skipped
  passed=$(grep -c '^\[       OK \]' "$log" || true)
  failed=$(grep -oP '^\[  FAILED  \] \K[0-9]+(?= tests?, listed below)' "$log" || echo 0)
  skipped=$(grep -oP '^\[  SKIPPED \] \K[0-9]+(?= tests?)' "$log" | tail -1 || echo 0)
  failed=${failed:-0}
  skipped=${skipped:-0}
  if ((status != 0 && failed == 0)); then failed=1; fi  # a crash counts as a failure
  echo "== summary"
  if ((skipped > 0)); then echo "$skipped skipped (no CUDA device, or not runnable here)"; fi
  echo "$passed passed, $failed failed"
  rm -f "$log"
  return $((failed > 0 ? 1 : 0))
}

deps() {
  local path
  path=$(bazel cquery -c opt --dynamic_mode=off --define=sluice_mlir=off "$@" \
    'somepath(//tests/gpu:gpu_check, @local_mlir//:mlir)')
  if [[ -n "$path" ]]; then
    echo "error: gpu_check reaches LLVM/MLIR, whose libraries would not fit the pack:" >&2
    echo "$path" >&2
    exit 1
  fi
  echo "gpu_check leaves LLVM and MLIR out"
}

case "${1:-}" in
  prepare) prepare ;;
  run) run ;;
  deps)
    shift
    deps "$@"
    ;;
  *)
    echo "usage: $0 prepare|run|deps [bazel flags]" >&2
    exit 2
    ;;
esac
