#!/usr/bin/env bash
# Session runtime benchmark, Sluice against TensorFlow 2.21, in one run.
#
# Usage: bench/run_session_bench.sh
#   REPS (default 25), INTER_OP (default: the number of cores), INTRA_OP (default 1) and
#   THREADS (default 8) apply to both sides. BAZEL_OUTPUT_BASE, if set, is passed to bazel as
#   --output_base.
#
# bench/tf_session_bench.py writes the GraphDefs (and TensorFlow's ConfigProto) once to a
# temporary directory. Four sides load them with the same thread settings, Grappler off:
# Sluice's //bench:session_bench (C++, built with -c opt); bench/tf_capi_session_bench.cc, a
# TF_SessionRun client compiled here with g++ twice, unchanged: against the pip wheel's
# libtensorflow_cc.so.2 and against Sluice's //c_api:libtensorflow.so.2; and TensorFlow from
# Python (a session callable). Prints the reports and a summary with the ratios against
# TensorFlow's C API, and whether the targets are met (per-node and per-call overhead at most
# half of TensorFlow's). Reports are kept in bench/.cache/.
set -euo pipefail

cd "$(dirname "$0")/.."
cache=bench/.cache
mkdir -p "$cache"
reps=${REPS:-25}
inter_op=${INTER_OP:-$(nproc)}
intra_op=${INTRA_OP:-1}
threads=${THREADS:-8}
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT

python3 bench/tf_session_bench.py --write="$graphs" --inter_op="$inter_op" \
  --intra_op="$intra_op" 2>/dev/null

# BAZEL_OUTPUT_BASE, if set, gives bazel its own output base (so that a shared machine's other
# builds do not wait on this one).
bazel_cmd=(bazel)
if [[ -n ${BAZEL_OUTPUT_BASE:-} ]]; then bazel_cmd+=(--output_base="$BAZEL_OUTPUT_BASE"); fi
"${bazel_cmd[@]}" build -c opt //bench:session_bench //c_api:libtensorflow.so.2
opt_bin="$("${bazel_cmd[@]}" info -c opt bazel-bin)"
bench_bin="$opt_bin/bench/session_bench"

# The same C API client, unchanged, against Sluice's C API: its TF_SessionRun overhead.
sluice_capi_bin="$cache/sluice_capi_session_bench"
mkdir -p "$cache/sluice_lib"
cp -f "$opt_bin/c_api/libtensorflow.so.2" "$cache/sluice_lib/"
ln -sf libtensorflow.so.2 "$cache/sluice_lib/libtensorflow.so"
g++ -std=c++17 -O2 -Ic_api/include bench/tf_capi_session_bench.cc -o "$sluice_capi_bin" \
  -L"$cache/sluice_lib" -ltensorflow -Wl,-rpath,"$PWD/$cache/sluice_lib" -lpthread

tf_lib=$(python3 -c "import tensorflow as tf; print(tf.sysconfig.get_lib())" 2>/dev/null)
tf_bin="$cache/tf_capi_session_bench"
if [[ ! -x "$tf_bin" || bench/tf_capi_session_bench.cc -nt "$tf_bin" ]]; then
  g++ -std=c++17 -O2 -I"$tf_lib/include" bench/tf_capi_session_bench.cc -o "$tf_bin" \
    -L"$tf_lib" -l:libtensorflow_cc.so.2 -l:libtensorflow_framework.so.2 \
    -Wl,-rpath,"$tf_lib" -lpthread
fi

flags=(--graph_dir="$graphs" --reps="$reps" --inter_op="$inter_op" --intra_op="$intra_op"
       --threads="$threads")
echo "== Sluice =="
"$bench_bin" "${flags[@]}" | tee "$cache/session_sluice.txt"
echo
echo "== Sluice, C API from C++ (the same client as TensorFlow's below) =="
"$sluice_capi_bin" "${flags[@]}" | tee "$cache/session_sluice_capi.txt"
echo
echo "== TensorFlow, C API from C++ =="
TF_CPP_MIN_LOG_LEVEL=3 "$tf_bin" "${flags[@]}" 2>/dev/null | tee "$cache/session_tf_capi.txt"
echo
echo "== TensorFlow, Python session callable =="
python3 bench/tf_session_bench.py "${flags[@]}" 2>/dev/null | tee "$cache/session_tf.txt"
echo

python3 - "$cache/session_sluice.txt" "$cache/session_tf_capi.txt" "$cache/session_tf.txt" \
  "$cache/session_sluice_capi.txt" <<'EOF'
import json
import sys


def load(path):
    for line in open(path):
        if line.startswith("JSON "):
            return json.loads(line[5:])
    sys.exit(f"no JSON line in {path}")


ours, tf, tf_py, ours_capi = (load(p) for p in sys.argv[1:])
print("== Summary (medians; ratio = Sluice / TF's C API, target: at most 0.5 where stated) ==")
# (label, median key, minimum key, divisor of the minimum)
rows = [
    ("chain: us per AddV2", "chain_us_per_node", "chain_step_min_us", 1000),
    ("fan-in: us per op", "fanin_us_per_op", "fanin_step_min_us", 1001),
    ("one-node Run: us per call", "one_node_run_us", "one_node_run_min_us", 1),
]
for label, key, min_key, div in rows:
    ratio = ours[key] / tf[key]
    min_ratio = ours[min_key] / tf[min_key]
    verdict = "met" if ratio <= 0.5 else "NOT met"
    print(f"  {label:<28} Sluice {ours[key]:9.3f}   TF {tf[key]:9.3f}   ratio {ratio:5.2f}"
          f" (of minima {min_ratio:5.2f}: {ours[min_key] / div:.3f} vs {tf[min_key] / div:.3f})"
          f"   {verdict}   (TF from Python {tf_py[key]:9.3f})")
n = ours["threads"]
for name, r in (("Sluice", ours), ("TF C API", tf), ("TF Python", tf_py)):
    print(f"  {name:<9} one-node runs/s: 1 thread {r['runs_per_s_1']:10.0f}, {n} threads "
          f"{r['runs_per_s_n']:10.0f} (scaling x{r['runs_per_s_n'] / r['runs_per_s_1']:.2f})")
print(f"  {n}-thread throughput ratio Sluice / TF: "
      f"{ours['runs_per_s_n'] / tf['runs_per_s_n']:.2f}")
print("== The same C API client on both libraries (ratio = Sluice's C API / TF's C API, "
      "target: at most 0.5) ==")
for label, key, _, _ in rows:
    ratio = ours_capi[key] / tf[key]
    print(f"  {label:<28} Sluice C API {ours_capi[key]:9.3f}   TF C API {tf[key]:9.3f}   "
          f"ratio {ratio:5.2f}   {'met' if ratio <= 0.5 else 'NOT met'}   "
          f"(Sluice C++ {ours[key]:9.3f})")
EOF
